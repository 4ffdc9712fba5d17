// A raw pointer argument keeps the launch's checks: no other argument may overlap its tensor, a live
// partition of it is refused, and a meta tensor does not launch (the aot tier compiles for one).
#include <gtest/gtest.h>

#include "cutile/host/launch.hpp"
#include "support/dsl_vocabulary_kernels.hpp"
#include "support/error_of.hpp"

namespace {

namespace ct = cutile;
using cutile::test_support::error_of;
using cutile::test_support::vocabulary_kernels::raw_scatter_count;

ct::LaunchOptions one_block() {
  ct::LaunchOptions options;
  options.grid = std::array<int64_t, 3>{1, 1, 1};
  return options;
}

TEST(RawPointerChecks, ARawPointerMayNotOverlapAnotherArgument) {
  const ct::Device cpu = ct::Device::cpu();
  auto y = ct::empty<float>({16}, cpu);
  auto counts = ct::zeros<int32_t>({4}, cpu);
  auto to = ct::zeros<int32_t>({16}, cpu);
  const std::string message = error_of(
      [&] { ct::launch(one_block(), raw_scatter_count, ct::raw(y), ct::raw(counts), ct::raw(y), to, 16); });
  EXPECT_NE(message.find("argument 0 (RawPtr<f32>) overlaps argument 2 (RawPtr<f32>) in memory"), std::string::npos)
      << message;
  EXPECT_NE(message.find("a RawPtr's tensor may not alias another argument"), std::string::npos) << message;
}

TEST(RawPointerChecks, APartitionedTensorCannotBeARawPointer) {
  const ct::Device cpu = ct::Device::cpu();
  auto y = ct::empty<float>({16}, cpu), x = ct::empty<float>({16}, cpu);
  auto counts = ct::zeros<int32_t>({4}, cpu);
  auto to = ct::zeros<int32_t>({16}, cpu);
  const auto partition = y.partition({16});
  const std::string message = error_of(
      [&] { ct::launch(one_block(), raw_scatter_count, ct::raw(y), ct::raw(counts), ct::raw(x), to, 16); });
  EXPECT_NE(message.find("use argument 0 (RawPtr<f32>) (f32[16] on cpu) in a launch"), std::string::npos) << message;
}

TEST(RawPointerChecks, AMetaTensorDoesNotLaunch) {
  auto meta = ct::Tensor<float>::meta({16});
  auto counts = ct::Tensor<int32_t>::meta({4});
  auto to = ct::Tensor<int32_t>::meta({16});
  const std::string message = error_of([&] {
    ct::launch(one_block(), raw_scatter_count, ct::raw(meta), ct::raw(counts), ct::raw(ct::Tensor<float>::meta({16})),
               to, 16);
  });
  EXPECT_NE(message.find("argument 0 (RawPtr<f32>) is a meta tensor without memory"), std::string::npos) << message;
}

}  // namespace
