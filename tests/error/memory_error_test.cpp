// Misuse of the memory vocabulary that only shows at launch or trace time: permuted partitions that do
// not fit the kernel, malformed orders, hints out of range. Each refused with its own message before
// tileiras runs (meta tensors: no GPU needed).
#include <gtest/gtest.h>

#include "cutile/host/launch.hpp"
#include "support/error_of.hpp"
#include "support/memory_kernels.hpp"

namespace {

namespace ct = cutile;
namespace mk = cutile::test_support::memory_kernels;
using cutile::test_support::error_of;

TEST(MemoryErrors, APermutedOutputNeedsAPartitionInItsOrder) {
  auto y = ct::Tensor<float>::meta({37, 50});
  const std::string message = error_of(
      [&] { ct::compile_only("sm_90", {}, mk::store_transposed, y.partition({16, 32}), ct::Tensor<float>::meta({50, 37})); });
  EXPECT_NE(message.find("argument 0 (Out<f32>): the partition's order [0, 1] differs from the kernel's output order "
                         "[1, 0]"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("tensor.partition(tile, [1, 0])"), std::string::npos) << message;
}

TEST(MemoryErrors, APermutedPartitionIsRefusedForAnUnpermutedOutput) {
  auto y = ct::Tensor<float>::meta({37, 50});
  const std::string message = error_of(
      [&] { ct::compile_only("sm_90", {}, mk::load_transposed, y.partition({32, 16}, {1, 0}), ct::Tensor<float>::meta({50, 37})); });
  EXPECT_NE(message.find("the partition's order [1, 0] differs from the kernel's output order [0, 1]"), std::string::npos)
      << message;
  EXPECT_NE(message.find("partitioned by tiles [32, 16] in order [1, 0]"), std::string::npos) << message;
}

TEST(MemoryErrors, APartitionOrderMustBeAPermutationOfTheTensorsDims) {
  auto y = ct::Tensor<float>::meta({37, 50});
  std::string message = error_of([&] { (void)y.partition({16, 32}, {1, 1}); });
  EXPECT_NE(message.find("cannot partition tensor f32[37, 50]"), std::string::npos) << message;
  EXPECT_NE(message.find("in order [1, 1]: the order must name each tensor dimension 0..1 once"), std::string::npos)
      << message;
  message = error_of([&] { (void)y.partition({16, 32}, {0}); });
  EXPECT_NE(message.find("the order has 1 entries but the tensor has rank 2"), std::string::npos) << message;
  message = error_of([&] { (void)y.partition({16, 32}, {0, 2}); });
  EXPECT_NE(message.find("in order [0, 2]"), std::string::npos) << message;
}

TEST(MemoryErrors, APermutedPartitionsGridFollowsItsOrder) {
  auto y = ct::Tensor<float>::meta({37, 50});
  EXPECT_EQ(y.partition({16, 32}, {1, 0}).grid(), (std::array<int64_t, 3>{4, 2, 1}));
  EXPECT_EQ(y.partition({16, 32}).grid(), (std::array<int64_t, 3>{3, 2, 1}));
}

void gather_with_bad_latency(ct::Out<float, ct::Shape<16>> y, ct::In<float, ct::Shape<ct::dyn>> x) {
  y.store(x.gather(ct::iota<int32_t, 16>(), {.latency = 11}));  // line checked below
}

TEST(MemoryErrors, AGatherLatencyOutOfRangeIsAUserErrorAtTheCall) {
  const std::string message = error_of([&] {
    ct::compile_only("sm_90", {}, gather_with_bad_latency, ct::Tensor<float>::meta({64}).partition({16}),
                     ct::Tensor<float>::meta({64}));
  });
  EXPECT_NE(message.find("memory_error_test.cpp:" + std::to_string(__LINE__ - 8)), std::string::npos) << message;
  EXPECT_NE(message.find("the latency hint of a gather or scatter must be in 1..10, got 11"), std::string::npos)
      << message;
}

TEST(MemoryErrors, AnAtomicTensorMayNotAliasAnotherArgument) {
  const ct::Device cpu = ct::Device::cpu();
  auto counts = ct::zeros<int32_t>({64}, cpu);
  ct::LaunchOptions options;
  options.grid = std::array<int64_t, 3>{4, 1, 1};
  const std::string message = error_of([&] { ct::launch(options, mk::histogram, counts, counts).sync(); });
  EXPECT_NE(message.find("argument 0 (Atomic<i32>) overlaps argument 1 (In<i32>) in memory"), std::string::npos) << message;
  EXPECT_NE(message.find("an Atomic tensor may not alias another argument"), std::string::npos) << message;
}

TEST(MemoryErrors, AnAtomicTensorIsCheckedAgainstTheKernelsShape) {
  ct::LaunchOptions options;
  options.grid = std::array<int64_t, 3>{4, 1, 1};
  const std::string message = error_of([&] {
    ct::compile_only("sm_90", options, mk::histogram, ct::Tensor<int32_t>::meta({8, 8}), ct::Tensor<int32_t>::meta({64}));
  });
  EXPECT_NE(message.find("argument 0 (Atomic<i32>): expected a rank-1 tensor, got i32[8, 8]"), std::string::npos)
      << message;
}

TEST(MemoryErrors, AnAtomicTensorWithALivePartitionIsRefused) {
  const ct::Device cpu = ct::Device::cpu();
  auto counts = ct::zeros<int32_t>({64}, cpu);
  auto values = ct::zeros<int32_t>({64}, cpu);
  auto live = counts.partition({16});
  ct::LaunchOptions options;
  options.grid = std::array<int64_t, 3>{4, 1, 1};
  const std::string message = error_of([&] { ct::launch(options, mk::histogram, counts, values).sync(); });
  EXPECT_NE(message.find("argument 0 (Atomic<i32>)"), std::string::npos) << message;
  EXPECT_NE(message.find("a partition of it"), std::string::npos) << message;
}

void tile_max_at_system_scope(ct::Atomic<int32_t, ct::Shape<ct::dyn>> best, ct::In<int32_t, ct::Shape<ct::dyn>> x) {
  auto i = ct::block_id<0>();
  best.atomic_max_tile({i}, x.load(ct::tile<16>, {i}), ct::memory_scope::system);  // line checked below
}

TEST(MemoryErrors, ATileReductionAtSystemScopeIsAUserErrorAtTheCall) {
  ct::LaunchOptions options;
  options.grid = std::array<int64_t, 3>{4, 1, 1};
  const std::string message = error_of([&] {
    ct::compile_only("sm_90", options, tile_max_at_system_scope, ct::Tensor<int32_t>::meta({64}),
                     ct::Tensor<int32_t>::meta({64}));
  });
  EXPECT_NE(message.find("memory_error_test.cpp:" + std::to_string(__LINE__ - 10)), std::string::npos) << message;
  EXPECT_NE(message.find("a tile-wide atomic reduction has block or device scope, not system scope"), std::string::npos)
      << message;
}

}  // namespace
