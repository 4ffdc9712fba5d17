// The opcode table. Encodings follow the bytecode reference: attribute write order, optional items
// (flags bits), operand groups, the version each op and each later addition arrived in.
#include "cutile/ir/op_table.hpp"

#include <algorithm>
#include <array>
#include <vector>

#include "cutile/error.hpp"

namespace cutile::ir {
namespace {

using E = AttrEncoding;
using K = EnumKind;
using A = Arity;

constexpr int64_t kNearestEven = static_cast<int64_t>(RoundingMode::nearest_even);
constexpr int64_t kRoundZero = static_cast<int64_t>(RoundingMode::zero);
constexpr int64_t kRoundFull = static_cast<int64_t>(RoundingMode::full);
constexpr int64_t kNearestIntToZero = static_cast<int64_t>(RoundingMode::nearest_int_to_zero);

constexpr AttrSpec unit_attr(std::string_view name, Version since = v13_1) {
  return {name, E::unit, K::signedness, true, since, 0, false};
}
constexpr AttrSpec enum_attr(std::string_view name, K kind) { return {name, E::enum_value, kind}; }
constexpr AttrSpec defaulted_enum(std::string_view name, K kind, int64_t def, Version since = v13_1) {
  return {name, E::enum_value, kind, false, since, def, true};
}
constexpr AttrSpec optional_enum(std::string_view name, K kind) {
  return {name, E::enum_value, kind, true, v13_1, 0, false};
}
constexpr AttrSpec plain(std::string_view name, E encoding) { return {name, encoding}; }

// Attribute lists shared by several ops.
constexpr AttrSpec kFtzRounding[] = {unit_attr("flush_to_zero"),
                                     defaulted_enum("rounding_mode", K::rounding, kNearestEven)};
constexpr AttrSpec kFtz[] = {unit_attr("flush_to_zero")};
constexpr AttrSpec kNanFtz[] = {unit_attr("propagate_nan"), unit_attr("flush_to_zero")};
constexpr AttrSpec kOverflow[] = {defaulted_enum("overflow", K::overflow, 0)};
constexpr AttrSpec kNegiOverflow[] = {defaulted_enum("overflow", K::overflow, 0, v13_2)};
constexpr AttrSpec kSignedness[] = {enum_attr("signedness", K::signedness)};
constexpr AttrSpec kDivi[] = {enum_attr("signedness", K::signedness),
                              defaulted_enum("rounding", K::rounding, kRoundZero)};
constexpr AttrSpec kItof[] = {enum_attr("signedness", K::signedness),
                              defaulted_enum("rounding_mode", K::rounding, kNearestEven)};
constexpr AttrSpec kFtoi[] = {unit_attr("saturating", v13_4), enum_attr("signedness", K::signedness),
                              defaulted_enum("rounding_mode", K::rounding, kNearestIntToZero)};
constexpr AttrSpec kFtof[] = {defaulted_enum("rounding_mode", K::rounding, kNearestEven)};
constexpr AttrSpec kCmpf[] = {enum_attr("comparison_predicate", K::comparison_predicate),
                              enum_attr("comparison_ordering", K::comparison_ordering)};
constexpr AttrSpec kCmpi[] = {enum_attr("comparison_predicate", K::comparison_predicate),
                              enum_attr("signedness", K::signedness)};
constexpr AttrSpec kExp[] = {defaulted_enum("rounding_mode", K::rounding, kRoundFull, v13_3)};
constexpr AttrSpec kTanh[] = {defaulted_enum("rounding_mode", K::rounding, kRoundFull, v13_2)};
constexpr AttrSpec kMmaf[] = {unit_attr("fast_acc", v13_3)};
constexpr AttrSpec kForAttrs[] = {unit_attr("unsignedCmp", v13_2)};
constexpr AttrSpec kMmai[] = {enum_attr("signedness_lhs", K::signedness),
                              enum_attr("signedness_rhs", K::signedness)};
constexpr AttrSpec kAssert[] = {plain("message", E::string)};
constexpr AttrSpec kAssume[] = {plain("predicate", E::self_contained)};
constexpr AttrSpec kConstant[] = {plain("value", E::constant)};
constexpr AttrSpec kCat[] = {plain("dim", E::integer)};
constexpr AttrSpec kPermute[] = {plain("permutation", E::i32_array)};
constexpr AttrSpec kReduce[] = {plain("dim", E::integer), plain("identities", E::attribute_array)};
constexpr AttrSpec kScan[] = {plain("dim", E::integer), plain("reverse", E::boolean),
                              plain("identities", E::attribute_array)};
constexpr AttrSpec kGetGlobal[] = {plain("name", E::string)};
constexpr AttrSpec kPrint[] = {plain("str", E::string)};
constexpr AttrSpec kAlloca[] = {unit_attr("global"), plain("num_elem", E::integer),
                                plain("alignment", E::integer)};
constexpr AttrSpec kPtrMemory[] = {enum_attr("memory_ordering_semantics", K::memory_ordering),
                                   optional_enum("memory_scope", K::memory_scope),
                                   {"optimization_hints", E::hints, K::signedness, true}};
constexpr AttrSpec kViewMemory[] = {enum_attr("memory_ordering_semantics", K::memory_ordering),
                                    optional_enum("memory_scope", K::memory_scope),
                                    {"optimization_hints", E::hints, K::signedness, true},
                                    {"inbounds", E::bool_array, K::signedness, false, v13_4, 0, true}};
// 13.5 gives atomic_red_view_tko the view ops' `inbounds` list.
constexpr AttrSpec kAtomicRedViewAttrs[] = {enum_attr("memory_ordering_semantics", K::memory_ordering),
                                            enum_attr("memory_scope", K::memory_scope), enum_attr("mode", K::atomic_mode),
                                            {"inbounds", E::bool_array, K::signedness, false, v13_5, 0, true}};
constexpr AttrSpec kMultimemReduceMemory[] = {
    enum_attr("memory_ordering_semantics", K::memory_ordering), optional_enum("memory_scope", K::memory_scope),
    defaulted_enum("reduction", K::multimem_reduction, 0),
    {"inbounds", E::bool_array, K::signedness, false, v13_1, 0, true}};
constexpr AttrSpec kMultimemStoreMemory[] = {
    enum_attr("memory_ordering_semantics", K::memory_ordering), optional_enum("memory_scope", K::memory_scope),
    {"inbounds", E::bool_array, K::signedness, false, v13_1, 0, true}};
constexpr AttrSpec kAtomicCas[] = {enum_attr("memory_ordering_semantics", K::memory_ordering),
                                   enum_attr("memory_scope", K::memory_scope)};
constexpr AttrSpec kAtomicRmw[] = {enum_attr("memory_ordering_semantics", K::memory_ordering),
                                   enum_attr("memory_scope", K::memory_scope),
                                   enum_attr("mode", K::atomic_mode)};

// Operand group lists.
constexpr OperandSpec kSource[] = {{"source"}};
constexpr OperandSpec kFrom[] = {{"from"}};
constexpr OperandSpec kBinary[] = {{"lhs"}, {"rhs"}};
constexpr OperandSpec kXY[] = {{"x"}, {"y"}};
constexpr OperandSpec kTernary[] = {{"lhs"}, {"rhs"}, {"acc"}};
constexpr OperandSpec kVariadic[] = {{"operands", A::variadic}};
constexpr OperandSpec kCondition[] = {{"condition"}};
constexpr OperandSpec kValue[] = {{"value"}};
constexpr OperandSpec kSelect[] = {{"cond"}, {"val_if_true"}, {"val_if_false"}};
constexpr OperandSpec kPow[] = {{"source"}, {"exponent"}};
constexpr OperandSpec kOffset[] = {{"ptr"}, {"offset"}};
constexpr OperandSpec kExtract[] = {{"source"}, {"indices", A::variadic}};
constexpr OperandSpec kInsert[] = {{"source"}, {"destination"}, {"indices", A::variadic}};
constexpr OperandSpec kFor[] = {{"lowerBound"}, {"upperBound"}, {"step"}, {"initValues", A::variadic}};
constexpr OperandSpec kLoop[] = {{"initValues", A::variadic}};
constexpr OperandSpec kTokens[] = {{"tokens", A::variadic}};
constexpr OperandSpec kTensorViewOperand[] = {{"tensor_view"}};
constexpr OperandSpec kShapeQuery[] = {{"src"}};
constexpr OperandSpec kMakeTensorView[] = {{"base"}, {"dynamicShape", A::variadic},
                                           {"dynamicStrides", A::variadic}};
constexpr OperandSpec kLoadPtr[] = {{"source"}, {"mask", A::optional}, {"paddingValue", A::optional},
                                    {"token", A::optional}};
constexpr OperandSpec kStorePtr[] = {{"destination"}, {"value"}, {"mask", A::optional},
                                     {"token", A::optional}};
constexpr OperandSpec kLoadView[] = {{"view"}, {"index", A::variadic}, {"token", A::optional}};
constexpr OperandSpec kStoreView[] = {{"tile"}, {"view"}, {"index", A::variadic}, {"token", A::optional}};
constexpr OperandSpec kAtomicRedView[] = {{"view"}, {"index", A::variadic}, {"value"},
                                          {"token", A::optional}};
constexpr OperandSpec kMultimemLoadReduce[] = {{"view"}, {"index", A::variadic}, {"token", A::optional}};
constexpr OperandSpec kMultimemStore[] = {{"view"}, {"tile"}, {"index", A::variadic}, {"token", A::optional}};
constexpr OperandSpec kAtomicCasOps[] = {{"pointers"}, {"cmp"}, {"val"}, {"mask", A::optional},
                                         {"token", A::optional}};
constexpr OperandSpec kAtomicRmwOps[] = {{"pointers"}, {"arg"}, {"mask", A::optional},
                                         {"token", A::optional}};
constexpr OperandSpec kPrintOps[] = {{"args", A::variadic}, {"token", A::optional, v13_2}};
constexpr OperandSpec kOptionalToken[] = {{"token", A::optional}};
constexpr OperandSpec kToken[] = {{"token"}};
constexpr OperandSpec kMmaScaled[] = {{"lhs"}, {"rhs"}, {"acc"}, {"lhs_scale"}, {"rhs_scale"}};

template <size_t N>
constexpr std::span<const AttrSpec> attrs(const AttrSpec (&a)[N]) { return {a, N}; }
template <size_t N>
constexpr std::span<const OperandSpec> operands(const OperandSpec (&o)[N]) { return {o, N}; }
constexpr std::span<const AttrSpec> no_attrs() { return {}; }
constexpr std::span<const OperandSpec> no_operands() { return {}; }

// Shorthands for the common shapes of op records.
OpSpec unary(Opcode op, std::string_view name, Version since = v13_1) {
  OpSpec s{op, name, since};
  s.operands = operands(kSource);
  s.attrs = no_attrs();
  s.pure = true;
  return s;
}
OpSpec with_attrs(OpSpec s, std::span<const AttrSpec> a) {
  s.attrs = a;
  return s;
}
OpSpec with_operands(OpSpec s, std::span<const OperandSpec> o) {
  s.operands = o;
  return s;
}
OpSpec binary(Opcode op, std::string_view name, std::span<const AttrSpec> a = no_attrs()) {
  return with_attrs(with_operands(unary(op, name), operands(kBinary)), a);
}
OpSpec impure(OpSpec s) {
  s.pure = false;
  return s;
}
/// Ops with MLIR's Pure trait that are not built by unary/binary.
OpSpec pure(OpSpec s) {
  s.pure = true;
  return s;
}
OpSpec variadic(Opcode op, std::string_view name, int num_results, std::span<const OperandSpec> o) {
  OpSpec s{op, name};
  s.variadic_results = true;
  s.num_results = num_results;
  s.operands = o;
  s.attrs = no_attrs();
  return s;
}
OpSpec fixed(Opcode op, std::string_view name, int num_results, std::span<const OperandSpec> o,
             std::span<const AttrSpec> a = no_attrs(), Version since = v13_1) {
  OpSpec s{op, name, since};
  s.num_results = num_results;
  s.operands = o;
  s.attrs = a;
  return s;
}
OpSpec terminator(Opcode op, std::string_view name) {
  OpSpec s = variadic(op, name, 0, operands(kVariadic));
  s.terminator = true;
  return s;
}
OpSpec with_regions(OpSpec s, int n) {
  s.num_regions = n;
  return s;
}
OpSpec attr_sized(OpSpec s) {
  s.attr_sized_operands = true;
  return s;
}
OpSpec since(OpSpec s, Version v) {
  s.since = v;
  return s;
}

std::vector<OpSpec> build_table() {
  using O = Opcode;
  std::vector<OpSpec> t = {
      unary(O::absf, "absf"),
      unary(O::absi, "absi"),
      binary(O::addf, "addf", attrs(kFtzRounding)),
      binary(O::addi, "addi", attrs(kOverflow)),
      binary(O::andi, "andi"),
      fixed(O::assert_, "assert", 0, operands(kCondition), attrs(kAssert)),
      fixed(O::assume, "assume", 1, operands(kValue), attrs(kAssume)),
      attr_sized(fixed(O::atomic_cas_tko, "atomic_cas_tko", 2, operands(kAtomicCasOps), attrs(kAtomicCas))),
      attr_sized(fixed(O::atomic_rmw_tko, "atomic_rmw_tko", 2, operands(kAtomicRmwOps), attrs(kAtomicRmw))),
      unary(O::bitcast, "bitcast"),
      terminator(O::break_, "break"),
      unary(O::broadcast, "broadcast"),
      with_attrs(binary(O::cat, "cat"), attrs(kCat)),
      unary(O::ceil, "ceil"),
      binary(O::cmpf, "cmpf", attrs(kCmpf)),
      binary(O::cmpi, "cmpi", attrs(kCmpi)),
      with_operands(with_attrs(unary(O::constant, "constant"), attrs(kConstant)), no_operands()),
      terminator(O::continue_, "continue"),
      unary(O::cos, "cos"),
      unary(O::cosh, "cosh"),
      binary(O::divf, "divf", attrs(kFtzRounding)),
      impure(binary(O::divi, "divi", attrs(kDivi))),
      fixed(O::entry, "entry", 0, no_operands()),
      with_attrs(unary(O::exp, "exp"), attrs(kExp)),
      with_attrs(unary(O::exp2, "exp2"), attrs(kFtz)),
      with_operands(with_attrs(unary(O::exti, "exti"), attrs(kSignedness)), operands(kFrom)),
      [] {
        OpSpec s = variadic(O::extract, "extract", 1, operands(kExtract));
        s.pure = true;
        return s;
      }(),
      unary(O::floor, "floor"),
      with_operands(with_attrs(unary(O::fma, "fma"), attrs(kFtzRounding)), operands(kTernary)),
      with_attrs(with_regions(variadic(O::for_, "for", -1, operands(kFor)), 1), attrs(kForAttrs)),
      with_operands(with_attrs(unary(O::ftof, "ftof"), attrs(kFtof)), operands(kFrom)),
      with_operands(with_attrs(unary(O::ftoi, "ftoi"), attrs(kFtoi)), operands(kFrom)),
      pure(fixed(O::get_global, "get_global", 1, no_operands(), attrs(kGetGlobal))),
      variadic(O::get_index_space_shape, "get_index_space_shape", -1, operands(kShapeQuery)),
      pure(fixed(O::get_num_tile_blocks, "get_num_tile_blocks", 3, no_operands())),
      variadic(O::get_tensor_shape, "get_tensor_shape", -1, operands(kShapeQuery)),
      pure(fixed(O::get_tile_block_id, "get_tile_block_id", 3, no_operands())),
      fixed(O::global, "global", 0, no_operands()),
      with_regions(variadic(O::if_, "if", -1, operands(kCondition)), 2),
      unary(O::int_to_ptr, "int_to_ptr"),
      with_operands(unary(O::iota, "iota"), no_operands()),
      with_operands(with_attrs(unary(O::itof, "itof"), attrs(kItof)), operands(kFrom)),
      pure(variadic(O::join_tokens, "join_tokens", 1, operands(kTokens))),
      attr_sized(fixed(O::load_ptr_tko, "load_ptr_tko", 2, operands(kLoadPtr), attrs(kPtrMemory))),
      with_attrs(attr_sized(variadic(O::load_view_tko, "load_view_tko", 2, operands(kLoadView))),
                 attrs(kViewMemory)),
      unary(O::log, "log"),
      unary(O::log2, "log2"),
      with_regions(variadic(O::loop, "loop", -1, operands(kLoop)), 1),
      pure(fixed(O::make_partition_view, "make_partition_view", 1, operands(kTensorViewOperand))),
      attr_sized(variadic(O::make_tensor_view, "make_tensor_view", 1, operands(kMakeTensorView))),
      pure(fixed(O::make_token, "make_token", 1, no_operands())),
      binary(O::maxf, "maxf", attrs(kNanFtz)),
      binary(O::maxi, "maxi", attrs(kSignedness)),
      binary(O::minf, "minf", attrs(kNanFtz)),
      binary(O::mini, "mini", attrs(kSignedness)),
      with_operands(with_attrs(unary(O::mmaf, "mmaf"), attrs(kMmaf)), operands(kTernary)),
      with_operands(with_attrs(unary(O::mmai, "mmai"), attrs(kMmai)), operands(kTernary)),
      fixed(O::module, "module", 0, no_operands()),
      binary(O::mulf, "mulf", attrs(kFtzRounding)),
      with_operands(unary(O::mulhii, "mulhii"), operands(kXY)),
      binary(O::muli, "muli", attrs(kOverflow)),
      unary(O::negf, "negf"),
      with_attrs(unary(O::negi, "negi"), attrs(kNegiOverflow)),
      with_operands(unary(O::offset, "offset"), operands(kOffset)),
      binary(O::ori, "ori"),
      with_attrs(unary(O::permute, "permute"), attrs(kPermute)),
      with_operands(unary(O::pow, "pow"), operands(kPow)),
      [] {
        OpSpec s = attr_sized(variadic(O::print_tko, "print_tko", 1, operands(kPrintOps)));
        s.attrs = attrs(kPrint);
        s.results_since = v13_2;
        return s;
      }(),
      unary(O::ptr_to_int, "ptr_to_int"),
      unary(O::ptr_to_ptr, "ptr_to_ptr"),
      with_attrs(with_regions(variadic(O::reduce, "reduce", -1, operands(kVariadic)), 1), attrs(kReduce)),
      binary(O::remf, "remf"),
      binary(O::remi, "remi", attrs(kSignedness)),
      unary(O::reshape, "reshape"),
      terminator(O::return_, "return"),
      with_attrs(unary(O::rsqrt, "rsqrt"), attrs(kFtz)),
      with_attrs(with_regions(variadic(O::scan, "scan", -1, operands(kVariadic)), 1), attrs(kScan)),
      with_operands(unary(O::select, "select"), operands(kSelect)),
      binary(O::shli, "shli", attrs(kOverflow)),
      binary(O::shri, "shri", attrs(kSignedness)),
      unary(O::sin, "sin"),
      unary(O::sinh, "sinh"),
      with_attrs(unary(O::sqrt, "sqrt"), attrs(kFtzRounding)),
      attr_sized(fixed(O::store_ptr_tko, "store_ptr_tko", 1, operands(kStorePtr), attrs(kPtrMemory))),
      with_attrs(attr_sized(variadic(O::store_view_tko, "store_view_tko", 1, operands(kStoreView))),
                 attrs(kViewMemory)),
      binary(O::subf, "subf", attrs(kFtzRounding)),
      binary(O::subi, "subi", attrs(kOverflow)),
      unary(O::tan, "tan"),
      with_attrs(unary(O::tanh, "tanh"), attrs(kTanh)),
      with_operands(with_attrs(unary(O::trunci, "trunci"), attrs(kOverflow)), operands(kFrom)),
      binary(O::xori, "xori"),
      terminator(O::yield, "yield"),
      since(with_operands(unary(O::atan2, "atan2"), operands(kXY)), v13_2),
      since(unary(O::pack, "pack"), v13_3),
      since(unary(O::unpack, "unpack"), v13_3),
      fixed(O::alloca, "alloca", 1, no_operands(), attrs(kAlloca), v13_3),
      since(with_operands(unary(O::mmaf_scaled, "mmaf_scaled"), operands(kMmaScaled)), v13_3),
      pure(fixed(O::make_gather_scatter_view, "make_gather_scatter_view", 1, operands(kTensorViewOperand), no_attrs(),
                 v13_3)),
      pure(fixed(O::make_strided_view, "make_strided_view", 1, operands(kTensorViewOperand), no_attrs(), v13_3)),
      since(with_attrs(attr_sized(variadic(O::atomic_red_view_tko, "atomic_red_view_tko", 1,
                                           operands(kAtomicRedView))),
                       attrs(kAtomicRedViewAttrs)),
            v13_3),
      [] {
        OpSpec s = since(variadic(O::insert, "insert", 1, operands(kInsert)), v13_4);
        s.pure = true;
        return s;
      }(),
      fixed(O::gdc_launch_dependents_tko, "gdc_launch_dependents_tko", 1, operands(kOptionalToken), no_attrs(),
            v13_4),
      fixed(O::gdc_wait_tko, "gdc_wait_tko", 1, operands(kOptionalToken), no_attrs(), v13_4),
      since(with_operands(unary(O::fpowi, "fpowi"), operands(kPow)), v13_4),
      fixed(O::memory_fence_alias_tko, "memory_fence_alias_tko", 1, operands(kToken), no_attrs(), v13_4),
      since(with_attrs(attr_sized(variadic(O::multimem_load_reduce_view_tko, "multimem_load_reduce_view_tko", 2,
                                           operands(kMultimemLoadReduce))),
                       attrs(kMultimemReduceMemory)),
            v13_5),
      [] {
        OpSpec s = since(with_attrs(attr_sized(variadic(O::multimem_reduce_view_tko, "multimem_reduce_view_tko", 1,
                                                        operands(kMultimemStore))),
                                    attrs(kMultimemReduceMemory)),
                         v13_5);
        s.operand_flags_first = true;
        return s;
      }(),
      since(with_attrs(attr_sized(variadic(O::multimem_store_view_tko, "multimem_store_view_tko", 1,
                                           operands(kMultimemStore))),
                       attrs(kMultimemStoreMemory)),
            v13_5),
  };
  std::sort(t.begin(), t.end(), [](const OpSpec& a, const OpSpec& b) { return a.opcode < b.opcode; });
  return t;
}

const std::vector<OpSpec>& table() {
  static const std::vector<OpSpec> t = build_table();
  return t;
}

const std::array<const OpSpec*, 256>& by_opcode() {
  static const std::array<const OpSpec*, 256> index = [] {
    std::array<const OpSpec*, 256> a{};
    for (const OpSpec& s : table()) a[static_cast<uint8_t>(s.opcode)] = &s;
    return a;
  }();
  return index;
}

// Optional items in flags-bit order: grouped by introducing version; attributes before operands.
struct FlagItem {
  bool is_attr;
  size_t index;
  Version since;
};

std::vector<FlagItem> flag_items(const OpSpec& s) {
  std::vector<FlagItem> items;
  for (size_t i = 0; i < s.attrs.size(); ++i)
    if (s.attrs[i].optional) items.push_back({true, i, s.attrs[i].since});
  if (s.attr_sized_operands)
    for (size_t i = 0; i < s.operands.size(); ++i)
      if (s.operands[i].arity == Arity::optional) items.push_back({false, i, s.operands[i].since});
  std::stable_sort(items.begin(), items.end(), [&s](const FlagItem& a, const FlagItem& b) {
    if (a.since != b.since) return a.since < b.since;
    return s.operand_flags_first ? (!a.is_attr && b.is_attr) : (a.is_attr && !b.is_attr);
  });
  return items;
}

std::optional<int> flag_bit(const OpSpec& s, bool is_attr, size_t index, Version version) {
  int bit = 0;
  for (const FlagItem& item : flag_items(s)) {
    if (item.since > version) break;
    if (item.is_attr == is_attr && item.index == index) return bit;
    ++bit;
  }
  return std::nullopt;
}

}  // namespace

bool OpSpec::has_flags(Version version) const {
  for (const FlagItem& item : flag_items(*this))
    if (item.since <= version) return true;
  return false;
}

std::optional<int> OpSpec::flag_bit_of_attr(std::string_view attr_name, Version version) const {
  for (size_t i = 0; i < attrs.size(); ++i)
    if (attrs[i].name == attr_name) return attrs[i].optional ? flag_bit(*this, true, i, version) : std::nullopt;
  return std::nullopt;
}

std::optional<int> OpSpec::flag_bit_of_operand(size_t group, Version version) const {
  if (!attr_sized_operands || group >= operands.size() || operands[group].arity != Arity::optional)
    return std::nullopt;
  return flag_bit(*this, false, group, version);
}

const AttrSpec* OpSpec::find_attr(std::string_view name) const {
  for (const AttrSpec& a : attrs)
    if (a.name == name) return &a;
  return nullptr;
}

bool OpSpec::writes_operand_count() const {
  if (attr_sized_operands) return false;
  return std::any_of(operands.begin(), operands.end(),
                     [](const OperandSpec& o) { return o.arity != Arity::single; });
}

const OpSpec* find_op(uint8_t opcode) { return by_opcode()[opcode]; }

const OpSpec& op_spec(Opcode opcode) {
  const OpSpec* s = find_op(static_cast<uint8_t>(opcode));
  if (s == nullptr) throw InternalError("no op table entry for opcode " + std::to_string(int(opcode)));
  return *s;
}

const OpSpec* find_op(std::string_view mnemonic) {
  for (const OpSpec& s : table())
    if (s.mnemonic == mnemonic) return &s;
  return nullptr;
}

std::span<const OpSpec> all_ops() { return table(); }

}  // namespace cutile::ir
