// Host allocations failing inside a C ABI call, one at a time, as SQLite's malloc tests fail them: the
// executable replaces the global operator new, and the Nth allocation after the call begins throws
// std::bad_alloc. Each N runs in a child process forked from a parent that never called the op, so a
// cold call (trace, lowering, the interpreter) is swept as well as a warm one. Every child must return
// from the call (no crash, no std::terminate), with CUTILE_CPP_OK and correct results, or with
// CUTILE_CPP_ERROR_RUNTIME and a message that says the host ran out of memory; and the same call made
// again afterwards, with allocation working, must succeed with correct results (nothing was left
// half-built in a cache). Allocations through malloc alone are not failed here.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>
#include <vector>

#include "cutile_cpp/kernels.h"
#include "support/forked_child.hpp"

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/lsan_interface.h>
#endif

namespace {

std::atomic<bool> armed{false};
std::atomic<bool> fired{false};
std::atomic<int64_t> allocations{0};  // since the last arm()
int64_t failing = 0;                  // the allocation that throws, counted from 1

void arm(int64_t at) {
  failing = at;
  allocations = 0;
  fired = false;
  armed = true;
}

void* allocate(std::size_t bytes, std::size_t alignment) {
  if (armed.load(std::memory_order_relaxed) && ++allocations == failing) {
    fired = true;
    throw std::bad_alloc();
  }
  void* p = alignment > alignof(std::max_align_t)
                ? std::aligned_alloc(alignment, (std::max<std::size_t>(bytes, 1) + alignment - 1) / alignment * alignment)
                : std::malloc(std::max<std::size_t>(bytes, 1));
  if (!p) throw std::bad_alloc();
  return p;
}

}  // namespace

// The replacements pair malloc with free, which GCC cannot see through.
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
void* operator new(std::size_t bytes) { return allocate(bytes, 0); }
void* operator new[](std::size_t bytes) { return allocate(bytes, 0); }
void* operator new(std::size_t bytes, std::align_val_t a) { return allocate(bytes, static_cast<std::size_t>(a)); }
void* operator new[](std::size_t bytes, std::align_val_t a) { return allocate(bytes, static_cast<std::size_t>(a)); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }

namespace {

// Every allocation fails in turn; in the address build, whose children also look for leaks and run
// several times slower, every 8th (a whole sweep there takes 7 minutes on two cores).
#if defined(__SANITIZE_ADDRESS__)
constexpr int64_t kStride = 8;
#else
constexpr int64_t kStride = 1;
#endif
constexpr int64_t kRows = 5, kCols = 96;  // ragged: rows under any tile, columns under a power of two
constexpr double kEps = 1e-6;

cutile_cpp_tensor host_tensor(float* data, std::vector<int64_t> shape) {
  cutile_cpp_tensor t{};
  t.data = data;
  t.ndim = static_cast<int32_t>(shape.size());
  int64_t stride = 1;
  for (int d = t.ndim - 1; d >= 0; --d) {
    t.shape[d] = shape[d];
    t.strides[d] = stride;
    stride *= shape[d];
  }
  t.dtype = CUTILE_CPP_F32;
  t.device_type = CUTILE_CPP_DEVICE_CPU;
  return t;
}

/// One rms_norm over fixed random inputs, its outputs checked against float64.
struct RmsNormCall {
  std::vector<float> x, weight, y, rstd;

  RmsNormCall() : x(kRows * kCols), weight(kCols), y(kRows * kCols), rstd(kRows) {
    uint32_t state = 12345;
    auto next = [&] { return (state = state * 1664525u + 1013904223u) / 4294967296.0f * 2.0f - 1.0f; };
    for (float& v : x) v = next();
    for (float& v : weight) v = 1.0f + 0.5f * next();
  }

  /// The call, with its `fail_at`th allocation failing (0: none).
  int32_t run(int64_t fail_at = 0) {
    std::fill(y.begin(), y.end(), std::nanf(""));
    std::fill(rstd.begin(), rstd.end(), std::nanf(""));
    const cutile_cpp_tensor ty = host_tensor(y.data(), {kRows, kCols}), tr = host_tensor(rstd.data(), {kRows}),
                            tx = host_tensor(x.data(), {kRows, kCols}), tw = host_tensor(weight.data(), {kCols});
    arm(fail_at);
    const int32_t status = cutile_cpp_rms_norm(&ty, &tr, &tx, &tw, kEps, 0.0, CUTILE_CPP_RMS_NORM_MODE_AUTO, 0, nullptr);
    armed = false;
    return status;
  }

  bool correct() const {
    for (int64_t r = 0; r < kRows; ++r) {
      double squares = 0;
      for (int64_t c = 0; c < kCols; ++c) squares += double(x[r * kCols + c]) * x[r * kCols + c];
      const double expected_rstd = 1.0 / std::sqrt(squares / kCols + kEps);
      if (!(std::abs(rstd[r] - expected_rstd) <= 1e-5 * expected_rstd)) return false;
      for (int64_t c = 0; c < kCols; ++c) {
        const double expected = x[r * kCols + c] * expected_rstd * weight[c];
        if (!(std::abs(y[r * kCols + c] - expected) <= 1e-5 + 1e-5 * std::abs(expected))) return false;
      }
    }
    return true;
  }
};

/// What a child saw: the armed call's status and message, whether the failure fired, and the call made
/// again afterwards.
struct Outcome {
  int32_t status;
  bool fired;
  bool first_correct;
  int32_t again_status;
  bool again_correct;
  int64_t allocations;
  bool leaked;  // LeakSanitizer found memory no one can free (address build only)
  char message[400];
};

/// In a forked child: warms the op first when `warm`, fails the `at`th allocation of the call (none for
/// `at` 0) and reports.
Outcome run_child(int64_t at, bool warm) {
  return cutile::test_support::in_forked_child(
      "failing allocation " + std::to_string(at) + (warm ? " of a warm call" : " of a cold call"), [&] {
        RmsNormCall call;
        Outcome o{};
        if (warm && call.run() != CUTILE_CPP_OK) _exit(3);
        o.status = call.run(at);
        o.fired = fired;
        o.allocations = allocations;
        o.first_correct = o.status == CUTILE_CPP_OK && call.correct();
        std::strncpy(o.message, cutile_cpp_last_error(), sizeof o.message - 1);
        o.again_status = call.run();
        o.again_correct = o.again_status == CUTILE_CPP_OK && call.correct();
#if defined(__SANITIZE_ADDRESS__)
        o.leaked = __lsan_do_recoverable_leak_check() != 0;  // _exit skips the check at exit
#endif
        return o;
      });
}

void sweep(bool warm) {
  const Outcome clean = run_child(0, warm);
  ASSERT_EQ(clean.status, CUTILE_CPP_OK) << clean.message;
  ASSERT_TRUE(clean.first_correct);
  ASSERT_GT(clean.allocations, 0) << "the call allocates nothing through operator new: nothing is swept";
  int failed_calls = 0;
  for (int64_t at = 1; at <= clean.allocations; at += kStride) {
    const Outcome o = run_child(at, warm);
    SCOPED_TRACE("failing allocation " + std::to_string(at) + " of " + std::to_string(clean.allocations));
    ASSERT_TRUE(o.fired);
    if (o.status == CUTILE_CPP_OK) {
      EXPECT_TRUE(o.first_correct) << "the call absorbed the failure but its results are wrong";
    } else {
      ++failed_calls;
      EXPECT_EQ(o.status, CUTILE_CPP_ERROR_RUNTIME) << o.message;
      EXPECT_NE(std::string(o.message).find("out of host memory"), std::string::npos) << o.message;
    }
    EXPECT_EQ(o.again_status, CUTILE_CPP_OK) << "the call made again failed";
    EXPECT_TRUE(o.again_correct) << "the call made again gave wrong results";
    EXPECT_FALSE(o.leaked) << "the failed call leaked host memory (LeakSanitizer's report is above)";
  }
  ::testing::Test::RecordProperty("allocations", std::to_string(clean.allocations));
  ::testing::Test::RecordProperty("failed_calls", std::to_string(failed_calls));
  std::printf("%s call: %lld allocations, every %lld failed in turn; %d of those calls returned the error, the "
              "others absorbed it\n",
              warm ? "warm" : "cold", static_cast<long long>(clean.allocations), static_cast<long long>(kStride),
              failed_calls);
}

TEST(AllocationFaults, EachAllocationOfAColdCallFailsCleanly) { sweep(false); }

TEST(AllocationFaults, EachAllocationOfAWarmCallFailsCleanly) { sweep(true); }

}  // namespace
