// Each broken module gets its specific verifier message, naming the kernel, the C++ location of the
// offending op (or of the kernel), the op and what was expected and found.
#include <gtest/gtest.h>

#include <limits>

#include "cutile/error.hpp"
#include "cutile/ir/builder.hpp"
#include "cutile/ir/verifier.hpp"

namespace {

using namespace cutile::ir;
using E = ElementType;
using O = Opcode;

/// The single problem of `m`, or a description of all of them when there is not exactly one.
std::string only_problem(const Module& m, Version v = kDefaultVersion) {
  const std::vector<Diagnostic> all = check_module(m, v);
  if (all.size() == 1) return all[0].str();
  std::string out = "expected exactly one problem, got " + std::to_string(all.size()) + ":";
  for (const Diagnostic& d : all) out += "\n  " + d.str();
  return out;
}

#define EXPECT_ONLY_PROBLEM(module, version, text)                    \
  do {                                                                \
    const std::string got_ = only_problem(module, version);           \
    EXPECT_NE(got_.find(text), std::string::npos) << "got: " << got_; \
  } while (0)

/// A kernel "k"(p: ptr<f32>, n: i32) whose ops are built at good.cpp until `at` moves to bad.cpp.
struct Kernel {
  Module module;
  Function& f;
  Builder b;
  explicit Kernel(std::vector<Type> params = {pointer_type(E::f32), scalar_type(E::i32)})
      : f(module.add_function("k", std::move(params), {"bad.cpp", 3, 1})), b(f.entry_block()) {
    b.set_location({"good.cpp", 1, 1});
  }
  /// The next ops are the broken ones: bad.cpp:<line>:7.
  Kernel& at(uint32_t line) {
    b.set_location({"bad.cpp", line, 7});
    return *this;
  }
  void finish() {
    b.set_location({"good.cpp", 99, 1});
    b.return_();
  }
  Value* f32(std::vector<int64_t> shape = {4}, double v = 1.0) {
    return b.constant_float(E::f32, v, std::move(shape));
  }
  Value* num(E e, std::vector<int64_t> shape = {4}) {
    return is_float(e) ? b.constant_float(e, 1.0, std::move(shape)) : b.constant_int(e, 1, std::move(shape));
  }
  Value* index(E e = E::i32) { return b.constant_int(e, 0); }
  /// partition_view<tile=(64) or (64x64), tensor_view<?[x64]xE>> over parameter 0 (f32) or a cast pointer.
  Value* view(int rank = 1, E e = E::f32, std::optional<PaddingValue> padding = std::nullopt) {
    Value* base = f.parameter(0);
    if (e != E::f32) base = b.create_value(O::ptr_to_ptr, pointer_type(e), {base});
    std::vector<int64_t> shape(static_cast<size_t>(rank), kDynamic);
    std::vector<int64_t> strides(static_cast<size_t>(rank), 1);
    if (rank == 2) strides[0] = kDynamic;
    std::vector<Value*> dyn_shape(static_cast<size_t>(rank), f.parameter(1));
    std::vector<Value*> dyn_strides;
    if (rank == 2) dyn_strides.push_back(f.parameter(1));
    Value* tv =
        b.make_tensor_view(base, Type::tensor_view(Type::element(e), shape, strides), dyn_shape, dyn_strides);
    return b.make_partition_view(tv, std::vector<int32_t>(static_cast<size_t>(rank), 64), padding);
  }
};

NamedAttribute attr(std::string name, Attribute value) {
  return {std::move(name), std::move(value)};
}
NamedAttribute rounding(RoundingMode r) {
  return attr("rounding_mode", Attribute::enum_of(EnumKind::rounding, r));
}
NamedAttribute ordering(MemoryOrdering o) {
  return attr("memory_ordering_semantics", Attribute::enum_of(EnumKind::memory_ordering, o));
}
NamedAttribute scope(MemoryScope s) {
  return attr("memory_scope", Attribute::enum_of(EnumKind::memory_scope, s));
}
NamedAttribute signedness(Signedness s) {
  return attr("signedness", Attribute::enum_of(EnumKind::signedness, s));
}
Attribute hints(std::string arch, std::string key, Attribute value) {
  return Attribute::optimization_hints(
      {{std::move(arch), Attribute::dictionary({{std::move(key), std::move(value)}})}});
}

// ---- module and entry rules ---------------------------------------------------------------------

TEST(VerifierError, EntryParameterMustBeRankZero) {
  Kernel k({tile_type({4}, E::f32)});
  k.finish();
  EXPECT_ONLY_PROBLEM(
      k.module, v13_3,
      "in kernel 'k' at bad.cpp:3:1: parameter 0 must be a rank-0 tile (scalar or pointer), got tile<4xf32>");
}

TEST(VerifierError, KernelBodyMustEndInReturn) {
  Kernel k;
  k.at(5).f32();
  EXPECT_ONLY_PROBLEM(k.module, v13_3,
                      "in kernel 'k' at bad.cpp:5:7: constant: block of kernel body must end with 'return', "
                      "found 'constant'");
}

TEST(VerifierError, KernelReturnsNoValues) {
  Kernel k;
  Value* x = k.f32();
  k.at(6).b.create(O::return_, {}, {{x}});
  EXPECT_ONLY_PROBLEM(k.module, v13_3,
                      "in kernel 'k' at bad.cpp:6:7: return: a kernel returns no values, got 1 operands");
}

TEST(VerifierError, KernelNamesAreUnique) {
  Module m;
  for (int i = 0; i < 2; ++i) Builder(m.add_function("k", {}).entry_block()).return_();
  EXPECT_ONLY_PROBLEM(m, v13_3, "in module: kernel name 'k' is defined twice in the module");
}

TEST(VerifierError, KernelNameMustBeIdentifier) {
  Module m;
  Builder(m.add_function("my-kernel", {}).entry_block()).return_();
  EXPECT_ONLY_PROBLEM(m, v13_3, "in module: kernel name 'my-kernel' must be a C identifier");
}

TEST(VerifierError, VerifyModuleThrowsUserErrorWithTheMessage) {
  Kernel k({tile_type({4}, E::f32)});
  k.finish();
  try {
    verify_module(k.module);
    FAIL() << "expected cutile::UserError";
  } catch (const cutile::UserError& e) {
    EXPECT_NE(std::string(e.what()).find("in kernel 'k' at bad.cpp:3:1: parameter 0"), std::string::npos)
        << e.what();
  }
}

// ---- availability per version -------------------------------------------------------------------

TEST(VerifierError, OpNewerThanTargetVersion) {
  Kernel k;
  Value* x = k.f32();
  k.at(7).b.binary(O::atan2, x, x);
  k.finish();
  EXPECT_ONLY_PROBLEM(k.module, v13_1,
                      "in kernel 'k' at bad.cpp:7:7: atan2: op requires bytecode 13.2, targeting 13.1");
}

TEST(VerifierError, ElementTypeNewerThanTargetVersion) {
  Kernel k;
  k.at(8).b.constant_float(E::f8e8m0fnu, 1.0, {4});
  k.finish();
  EXPECT_ONLY_PROBLEM(
      k.module, v13_1,
      "in kernel 'k' at bad.cpp:8:7: constant: result 0: element type f8E8M0FNU requires bytecode 13.2");
}

TEST(VerifierError, EnumValueNewerThanTargetVersion) {
  Kernel k;
  Value* x = k.f32();
  k.at(9).b.create_value(O::ftof, tile_type({4}, E::f16), {x}, {rounding(RoundingMode::nearest_away)});
  k.finish();
  EXPECT_ONLY_PROBLEM(
      k.module, v13_3,
      "in kernel 'k' at bad.cpp:9:7: ftof: attribute 'rounding_mode' value 'nearest_away' requires a "
      "newer bytecode than 13.3");
}

TEST(VerifierError, AttributeNewerThanTargetVersion) {
  Kernel k;
  Value* a = k.num(E::f16, {16, 16});
  Value* acc = k.f32({16, 16});
  k.at(10).b.create_value(O::mmaf, acc->type(), {a, a, acc}, {attr("fast_acc", Attribute::unit())});
  k.finish();
  EXPECT_ONLY_PROBLEM(
      k.module, v13_2,
      "in kernel 'k' at bad.cpp:10:7: mmaf: attribute 'fast_acc' requires bytecode 13.3, targeting 13.2");
}

TEST(VerifierError, DefaultedAttributeNewerThanTargetVersion) {
  Kernel k;
  Value* x = k.num(E::i32);
  k.at(11).b.unary(
      O::negi, x,
      {attr("overflow", Attribute::enum_of(EnumKind::overflow, IntegerOverflow::no_signed_wrap))});
  k.finish();
  EXPECT_ONLY_PROBLEM(
      k.module, v13_1,
      "in kernel 'k' at bad.cpp:11:7: negi: attribute 'overflow' requires bytecode 13.2, targeting 13.1");
}

// ---- operand groups, results and attributes vs the op table ---------------------------------------

TEST(VerifierError, OperandGroupCount) {
  Kernel k;
  Value* x = k.f32();
  k.at(12).b.create(O::addf, {x->type()}, {{x}});
  k.finish();
  EXPECT_ONLY_PROBLEM(k.module, v13_3,
                      "in kernel 'k' at bad.cpp:12:7: addf: expected 2 operand groups, got 1");
}

TEST(VerifierError, SingleOperandGroupHoldsOneValue) {
  Kernel k;
  Value* x = k.f32();
  k.at(13).b.create(O::addf, {x->type()}, {{x, x}, {x}});
  k.finish();
  EXPECT_ONLY_PROBLEM(k.module, v13_3,
                      "in kernel 'k' at bad.cpp:13:7: addf: operand 'lhs' expects exactly one value, got 2");
}

TEST(VerifierError, ResultCount) {
  Kernel k;
  k.at(14).b.create(O::get_tile_block_id, {scalar_type(E::i32), scalar_type(E::i32)}, {});
  k.finish();
  EXPECT_ONLY_PROBLEM(k.module, v13_3,
                      "in kernel 'k' at bad.cpp:14:7: get_tile_block_id: expected 3 results, got 2");
}

TEST(VerifierError, MissingRequiredAttribute) {
  Kernel k;
  Value* x = k.num(E::i32);
  k.at(15).b.create_value(O::cmpi, tile_type({4}, E::i1), {x, x},
                          {attr("comparison_predicate", Attribute::enum_of(EnumKind::comparison_predicate,
                                                                           ComparisonPredicate::equal))});
  k.finish();
  EXPECT_ONLY_PROBLEM(k.module, v13_3,
                      "in kernel 'k' at bad.cpp:15:7: cmpi: missing required attribute 'signedness'");
}

TEST(VerifierError, UnknownAttribute) {
  Kernel k;
  Value* x = k.f32();
  k.at(16).b.binary(O::addf, x, x,
                    {attr("overflow", Attribute::enum_of(EnumKind::overflow, IntegerOverflow::none))});
  k.finish();
  EXPECT_ONLY_PROBLEM(k.module, v13_3, "in kernel 'k' at bad.cpp:16:7: addf: unknown attribute 'overflow'");
}

TEST(VerifierError, AttributeKindMustFitItsSlot) {
  Kernel k;
  Value* x = k.f32();
  k.at(17).b.binary(O::addf, x, x, {attr("rounding_mode", Attribute::i32(1))});
  k.finish();
  EXPECT_ONLY_PROBLEM(k.module, v13_3,
                      "in kernel 'k' at bad.cpp:17:7: addf: attribute 'rounding_mode' must be an enum value");
}

// ---- element types per op family -------------------------------------------------------------------

TEST(VerifierError, FloatArithmeticOnIntegers) {
  Kernel k;
  Value* x = k.num(E::i32);
  k.at(18).b.binary(O::addf, x, x);
  k.finish();
  EXPECT_ONLY_PROBLEM(
      k.module, v13_3,
      "in kernel 'k' at bad.cpp:18:7: addf: lhs must be a tile of f16/bf16/f32/f64, got tile<4xi32>");
}

TEST(VerifierError, FloatArithmeticOnNarrowFloats) {
  Kernel k;
  Value* x = k.num(E::f8e4m3fn);
  k.at(19).b.unary(O::exp, x);
  k.finish();
  EXPECT_ONLY_PROBLEM(
      k.module, v13_3,
      "in kernel 'k' at bad.cpp:19:7: exp: source must be a tile of f16/bf16/f32/f64, got tile<4xf8E4M3FN>");
}

TEST(VerifierError, OperandTypesMustMatch) {
  Kernel k;
  Value* a = k.f32({1, 128});
  Value* b = k.f32({1, 64});
  k.at(20).b.binary(O::addf, a, b);
  k.finish();
  EXPECT_ONLY_PROBLEM(
      k.module, v13_3,
      "in kernel 'k' at bad.cpp:20:7: addf: operand types must match: tile<1x128xf32> vs tile<1x64xf32>");
}

TEST(VerifierError, IntegerOpOnFloats) {
  Kernel k;
  Value* x = k.f32();
  k.at(21).b.binary(O::addi, x, x);
  k.finish();
  EXPECT_ONLY_PROBLEM(
      k.module, v13_3,
      "in kernel 'k' at bad.cpp:21:7: addi: lhs must be a tile of i1/i8/i16/i32/i64, got tile<4xf32>");
}

TEST(VerifierError, FlushToZeroOnlyForF32) {
  Kernel k;
  Value* x = k.num(E::f16);
  k.at(22).b.binary(O::mulf, x, x, {attr("flush_to_zero", Attribute::unit())});
  k.finish();
  EXPECT_ONLY_PROBLEM(
      k.module, v13_3,
      "in kernel 'k' at bad.cpp:22:7: mulf: flush_to_zero is only supported for f32, got f16");
}

TEST(VerifierError, ApproxOnlyForF32) {
  Kernel k;
  Value* x = k.num(E::f16);
  k.at(23).b.binary(O::divf, x, x, {rounding(RoundingMode::approx)});
  k.finish();
  EXPECT_ONLY_PROBLEM(
      k.module, v13_3,
      "in kernel 'k' at bad.cpp:23:7: divf: rounding mode 'approx' is only supported for f32, got f16");
}

TEST(VerifierError, RoundingModeSetPerOp) {
  Kernel k;
  Value* x = k.f32();
  k.at(24).b.binary(O::addf, x, x, {rounding(RoundingMode::approx)});
  k.finish();
  EXPECT_ONLY_PROBLEM(
      k.module, v13_3,
      "in kernel 'k' at bad.cpp:24:7: addf: rounding mode 'approx' is not allowed; expected one of "
      "nearest_even, zero, negative_inf, positive_inf");
}

TEST(VerifierError, DiviNegativeInfNeedsSigned) {
  Kernel k;
  Value* x = k.num(E::i32);
  k.at(25).b.binary(O::divi, x, x,
                    {signedness(Signedness::unsigned_),
                     attr("rounding", Attribute::enum_of(EnumKind::rounding, RoundingMode::negative_inf))});
  k.finish();
  EXPECT_ONLY_PROBLEM(k.module, v13_3,
                      "in kernel 'k' at bad.cpp:25:7: divi: rounding mode 'negative_inf' is not allowed with "
                      "unsigned division");
}

TEST(VerifierError, NegiRejectsNoUnsignedWrap) {
  Kernel k;
  Value* x = k.num(E::i32);
  k.at(26).b.unary(
      O::negi, x,
      {attr("overflow", Attribute::enum_of(EnumKind::overflow, IntegerOverflow::no_unsigned_wrap))});
  k.finish();
  EXPECT_ONLY_PROBLEM(k.module, v13_3,
                      "in kernel 'k' at bad.cpp:26:7: negi: overflow 'no_unsigned_wrap' is not supported");
}

TEST(VerifierError, CompareResultIsI1OfTheSameShape) {
  Kernel k;
  Value* x = k.f32();
  k.at(27).b.create_value(O::cmpf, x->type(), {x, x},
                          {attr("comparison_predicate", Attribute::enum_of(EnumKind::comparison_predicate,
                                                                           ComparisonPredicate::less_than)),
                           attr("comparison_ordering", Attribute::enum_of(EnumKind::comparison_ordering,
                                                                          ComparisonOrdering::ordered))});
  k.finish();
  EXPECT_ONLY_PROBLEM(k.module, v13_3,
                      "in kernel 'k' at bad.cpp:27:7: cmpf: result must be an i1 tile of the operand shape: "
                      "tile<4xf32> vs tile<4xi1>");
}

TEST(VerifierError, SelectConditionShape) {
  Kernel k;
  Value* c = k.num(E::i1, {8});
  Value* x = k.f32();
  k.at(28).b.select(c, x, x);
  k.finish();
  EXPECT_ONLY_PROBLEM(k.module, v13_3,
                      "in kernel 'k' at bad.cpp:28:7: select: condition and values must have the same shape: "
                      "tile<8xi1> vs tile<4xf32>");
}

// ---- conversions ------------------------------------------------------------------------------------

TEST(VerifierError, ExtiMustWiden) {
  Kernel k;
  Value* x = k.num(E::i32);
  k.at(29).b.exti(x, E::i16);
  k.finish();
  EXPECT_ONLY_PROBLEM(k.module, v13_3,
                      "in kernel 'k' at bad.cpp:29:7: exti: exti must widen: tile<4xi32> -> tile<4xi16>");
}

TEST(VerifierError, TrunciMustNarrow) {
  Kernel k;
  Value* x = k.num(E::i16);
  k.at(30).b.trunci(x, E::i64);
  k.finish();
  EXPECT_ONLY_PROBLEM(
      k.module, v13_3,
      "in kernel 'k' at bad.cpp:30:7: trunci: trunci must narrow: tile<4xi16> -> tile<4xi64>");
}

TEST(VerifierError, BitcastNeedsEqualWidths) {
  Kernel k;
  Value* x = k.num(E::i32);
  k.at(31).b.create_value(O::bitcast, tile_type({4}, E::f16), {x});
  k.finish();
  EXPECT_ONLY_PROBLEM(
      k.module, v13_3,
      "in kernel 'k' at bad.cpp:31:7: bitcast: bitcast needs equal element widths: tile<4xi32> (32 bits) -> "
      "tile<4xf16> (16 bits)");
}

TEST(VerifierError, FtoiRoundsTowardZero) {
  Kernel k;
  Value* x = k.f32();
  k.at(32).b.create_value(O::ftoi, tile_type({4}, E::i32), {x},
                          {signedness(Signedness::signed_), rounding(RoundingMode::nearest_even)});
  k.finish();
  EXPECT_ONLY_PROBLEM(k.module, v13_3,
                      "in kernel 'k' at bad.cpp:32:7: ftoi: ftoi supports only rounding mode "
                      "nearest_int_to_zero, got nearest_even");
}

TEST(VerifierError, ItofCannotProduceE8M0) {
  Kernel k;
  Value* x = k.num(E::i32);
  k.at(33).b.itof(x, E::f8e8m0fnu);
  k.finish();
  EXPECT_ONLY_PROBLEM(k.module, v13_3,
                      "in kernel 'k' at bad.cpp:33:7: itof: itof cannot convert to f8E8M0FNU");
}

TEST(VerifierError, FtofMustChangeType) {
  Kernel k;
  Value* x = k.f32();
  k.at(34).b.ftof(x, E::f32);
  k.finish();
  EXPECT_ONLY_PROBLEM(
      k.module, v13_3,
      "in kernel 'k' at bad.cpp:34:7: ftof: ftof must change the type, got tile<4xf32> -> tile<4xf32>");
}

// ---- shape ops ---------------------------------------------------------------------------------------

TEST(VerifierError, ReshapeKeepsElementCount) {
  Kernel k;
  Value* x = k.f32({4, 4});
  k.at(35).b.reshape(x, {8});
  k.finish();
  EXPECT_ONLY_PROBLEM(k.module, v13_3,
                      "in kernel 'k' at bad.cpp:35:7: reshape: reshape must keep the element count: "
                      "tile<4x4xf32> -> tile<8xf32>");
}

TEST(VerifierError, BroadcastSourceDimsAreOneOrEqual) {
  Kernel k;
  Value* x = k.f32({2, 4});
  k.at(36).b.broadcast(x, {4, 4});
  k.finish();
  EXPECT_ONLY_PROBLEM(k.module, v13_3,
                      "in kernel 'k' at bad.cpp:36:7: broadcast: broadcast source dimension 0 must be 1 or "
                      "equal the result's: "
                      "tile<2x4xf32> -> tile<4x4xf32>");
}

TEST(VerifierError, PermuteNeedsAPermutation) {
  Kernel k;
  Value* x = k.f32({2, 4});
  k.at(37).b.create_value(O::permute, x->type(), {x}, {attr("permutation", Attribute::i32_array({0, 0}))});
  k.finish();
  EXPECT_ONLY_PROBLEM(
      k.module, v13_3,
      "in kernel 'k' at bad.cpp:37:7: permute: permutation [0, 0] is not a permutation of [0, 2)");
}

TEST(VerifierError, CatShapes) {
  Kernel k;
  Value* a = k.f32({2, 4});
  Value* b = k.f32({2, 8});
  k.at(38).b.create_value(O::cat, tile_type({4, 4}, E::f32), {a, b}, {attr("dim", Attribute::i64(0))});
  k.finish();
  EXPECT_ONLY_PROBLEM(k.module, v13_3,
                      "in kernel 'k' at bad.cpp:38:7: cat: cat of tile<2x4xf32> and tile<2x8xf32> along dim "
                      "0 cannot give tile<4x4xf32>");
}

TEST(VerifierError, ExtractIndicesAreI32) {
  Kernel k;
  Value* x = k.f32({4, 8});
  Value* i = k.index(E::i64);
  k.at(39).b.create(O::extract, {tile_type({2, 4}, E::f32)}, {{x}, {i, i}});
  k.finish();
  EXPECT_ONLY_PROBLEM(k.module, v13_3,
                      "in kernel 'k' at bad.cpp:39:7: extract: index 0 must be tile<i32>, got tile<i64>");
}

TEST(VerifierError, IotaIsOneDimensional) {
  Kernel k;
  k.at(40).b.create_value(O::iota, tile_type({4, 4}, E::i32), {});
  k.finish();
  EXPECT_ONLY_PROBLEM(
      k.module, v13_3,
      "in kernel 'k' at bad.cpp:40:7: iota: iota result must be a 1-d tile, got tile<4x4xi32>");
}

// ---- tile and view types --------------------------------------------------------------------------

TEST(VerifierError, TileDimsArePowersOfTwo) {
  Kernel k;
  k.at(41).f32({3});
  k.finish();
  EXPECT_ONLY_PROBLEM(k.module, v13_3,
                      "in kernel 'k' at bad.cpp:41:7: constant: result 0: tile dimensions must be positive "
                      "powers of two, got [3]");
}

TEST(VerifierError, TileHasAtMost2To24Elements) {
  Kernel k;
  k.at(42).f32({4096, 8192});
  k.finish();
  EXPECT_ONLY_PROBLEM(k.module, v13_3,
                      "in kernel 'k' at bad.cpp:42:7: constant: result 0: tile [4096, 8192] exceeds the "
                      "maximum of 16777216 elements");
}

TEST(VerifierError, TensorViewStaticDimsArePositive) {
  Kernel k;
  k.at(43).b.make_tensor_view(k.f.parameter(0), Type::tensor_view(Type::element(E::f32), {0}, {1}), {}, {});
  k.finish();
  EXPECT_ONLY_PROBLEM(k.module, v13_3,
                      "in kernel 'k' at bad.cpp:43:7: make_tensor_view: result 0: tensor_view static sizes "
                      "and strides must be > 0");
}

TEST(VerifierError, PaddingValueOnlyForFloats) {
  Kernel k;
  k.view(1, E::i32, PaddingValue::neg_inf);
  k.finish();
  EXPECT_ONLY_PROBLEM(
      k.module, v13_3,
      "make_partition_view: result 0: padding_value neg_inf needs a float element type, got i32");
}

TEST(VerifierError, PartitionViewTileDimsArePowersOfTwo) {
  Kernel k;
  Value* tv = k.b.make_tensor_view(
      k.f.parameter(0), Type::tensor_view(Type::element(E::f32), {kDynamic}, {1}), {k.f.parameter(1)}, {});
  k.at(44).b.make_partition_view(tv, {48});
  k.finish();
  EXPECT_ONLY_PROBLEM(k.module, v13_3,
                      "in kernel 'k' at bad.cpp:44:7: make_partition_view: result 0: tile dimensions must be "
                      "positive powers of two, got [48]");
}

// ---- MMA ------------------------------------------------------------------------------------------

TEST(VerifierError, MmafElementTypePairs) {
  Kernel k;
  Value* a = k.num(E::bf16, {16, 16});
  Value* acc = k.num(E::f16, {16, 16});
  k.at(45).b.mmaf(a, a, acc);
  k.finish();
  EXPECT_ONLY_PROBLEM(k.module, v13_3,
                      "in kernel 'k' at bad.cpp:45:7: mmaf: mmaf with bf16 inputs needs a f32 accumulator, "
                      "got tile<16x16xf16>");
}

TEST(VerifierError, MmafShapes) {
  Kernel k;
  Value* a = k.num(E::f16, {16, 32});
  Value* b = k.num(E::f16, {16, 16});
  Value* acc = k.f32({16, 16});
  k.at(46).b.mmaf(a, b, acc);
  k.finish();
  EXPECT_ONLY_PROBLEM(k.module, v13_3,
                      "in kernel 'k' at bad.cpp:46:7: mmaf: mma shapes must be MxK, KxN, MxN: "
                      "tile<16x32xf16>, tile<16x16xf16>, "
                      "tile<16x16xf32>");
}

TEST(VerifierError, MmafBatchedShapes) {
  Kernel k;
  Value* a = k.num(E::f16, {2, 16, 16});
  Value* b = k.num(E::f16, {4, 16, 16});
  Value* acc = k.f32({2, 16, 16});
  k.at(47).b.mmaf(a, b, acc);
  k.finish();
  EXPECT_ONLY_PROBLEM(k.module, v13_3,
                      "in kernel 'k' at bad.cpp:47:7: mmaf: mma batch dimensions must match");
}

TEST(VerifierError, MmaiNeedsI8AndI32) {
  Kernel k;
  Value* a = k.num(E::i16, {16, 16});
  Value* acc = k.num(E::i32, {16, 16});
  k.at(48).b.create_value(
      O::mmai, acc->type(), {a, a, acc},
      {attr("signedness_lhs", Attribute::enum_of(EnumKind::signedness, Signedness::signed_)),
       attr("signedness_rhs", Attribute::enum_of(EnumKind::signedness, Signedness::signed_))});
  k.finish();
  EXPECT_ONLY_PROBLEM(k.module, v13_3,
                      "in kernel 'k' at bad.cpp:48:7: mmai: lhs must be a tile of i8, got tile<16x16xi16>");
}

// ---- reduce and scan --------------------------------------------------------------------------------

/// reduce over dim 0 of a 64-element f32 tile with an addf body, built by the builder.
std::vector<Value*> sum(Kernel& k, Value* x, Attribute identity) {
  return k.b.reduce({x}, 0, {std::move(identity)}, [](Builder& body, std::span<Value* const> a) {
    return std::vector<Value*>{body.binary(O::addf, a[0], a[1])};
  });
}

TEST(VerifierError, ReduceIdentityType) {
  Kernel k;
  Value* x = k.f32({64});
  k.at(49);
  sum(k, x, Attribute::i32(0));
  k.finish();
  EXPECT_ONLY_PROBLEM(
      k.module, v13_3,
      "in kernel 'k' at bad.cpp:49:7: reduce: identity 0 has type i32 but operand 0 is tile<64xf32>");
}

TEST(VerifierError, ReduceDimInRange) {
  Kernel k;
  Value* x = k.f32({64});
  Operation& r = k.at(50).b.create(
      O::reduce, {scalar_type(E::f32)}, {{x}},
      {attr("dim", Attribute::i32(1)),
       attr("identities", Attribute::array({Attribute::floating(Type::element(E::f32), 0.0)}))},
      1);
  Block& body = r.region(0).add_block();
  Value* a = body.add_argument(scalar_type(E::f32));
  body.add_argument(scalar_type(E::f32));
  Builder(body).yield({a});
  k.finish();
  EXPECT_ONLY_PROBLEM(k.module, v13_3, "in kernel 'k' at bad.cpp:50:7: reduce: dim 1 must be in [0, 1)");
}

TEST(VerifierError, ReduceBodyArgumentsAreRankZero) {
  Kernel k;
  Value* x = k.f32({64});
  Operation& r = k.at(51).b.create(
      O::reduce, {scalar_type(E::f32)}, {{x}},
      {attr("dim", Attribute::i32(0)),
       attr("identities", Attribute::array({Attribute::floating(Type::element(E::f32), 0.0)}))},
      1);
  Block& body = r.region(0).add_block();
  body.add_argument(tile_type({64}, E::f32));
  body.add_argument(scalar_type(E::f32));
  Builder(body).yield({body.argument(1)});
  k.finish();
  EXPECT_ONLY_PROBLEM(k.module, v13_3,
                      "in kernel 'k' at bad.cpp:51:7: reduce: body argument 0 must be a rank-0 tile of "
                      "operand 0's element type: "
                      "tile<64xf32> vs tile<f32>");
}

TEST(VerifierError, ReduceYieldArity) {
  Kernel k;
  Value* x = k.f32({64});
  k.b.reduce({x}, 0, {Attribute::floating(Type::element(E::f32), 0.0)},
             [&](Builder& body, std::span<Value* const> a) {
               body.set_location({"bad.cpp", 52, 7});
               return std::vector<Value*>{a[0], a[1]};
             });
  k.finish();
  EXPECT_ONLY_PROBLEM(
      k.module, v13_3,
      "in kernel 'k' at bad.cpp:52:7: yield: yields 2 values but the enclosing reduce has 1 operands");
}

TEST(VerifierError, OnlyPureOpsInsideReduce) {
  Kernel k;
  Value* x = k.num(E::i32, {64});
  k.b.reduce({x}, 0, {Attribute::i32(1)}, [&](Builder& body, std::span<Value* const> a) {
    body.set_location({"bad.cpp", 53, 7});
    Value* q = body.binary(O::divi, a[0], a[1], {signedness(Signedness::signed_)});
    body.set_location({"good.cpp", 2, 1});
    return std::vector<Value*>{q};
  });
  k.finish();
  EXPECT_ONLY_PROBLEM(k.module, v13_3,
                      "in kernel 'k' at bad.cpp:53:7: divi: only pure ops are allowed inside 'reduce'");
}

TEST(VerifierError, OnlyMemoryEffectFreeOpsInsideReduceAt13_4) {
  Kernel k;
  Value* x = k.num(E::i32, {64});
  k.b.reduce({x}, 0, {Attribute::i32(1)}, [&](Builder& body, std::span<Value* const> a) {
    body.set_location({"bad.cpp", 94, 7});
    std::vector<Value*> r = body.for_loop(a[0], a[1], a[0], {a[0]}, [](Builder&, std::span<Value* const> it) {
      return std::vector<Value*>{it[1]};
    });
    body.set_location({"good.cpp", 2, 1});
    return r;
  });
  k.finish();
  EXPECT_ONLY_PROBLEM(
      k.module, v13_4,
      "in kernel 'k' at bad.cpp:94:7: for: only memory-effect-free ops are allowed inside 'reduce'");
}

TEST(VerifierError, ScanResultsHaveOperandTypes) {
  Kernel k;
  Value* x = k.f32({64});
  Operation& s = k.at(54).b.create(
      O::scan, {tile_type({32}, E::f32)}, {{x}},
      {attr("dim", Attribute::i32(0)), attr("reverse", Attribute::boolean(false)),
       attr("identities", Attribute::array({Attribute::floating(Type::element(E::f32), 0.0)}))},
      1);
  Block& body = s.region(0).add_block();
  Value* a = body.add_argument(scalar_type(E::f32));
  body.add_argument(scalar_type(E::f32));
  Builder(body).yield({a});
  k.finish();
  EXPECT_ONLY_PROBLEM(
      k.module, v13_3,
      "in kernel 'k' at bad.cpp:54:7: scan: result 0 must be the operand type: tile<32xf32> vs tile<64xf32>");
}

// ---- for / loop / if and terminators ---------------------------------------------------------------

TEST(VerifierError, ForBoundsShareOneType) {
  Kernel k;
  Value* lb = k.index(E::i32);
  Value* ub = k.index(E::i64);
  k.at(55).b.for_loop(lb, ub, lb, {}, nullptr);
  k.finish();
  EXPECT_ONLY_PROBLEM(
      k.module, v13_3,
      "in kernel 'k' at bad.cpp:55:7: for: bounds and step must have one type: tile<i32> vs tile<i64>");
}

TEST(VerifierError, ContinueCarriesTheLoopTypes) {
  Kernel k;
  Value* zero = k.index();
  Value* init = k.f32({}, 0.0);
  k.b.for_loop(zero, zero, zero, {init}, [&](Builder& body, std::span<Value* const> a) {
    body.set_location({"bad.cpp", 56, 7});
    return std::vector<Value*>{a[0]};  // the induction variable instead of the f32 accumulator
  });
  k.finish();
  EXPECT_ONLY_PROBLEM(k.module, v13_3,
                      "in kernel 'k' at bad.cpp:56:7: continue: continues with (tile<i32>) but the enclosing "
                      "for carries (tile<f32>)");
}

TEST(VerifierError, IfWithResultsNeedsElse) {
  Kernel k;
  Value* c = k.num(E::i1, {});
  Value* x = k.f32({});
  Operation& op = k.at(57).b.create(O::if_, {x->type()}, {{c}}, {}, 2);
  Builder(op.region(0).add_block()).yield({x});
  k.finish();
  EXPECT_ONLY_PROBLEM(
      k.module, v13_3,
      "in kernel 'k' at bad.cpp:57:7: if: an if with results (tile<f32>) needs an else branch");
}

TEST(VerifierError, IfConditionIsScalarI1) {
  Kernel k;
  Value* c = k.num(E::i1, {4});
  k.at(58).b.if_else(c, {}, nullptr);
  k.finish();
  EXPECT_ONLY_PROBLEM(k.module, v13_3,
                      "in kernel 'k' at bad.cpp:58:7: if: condition must be tile<i1>, got tile<4xi1>");
}

TEST(VerifierError, YieldMatchesIfResults) {
  Kernel k;
  Value* c = k.num(E::i1, {});
  Value* x = k.f32({});
  Value* i = k.index();
  k.b.if_else(
      c, {x->type()}, [&](Builder&, std::span<Value* const>) { return std::vector<Value*>{x}; },
      [&](Builder& body, std::span<Value* const>) {
        body.set_location({"bad.cpp", 59, 7});
        return std::vector<Value*>{i};
      });
  k.finish();
  EXPECT_ONLY_PROBLEM(k.module, v13_3,
                      "in kernel 'k' at bad.cpp:59:7: yield: yields (tile<i32>) but the enclosing if has "
                      "results (tile<f32>)");
}

TEST(VerifierError, BreakOnlyInsideLoop) {
  Kernel k;
  Value* zero = k.index();
  Value* c = k.num(E::i1, {});
  k.b.for_loop(zero, zero, zero, {}, [&](Builder& body, std::span<Value* const>) {
    Operation& op = body.create(O::if_, {}, {{c}}, {}, 2);
    Builder then_b(op.region(0).add_block());
    then_b.set_location({"bad.cpp", 60, 7});
    then_b.create(O::break_, {}, {{}});
    return std::vector<Value*>{};
  });
  k.finish();
  EXPECT_ONLY_PROBLEM(k.module, v13_3, "in kernel 'k' at bad.cpp:60:7: break: break must be inside a 'loop'");
}

TEST(VerifierError, ReturnOnlyInKernelBodyOrIf) {
  Kernel k;
  Value* zero = k.index();
  k.b.for_loop(zero, zero, zero, {}, [&](Builder& body, std::span<Value* const>) {
    Operation& op = body.create(O::if_, {}, {{k.num(E::i1, {})}}, {}, 2);
    Builder then_b(op.region(0).add_block());
    then_b.set_location({"bad.cpp", 61, 7});
    then_b.return_();
    return std::vector<Value*>{};
  });
  k.finish();
  EXPECT_ONLY_PROBLEM(k.module, v13_3,
                      "in kernel 'k' at bad.cpp:61:7: return: return must be in the kernel body");
}

TEST(VerifierError, ReturnFromLoopNeeds13_4) {
  Kernel k;
  Value* c = k.num(E::i1, {});
  Operation& loop = k.b.create(O::loop, {}, {{}}, {}, 1);
  Builder body(loop.region(0).add_block());
  Operation& exit = body.create(O::if_, {}, {{c}}, {}, 2);
  Builder then_b(exit.region(0).add_block());
  then_b.set_location({"bad.cpp", 95, 7});
  then_b.return_();
  body.create(O::break_, {}, {{}});
  k.finish();
  EXPECT_ONLY_PROBLEM(k.module, v13_3,
                      "in kernel 'k' at bad.cpp:95:7: return: return must be in the kernel body (possibly "
                      "through nested 'if's)");
  EXPECT_TRUE(check_module(k.module, v13_4).empty());
}

// 13.5 multimem view ops: a view over a plain pointer, and a float reduction other than add.
TEST(VerifierError, MultimemNeedsAMulticastView) {
  Kernel k;
  Value* pv = k.view();
  Value* i = k.index();
  k.at(120);
  k.b.create(O::multimem_store_view_tko, {Type::token()}, {{pv}, {k.f32({64})}, {i}, {}},
             {attr("memory_ordering_semantics", Attribute::enum_of(EnumKind::memory_ordering, MemoryOrdering::weak))});
  k.finish();
  EXPECT_ONLY_PROBLEM(k.module, v13_5,
                      "in kernel 'k' at bad.cpp:120:7: multimem_store_view_tko: the view's tensor_view must carry "
                      "ptr_attr multicast");
}

TEST(VerifierError, MultimemReduceAddsFloatsOnly) {
  Kernel k({Type::tile({}, Type::pointer(Type::element(E::f32), PtrAttr::multicast))});
  Value* tv = k.b.make_tensor_view(k.f.parameter(0), Type::tensor_view(Type::element(E::f32), {64}, {1}, PtrAttr::multicast),
                                   {}, {});
  Value* pv = k.b.make_partition_view(tv, {64});
  Value* i = k.index();
  Value* x = k.f32({64});
  k.at(121);
  k.b.create(O::multimem_reduce_view_tko, {Type::token()}, {{pv}, {x}, {i}, {}},
             {attr("memory_ordering_semantics", Attribute::enum_of(EnumKind::memory_ordering, MemoryOrdering::relaxed)),
              attr("memory_scope", Attribute::enum_of(EnumKind::memory_scope, MemoryScope::device)),
              attr("reduction", Attribute::enum_of(EnumKind::multimem_reduction, MultimemReduction::max))});
  k.finish();
  EXPECT_ONLY_PROBLEM(k.module, v13_5, "at bad.cpp:121:7: multimem_reduce_view_tko: reduction max on floats needs f16");
  // Below 13.5 the op itself does not exist.
  EXPECT_FALSE(check_module(k.module, v13_4).empty());
}

TEST(VerifierError, TerminatorOnlyAtBlockEnd) {
  Kernel k;
  k.at(62).b.return_();
  k.finish();
  EXPECT_ONLY_PROBLEM(k.module, v13_3,
                      "in kernel 'k' at bad.cpp:62:7: return: terminator must be the last op of its block");
}

TEST(VerifierError, LoopBodyEndsInContinueOrBreak) {
  Kernel k;
  Operation& loop = k.b.create(O::loop, {}, {{}}, {}, 1);
  Builder body(loop.region(0).add_block());
  body.set_location({"bad.cpp", 63, 7});
  body.yield();
  k.finish();
  const std::string all = [&] {
    std::string s;
    for (const Diagnostic& d : check_module(k.module)) s += d.str() + "\n";
    return s;
  }();
  EXPECT_NE(all.find("in kernel 'k' at bad.cpp:63:7: yield: block of 'loop' region must end with 'continue' "
                     "or 'break', found 'yield'"),
            std::string::npos)
      << all;
  EXPECT_NE(
      all.find(
          "in kernel 'k' at bad.cpp:63:7: yield: yield must terminate an 'if', 'reduce' or 'scan' region"),
      std::string::npos)
      << all;
}

// ---- views and memory ----------------------------------------------------------------------------

TEST(VerifierError, MakeTensorViewDynamicOperandCount) {
  Kernel k;
  k.at(64).b.make_tensor_view(k.f.parameter(0),
                              Type::tensor_view(Type::element(E::f32), {kDynamic, 64}, {64, 1}), {}, {});
  k.finish();
  EXPECT_ONLY_PROBLEM(
      k.module, v13_3,
      "in kernel 'k' at bad.cpp:64:7: make_tensor_view: expected 1 dynamic shape operands (one per '?' in "
      "tensor_view<?x64xf32, strides=[64,1]>), got 0");
}

TEST(VerifierError, MakeTensorViewDynamicOperandsShareOneType) {
  Kernel k;
  Value* n64 = k.index(E::i64);
  k.at(65).b.make_tensor_view(k.f.parameter(0),
                              Type::tensor_view(Type::element(E::f32), {kDynamic, 64}, {kDynamic, 1}),
                              {k.f.parameter(1)}, {n64});
  k.finish();
  EXPECT_ONLY_PROBLEM(k.module, v13_3,
                      "in kernel 'k' at bad.cpp:65:7: make_tensor_view: dynamic shape and stride operands "
                      "must share one type: "
                      "tile<i32> vs tile<i64>");
}

TEST(VerifierError, MakeTensorViewPointeeIsTheElementType) {
  Kernel k;
  k.at(66).b.make_tensor_view(k.f.parameter(0), Type::tensor_view(Type::element(E::f16), {64}, {1}), {}, {});
  k.finish();
  EXPECT_ONLY_PROBLEM(k.module, v13_3,
                      "in kernel 'k' at bad.cpp:66:7: make_tensor_view: base tile<ptr<f32>> must point to "
                      "the tensor_view element type f16");
}

TEST(VerifierError, PartitionViewWrapsTheOperandType) {
  Kernel k;
  Value* tv =
      k.b.make_tensor_view(k.f.parameter(0), Type::tensor_view(Type::element(E::f32), {64}, {1}), {}, {});
  Type other = Type::tensor_view(Type::element(E::f32), {128}, {1});
  k.at(67).b.create_value(O::make_partition_view, Type::partition_view({64}, other, {}), {tv});
  k.finish();
  EXPECT_ONLY_PROBLEM(k.module, v13_3,
                      "in kernel 'k' at bad.cpp:67:7: make_partition_view: the result view must wrap the "
                      "operand's tensor_view "
                      "type: tensor_view<64xf32, strides=[1]> vs tensor_view<128xf32, strides=[1]>");
}

TEST(VerifierError, LoadIndexCountIsTileRank) {
  Kernel k;
  Value* pv = k.view(2);
  k.at(68).b.load_view(pv, {k.index()});
  k.finish();
  EXPECT_ONLY_PROBLEM(
      k.module, v13_3,
      "in kernel 'k' at bad.cpp:68:7: load_view_tko: expected 2 index operands (the tile rank of "
      "partition_view<tile=(64x64), tensor_view<?x?xf32, strides=[?,1]>>), got 1");
}

TEST(VerifierError, LoadIndicesShareOneScalarIntType) {
  Kernel k;
  Value* pv = k.view(2);
  k.at(69).b.load_view(pv, {k.index(E::i32), k.index(E::i64)});
  k.finish();
  EXPECT_ONLY_PROBLEM(
      k.module, v13_3,
      "in kernel 'k' at bad.cpp:69:7: load_view_tko: indices must share one type: tile<i32> vs tile<i64>");
}

TEST(VerifierError, StoredTileIsTheViewTile) {
  Kernel k;
  Value* pv = k.view(1);
  Value* x = k.f32({32});
  k.at(70).b.store_view(x, pv, {k.index()});
  k.finish();
  EXPECT_ONLY_PROBLEM(
      k.module, v13_3,
      "in kernel 'k' at bad.cpp:70:7: store_view_tko: stored tile type must be the view's tile type: "
      "tile<32xf32> vs tile<64xf32>");
}

TEST(VerifierError, WeakLoadHasNoScope) {
  Kernel k;
  Value* pv = k.view(1);
  k.at(71).b.load_view(pv, {k.index()}, nullptr, MemoryOrdering::weak, MemoryScope::device);
  k.finish();
  EXPECT_ONLY_PROBLEM(
      k.module, v13_3,
      "in kernel 'k' at bad.cpp:71:7: load_view_tko: a weak load must not have a memory scope");
}

TEST(VerifierError, RelaxedStoreNeedsScope) {
  Kernel k;
  Value* pv = k.view(1);
  k.at(72).b.store_view(k.f32({64}), pv, {k.index()}, nullptr, MemoryOrdering::relaxed);
  k.finish();
  EXPECT_ONLY_PROBLEM(k.module, v13_3,
                      "in kernel 'k' at bad.cpp:72:7: store_view_tko: a relaxed store needs a memory scope");
}

TEST(VerifierError, LoadOrderingIsWeakRelaxedOrAcquire) {
  Kernel k;
  Value* pv = k.view(1);
  k.at(73).b.load_view(pv, {k.index()}, nullptr, MemoryOrdering::release, MemoryScope::device);
  k.finish();
  EXPECT_ONLY_PROBLEM(k.module, v13_3,
                      "in kernel 'k' at bad.cpp:73:7: load_view_tko: memory ordering must be weak, relaxed "
                      "or acquire, got release");
}

Operation& atomic_rmw(Kernel& k, Value* ptrs, Value* arg, MemoryOrdering o, AtomicRmwMode mode) {
  return k.b.create(O::atomic_rmw_tko, {arg->type(), Type::token()}, {{ptrs}, {arg}, {}, {}},
                    {ordering(o), scope(MemoryScope::device),
                     attr("mode", Attribute::enum_of(EnumKind::atomic_mode, mode))});
}

TEST(VerifierError, AtomicsAreNotWeak) {
  Kernel k({pointer_type(E::i32)});
  Value* x = k.num(E::i32, {});
  k.at(74);
  atomic_rmw(k, k.f.parameter(0), x, MemoryOrdering::weak, AtomicRmwMode::add);
  k.finish();
  EXPECT_ONLY_PROBLEM(k.module, v13_3,
                      "in kernel 'k' at bad.cpp:74:7: atomic_rmw_tko: atomic memory ordering must be "
                      "relaxed, acquire, release "
                      "or acq_rel, got weak");
}

TEST(VerifierError, AtomicModeElementTypes) {
  Kernel k({pointer_type(E::i32)});
  Value* x = k.num(E::i32, {});
  k.at(75);
  atomic_rmw(k, k.f.parameter(0), x, MemoryOrdering::relaxed, AtomicRmwMode::addf);
  k.finish();
  EXPECT_ONLY_PROBLEM(k.module, v13_3,
                      "in kernel 'k' at bad.cpp:75:7: atomic_rmw_tko: atomic mode 'addf' works only with "
                      "f16, bf16, f32 and f64, got i32");
}

TEST(VerifierError, AtomicCasIs32Or64Bit) {
  Kernel k({pointer_type(E::i16)});
  Value* x = k.num(E::i16, {});
  k.at(76).b.create(O::atomic_cas_tko, {x->type(), Type::token()}, {{k.f.parameter(0)}, {x}, {x}, {}, {}},
                    {ordering(MemoryOrdering::acq_rel), scope(MemoryScope::sys)});
  k.finish();
  EXPECT_ONLY_PROBLEM(k.module, v13_3,
                      "in kernel 'k' at bad.cpp:76:7: atomic_cas_tko: atomic_cas_tko works only with 32- or "
                      "64-bit integers and floats, got i16");
}

TEST(VerifierError, LoadPtrResultMatchesPointee) {
  Kernel k;
  k.at(77).b.create(O::load_ptr_tko, {scalar_type(E::f16), Type::token()}, {{k.f.parameter(0)}, {}, {}, {}},
                    {ordering(MemoryOrdering::weak)});
  k.finish();
  EXPECT_ONLY_PROBLEM(k.module, v13_3,
                      "in kernel 'k' at bad.cpp:77:7: load_ptr_tko: loaded tile must match the pointer "
                      "tile's shape and pointee: "
                      "tile<f16> vs tile<f32>");
}

// ---- tokens ----------------------------------------------------------------------------------------

TEST(VerifierError, JoinTokensNeedsTwo) {
  Kernel k;
  Value* t = k.b.make_token();
  k.at(78).b.join_tokens({t});
  k.finish();
  EXPECT_ONLY_PROBLEM(k.module, v13_3,
                      "in kernel 'k' at bad.cpp:78:7: join_tokens: expects two or more tokens, got 1");
}

TEST(VerifierError, TokenOperandIsAToken) {
  Kernel k;
  Value* pv = k.view(1);
  Value* i = k.index();
  k.at(79).b.load_view(pv, {i}, i);
  k.finish();
  EXPECT_ONLY_PROBLEM(
      k.module, v13_3,
      "in kernel 'k' at bad.cpp:79:7: load_view_tko: token operand must be a token, got tile<i32>");
}

TEST(VerifierError, PrintTokenDoesNotExistIn13_1) {
  Kernel k;
  Operation& print =
      k.b.create(O::print_tko, {Type::token()}, {{}, {}}, {attr("str", Attribute::string("hi\n"))});
  Value* pv = k.view(1);
  k.at(80).b.load_view(pv, {k.index()}, print.result(0));
  k.finish();
  EXPECT_ONLY_PROBLEM(k.module, v13_1,
                      "in kernel 'k' at bad.cpp:80:7: load_view_tko: operand 2 uses the token of a print op, "
                      "which bytecode 13.1 does not have");
}

// ---- assume, constants, print ------------------------------------------------------------------------

TEST(VerifierError, DivByIsAPowerOfTwo) {
  Kernel k;
  k.at(81).b.assume(k.f.parameter(0), Attribute::div_by(12));
  k.finish();
  EXPECT_ONLY_PROBLEM(
      k.module, v13_3,
      "in kernel 'k' at bad.cpp:81:7: assume: div_by divisor must be a power of two <= 2^62, got 12");
}

TEST(VerifierError, BoundedLowerAtMostUpper) {
  Kernel k;
  k.at(82).b.assume(k.f.parameter(1), Attribute::bounded(5, 2));
  k.finish();
  EXPECT_ONLY_PROBLEM(k.module, v13_3,
                      "in kernel 'k' at bad.cpp:82:7: assume: bounded lower bound 5 exceeds upper bound 2");
}

TEST(VerifierError, DivByNotOnFloats) {
  Kernel k;
  Value* x = k.f32();
  k.at(83).b.assume(x, Attribute::div_by(4));
  k.finish();
  EXPECT_ONLY_PROBLEM(k.module, v13_3,
                      "in kernel 'k' at bad.cpp:83:7: assume: div_by applies to tiles of integers or "
                      "pointers and tensor_views, got tile<4xf32>");
}

TEST(VerifierError, ConstantValueTypeIsResultType) {
  Kernel k;
  Attribute value = Attribute::dense(tile_type({4}, E::f32), {0, 0, 0x80, 0x3F});
  k.at(84).b.create_value(O::constant, tile_type({4}, E::i32), {}, {attr("value", value)});
  k.finish();
  EXPECT_ONLY_PROBLEM(k.module, v13_3,
                      "in kernel 'k' at bad.cpp:84:7: constant: value type must equal the result type: "
                      "tile<4xf32> vs tile<4xi32>");
}

TEST(VerifierError, ConstantStorageSize) {
  Kernel k;
  k.at(85).b.constant(Attribute::dense(tile_type({4}, E::f32), std::vector<uint8_t>(8, 0)));
  k.finish();
  EXPECT_ONLY_PROBLEM(
      k.module, v13_3,
      "in kernel 'k' at bad.cpp:85:7: constant: dense storage of 8 bytes does not fit tile<4xf32>");
}

TEST(VerifierError, PrintArgumentCountMatchesFormat) {
  Kernel k;
  k.at(86).b.create(O::print_tko, {Type::token()}, {{k.f.parameter(1)}, {}},
                    {attr("str", Attribute::string("%d and %f\n"))});
  k.finish();
  EXPECT_ONLY_PROBLEM(
      k.module, v13_3,
      "in kernel 'k' at bad.cpp:86:7: print_tko: format string has 2 conversions but 1 arguments");
}

// ---- optimization hints --------------------------------------------------------------------------

TEST(VerifierError, NumCtaInCgaIsPowerOfTwo) {
  Kernel k;
  k.f.set_hints(hints("sm_90", "num_cta_in_cga", Attribute::i32(3)));
  k.finish();
  EXPECT_ONLY_PROBLEM(k.module, v13_3,
                      "in kernel 'k' at bad.cpp:3:1: optimization hint sm_90.num_cta_in_cga must be a power "
                      "of two <= 16, got 3");
}

TEST(VerifierError, OccupancyRange) {
  Kernel k;
  k.f.set_hints(hints("sm_100", "occupancy", Attribute::i32(0)));
  k.finish();
  EXPECT_ONLY_PROBLEM(
      k.module, v13_3,
      "in kernel 'k' at bad.cpp:3:1: optimization hint sm_100.occupancy must be in [1, 32], got 0");
}

TEST(VerifierError, NumWorkerWarpsNeeds13_3) {
  Kernel k;
  k.f.set_hints(hints("sm_90", "num_worker_warps_per_cta", Attribute::i32(4)));
  k.finish();
  EXPECT_ONLY_PROBLEM(
      k.module, v13_2,
      "in kernel 'k' at bad.cpp:3:1: optimization hint num_worker_warps_per_cta requires bytecode 13.3");
}

TEST(VerifierError, DefaultHintKeyNeeds13_3) {
  Kernel k;
  k.f.set_hints(hints("default", "occupancy", Attribute::i32(2)));
  k.finish();
  EXPECT_ONLY_PROBLEM(k.module, v13_2,
                      "in kernel 'k' at bad.cpp:3:1: optimization hint key 'default' requires bytecode 13.3");
}

TEST(VerifierError, UnknownArchKey) {
  Kernel k;
  k.f.set_hints(hints("sm_99", "occupancy", Attribute::i32(2)));
  k.finish();
  EXPECT_ONLY_PROBLEM(k.module, v13_3,
                      "in kernel 'k' at bad.cpp:3:1: unknown optimization hint architecture key 'sm_99'");
}

TEST(VerifierError, LoadLatencyRange) {
  Kernel k;
  Value* pv = k.view(1);
  k.at(87).b.load_view(pv, {k.index()}, nullptr, MemoryOrdering::weak, std::nullopt,
                       hints("sm_90", "latency", Attribute::i32(11)));
  k.finish();
  EXPECT_ONLY_PROBLEM(k.module, v13_3,
                      "in kernel 'k' at bad.cpp:87:7: load_view_tko: optimization hint sm_90.latency must be "
                      "in [1, 10], got 11");
}

TEST(VerifierError, AllowTmaOnlyOnViewOps) {
  Kernel k;
  k.at(88).b.create(O::load_ptr_tko, {scalar_type(E::f32), Type::token()}, {{k.f.parameter(0)}, {}, {}, {}},
                    {ordering(MemoryOrdering::weak),
                     attr("optimization_hints", hints("sm_90", "allow_tma", Attribute::boolean(true)))});
  k.finish();
  EXPECT_ONLY_PROBLEM(
      k.module, v13_3,
      "in kernel 'k' at bad.cpp:88:7: load_ptr_tko: unknown optimization hint 'sm_90.allow_tma' for this op");
}

// ---- dominance -----------------------------------------------------------------------------------

TEST(VerifierError, ValuesOfSiblingRegionsAreNotVisible) {
  Kernel k;
  Value* c = k.num(E::i1, {});
  Value* from_then = nullptr;
  k.b.if_else(
      c, {scalar_type(E::f32)},
      [&](Builder& body, std::span<Value* const>) {
        from_then = body.constant_float(E::f32, 1.0);
        return std::vector<Value*>{from_then};
      },
      [&](Builder& body, std::span<Value* const>) {
        body.set_location({"bad.cpp", 89, 7});
        return std::vector<Value*>{from_then};
      });
  k.finish();
  EXPECT_ONLY_PROBLEM(
      k.module, v13_3,
      "in kernel 'k' at bad.cpp:89:7: yield: operand 0 (tile<f32>) is not defined before this op in the same "
      "block or an enclosing block");
}

TEST(VerifierError, LoopBodyValuesAreNotVisibleAfterTheLoop) {
  Kernel k;
  Value* zero = k.index();
  Value* inner = nullptr;
  k.b.for_loop(zero, zero, zero, {}, [&](Builder& body, std::span<Value* const> a) {
    inner = body.binary(O::addi, a[0], a[0]);
    return std::vector<Value*>{};
  });
  k.at(90).b.binary(O::addi, inner, inner);
  k.finish();
  EXPECT_ONLY_PROBLEM(
      k.module, v13_3,
      "in kernel 'k' at bad.cpp:90:7: addi: operand 0 (tile<i32>) is not defined before this op");
}

TEST(VerifierError, ValuesOfAnotherKernelAreNotVisible) {
  Kernel k;
  Function& other = k.module.add_function("other", {scalar_type(E::i32)});
  Builder(other.entry_block()).return_();
  k.at(91).b.binary(O::addi, other.parameter(0), other.parameter(0));
  k.finish();
  EXPECT_ONLY_PROBLEM(
      k.module, v13_3,
      "in kernel 'k' at bad.cpp:91:7: addi: operand 0 (tile<i32>) is not defined before this op");
}

// ---- globals -------------------------------------------------------------------------------------

TEST(VerifierError, GetGlobalNamesAGlobal) {
  Kernel k;
  k.at(92).b.create_value(O::get_global, pointer_type(E::f32), {}, {attr("name", Attribute::string("nope"))});
  k.finish();
  EXPECT_ONLY_PROBLEM(
      k.module, v13_3,
      "in kernel 'k' at bad.cpp:92:7: get_global: 'nope' does not name a global of the module");
}

TEST(VerifierError, GlobalsAreRankOne) {
  Kernel k;
  k.module.add_global({"table", Attribute::dense(tile_type({2, 2}, E::f32), {0, 0, 0, 0})});
  k.finish();
  EXPECT_ONLY_PROBLEM(k.module, v13_3, "in module: global 'table': type must have rank 1, got tile<2x2xf32>");
}

TEST(VerifierError, AllocaAlignment) {
  Kernel k;
  k.at(93).b.create_value(O::alloca, pointer_type(E::f64), {},
                          {attr("num_elem", Attribute::i64(16)), attr("alignment", Attribute::i64(4))});
  k.finish();
  EXPECT_ONLY_PROBLEM(k.module, v13_3,
                      "in kernel 'k' at bad.cpp:93:7: alloca: alignment 4 is below the 8-byte size of f64");
}

}  // namespace
