// The verifier's rules are tileiras' rules: a module it rejects is rejected by the real tileiras too,
// for the same reason. (Modules it accepts compile: see the examples' compile tests.)
#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <memory>

#include "cutile/bytecode/writer.hpp"
#include "cutile/compile/tileiras.hpp"
#include "cutile/error.hpp"
#include "cutile/ir/builder.hpp"
#include "cutile/ir/verifier.hpp"
#include "support/temp_dir.hpp"
#include "support/toolchain_fixture.hpp"

namespace {

using namespace cutile::ir;
using E = ElementType;
using O = Opcode;

/// Kernel "k"(p: ptr<f32>, n: i32); `body` adds the broken op, then the kernel returns.
std::unique_ptr<Module> kernel(const std::function<void(Builder&, Function&)>& body) {
  auto m = std::make_unique<Module>();
  Function& f = m->add_function("k", {pointer_type(E::f32), scalar_type(E::i32)});
  Builder b(f.entry_block());
  body(b, f);
  b.return_();
  return m;
}

Value* view(Builder& b, Function& f) {
  Value* tv = b.make_tensor_view(f.parameter(0), Type::tensor_view(Type::element(E::f32), {kDynamic}, {1}),
                                 {f.parameter(1)}, {});
  return b.make_partition_view(tv, {64});
}

struct Case {
  const char* name;
  std::function<std::unique_ptr<Module>()> make;
  const char* tileiras_says;  ///< a piece of tileiras' diagnostic
};

const Case kCases[] = {
    {"addf_on_integers",
     [] {
       return kernel([](Builder& b, Function&) {
         Value* x = b.constant_int(E::i32, 1, {64});
         b.binary(O::addf, x, x);
       });
     },
     "must be tile of f16 or bf16 or f32 or f64"},
    {"tile_dim_not_power_of_two",
     [] { return kernel([](Builder& b, Function&) { b.constant_float(E::f32, 1.0, {3}); }); },
     "all dimensions must be powers of two"},
    {"weak_load_with_scope",
     [] {
       return kernel([](Builder& b, Function& f) {
         b.load_view(view(b, f), {b.constant_int(E::i32, 0)}, nullptr, MemoryOrdering::weak,
                     MemoryScope::device);
       });
     },
     "weak load must not have memory scope"},
    {"mmaf_bf16_with_f16_accumulator",
     [] {
       return kernel([](Builder& b, Function&) {
         Value* a = b.constant_float(E::bf16, 1.0, {16, 16});
         b.mmaf(a, a, b.constant_float(E::f16, 0.0, {16, 16}));
       });
     },
     "unsupported combination of element types"},
    {"reduce_identity_type",
     [] {
       return kernel([](Builder& b, Function&) {
         b.reduce({b.constant_float(E::f32, 1.0, {64})}, 0, {Attribute::i32(0)},
                  [](Builder& body, std::span<Value* const> a) {
                    return std::vector<Value*>{body.binary(O::addf, a[0], a[1])};
                  });
       });
     },
     "identity at index: 0"},
    {"continue_types",
     [] {
       return kernel([](Builder& b, Function&) {
         Value* zero = b.constant_int(E::i32, 0);
         b.for_loop(zero, zero, zero, {b.constant_float(E::f32, 0.0)},
                    [](Builder&, std::span<Value* const> a) { return std::vector<Value*>{a[0]}; });
       });
     },
     "`continue` op should have operand types"},
    {"if_with_results_without_else",
     [] {
       return kernel([](Builder& b, Function&) {
         Value* x = b.constant_float(E::f32, 0.0);
         Operation& op = b.create(O::if_, {x->type()}, {{b.constant_int(E::i1, 1)}}, {}, 2);
         Builder(op.region(0).add_block()).yield({x});
       });
     },
     "must define else branch"},
    {"make_tensor_view_dynamic_operand_count",
     [] {
       return kernel([](Builder& b, Function& f) {
         b.make_tensor_view(f.parameter(0), Type::tensor_view(Type::element(E::f32), {kDynamic, 64}, {64, 1}),
                            {}, {});
       });
     },
     "expected 1 dynamic shape operands"},
    {"print_argument_count",
     [] {
       return kernel([](Builder& b, Function& f) {
         b.create(O::print_tko, {Type::token()}, {{f.parameter(1)}, {}},
                  {{"str", Attribute::string("%d %f\n")}});
       });
     },
     "incorrect number of operands"},
    {"itof_rounding",
     [] {
       return kernel([](Builder& b, Function&) {
         b.create_value(O::itof, tile_type({64}, E::f32), {b.constant_int(E::i32, 1, {64})},
                        {{"signedness", Attribute::enum_of(EnumKind::signedness, Signedness::signed_)},
                         {"rounding_mode", Attribute::enum_of(EnumKind::rounding, RoundingMode::zero)}});
       });
     },
     "Only 'nearest_even' is supported"},
};

class VerifierAgreesWithTileiras : public cutile::test_support::ToolchainTest,
                                   public ::testing::WithParamInterface<Case> {};

TEST_P(VerifierAgreesWithTileiras, BothReject) {
  const Case& c = GetParam();
  std::unique_ptr<Module> m = c.make();
  ASSERT_FALSE(check_module(*m, v13_3).empty()) << c.name << ": the verifier accepts it";
  const std::vector<uint8_t> bytes = cutile::bytecode::write_bytecode(*m, {v13_3, false});
  cutile::compile::CompileOptions options;
  // A directory of its own: ctest runs these cases in parallel processes.
  const cutile::test_support::TempDir reproducers;
  options.reproducer_root = reproducers.path();
  try {
    cutile::compile::compile_to_cubin(toolchain, bytes, options, c.name);
    ADD_FAILURE() << c.name << ": tileiras accepted a module the verifier rejects";
  } catch (const cutile::RuntimeError& e) {
    EXPECT_NE(std::string(e.what()).find(c.tileiras_says), std::string::npos) << e.what();
  }
}

INSTANTIATE_TEST_SUITE_P(Rules, VerifierAgreesWithTileiras, ::testing::ValuesIn(kCases),
                         [](const ::testing::TestParamInfo<Case>& param_info) {
                           return std::string(param_info.param.name);
                         });

}  // namespace
