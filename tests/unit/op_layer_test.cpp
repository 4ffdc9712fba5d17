// The op layer (include/cutile/op): the expression language of descriptions, the checks and the
// messages they give, the launchers' dispatch from runtime values to instances, output shapes,
// configurations, the registry's soundness checks, and the generated C header against the committed one.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "cutile/detail/trace_kernel.hpp"
#include "cutile/op/configuration.hpp"
#include "cutile/op/describe.hpp"
#include "cutile/op/dispatch.hpp"
#include "cutile/op/registry.hpp"
#include "cutile/op/run.hpp"
#include "op/expression.hpp"
#include "support/error_of.hpp"

namespace {

namespace op = cutile::op;
using cutile::test_support::error_of;

long double eval(std::string_view text, std::vector<std::optional<long double>> symbols = {},
                 std::vector<long double> scalars = {}, std::vector<int64_t> sizes = {}) {
  op::detail::Names names;
  names.scalars = {"p"};
  names.dtype_vars = {"E"};
  const auto e = op::detail::Expression::parse(text, names);
  symbols.resize(names.symbols.size());
  scalars.resize(1);
  sizes.resize(1);
  return e.evaluate({symbols, scalars, sizes}).value_or(-12345);
}

TEST(OpExpression, ArithmeticComparisonsAndFunctions) {
  EXPECT_EQ(eval("2 * 3 + 4"), 10);
  EXPECT_EQ(eval("(2 + 3) * 4 - 1"), 19);
  EXPECT_EQ(eval("7 % 3"), 1);
  EXPECT_EQ(eval("N / 2", {8}), 4);
  EXPECT_EQ(eval("N <= 32768 && N >= 1", {40000}), 0);
  EXPECT_EQ(eval("!(p > 1) || p < 0", {}, {0.5}), 1);
  EXPECT_EQ(eval("min(3, N) + max(3, N)", {8}), 11);
  EXPECT_EQ(eval("pow2(N)", {64}), 1);
  EXPECT_EQ(eval("pow2(N)", {48}), 0);
  EXPECT_EQ(eval("finite(p)", {}, {std::numeric_limits<long double>::infinity()}), 0);
  EXPECT_EQ(eval("N * size(E) <= 65536", {16384}, {}, {2}), 1);
  EXPECT_EQ(eval("N <= 4", {}), -12345) << "an unbound symbol makes the expression unknown";
  EXPECT_EQ(eval("N == 0 && M > 1", {1}), 0) << "&& stops at a false left side";
}

TEST(OpExpression, BindingForms) {
  op::detail::Names names;
  EXPECT_EQ(op::detail::Expression::parse("M", names).lone_symbol(), 0);
  const auto scaled = op::detail::Expression::parse("2*H", names).scaled_symbol();
  ASSERT_TRUE(scaled);
  EXPECT_EQ(scaled->first, 2);
  EXPECT_EQ(names.symbols[static_cast<size_t>(scaled->second)], "H");
  EXPECT_FALSE(op::detail::Expression::parse("H + 1", names).scaled_symbol());
  const auto type = op::detail::parse_type("E[M, 2*H, min(M, 4)]", names);
  EXPECT_EQ(type.dtype, "E");
  EXPECT_EQ(type.dims.size(), 3u);
  EXPECT_EQ(op::detail::parse_type("f32[]", names).dims.size(), 0u);
}

TEST(OpExpression, MalformedTextSaysWhereAndWhat) {
  op::detail::Names names;
  names.dtype_vars = {"E"};
  auto message = [&](std::string_view text) {
    try {
      op::detail::Expression::parse(text, names);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message("N +"), "'N +', at 3: an operand is missing");
  EXPECT_EQ(message("(N"), "'(N', at 2: ')' is missing");
  EXPECT_EQ(message("N $ 2"), "'N $ 2', at 2: unexpected '$'");
  EXPECT_EQ(message("E + 1"), "'E + 1', at 0: the dtype variable E is not a number; size(E) is its bytes");
  EXPECT_EQ(message("sqrt(N)"), "'sqrt(N)', at 0: no function sqrt (there are size, min, max, pow2, finite)");
}

// A description with every kind of rule, for the checks' messages.
enum class Flavour { plain, spicy };
void launch_example(op::Target&, const cutile::AnyTensor&, const cutile::AnyTensor&, const cutile::AnyTensor&,
                    const cutile::AnyTensor*, double, Flavour) {}
const op::ChoiceSet flavours{.name = "example_flavour", .values = {"plain", "spicy"}};
const op::OpSpec example{
    .name = "example",
    .dtypes = {{"E", op::kFloatDtypes}},
    .tensors = {op::out("y", "E[M, H]"), op::in("x", "E[M, 2*H]"), op::in("scale", "f32[M]"),
                op::in("bias", "E[H]").may_be_absent()},
    .scalars = {op::real("p", 0.5).valid_when("p >= 0 && p <= 1"), op::choice("flavour", flavours, "plain")},
    .rules = {op::unsupported_unless("H <= 64", "one tile per row")},
    .launch = op::bind<launch_example>(),
};

struct Tensor {
  std::optional<op::Dtype> dtype;
  std::vector<int64_t> shape;
  uint64_t address = 0x1000;
  std::vector<int64_t> strides = {};

  op::TensorFacts facts(std::string_view name) const {
    op::TensorFacts f;
    f.name = name;
    f.dtype = dtype;
    f.shape = shape;
    f.strides = strides;
    f.address = address;
    return f;
  }
};

std::vector<int64_t> row_major(const std::vector<int64_t>& shape) {
  return cutile::row_major_strides(shape);
}

// The message of the checks for (y, x, scale, bias) and (p, flavour); "" when they pass.
std::string check(Tensor y, Tensor x, Tensor scale, std::optional<Tensor> bias,
                  std::vector<op::Scalar> scalars = {0.5, 0}) {
  for (Tensor* t : {&y, &x, &scale}) t->strides = t->strides.empty() ? row_major(t->shape) : t->strides;
  if (bias && bias->strides.empty()) bias->strides = row_major(bias->shape);
  const op::TensorFacts fy = y.facts("y"), fx = x.facts("x"), fs = scale.facts("scale");
  op::TensorFacts fb = bias ? bias->facts("bias") : op::TensorFacts{};
  const op::TensorFacts* tensors[] = {&fy, &fx, &fs, bias ? &fb : nullptr};
  try {
    op::check(example, tensors, scalars);
  } catch (const op::OpError& e) {
    return e.message();
  }
  return "";
}

constexpr auto f32 = op::Dtype::f32, bf16 = op::Dtype::bf16, i32 = op::Dtype::i32;
constexpr uint64_t kY = 0x1000, kX = 0x100000, kS = 0x200000, kB = 0x300000;

TEST(OpChecks, ValidCallsPass) {
  EXPECT_EQ(check({bf16, {4, 8}, kY}, {bf16, {4, 16}, kX}, {f32, {4}, kS}, std::nullopt), "");
  EXPECT_EQ(check({bf16, {4, 8}, kY}, {bf16, {4, 16}, kX}, {f32, {4}, kS}, Tensor{bf16, {8}, kB}), "");
}

TEST(OpChecks, DtypesNameTheTensorAndTheSupportedSet) {
  EXPECT_EQ(check({i32, {4, 8}, kY}, {i32, {4, 16}, kX}, {f32, {4}, kS}, std::nullopt),
            "x (i32[4, 16] on cuda:0): the op supports f32, f16, bf16");
  EXPECT_EQ(check({bf16, {4, 8}, kY}, {bf16, {4, 16}, kX}, {bf16, {4}, kS}, std::nullopt),
            "scale (bf16[4] on cuda:0): the op supports f32");
  EXPECT_EQ(check({f32, {4, 8}, kY}, {bf16, {4, 16}, kX}, {f32, {4}, kS}, std::nullopt),
            "y (f32[4, 8] on cuda:0) and x (bf16[4, 16] on cuda:0) must have the same dtype");
  EXPECT_EQ(check({f32, {4, 8}, kY}, {std::nullopt, {4, 16}, kX}, {f32, {4}, kS}, std::nullopt),
            "x (an unsupported element type[4, 16] on cuda:0): the op supports f32, f16, bf16");
}

TEST(OpChecks, RanksAndShapesSayWhichRuleAndWhereItsSymbolsCameFrom) {
  EXPECT_EQ(check({f32, {4, 8}, kY}, {f32, {64}, kX}, {f32, {4}, kS}, std::nullopt),
            "x (f32[64] on cuda:0): expected 2 dims (E[M, 2*H]), got 1");
  EXPECT_EQ(check({f32, {4, 8}, kY}, {f32, {4, 15}, kX}, {f32, {4}, kS}, std::nullopt),
            "x (f32[4, 15] on cuda:0): dim 1 is 15, which must be 2*H (E[M, 2*H]): a multiple of 2");
  EXPECT_EQ(check({f32, {4, 8}, kY}, {f32, {4, 16}, kX}, {f32, {5}, kS}, std::nullopt),
            "scale (f32[5] on cuda:0): dim 0 must be M = 4 (M from x's dim 0), got 5");
  EXPECT_EQ(check({f32, {4, 9}, kY}, {f32, {4, 16}, kX}, {f32, {4}, kS}, std::nullopt),
            "y (f32[4, 9] on cuda:0): dim 1 must be H = 8 (H from x's dim 1), got 9");
  EXPECT_EQ(check({f32, {4, 8}, kY}, {f32, {4, 16}, kX}, {f32, {4}, kS}, Tensor{f32, {7}, kB}),
            "bias (f32[7] on cuda:0): dim 0 must be H = 8 (H from x's dim 1), got 7");
}

TEST(OpChecks, RulesScalarsRangesAndAliasing) {
  EXPECT_EQ(check({f32, {4, 65}, kY}, {f32, {4, 130}, kX}, {f32, {4}, kS}, std::nullopt),
            "requires H <= 64 (H = 65 from x's dim 1): one tile per row");
  EXPECT_EQ(check({f32, {4, 8}, kY}, {f32, {4, 16}, kX}, {f32, {4}, kS}, std::nullopt, {1.5, 0}),
            "p is 1.5; it must satisfy p >= 0 && p <= 1");
  EXPECT_EQ(check({f32, {4, 8}, kY}, {f32, {4, 16}, kX}, {f32, {4}, kS}, std::nullopt, {0.5, 2}),
            "flavour is 2; expected a cutile_cpp_example_flavour (0 plain, 1 spicy)");
  EXPECT_EQ(
      check({f32, {int64_t{1} << 31, 8}, kY}, {f32, {int64_t{1} << 31, 16}, kX},
            {f32, {int64_t{1} << 31}, kS}, std::nullopt),
      "y (f32[2147483648, 8] on cuda:0): extent 2147483648 or stride 8 of dim 0 exceeds the kernels' i32 "
      "indices");
  EXPECT_EQ(
      check({f32, {4, 8}, kX + 4}, {f32, {4, 16}, kX}, {f32, {4}, kS}, std::nullopt),
      "output y (f32[4, 8] on cuda:0) overlaps x (f32[4, 16] on cuda:0) in memory: an output may not alias "
      "another argument");
  EXPECT_EQ(check({f32, {4, 8}, kY, {0, 1}}, {f32, {4, 16}, kX}, {f32, {4}, kS}, std::nullopt),
            "y (f32[4, 8] on cuda:0): an output's elements overlap each other (strides [0, 1])");
}

TEST(OpChecks, OutputShapesFollowFromTheInputs) {
  const Tensor x{bf16, {4, 16}, kX, {16, 1}}, scale{f32, {4}, kS, {1}};
  const op::TensorFacts fx = x.facts("x"), fs = scale.facts("scale");
  const op::TensorFacts* tensors[] = {nullptr, &fx, &fs, nullptr};
  std::vector<op::Scalar> scalars = {0.25, 1};
  const auto shapes = op::output_shapes(example, tensors, scalars);
  ASSERT_EQ(shapes.size(), 1u);
  EXPECT_EQ(shapes[0].dtype, bf16);
  EXPECT_EQ(shapes[0].shape, (std::vector<int64_t>{4, 8}));
}

TEST(OpChecks, RunNamesAMissingTensorAndConvertsScalars) {
  op::Target target = op::Target::trace_for("sm_90", 132);
  auto y = cutile::AnyTensor::meta(cutile::ir::ElementType::f32, 4, {4, 8}, {8, 1});
  auto x = cutile::AnyTensor::meta(cutile::ir::ElementType::f32, 4, {4, 16}, {16, 1});
  auto s = cutile::AnyTensor::meta(cutile::ir::ElementType::f32, 4, {4}, {1});
  EXPECT_EQ(error_of([&] {
              op::run(example, target, {&y, nullptr, &s, nullptr}, {0.5, 0});
            }),
            "x is required");
  EXPECT_EQ(error_of([&] {
              op::run(example, target, {&y, &x, &s, nullptr}, {0.5, 0.5});
            }),
            "flavour is 0.5; it must be an integer");
  EXPECT_EQ(error_of([&] {
              op::run(example, target, {&y, &x, &s, nullptr}, {1});
            }),
            "example takes 2 scalars, got 1");
  op::run(example, target, {&y, &x, &s, nullptr}, {1, Flavour::spicy});  // an integer for a real converts
}

TEST(OpConfiguration, SetsExpandToEveryCombination) {
  EXPECT_EQ(
      op::expand("M=4 N={16,32} E={f32,bf16}"),
      (std::vector<std::string>{"M=4 N=16 E=f32", "M=4 N=16 E=bf16", "M=4 N=32 E=f32", "M=4 N=32 E=bf16"}));
  EXPECT_EQ(error_of([] { op::expand("N={16,32"); }), "configuration: 'N={16,32' has an unclosed set");
}

TEST(OpConfiguration, MetaTensorsOfTheDescribedShapes) {
  const op::Configured c = op::configure(example, "M=3 H=5 E=f16 flavour=spicy");
  ASSERT_EQ(c.tensors.size(), 4u);
  EXPECT_EQ(c.tensors[1][0].shape(), (std::vector<int64_t>{3, 10}));
  EXPECT_EQ(c.tensors[2][0].element_type(), cutile::ir::ElementType::f32);
  EXPECT_EQ(c.tensors[3][0].element_type(), cutile::ir::ElementType::f16);
  EXPECT_EQ(c.scalars[0].real, 0.5);
  EXPECT_EQ(c.scalars[1].integer, 1);
  EXPECT_EQ(error_of([] { op::configure(example, "M=3 H=5"); }),
            "configuration 'M=3 H=5' gives no dtype for E");
  EXPECT_EQ(error_of([] { op::configure(example, "M=3 H=5 E=f16 Q=2"); }),
            "configuration 'M=3 H=5 E=f16 Q=2': Q is no symbol, dtype or scalar of example");
  EXPECT_EQ(error_of([] { op::configure(example, "M=3 E=f16"); }),
            "configuration 'M=3 E=f16': y's dim H is not given by it");
}

void launch_product(op::Target&, const cutile::AnyTensor&, const cutile::AnyTensor&, bool) {}
const op::OpSpec row_sums{
    .name = "row_sums",
    .dtypes = {{"E", op::kFloatDtypes}},
    .tensors = {op::out("y", "E[M]"), op::in("a", "E[M, K]").transposed_when("trans_a")},
    .scalars = {op::flag("trans_a")},
    .launch = op::bind<launch_product>(),
};

TEST(OpConfiguration, ATransposedInputIsMadeAndCheckedAsStored) {
  EXPECT_EQ(op::configure(row_sums, "M=3 K=5 E=f32").tensors[1][0].shape(), (std::vector<int64_t>{3, 5}));
  const op::Configured c = op::configure(row_sums, "M=3 K=5 E=f32 trans_a=1");
  EXPECT_EQ(c.tensors[1][0].shape(), (std::vector<int64_t>{5, 3}));
  op::Target target = op::Target::trace_for("sm_90", 132);
  op::run_at(row_sums, "M=3 K=5 E=f32 trans_a=1", target);  // the checks bind M from the stored dim 1
  EXPECT_EQ(error_of([&] {
              op::run(row_sums, target, {&c.tensors[0][0], &c.tensors[1][0]}, {0});
            }),
            "y (f32[3] on no device (meta)): dim 0 must be M = 5 (M from a's dim 0), got 3");
}

void launch_wrong(op::Target&, const cutile::AnyTensor&, double) {}
const op::OpSpec unsound{
    .name = "unsound",
    .tensors = {op::out("y", "E[N").leading_ones(), op::in("x", "Q[N]").rows().transposed_when("p")},
    .scalars = {op::real("p"), op::real("p")},
    .launch = op::bind<launch_wrong>(),
};

TEST(OpDispatch, FlagsAndIndicesBecomeTemplateArguments) {
  std::vector<int> seen;
  for (const bool a : {false, true})
    for (const bool b : {false, true})
      op::with_flag(a, [&]<bool A>() { op::with_flag(b, [&]<bool B>() { seen.push_back(2 * A + B); }); });
  EXPECT_EQ(seen, (std::vector<int>{0, 1, 2, 3}));

  size_t chosen = 99;
  op::with_index<3>(2, [&]<size_t I>() { chosen = I; });
  EXPECT_EQ(chosen, 2u);
  EXPECT_EQ(error_of<cutile::InternalError>([] { op::with_index<3>(3, []<size_t>() {}); }),
            "candidate index 3 is not below 3");
}

TEST(OpRegistry, AnUnsoundDescriptionSaysWhatIsWrong) {
  const std::vector<std::string> found = op::problems(unsound);
  const std::vector<std::string> expected = {
      "unsound: tensor y: 'E[N' is not a type like E[M, N]",
      "unsound: tensor y: a leading_ones view is for tensors that are read",
      "unsound: tensor x: 'Q' is neither a dtype variable of the op nor a dtype",
      "unsound: tensor x: a rows view needs rank 2",
      "unsound: tensor x: transposed_when names no flag scalar",
      "unsound: the name p is used twice",
      "unsound: the launcher takes (Target&, const AnyTensor&, double); the description needs (Target&, "
      "const "
      "AnyTensor&, const AnyTensor&, double, double)",
  };
  EXPECT_EQ(found, expected);
  op::Target target = op::Target::trace_for("sm_90", 132);
  EXPECT_THROW(op::run(unsound, target, {nullptr, nullptr}, {0.0, 0.0}), cutile::InternalError);
}

TEST(OpRegistry, EveryRegisteredDescriptionIsSound) {
  ASSERT_FALSE(op::registered_ops().empty());
  for (const op::OpSpec* spec : op::registered_ops()) {
    EXPECT_EQ(op::problems(*spec), std::vector<std::string>{}) << spec->name;
    for (const op::ParityCase& p : spec->parity)
      EXPECT_NO_THROW(op::configure(*spec, p.config)) << spec->name << " at " << p.config;
    for (std::string_view set : spec->configurations)
      for (const std::string& config : op::expand(set))
        EXPECT_NO_THROW(op::configure(*spec, config)) << spec->name << " at " << config;
  }
}

TEST(OpRegistry, OpsAreSortedAndFoundByName) {
  const auto ops = op::registered_ops();
  for (size_t i = 1; i < ops.size(); ++i) EXPECT_LT(ops[i - 1]->name, ops[i]->name);
  EXPECT_EQ(op::find_op("softmax")->name, "softmax");
  EXPECT_EQ(op::find_op("no_such_op"), nullptr);
  EXPECT_NE(op::describe_all_json(2).find("\"name\": \"softmax\""), std::string::npos);
}

TEST(KernelNames, TakenFromTheKernelEvenWhenALambdaTracesFirst) {
  EXPECT_EQ(cutile::detail::kernel_name_from_signature(
                "void cutile::kernels::relu(Out<float, Shape<1024> >) [with E = float]"),
            "relu");
  EXPECT_EQ(cutile::detail::kernel_name_from_signature(
                "cutile::kernels::rms_norm_backward<float, 4, 1024, true>(...)::<lambda()>"),
            "rms_norm_backward");
}

std::string read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The header the build generates from the descriptions is the committed one: after a description changes,
// `cmake --build build --target cutile_cpp_header` updates it.
TEST(AbiHeader, IsTheGeneratedOne) {
  const std::string generated = read(CUTILE_GENERATED_HEADER);
  ASSERT_FALSE(generated.empty()) << CUTILE_GENERATED_HEADER;
  EXPECT_TRUE(generated == read(CUTILE_SOURCE_DIR "/capi/include/cutile_cpp/kernels.h"))
      << "capi/include/cutile_cpp/kernels.h is not what the descriptions generate: run `cmake --build build "
         "--target cutile_cpp_header` and commit it";
}

}  // namespace
