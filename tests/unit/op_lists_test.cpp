// Lists of tensors in the op layer (TensorSpec::listed): the registry's checks of list descriptions, the
// lengths of lists, symbols bound per element and the messages that name the element, per-element rules,
// aliasing between elements, output shapes per element, the launcher's list parameter, configurations
// with a list length, tuning buckets and the description's JSON.
#include <gtest/gtest.h>

#include "cutile/op/configuration.hpp"
#include "cutile/op/describe.hpp"
#include "cutile/op/registry.hpp"
#include "cutile/op/run.hpp"
#include "cutile/op/tuning.hpp"
#include "list_op/scale_groups.hpp"
#include "support/error_of.hpp"

namespace {

namespace op = cutile::op;
using cutile::AnyTensor;
using cutile::test_support::error_of;
using Elements = std::span<const AnyTensor* const>;

// group_gemm's shape: C_g = A_g · B_g, B_g given transposed with a flag, and a per-group weight.
std::vector<size_t> launched_lengths;
void launch_groups(op::Target&, Elements cs, Elements as, Elements bs, const AnyTensor& weights, bool) {
  launched_lengths = {cs.size(), as.size(), bs.size(), static_cast<size_t>(weights.shape()[0])};
}
const op::OpSpec groups{
    .name = "groups",
    .dtypes = {{"E", op::kFloatDtypes}},
    .tensors = {op::out("cs", "E[M, N]").listed("G"), op::in("as", "E[M, K]").listed("G"),
                op::in("bs", "E[K, N]").listed("G").transposed_when("transpose_b"),
                op::in("weights", "f32[G]")},
    .scalars = {op::flag("transpose_b")},
    .rules = {op::unsupported_unless("K % 2 == 0", "K in pairs"),
              op::requires_that("G <= 8", "eight groups at most")},
    .launch = op::bind<launch_groups>(),
};

// Facts of one tensor, row-major at `address`.
struct Facts {
  std::vector<int64_t> shape, strides;
  op::TensorFacts facts;

  Facts(std::string_view name, int64_t element, std::vector<int64_t> extents, uint64_t address,
        op::Dtype dtype = op::Dtype::f32)
      : shape(std::move(extents)), strides(cutile::row_major_strides(shape)) {
    facts.name = name;
    facts.element = element;
    facts.dtype = dtype;
    facts.shape = shape;
    facts.strides = strides;
    facts.address = address;
  }
};

// A call of `groups`: (M, N, K) per group, B given as (K, N) or transposed, every tensor on its own memory.
struct GroupsCall {
  std::vector<std::unique_ptr<Facts>> cs, as, bs;
  std::unique_ptr<Facts> weights;
  std::vector<const op::TensorFacts*> c_ptrs, a_ptrs, b_ptrs, w_ptrs;
  std::vector<op::Scalar> scalars;

  GroupsCall(const std::vector<std::array<int64_t, 3>>& mnk, bool transpose_b = false)
      : scalars{transpose_b ? 1 : 0} {
    uint64_t address = 0x100000;
    auto next = [&] { return address += 0x100000; };
    for (size_t g = 0; g < mnk.size(); ++g) {
      const auto [m, n, k] = mnk[g];
      const auto e = static_cast<int64_t>(g);
      cs.push_back(std::make_unique<Facts>("cs", e, std::vector<int64_t>{m, n}, next()));
      as.push_back(std::make_unique<Facts>("as", e, std::vector<int64_t>{m, k}, next()));
      bs.push_back(std::make_unique<Facts>(
          "bs", e, transpose_b ? std::vector<int64_t>{n, k} : std::vector<int64_t>{k, n}, next()));
    }
    weights = std::make_unique<Facts>("weights", -1, std::vector<int64_t>{static_cast<int64_t>(mnk.size())},
                                      next());
  }

  // The checks' message, "" when they pass.
  std::string check() {
    c_ptrs.clear(), a_ptrs.clear(), b_ptrs.clear();
    for (auto& f : cs) c_ptrs.push_back(&f->facts);
    for (auto& f : as) a_ptrs.push_back(&f->facts);
    for (auto& f : bs) b_ptrs.push_back(&f->facts);
    w_ptrs = {&weights->facts};
    const op::Elements<op::TensorFacts> tensors[] = {c_ptrs, a_ptrs, b_ptrs, w_ptrs};
    try {
      op::check(groups, tensors, scalars);
    } catch (const op::OpError& e) {
      return e.message();
    }
    return "";
  }
};

TEST(OpLists, ListDescriptionsAreSound) {
  EXPECT_EQ(op::problems(groups), std::vector<std::string>{});
  EXPECT_EQ(op::problems(cutile::test_support::scale_groups_op), std::vector<std::string>{});
  EXPECT_EQ(op::find_op("scale_groups"), &cutile::test_support::scale_groups_op)
      << "the test op is registered here";
}

void launch_single(op::Target&, const AnyTensor&, const AnyTensor&, const AnyTensor&) {}
void launch_list_and_one(op::Target&, Elements, const AnyTensor&) {}
void launch_three(op::Target&, Elements, Elements, Elements) {}
void launch_xs_count(op::Target&, Elements, double) {}

TEST(OpLists, TheRegistryRefusesWhatAListCannotBe) {
  const op::OpSpec bad_length{
      .name = "bad_length",
      .tensors = {op::out("y", "f32[N]").listed("2*G"), op::in("x", "f32[N]").listed("")},
      .launch = op::bind<launch_list_and_one>()};
  EXPECT_EQ(
      op::problems(bad_length),
      (std::vector<std::string>{"bad_length: tensor y: listed(\"2*G\") names no symbol for its length"}))
      << "an empty length is no list";
  const op::OpSpec shapes{
      .name = "shapes",
      .tensors = {op::inout("y", "f32[M, N]").listed("G").rows(),
                  op::in("x", "f32[N]").listed("G").may_be_absent(), op::in("bias", "f32[M]")},
      .launch = op::bind<launch_single>()};
  EXPECT_EQ(
      op::problems(shapes),
      (std::vector<std::string>{
          "shapes: tensor y: a list is an input or an output, not updated in place",
          "shapes: tensor y: a list has an exact view, is never absent and is allocated like no input",
          "shapes: tensor x: a list has an exact view, is never absent and is allocated like no input",
          "shapes: tensor bias: M is bound per element of the lists of length G, so a tensor that is no list "
          "cannot use it (a symbol is per element or shared, not both)",
          "shapes: the launcher takes (Target&, const AnyTensor&, const AnyTensor&, const AnyTensor&); the "
          "description needs (Target&, std::span<const AnyTensor* const>, std::span<const AnyTensor* const>, "
          "const AnyTensor&)"}));
  const op::OpSpec kinds{.name = "kinds",
                         .tensors = {op::out("cs", "f32[P]").listed("H"), op::in("as", "f32[M]").listed("G"),
                                     op::in("bs", "f32[M]").listed("L")},
                         .rules = {op::requires_that("M + P > 0", "something")},
                         .launch = op::bind<launch_three>()};
  EXPECT_EQ(op::problems(kinds),
            (std::vector<std::string>{
                "kinds: symbol M is bound by the elements of lists of lengths G and L",
                "kinds: the lists of length H are all outputs: an input list must give their length",
                "kinds: 'M + P > 0' reads the per-element symbols of lists of lengths G and H"}));
  const op::OpSpec clash{.name = "clash",
                         .tensors = {op::in("xs", "f32[N]").listed("G")},
                         .scalars = {op::real("xs_count", 1.0)},
                         .launch = op::bind<launch_xs_count>()};
  EXPECT_EQ(op::problems(clash),
            (std::vector<std::string>{"clash: the name xs_count is the C ABI's length of the list xs"}));
}

TEST(OpLists, SymbolsAreBoundPerElementAndTheLengthIsShared) {
  EXPECT_EQ(GroupsCall({{4, 8, 2}, {1, 3, 6}, {16, 5, 4}}).check(), "");
  EXPECT_EQ(GroupsCall({{4, 8, 2}, {1, 3, 6}}, true).check(), "") << "each B_g given as (N_g, K_g)";
  GroupsCall a({{4, 8, 2}, {1, 3, 6}, {16, 5, 4}});
  a.bs[1] = std::make_unique<Facts>("bs", 1, std::vector<int64_t>{4, 3}, 0x7000000);
  EXPECT_EQ(a.check(), "bs[1] (f32[4, 3] on cuda:0): dim 0 must be K = 6 (K from as[1]'s dim 1), got 4");
  GroupsCall c({{4, 8, 2}, {1, 3, 6}});
  c.cs[0] = std::make_unique<Facts>("cs", 0, std::vector<int64_t>{4, 9}, 0x7000000);
  EXPECT_EQ(c.check(), "cs[0] (f32[4, 9] on cuda:0): dim 1 must be N = 8 (N from bs[0]'s dim 1), got 9");
  GroupsCall t({{4, 8, 2}, {1, 3, 6}}, true);
  t.bs[1] = std::make_unique<Facts>("bs", 1, std::vector<int64_t>{3, 5}, 0x7000000);
  EXPECT_EQ(t.check(),
            "bs[1] (f32[3, 5] on cuda:0) (given transposed: transpose_b): dim 1 must be K = 6 (K from "
            "as[1]'s dim 1), "
            "got 5");
  GroupsCall w({{4, 8, 2}, {1, 3, 6}});
  w.weights = std::make_unique<Facts>("weights", -1, std::vector<int64_t>{3}, 0x7000000);
  EXPECT_EQ(w.check(), "weights (f32[3] on cuda:0): dim 0 must be G = 2 (G from as's length), got 3");
  GroupsCall d({{4, 8, 2}, {1, 3, 6}});
  d.as[1]->facts.dtype = op::Dtype::bf16;
  EXPECT_EQ(d.check(),
            "as[1] (bf16[1, 6] on cuda:0) and as[0] (f32[4, 2] on cuda:0) must have the same dtype");
  GroupsCall r({{4, 8, 2}, {1, 3, 6}});
  r.as[0] = std::make_unique<Facts>("as", 0, std::vector<int64_t>{4}, 0x7000000);
  EXPECT_EQ(r.check(), "as[0] (f32[4] on cuda:0): expected 2 dims (E[M, K]), got 1");
}

TEST(OpLists, LengthsAgreeAndNoListIsEmpty) {
  GroupsCall uneven({{4, 8, 2}, {1, 3, 6}, {2, 2, 2}});
  uneven.bs.pop_back();
  EXPECT_EQ(uneven.check(), "bs has length 2, as has length 3: the lists of length G have one length");
  GroupsCall outputs({{4, 8, 2}, {1, 3, 6}});
  outputs.cs.pop_back();
  EXPECT_EQ(outputs.check(), "cs has length 1, as has length 2: the lists of length G have one length");
  EXPECT_EQ(GroupsCall(std::vector<std::array<int64_t, 3>>{}).check(),
            "as is an empty list: a list holds at least one tensor");
}

TEST(OpLists, RulesHoldForEveryElement) {
  EXPECT_EQ(GroupsCall({{4, 8, 2}, {1, 3, 6}, {16, 5, 3}}).check(),
            "requires K % 2 == 0 (K = 3 from as[2]'s dim 1): K in pairs");
  EXPECT_EQ(GroupsCall(std::vector<std::array<int64_t, 3>>(9, {1, 1, 2})).check(),
            "requires G <= 8 (G = 9 from as's length): eight groups at most");
}

TEST(OpLists, NoOutputElementOverlapsAnotherElementOrArgument) {
  GroupsCall same({{4, 8, 2}, {4, 8, 2}});
  same.cs[1]->facts.address = same.cs[0]->facts.address + 4;
  EXPECT_EQ(
      same.check(),
      "output cs[0] (f32[4, 8] on cuda:0) overlaps cs[1] (f32[4, 8] on cuda:0) in memory: an output may not "
      "alias another argument");
  GroupsCall input({{4, 8, 2}, {4, 8, 2}});
  input.cs[1]->facts.address = input.bs[0]->facts.address;
  EXPECT_EQ(
      input.check(),
      "output cs[1] (f32[4, 8] on cuda:0) overlaps bs[0] (f32[2, 8] on cuda:0) in memory: an output may not "
      "alias another argument");
  GroupsCall inputs({{4, 8, 2}, {4, 8, 2}});
  inputs.as[1]->facts.address = inputs.as[0]->facts.address;
  EXPECT_EQ(inputs.check(), "") << "inputs may share memory";
}

TEST(OpLists, OutputShapesComePerElement) {
  GroupsCall call({{4, 8, 2}, {1, 3, 6}, {16, 5, 4}});
  call.check();
  const std::vector<const op::TensorFacts*> none;
  const op::Elements<op::TensorFacts> tensors[] = {none, call.a_ptrs, call.b_ptrs, call.w_ptrs};
  const auto shapes = op::output_shapes(groups, tensors, call.scalars);
  ASSERT_EQ(shapes.size(), 3u);
  EXPECT_EQ(shapes[0].shape, (std::vector<int64_t>{4, 8}));
  EXPECT_EQ(shapes[1].shape, (std::vector<int64_t>{1, 3}));
  EXPECT_EQ(shapes[2].shape, (std::vector<int64_t>{16, 5}));
  EXPECT_EQ(shapes[2].dtype, op::Dtype::f32);
}

TEST(OpLists, TheLauncherTakesEachListAsItsElements) {
  EXPECT_EQ(
      groups.launch.params,
      (std::vector<op::ParamKind>{op::ParamKind::tensor_list, op::ParamKind::tensor_list,
                                  op::ParamKind::tensor_list, op::ParamKind::tensor, op::ParamKind::flag}));
  op::Target target = op::Target::trace_for("sm_90", 132);
  op::run_at(groups, "G=3 M=4 N=8 K=2 E=f16 transpose_b=1", target);
  EXPECT_EQ(launched_lengths, (std::vector<size_t>{3, 3, 3, 3}));
  const op::Configured c = op::configure(groups, "G=2 M=4 N=8 K=2 E=f16 transpose_b=1");
  ASSERT_EQ(c.tensors.size(), 4u);
  ASSERT_EQ(c.tensors[2].size(), 2u);
  EXPECT_EQ(c.tensors[2][1].shape(), (std::vector<int64_t>{8, 2})) << "stored transposed";
  EXPECT_EQ(c.tensors[3][0].shape(), (std::vector<int64_t>{2}));
  // A single tensor given as a list of two is the caller's mistake.
  const std::vector<const AnyTensor*> two = {&c.tensors[3][0], &c.tensors[3][0]};
  const op::ElementTable table(c.tensors);
  std::vector<op::Elements<AnyTensor>> tensors(table.elements().begin(), table.elements().end());
  tensors[3] = two;
  EXPECT_EQ(error_of([&] { op::run(groups, target, tensors, c.scalars); }),
            "groups: weights is one tensor, got a list of 2");
  tensors[1] = {};
  tensors[3] = table.elements()[3];
  EXPECT_EQ(error_of<op::OpError>([&] { op::run(groups, target, tensors, c.scalars); }),
            "as is an empty list: a list holds at least one tensor");
}

TEST(OpLists, AConfigurationGivesTheLength) {
  EXPECT_EQ(error_of([] { op::configure(groups, "M=4 N=8 K=2 E=f16"); }),
            "configuration 'M=4 N=8 K=2 E=f16': the list cs needs its length G, at least 1");
  EXPECT_EQ(error_of([] { op::configure(groups, "G=0 M=4 N=8 K=2 E=f16"); }),
            "configuration 'G=0 M=4 N=8 K=2 E=f16': the list cs needs its length G, at least 1");
}

TEST(OpLists, ABucketHasTheLengthAndTheLargestDimsRoundedUp) {
  const uint64_t bucket = op::bucket_key(groups, "G=3 M=256 N=128 K=64 E=f16");
  EXPECT_EQ(op::bucket_key(groups, "G=4 M=200 N=100 K=64 E=f16"), bucket);
  EXPECT_NE(op::bucket_key(groups, "G=5 M=256 N=128 K=64 E=f16"), bucket);
  EXPECT_NE(op::bucket_key(groups, "G=3 M=257 N=128 K=64 E=f16"), bucket);
  // A ragged call: per dim its largest element.
  op::Configured c = op::configure(groups, "G=3 M=256 N=128 K=64 E=f16");
  c.tensors[1][1] = AnyTensor::meta(cutile::ir::ElementType::f16, 2, {16, 64}, {64, 1});
  const op::ElementTable ragged(c.tensors);
  EXPECT_EQ(op::bucket_key(groups, op::Arguments{ragged.elements(), c.scalars}), bucket);
  c.tensors[1][2] = AnyTensor::meta(cutile::ir::ElementType::f16, 2, {300, 64}, {64, 1});
  const op::ElementTable larger(c.tensors);
  EXPECT_NE(op::bucket_key(groups, op::Arguments{larger.elements(), c.scalars}), bucket);
}

TEST(OpLists, TheDescriptionSaysWhichTensorsAreLists) {
  const std::string json = op::describe_json(groups);
  EXPECT_NE(json.find("\"name\": \"as\", \"role\": \"in\", \"type\": \"E[M, K]\""), std::string::npos)
      << json;
  EXPECT_NE(json.find("\"transposed_by\": \"transpose_b\", \"list\": \"G\"}"), std::string::npos) << json;
  EXPECT_NE(json.find("\"transposed_by\": \"\", \"list\": \"\"}"), std::string::npos) << json;
}

}  // namespace
