// Valid modules pass the verifier: the builder examples (vector add, softmax with reduce, tiled GEMM
// with for + mmaf) and kernels that use the rest of the control flow, memory and misc ops.
#include <gtest/gtest.h>

#include <limits>

#include "09_ir_builder/builder_kernels.hpp"
#include "cutile/error.hpp"
#include "cutile/ir/builder.hpp"
#include "cutile/ir/verifier.hpp"

namespace {

using namespace cutile::ir;
using E = ElementType;

/// All problems, one per line, for a readable failure message.
std::string problems(const Module& m, Version v = kDefaultVersion) {
  std::string out;
  for (const Diagnostic& d : check_module(m, v)) out += d.str() + "\n";
  return out;
}

TEST(Verifier, BuilderExamplesAreValid) {
  for (E e : {E::f16, E::bf16, E::f32}) {
    auto vadd = examples::vector_add_module(e, 128);
    EXPECT_EQ(problems(*vadd), "") << element_type_name(e);
    auto softmax = examples::row_softmax_module(e, 1024);
    EXPECT_EQ(problems(*softmax), "") << element_type_name(e);
  }
  for (E e : {E::f16, E::bf16}) {
    auto gemm = examples::tiled_gemm_module(e, 64, 64, 32);
    EXPECT_EQ(problems(*gemm), "") << element_type_name(e);
    EXPECT_NO_THROW(verify_module(*gemm));
  }
}

TEST(Verifier, ExamplesAreValidInEveryVersion) {
  auto gemm = examples::tiled_gemm_module(E::f16, 64, 64, 32);
  auto softmax = examples::row_softmax_module(E::f32, 256);
  for (Version v : {v13_1, v13_2, v13_3, v13_4, v13_5}) {
    EXPECT_EQ(problems(*gemm, v), "") << v.str();
    EXPECT_EQ(problems(*softmax, v), "") << v.str();
  }
}

/// A kernel over a 1-D f32 tensor of n elements, built in pieces by each test.
struct Kernel {
  Module module;
  Function& f;
  Builder b;
  Kernel()
      : f(module.add_function("coverage", {pointer_type(E::f32), pointer_type(E::i32), scalar_type(E::i32)})),
        b(f.entry_block()) {
    b.set_location({"coverage.cpp", 10, 3});
  }
  Value* view(Value* base, E e, std::optional<PaddingValue> padding = std::nullopt) {
    Value* tv =
        b.make_tensor_view(base, Type::tensor_view(Type::element(e), {kDynamic}, {1}), {f.parameter(2)}, {});
    return b.make_partition_view(tv, {64}, padding);
  }
};

TEST(Verifier, ControlFlowKernelIsValid) {
  Kernel k;
  Builder& b = k.b;
  Value* pv = k.view(k.f.parameter(0), E::f32, PaddingValue::zero);
  Value* row = b.tile_block_id()[0];
  auto [x, token] = b.load_view(pv, {row});
  // scan + reduce with two operands.
  Value* prefix = b.scan({x}, 0, false, {Attribute::floating(Type::element(E::f32), 0.0)},
                         [](Builder& body, std::span<Value* const> a) {
                           return std::vector<Value*>{body.binary(Opcode::addf, a[0], a[1])};
                         })[0];
  Value* ix = b.iota(64);
  auto minmax =
      b.reduce({prefix, ix}, 0,
               {Attribute::floating(Type::element(E::f32), std::numeric_limits<double>::infinity()),
                Attribute::i32(0)},
               [](Builder& body, std::span<Value* const> a) {
                 Value* lt = body.cmpf(ComparisonPredicate::less_than, a[0], a[1]);
                 return std::vector<Value*>{body.select(lt, a[0], a[1]), body.select(lt, a[2], a[3])};
               });
  // if with results, both branches yield.
  Value* zero = b.constant_float(E::f32, 0.0);
  Value* positive = b.cmpf(ComparisonPredicate::greater_than, minmax[0], zero);
  Value* clamped = b.if_else(
      positive, {scalar_type(E::f32)},
      [&](Builder&, std::span<Value* const>) { return std::vector<Value*>{minmax[0]}; },
      [&](Builder&, std::span<Value* const>) { return std::vector<Value*>{zero}; })[0];
  // loop with continue and break: the break sits in an if nested in the loop.
  Operation& loop = b.create(Opcode::loop, {scalar_type(E::f32)}, {{clamped}}, {}, 1);
  Block& body = loop.region(0).add_block();
  Value* carried = body.add_argument(scalar_type(E::f32));
  Builder lb(body);
  Value* done = lb.cmpf(ComparisonPredicate::greater_than, carried, lb.constant_float(E::f32, 100.0));
  Operation& exit = lb.create(Opcode::if_, {}, {{done}}, {}, 2);
  Builder then_b(exit.region(0).add_block());
  then_b.create(Opcode::break_, {}, {{carried}});
  Builder else_b(exit.region(1).add_block());
  else_b.yield();
  Value* doubled = lb.binary(Opcode::addf, carried, carried);
  lb.continue_({doubled});
  // An early return from an if nested in the kernel body.
  Value* big = b.cmpf(ComparisonPredicate::greater_than, loop.result(0), zero);
  Operation& early = b.create(Opcode::if_, {}, {{big}}, {}, 2);
  Builder(early.region(0).add_block()).return_();
  // Store the broadcast result after the first store-ordering token.
  Value* out = b.broadcast(b.reshape(loop.result(0), {1}), {64});
  b.store_view(out, pv, {row}, token);
  b.return_();
  EXPECT_EQ(problems(k.module), "");
}

TEST(Verifier, MemoryAndMiscKernelIsValid) {
  Kernel k;
  Builder& b = k.b;
  Value* base = b.assume(k.f.parameter(1), Attribute::div_by(16));
  Value* n = b.assume(k.f.parameter(2), Attribute::bounded(0, std::nullopt));
  Value* ptrs = b.offset(b.broadcast(b.reshape(base, {1}), {64}), b.iota(64));
  Value* mask = b.cmpi(ComparisonPredicate::less_than, b.iota(64), b.broadcast(b.reshape(n, {1}), {64}));
  auto [v, t0] = b.load_ptr(ptrs, mask, b.constant_int(E::i32, 0, {64}));
  Operation& rmw = b.create(
      Opcode::atomic_rmw_tko, {v->type(), Type::token()}, {{ptrs}, {v}, {mask}, {t0}},
      {{"memory_ordering_semantics", Attribute::enum_of(EnumKind::memory_ordering, MemoryOrdering::acq_rel)},
       {"memory_scope", Attribute::enum_of(EnumKind::memory_scope, MemoryScope::device)},
       {"mode", Attribute::enum_of(EnumKind::atomic_mode, AtomicRmwMode::add)}});
  Operation& print = b.create(Opcode::print_tko, {Type::token()}, {{n}, {rmw.result(1)}},
                              {{"str", Attribute::string("n = %d (100%%)\n")}});
  Value* joined = b.join_tokens({print.result(0), b.make_token()});
  b.store_ptr(ptrs, b.binary(Opcode::muli, v, v), mask, joined);
  Value* wide = b.exti(v, E::i64);
  Value* f = b.itof(b.trunci(wide, E::i16), E::f16);
  b.ftoi(b.ftof(f, E::f32), E::i32);
  b.create_value(Opcode::bitcast, tile_type({64}, E::f32), {v});
  b.permute(b.reshape(v, {8, 8}), {1, 0});
  b.create(Opcode::assert_, {}, {{mask}}, {{"message", Attribute::string("in range")}});
  b.return_();
  EXPECT_EQ(problems(k.module), "");
}

// tileiras 13.4 admits memory-effect-free ops (divi, an if of pure ops) in reduce bodies and an early
// return from a loop; bytecode 13.3 keeps the 13.3 rules (checked in the error tier).
TEST(Verifier, Relaxed13_4RulesAreValidAt13_4) {
  Kernel k;
  Value* x = k.b.iota(64);
  k.b.reduce({x}, 0, {Attribute::i32(1)}, [](Builder& body, std::span<Value* const> a) {
    Value* q = body.binary(Opcode::divi, a[0], a[1],
                           {{"signedness", Attribute::enum_of(EnumKind::signedness, Signedness::signed_)}});
    Value* c = body.cmpi(ComparisonPredicate::less_than, q, a[1]);
    return body.if_else(
        c, {q->type()}, [&](Builder&, std::span<Value* const>) { return std::vector<Value*>{q}; },
        [&](Builder&, std::span<Value* const>) { return std::vector<Value*>{a[1]}; });
  });
  Operation& loop = k.b.create(Opcode::loop, {}, {{}}, {}, 1);
  Builder(loop.region(0).add_block()).return_();
  k.b.return_();
  EXPECT_EQ(problems(k.module, v13_4), "");
  // 13.3: divi and if in the reduce; the return in the loop (as an op and as the loop body's terminator).
  EXPECT_EQ(check_module(k.module, v13_3).size(), 4u);
}

TEST(Verifier, HintsAreValid) {
  Kernel k;
  k.f.set_hints(Attribute::optimization_hints(
      {{"sm_90",
        Attribute::dictionary({{"num_cta_in_cga", Attribute::i32(2)}, {"occupancy", Attribute::i32(2)}})},
       {"default", Attribute::dictionary({{"num_worker_warps_per_cta", Attribute::i32(8)}})}}));
  Value* pv = k.view(k.f.parameter(0), E::f32);
  Attribute load_hints = Attribute::optimization_hints(
      {{"sm_100",
        Attribute::dictionary({{"latency", Attribute::i32(3)}, {"allow_tma", Attribute::boolean(false)}})}});
  k.b.load_view(pv, {k.b.tile_block_id()[0]}, nullptr, MemoryOrdering::relaxed, MemoryScope::device,
                load_hints);
  k.b.return_();
  EXPECT_EQ(problems(k.module), "");
}

TEST(Verifier, DiagnosticTextNamesKernelLocationAndOp) {
  Diagnostic d{"softmax", "addf", {"softmax.cpp", 12, 5}, "operand types must match: a vs b"};
  EXPECT_EQ(d.str(), "in kernel 'softmax' at softmax.cpp:12:5: addf: operand types must match: a vs b");
  Diagnostic module_level{"", "", {}, "kernel name 'x' is defined twice in the module"};
  EXPECT_EQ(module_level.str(), "in module: kernel name 'x' is defined twice in the module");
}

TEST(Verifier, VerifyModuleListsEveryProblem) {
  Module m;
  Function& f = m.add_function("two_problems", {scalar_type(E::i32)});
  Builder b(f.entry_block());
  b.set_location({"k.cpp", 3, 1});
  Value* x = b.constant_int(E::i32, 1);
  b.binary(Opcode::addf, x, x);
  b.binary(Opcode::mulf, x, x);
  b.return_();
  ASSERT_EQ(check_module(m).size(), 2u);
  try {
    verify_module(m);
    FAIL() << "expected a UserError";
  } catch (const cutile::UserError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("(2 problems)"), std::string::npos) << msg;
    EXPECT_NE(msg.find("in kernel 'two_problems' at k.cpp:3:1: addf:"), std::string::npos) << msg;
    EXPECT_NE(msg.find("in kernel 'two_problems' at k.cpp:3:1: mulf:"), std::string::npos) << msg;
  }
}

TEST(Verifier, RejectsUnknownVersions) {
  Module m;
  EXPECT_THROW(check_module(m, Version{13, 0}), cutile::UserError);
  EXPECT_THROW(check_module(m, Version{13, 6}), cutile::UserError);
  EXPECT_TRUE(check_module(m).empty());
}

}  // namespace
