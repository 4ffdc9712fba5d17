// Lent tensors (AnyTensor::lend, how the C ABI passes its callers' memory): launched on the CPU
// interpreter with no borrow state, checked like any other argument, and refused for host access.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <span>
#include <vector>

#include "cutile/host/launch.hpp"
#include "elementwise/vector_add.hpp"
#include "support/error_of.hpp"

namespace {

namespace ct = cutile;
using cutile::test_support::error_of;

constexpr int64_t kTile = 1024;

ct::Tensor<float> lent(std::vector<float>& values) {
  const auto n = static_cast<int64_t>(values.size());
  return ct::Tensor<float>(ct::AnyTensor::lend(ct::ir::ElementType::f32, sizeof(float), values.data(), {n},
                                               {1}, ct::Device::cpu()));
}

std::vector<float> random_values(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> normal;
  std::vector<float> values(n);
  for (float& v : values) v = normal(rng);
  return values;
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(LentTensor, LaunchesLikeABorrowedTensor) {
  std::vector<float> a = random_values(3001, 1), b = random_values(3001, 2),
                     c(3001, NAN);  // a ragged last tile
  const ct::Tensor<float> out = lent(c);
  EXPECT_TRUE(out.is_lent());
  EXPECT_FALSE(out.is_borrowed());
  ct::launch(ct::kernels::vector_add<float, kTile>, out.partition({kTile}), lent(a), lent(b));
  for (size_t i = 0; i < c.size(); ++i) ASSERT_EQ(c[i], a[i] + b[i]) << "element " << i;
}

TEST(LentTensor, AnOutputOverlappingAnInputIsRefusedByAddress) {
  std::vector<float> a = random_values(2048, 3), b = random_values(2048, 4);
  const std::vector<float> before = a;
  // Two lent tensors over one buffer share no borrow state: the launch's address check must catch them.
  const std::string message = error_of<ct::UserError>([&] {
    ct::launch(ct::kernels::vector_add<float, kTile>, lent(a).partition({kTile}), lent(a), lent(b));
  });
  EXPECT_TRUE(contains(message, "overlaps")) << message;
  EXPECT_TRUE(contains(message, "an output may not alias another argument")) << message;
  EXPECT_EQ(a, before) << "nothing ran";
}

TEST(LentTensor, HostAccessIsRefusedWithTheReason) {
  std::vector<float> a = random_values(16, 5);
  const ct::Tensor<float> t = lent(a);
  for (const std::string& message :
       {error_of<ct::UserError>([&] { (void)t.to_host(); }),
        error_of<ct::UserError>([&] { ct::Tensor<float>(t).copy_from_host(std::span<const float>(a)); }),
        error_of<ct::UserError>([&] { (void)t.borrow_state(); })})
    EXPECT_TRUE(contains(message, "f32[16] on cpu is lent to the launches of one call")) << message;
}

TEST(LentTensor, PartitionsHoldNoBorrowButStillEndWithAMove) {
  std::vector<float> c(kTile, 0.0f);
  const ct::Tensor<float> t = lent(c);
  ct::Partition<float> first = t.partition({kTile});
  EXPECT_TRUE(first.holds_borrow());
  ct::Partition<float> moved = std::move(first);
  EXPECT_FALSE(first.holds_borrow());  // NOLINT(bugprone-use-after-move): checking the moved-from state
  EXPECT_THROW((void)first.arg_view(), ct::UserError);
  EXPECT_TRUE(moved.arg_view().state == nullptr);
  EXPECT_TRUE(std::move(moved).unpartition().is_lent());
}

}  // namespace
