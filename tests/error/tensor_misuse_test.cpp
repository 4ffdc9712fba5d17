// Each misuse of tensors and partitions gives its specific message; on meta tensors, so no GPU is needed.
#include <gtest/gtest.h>

#include <string>

#include "cutile/error.hpp"
#include "cutile/host/device.hpp"
#include "cutile/host/partition.hpp"
#include "cutile/host/tensor.hpp"
#include "support/error_of.hpp"

namespace cutile {
namespace {

TEST(TensorMisuse, RankAboveFive) {
  EXPECT_EQ(test_support::error_of<UserError>([] {
              Tensor<f32>::meta({1, 2, 1, 2, 1, 2});
            }),
            "a meta tensor has rank 6 (shape [1, 2, 1, 2, 1, 2]); tensors have rank 0 to 5");
}

TEST(TensorMisuse, NegativeStride) {
  EXPECT_EQ(test_support::error_of<UserError>([] {
              Tensor<f32>::meta({4, 4}, {4, -1});
            }),
            "a meta tensor has a negative stride -1 on axis 1 (strides [4, -1]); tensors need non-negative "
            "strides");
}

TEST(TensorMisuse, NegativeExtent) {
  EXPECT_EQ(test_support::error_of<UserError>([] {
              Tensor<f32>::meta({4, -3});
            }),
            "a meta tensor has a negative extent -3 on axis 1 (shape [4, -3])");
}

TEST(TensorMisuse, StridesOfAnotherRank) {
  EXPECT_EQ(test_support::error_of<UserError>([] {
              Tensor<f32>::meta({4, 4}, {1});
            }),
            "a meta tensor has shape [4, 4] of rank 2 but strides [1] of rank 1");
}

TEST(TensorMisuse, ViewOutsideTheStorage) {
  auto t = Tensor<f32>::meta({4, 4});
  EXPECT_EQ(test_support::error_of<UserError>([&] { t.as_strided({4}, {1}, 13); }),
            "a view with shape [4], strides [1] and offset 13 reaches outside the 64 bytes of the storage of "
            "tensor f32[4, 4] on no device (meta)");
  EXPECT_THROW(t.as_strided({2}, {1}, -1), UserError);
  EXPECT_NO_THROW(t.as_strided({4}, {1}, 12));
}

TEST(TensorMisuse, WrongElementType) {
  AnyTensor any = AnyTensor::meta(ir::ElementType::f16, 2, {3}, {1});
  EXPECT_EQ(test_support::error_of<UserError>([&] { Tensor<bf16>{any}; }),
            "tensor f16[3] on no device (meta) is not a tensor of bf16");
}

TEST(TensorMisuse, MetaTensorsHaveNoDeviceOrMemory) {
  auto t = Tensor<f32>::meta({2, 2});
  EXPECT_EQ(test_support::error_of<UserError>([&] { t.device(); }), "meta tensor f32[2, 2] on no device (meta) has no device");
  EXPECT_EQ(test_support::error_of<UserError>([&] { t.to_host(); }),
            "cannot read meta tensor f32[2, 2] on no device (meta): it has no memory");
}

TEST(TensorMisuse, PartitionWithNonPowerOfTwoTile) {
  auto t = Tensor<bf16>::meta({4096, 4096});
  EXPECT_EQ(
      test_support::error_of<UserError>([&] {
        t.partition({1, 3000});
      }),
      "cannot partition tensor bf16[4096, 4096] on no device (meta) into tiles [1, 3000]: tile dim 1 is "
      "3000, which is not a power of two (Tile IR tile dims are)");
  EXPECT_FALSE(t.borrow_state().exclusively_borrowed());  // a refused partition borrows nothing
}

TEST(TensorMisuse, PartitionWithTileOfAnotherRank) {
  auto t = Tensor<f32>::meta({64, 64});
  EXPECT_EQ(
      test_support::error_of<UserError>([&] { t.partition({64}); }),
      "cannot partition tensor f32[64, 64] on no device (meta) into tiles [64]: the tile has rank 1 but the "
      "tensor has rank 2");
}

TEST(TensorMisuse, PartitionWithZeroTileDim) {
  auto t = Tensor<f32>::meta({64, 64});
  EXPECT_EQ(
      test_support::error_of<UserError>([&] {
        t.partition({0, 64});
      }),
      "cannot partition tensor f32[64, 64] on no device (meta) into tiles [0, 64]: tile dim 0 is 0; every "
      "tile dim must be at least 1");
}

TEST(TensorMisuse, PartitionOfRankFourTensor) {
  auto t = Tensor<f32>::meta({2, 2, 2, 2});
  EXPECT_EQ(test_support::error_of<UserError>([&] {
              t.partition({1, 1, 1, 1});
            }),
            "cannot partition tensor f32[2, 2, 2, 2] on no device (meta): partitions need rank 1 to 3 (one "
            "tile-grid axis per tensor axis), found rank 4");
}

TEST(TensorMisuse, SecondPartitionWhileOneIsLive) {
  auto t = Tensor<f32>::meta({64});
  auto p = t.partition({16});
  EXPECT_EQ(
      test_support::error_of<UserError>([&] { t.partition({32}); }),
      "cannot partition tensor f32[64] on no device (meta): a partition of it (tile [16]) is live and holds "
      "it exclusively; call unpartition() on the partition or let it go out of scope first");
}

TEST(TensorMisuse, ReadWhilePartitioned) {
  auto t = Tensor<f32>::meta({64});
  auto p = t.partition({16});
  EXPECT_EQ(
      test_support::error_of<UserError>([&] { t.to_host(); }),
      "cannot read tensor f32[64] on no device (meta) with to_host(): a partition of it (tile [16]) is live "
      "and holds it exclusively; call unpartition() on the partition or let it go out of scope first");
}

TEST(TensorMisuse, MovedFromPartition) {
  auto t = Tensor<f32>::meta({64});
  auto p = t.partition({16});
  auto q = std::move(p);
  EXPECT_EQ(test_support::error_of<UserError>([&] { p.arg_view(); }),
            "cannot use a partition after it was moved from or unpartitioned");
}

TEST(TensorMisuse, DeviceWithoutDriverSaysWhy) {
  std::string why;
  if (runtime::driver_available(&why)) GTEST_SKIP() << "a CUDA driver is present on this machine";
  try {
    Device device(0);
    FAIL() << "expected a RuntimeError";
  } catch (const RuntimeError& error) {
    EXPECT_EQ(error.message(), why);
  }
}

}  // namespace
}  // namespace cutile
