// Each way of calling a kernel with the wrong arguments is refused before anything is traced or
// enqueued, with its own message. Meta tensors (no memory) make this testable without a GPU; the gpu
// tier repeats the memory-dependent checks (aliasing) on real tensors.
#include <gtest/gtest.h>

#include "01_vector_add/vector_add.hpp"
#include "02_row_softmax/row_softmax.hpp"
#include "cutile/host/launch.hpp"
#include "support/error_of.hpp"

namespace {

namespace ct = cutile;

TEST(LaunchChecks, WrongElementTypeOfAnUntypedTensor) {
  auto y = ct::Tensor<float>::meta({64, 4096});
  const ct::AnyTensor x = ct::Tensor<ct::bf16>::meta({64, 4096});
  const std::string message = cutile::test_support::error_of(
      [&] { ct::compile_only("sm_90", {}, examples::row_softmax<float, 4096>, y.partition({1, 4096}), x); });
  EXPECT_NE(message.find("argument 1 (In<f32>): expected a tensor of f32, got bf16[64, 4096]"), std::string::npos)
      << message;
}

TEST(LaunchChecks, WrongRank) {
  auto y = ct::Tensor<float>::meta({64, 4096});
  const std::string message = cutile::test_support::error_of([&] {
    ct::compile_only("sm_90", {}, examples::row_softmax<float, 4096>, y.partition({1, 4096}),
                     ct::Tensor<float>::meta({4096}));
  });
  EXPECT_NE(message.find("argument 1 (In<f32>): expected a rank-2 tensor, got f32[4096]"), std::string::npos) << message;
  EXPECT_NE(message.find("(rank 1)"), std::string::npos) << message;
}

TEST(LaunchChecks, OutputPartitionTileDiffersFromTheKernelsTile) {
  auto y = ct::Tensor<float>::meta({64, 4096});
  const std::string message = cutile::test_support::error_of([&] {
    ct::compile_only("sm_90", {}, examples::row_softmax<float, 4096>, y.partition({1, 2048}),
                     ct::Tensor<float>::meta({64, 4096}));
  });
  EXPECT_NE(message.find("argument 0 (Out<f32>): the partition's tile [1, 2048] differs from the kernel's output "
                         "tile [1, 4096]"),
            std::string::npos)
      << message;
}

TEST(LaunchChecks, APrefixPartitionNeedsAGridAndBoundsIt) {
  auto c = ct::Tensor<float>::meta({4096}), a = ct::Tensor<float>::meta({4096}), b = ct::Tensor<float>::meta({4096});
  std::string message = cutile::test_support::error_of(
      [&] { ct::compile_only("sm_90", {}, examples::vector_add<float, 1024>, c.partition_prefix({1024}), a, b); });
  EXPECT_NE(message.find("the kernel's output partitions are prefixes, which bound the launch grid but do not set it: "
                         "pass LaunchOptions::grid"),
            std::string::npos)
      << message;
  ct::LaunchOptions options;
  options.grid = std::array<int64_t, 3>{5, 1, 1};
  message = cutile::test_support::error_of(
      [&] { ct::compile_only("sm_90", options, examples::vector_add<float, 1024>, c.partition_prefix({1024}), a, b); });
  EXPECT_NE(message.find("the launch grid [5, 1, 1] has more blocks along axis 0 than argument 0 (Out<f32>), a prefix "
                         "partition, has tiles [4, 1, 1]: a block would write past its tensor"),
            std::string::npos)
      << message;
  options.grid = std::array<int64_t, 3>{3, 1, 1};  // a prefix of the four tiles
  EXPECT_NO_THROW(ct::compile_only("sm_90", options, examples::vector_add<float, 1024>, c.partition_prefix({1024}), a, b));
}

TEST(LaunchChecks, ReadingATensorWhileAPartitionOfItIsLive) {
  auto x = ct::Tensor<float>::meta({1 << 12});
  auto c = ct::Tensor<float>::meta({1 << 12});
  auto live = x.partition({1024});  // x is now exclusively held by `live`
  const std::string message = cutile::test_support::error_of(
      [&] { ct::compile_only("sm_90", {}, examples::vector_add<float, 1024>, c.partition({1024}), x, x); });
  EXPECT_NE(message.find("argument 1 (In<f32>)"), std::string::npos) << message;
  EXPECT_NE(message.find("a partition of it (tile [1024]) is live"), std::string::npos) << message;
}

TEST(LaunchChecks, ThePartitionedHalfOfABufferLeavesTheOtherHalfUsable) {
  auto buffer = ct::empty<float>({2, 1 << 12}, ct::Device::cpu());
  auto low = buffer.as_strided({1 << 12}, {1}, 0);
  auto high = buffer.as_strided({1 << 12}, {1}, 1 << 12);
  auto c = low.partition({1024});
  EXPECT_NO_THROW(ct::compile_only("sm_90", {}, examples::vector_add<float, 1024>, c, high, high));
  const std::string message = cutile::test_support::error_of([&] {
    ct::compile_only("sm_90", {}, examples::vector_add<float, 1024>, c, high, buffer.as_strided({1 << 12}, {1}, 100));
  });
  EXPECT_NE(message.find("argument 2 (In<f32>)"), std::string::npos) << message;
  EXPECT_NE(message.find("a partition of it (tile [1024]) is live"), std::string::npos) << message;
}

TEST(LaunchChecks, TheSameTensorAsTwoOutputsIsRefusedByThePartition) {
  auto y = ct::Tensor<float>::meta({1 << 12});
  auto first = y.partition({1024});
  const std::string message = cutile::test_support::error_of([&] { auto second = y.partition({1024}); });
  EXPECT_NE(message.find("is live"), std::string::npos) << message;
}

TEST(LaunchChecks, MetaTensorsCannotBeLaunched) {
  auto c = ct::Tensor<float>::meta({4096});
  const std::string message = cutile::test_support::error_of([&] {
    ct::launch(examples::vector_add<float, 1024>, c.partition({1024}), ct::Tensor<float>::meta({4096}),
               ct::Tensor<float>::meta({4096}));
  });
  EXPECT_NE(message.find("is a meta tensor without memory"), std::string::npos) << message;
}

TEST(LaunchChecks, InvalidKernelHints) {
  auto c = ct::Tensor<float>::meta({4096});
  ct::LaunchOptions options;
  options.hints.occupancy = 40;
  const std::string message = cutile::test_support::error_of([&] {
    ct::compile_only("sm_90", options, examples::vector_add<float, 1024>, c.partition({1024}),
                     ct::Tensor<float>::meta({4096}), ct::Tensor<float>::meta({4096}));
  });
  EXPECT_NE(message.find("KernelHints::occupancy must be in 1..32, got 40"), std::string::npos) << message;
}

TEST(LaunchChecks, AGridThatDisagreesWithTheOutputPartition) {
  auto c = ct::Tensor<float>::meta({4096});
  ct::LaunchOptions options;
  options.grid = std::array<int64_t, 3>{2, 1, 1};
  const std::string message = cutile::test_support::error_of([&] {
    ct::compile_only("sm_90", options, examples::vector_add<float, 1024>, c.partition({1024}),
                     ct::Tensor<float>::meta({4096}), ct::Tensor<float>::meta({4096}));
  });
  EXPECT_NE(message.find("differs from the output partitions' grid [4, 1, 1]"), std::string::npos) << message;
}

}  // namespace

namespace {

namespace ct = cutile;

}  // namespace
