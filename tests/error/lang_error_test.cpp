// Misuse of the language additions that only shows at run time — per-target hints, scatter options —
// is refused before tileiras runs, each with its own message.
#include <gtest/gtest.h>

#include "01_vector_add/vector_add.hpp"
#include "cutile/host/launch.hpp"
#include "support/error_of.hpp"
#include "support/lang_kernels.hpp"

namespace {

namespace ct = cutile;
namespace lk = cutile::test_support::lang_kernels;

std::string compile_error(const ct::KernelHints& hints) {
  auto c = ct::Tensor<float>::meta({4096});
  ct::LaunchOptions options;
  options.hints = hints;
  return cutile::test_support::error_of([&] {
    ct::compile_only("sm_90", options, examples::vector_add<float, 1024>, c.partition({1024}),
                     ct::Tensor<float>::meta({4096}), ct::Tensor<float>::meta({4096}));
  });
}

TEST(TargetHints, AnUnknownTargetNameIsRefused) {
  ct::KernelHints h;
  h.for_target("sm_91", {.occupancy = 2});
  const std::string message = compile_error(h);
  EXPECT_NE(message.find("KernelHints::for_target(\"sm_91\"): unknown GPU target (expected one of sm_80, "),
            std::string::npos)
      << message;
}

TEST(TargetHints, ATargetGivenTwiceIsRefused) {
  ct::KernelHints h;
  h.for_target("sm_90", {.occupancy = 2}).for_target("sm_90", {.occupancy = 4});
  const std::string message = compile_error(h);
  EXPECT_NE(message.find("KernelHints::for_target(\"sm_90\"): the target is given more than once"),
            std::string::npos)
      << message;
}

TEST(TargetHints, ABadValueIsReportedAgainstItsTarget) {
  ct::KernelHints h;
  h.occupancy = 4;
  h.for_target("sm_100", {.num_worker_warps = 6});
  const std::string message = compile_error(h);
  EXPECT_NE(message.find("KernelHints::for_target(\"sm_100\").num_worker_warps must be 4 or 8, got 6"),
            std::string::npos)
      << message;
  ct::KernelHints occupancy;
  occupancy.for_target("sm_90", {.occupancy = 0});
  const std::string second = compile_error(occupancy);
  EXPECT_NE(second.find("KernelHints::for_target(\"sm_90\").occupancy must be in 1..32, got 0"),
            std::string::npos)
      << second;
}

TEST(TargetHints, ClustersOnAmpereAreRefused) {
  ct::KernelHints h;
  h.for_target("sm_80", {.num_ctas = 2});
  const std::string message = compile_error(h);
  EXPECT_NE(message.find("KernelHints::for_target(\"sm_80\").num_ctas must be 1 on sm_8x"), std::string::npos)
      << message;
}

TEST(TargetHints, ABadDefaultIsStillReportedAsTheDefault) {
  ct::KernelHints h;
  h.num_ctas = 3;
  h.for_target("sm_90", {.num_ctas = 2});
  const std::string message = compile_error(h);
  EXPECT_NE(message.find("KernelHints::num_ctas must be a power of two ≤ 16, got 3"), std::string::npos)
      << message;
}

// The launch table is keyed on the per-target hints too: after a launch with valid ones, a launch with
// an invalid target must trace again (and fail) rather than reuse the first kernel.
TEST(TargetHints, TheLaunchCacheKeyIncludesThem) {
  const ct::Device cpu = ct::Device::cpu();
  auto x = ct::randn<float>({64}, cpu, 61);
  auto y = ct::empty<float>({64}, cpu);
  ct::LaunchOptions options;
  options.hints.for_target("sm_90", {.occupancy = 2});
  ct::launch(options, lk::acquire_release_copy, y.partition({16}), x).sync();
  ct::LaunchOptions other;
  other.hints.for_target("sm_90", {.occupancy = 2}).for_target("sm_99", {.occupancy = 1});
  const std::string message = cutile::test_support::error_of(
      [&] { ct::launch(other, lk::acquire_release_copy, y.partition({16}), x).sync(); });
  EXPECT_NE(message.find("KernelHints::for_target(\"sm_99\"): unknown GPU target"), std::string::npos)
      << message;
  ct::LaunchOptions changed_value;
  changed_value.hints.for_target("sm_90", {.occupancy = 99});
  const std::string value_message = cutile::test_support::error_of(
      [&] { ct::launch(changed_value, lk::acquire_release_copy, y.partition({16}), x).sync(); });
  EXPECT_NE(value_message.find("KernelHints::for_target(\"sm_90\").occupancy must be in 1..32, got 99"),
            std::string::npos)
      << value_message;
}

TEST(ScatterOptions, ALatencyOutsideOneToTenIsRefusedAtItsLine) {
  auto bad_latency = [](ct::Out<float, ct::Shape<16>> y, ct::In<float, lk::Dyn1> x) {
    y.scatter(ct::at(ct::iota<int32_t, 16>()), x.load(ct::tile<16>, {0}), {.latency = 11});
  };
  const std::string message = cutile::test_support::error_of([&] {
    cutile::test_support::trace_with(
        +bad_latency, {cutile::test_support::contiguous(1), cutile::test_support::contiguous(1)});
  });
  EXPECT_NE(message.find("the latency hint of a gather or scatter must be in 1..10, got 11"),
            std::string::npos)
      << message;
}

}  // namespace
