// Driver calls failing inside a C ABI call, one at a time: on the null driver (bench/null_driver, put on
// the library path by CTest), the Nth driver call after a C ABI call begins returns CUDA_ERROR_OUT_OF_MEMORY,
// for every N the call makes. Each N runs in a child process forked from a parent that never touched the
// driver, so a cold call (driver start, context, module load, scratch memory) is swept as well as a warm
// one. Every child must return from the call (no crash), with CUTILE_CPP_OK or with an error status other
// than INTERNAL and a message; the same call made again, with the driver working, must succeed (nothing
// half-built was cached: a module whose load failed is loaded again), except after a failed cuInit, which
// the process keeps as the driver itself does; and the device memory live after it must be what a call that
// never failed leaves (no leak on the error paths). The failures a call absorbs are by design: a failed
// cuCtxGetCurrent makes the device current anyway, a failed query of an allocation's range leaves it
// unremembered, and a failed restore of the caller's context after the work is done is not reported. Kernels
// do not run on the null driver, so results are not checked here: tests/faults does that for host
// allocations.
#include <dlfcn.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "cutile_cpp/kernels.h"
#include "support/forked_child.hpp"
#include "support/toolchain_fixture.hpp"

namespace {

constexpr int kOutOfMemory = 2;  // CUDA_ERROR_OUT_OF_MEMORY
constexpr int64_t kRows = 5, kCols = 96;

// The null driver's own functions, and the allocation the test's tensors use.
struct NullDriver {
  int (*fail_at)(long long, int);
  long long (*calls)(const char*);
  long long (*live_allocations)();
  int (*mem_alloc)(uint64_t*, size_t);
  const char* (*failed_function)();

  static NullDriver load() {
    void* driver = dlopen("libcuda.so.1", RTLD_NOW);
    if (!driver) return {};
    return {reinterpret_cast<int (*)(long long, int)>(dlsym(driver, "null_cuda_fail_at")),
            reinterpret_cast<long long (*)(const char*)>(dlsym(driver, "null_cuda_calls")),
            reinterpret_cast<long long (*)()>(dlsym(driver, "null_cuda_live_allocations")),
            reinterpret_cast<int (*)(uint64_t*, size_t)>(dlsym(driver, "cuMemAlloc_v2")),
            reinterpret_cast<const char* (*)()>(dlsym(driver, "null_cuda_failed_function"))};
  }
  bool complete() const { return fail_at && calls && live_allocations && mem_alloc && failed_function; }
};

cutile_cpp_tensor device_tensor(const NullDriver& driver, std::vector<int64_t> shape) {
  cutile_cpp_tensor t{};
  int64_t stride = 1;
  t.ndim = static_cast<int32_t>(shape.size());
  for (int d = t.ndim - 1; d >= 0; --d) {
    t.shape[d] = shape[d];
    t.strides[d] = stride;
    stride *= shape[d];
  }
  uint64_t address = 0;
  driver.mem_alloc(&address, static_cast<size_t>(stride) * sizeof(float));
  t.data = reinterpret_cast<void*>(address);
  t.dtype = CUTILE_CPP_F32;
  t.device_type = CUTILE_CPP_DEVICE_CUDA;
  return t;
}

struct Outcome {
  bool loaded;
  int32_t status;
  bool fired;
  long long calls;  // driver calls the armed call made
  int32_t again_status;
  long long live_after;  // device allocations live after the call made again
  char function[64];     // the driver function that failed
  char message[400];
};

// In a forked child: warms the op first when `warm`, fails the `at`th driver call of the next call (none
// for `at` 0) and reports. A call is rms_norm's forward and backward passes (see below).
Outcome run_child(long long at, bool warm) {
  return cutile::test_support::in_forked_child(
      "failing driver call " + std::to_string(at) + (warm ? " of a warm call" : " of a cold call"), [&] {
        Outcome o{};
        const NullDriver driver = NullDriver::load();
        o.loaded = driver.complete();
        if (o.loaded) {
          const cutile_cpp_tensor y = device_tensor(driver, {kRows, kCols}),
                                  rstd = device_tensor(driver, {kRows}),
                                  x = device_tensor(driver, {kRows, kCols}),
                                  w = device_tensor(driver, {kCols}),
                                  dy = device_tensor(driver, {kRows, kCols}),
                                  dx = device_tensor(driver, {kRows, kCols}),
                                  dw = device_tensor(driver, {kCols});
          // The forward pass, then the backward, which allocates scratch memory for its partial sums.
          auto call = [&] {
            const int32_t status =
                cutile_cpp_rms_norm(&y, &rstd, &x, &w, 1e-6, 0.0, CUTILE_CPP_RMS_NORM_MODE_AUTO, 0, nullptr);
            return status != CUTILE_CPP_OK
                       ? status
                       : cutile_cpp_rms_norm_backward(&dx, &dw, &dy, &x, &w, &rstd, 0.0, 0, nullptr);
          };
          if (warm && call() != CUTILE_CPP_OK) _exit(3);
          const long long before = driver.calls("all");
          driver.fail_at(at, kOutOfMemory);
          o.status = call();
          o.fired = driver.fail_at(0, 0) != 0;
          std::strncpy(o.function, driver.failed_function(), sizeof o.function - 1);
          o.calls = driver.calls("all") - before;
          std::strncpy(o.message, cutile_cpp_last_error(), sizeof o.message - 1);
          o.again_status = call();
          o.live_after = driver.live_allocations();
        }
        return o;
      });
}

class DriverFaults : public cutile::test_support::ToolchainTest {
 protected:
  void sweep(bool warm) {
    const Outcome clean = run_child(0, warm);
    ASSERT_TRUE(clean.loaded) << "libcuda.so.1 is not the null driver: run this test through CTest";
    ASSERT_EQ(clean.status, CUTILE_CPP_OK) << clean.message;
    ASSERT_GT(clean.calls, 0);
    int failed_calls = 0;
    for (long long at = 1; at <= clean.calls; ++at) {
      const Outcome o = run_child(at, warm);
      SCOPED_TRACE("failing driver call " + std::to_string(at) + " of " + std::to_string(clean.calls) + ", " +
                   o.function + (warm ? " (warm)" : " (cold)"));
      if (std::getenv("CUTILE_DRIVER_FAULTS_VERBOSE"))
        std::printf("%lld %s -> %d %s\n", at, o.function, o.status, o.message);
      ASSERT_TRUE(o.fired);
      if (o.status != CUTILE_CPP_OK) {
        ++failed_calls;
        EXPECT_NE(o.status, CUTILE_CPP_ERROR_INTERNAL) << o.message;
        EXPECT_STRNE(o.message, "") << "a failed call says why";
      }
      if (std::string(o.function) == "cuInit") {
        // The driver's start is final for the process, as the driver's own is: it is not tried again.
        EXPECT_EQ(o.again_status, CUTILE_CPP_ERROR_DEVICE_UNAVAILABLE) << o.message;
        continue;
      }
      EXPECT_EQ(o.again_status, CUTILE_CPP_OK) << "the call made again fails after: " << o.message;
      EXPECT_EQ(o.live_after, clean.live_after) << "device memory leaked on the error path of: " << o.message;
    }
    EXPECT_GT(failed_calls, 0) << "no failure reached the caller";
    std::printf("%s call: %lld driver calls, each failed in turn; %d of them failed the call\n",
                warm ? "warm" : "cold", clean.calls, failed_calls);
  }
};

TEST_F(DriverFaults, EachDriverCallOfAColdCallFailsInTurn) {
  sweep(false);
}
TEST_F(DriverFaults, EachDriverCallOfAWarmCallFailsInTurn) {
  sweep(true);
}

}  // namespace
