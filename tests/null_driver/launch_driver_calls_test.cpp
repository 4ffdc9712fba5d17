// The driver calls of a cached launch, counted on the null driver (bench/null_driver, put on the library
// path by CTest): one cuLaunchKernel, and the completion's cuEventRecord only when something waits for it
// (at once on a borrowed stream); no context switch when the device is already current; a wait for another
// stream's write once per stream, not once per launch; no event at all for lent tensors, as a C ABI call
// passes them; a C ABI call leaves the caller's current context as it was. The first launch of each test
// compiles with the real tileiras; kernels never run.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "cutile/host/launch.hpp"
#include "cutile/runtime/driver_api.hpp"
#include "cutile_cpp/dlpack.hpp"
#include "cutile_cpp/kernels.h"
#include "elementwise/vector_add.hpp"
#include "support/toolchain_fixture.hpp"

namespace cutile {
namespace {

constexpr int64_t kElements = 4096, kTile = 1024;

class NullDriverLaunch : public test_support::ToolchainTest {
 protected:
  void SetUp() override {
    test_support::ToolchainTest::SetUp();
    if (IsSkipped()) return;
    std::string why;
    ASSERT_TRUE(runtime::driver_available(&why)) << why;
    void* driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
    ASSERT_NE(driver, nullptr) << "libcuda.so.1 is not loaded";
    calls_ = reinterpret_cast<long long (*)(const char*)>(dlsym(driver, "null_cuda_calls"));
    ASSERT_NE(calls_, nullptr) << "the loaded libcuda.so.1 is not the null driver: run this test through CTest";
  }

  /// Calls of each counted function since the last snapshot.
  std::map<std::string, long long> calls_since_snapshot() {
    std::map<std::string, long long> delta;
    for (const char* name : {"cuCtxSetCurrent", "cuLaunchKernel", "cuStreamWaitEvent", "cuEventRecord"}) {
      const long long now = calls_(name);
      delta[name] = now - snapshot_[name];
      snapshot_[name] = now;
    }
    return delta;
  }

  long long (*calls_)(const char*) = nullptr;
  std::map<std::string, long long> snapshot_;
};

using Calls = std::map<std::string, long long>;

// C ABI descriptors of three tensors, made through DLPack.
struct DLTensorDescriptors {
  DLTensorDescriptors(const Tensor<float>& ta, const Tensor<float>& tb, const Tensor<float>& tc)
      : a(of(ta)), b(of(tb)), c(of(tc)) {}
  static cutile_cpp_tensor of(const Tensor<float>& t) {
    DLManagedTensor* exported = dlpack::to_dlpack(t);
    const cutile_cpp_tensor d = dlpack::to_descriptor(exported->dl_tensor);
    exported->deleter(exported);  // `t` keeps the memory
    return d;
  }
  cutile_cpp_tensor a, b, c;
};

TEST_F(NullDriverLaunch, CachedLaunchMakesOneLaunchAndRecordsItsEventWhenWaitedFor) {
  Device gpu{0};
  Stream stream{gpu};
  Tensor<float> a = randn<float>({kElements}, gpu, 1), b = randn<float>({kElements}, gpu, 2);
  Tensor<float> c = empty<float>({kElements}, gpu);
  LaunchOptions options;
  options.stream = stream;
  auto launch_once = [&] {
    return launch(options, kernels::vector_add<float, kTile>, c.partition({kTile}), a, b);
  };
  launch_once();  // traces, compiles, loads; a and b were written on the default stream: one wait each
  calls_since_snapshot();
  for (int i = 0; i < 3; ++i) {
    launch_once();
    EXPECT_EQ(
        calls_since_snapshot(),
        (Calls{
            {"cuCtxSetCurrent", 0}, {"cuLaunchKernel", 1}, {"cuStreamWaitEvent", 0}, {"cuEventRecord", 0}}))
        << "launch " << i + 2;
  }
  const Completion done = launch_once();
  calls_since_snapshot();
  done.sync();
  EXPECT_EQ(calls_since_snapshot()["cuEventRecord"], 1) << "the wait records the event";
  done.sync();
  EXPECT_TRUE(done.ready());
  EXPECT_EQ(calls_since_snapshot()["cuEventRecord"], 0) << "once";
  c.to_host();  // waits for c's last write, the completion above
  EXPECT_EQ(calls_since_snapshot()["cuEventRecord"], 0);
}

TEST_F(NullDriverLaunch, ALaunchOnABorrowedStreamRecordsItsEventAtOnce) {
  Device gpu{0};
  Stream owner{gpu};
  LaunchOptions options;
  options.stream = Stream::borrow(owner.native_handle(), gpu);  // its owner may destroy it any time after
  Tensor<float> a = randn<float>({kElements}, gpu, 1), b = randn<float>({kElements}, gpu, 2);
  Tensor<float> c = empty<float>({kElements}, gpu);
  launch(options, kernels::vector_add<float, kTile>, c.partition({kTile}), a, b);
  calls_since_snapshot();
  launch(options, kernels::vector_add<float, kTile>, c.partition({kTile}), a, b);
  EXPECT_EQ(
      calls_since_snapshot(),
      (Calls{{"cuCtxSetCurrent", 0}, {"cuLaunchKernel", 1}, {"cuStreamWaitEvent", 0}, {"cuEventRecord", 1}}));
}

TEST_F(NullDriverLaunch, AStreamWaitsForAnotherStreamsWriteOnce) {
  Device gpu{0};
  Stream producer{gpu}, consumer{gpu};
  Tensor<float> a = randn<float>({kElements}, gpu, 3), b = randn<float>({kElements}, gpu, 4);
  Tensor<float> c = empty<float>({kElements}, gpu), d = empty<float>({kElements}, gpu);
  LaunchOptions on_producer, on_consumer;
  on_producer.stream = producer;
  on_consumer.stream = consumer;
  launch(on_producer, kernels::vector_add<float, kTile>, c.partition({kTile}), a, b);  // c written on producer
  launch(on_consumer, kernels::vector_add<float, kTile>, d.partition({kTile}), c, c);  // compiles nothing new
  calls_since_snapshot();
  launch(on_producer, kernels::vector_add<float, kTile>, c.partition({kTile}), a, b);
  // consumer reads c (one wait for its new write), writes d (read last on... its own stream: no wait)
  launch(on_consumer, kernels::vector_add<float, kTile>, d.partition({kTile}), c, c);
  EXPECT_EQ(calls_since_snapshot()["cuStreamWaitEvent"], 2) << "producer waits for consumer's read of c; consumer for c";
  launch(on_consumer, kernels::vector_add<float, kTile>, d.partition({kTile}), c, c);
  launch(on_consumer, kernels::vector_add<float, kTile>, d.partition({kTile}), c, c);
  EXPECT_EQ(calls_since_snapshot()["cuStreamWaitEvent"], 0) << "consumer already waits for c's write";
}

TEST_F(NullDriverLaunch, LentTensorsLaunchWithoutAnEvent) {
  Device gpu{0};
  Stream stream{gpu};
  Tensor<float> a = randn<float>({kElements}, gpu, 5), b = randn<float>({kElements}, gpu, 6);
  Tensor<float> c = empty<float>({kElements}, gpu);
  auto lent = [&](const Tensor<float>& t) {
    return Tensor<float>(
        AnyTensor::lend(ir::ElementType::f32, sizeof(float), t.data(), t.shape(), t.strides(), gpu));
  };
  LaunchOptions options;
  options.stream = stream;
  launch(options, kernels::vector_add<float, kTile>, lent(c).partition({kTile}), lent(a), lent(b));
  calls_since_snapshot();
  for (int i = 0; i < 3; ++i) {
    const Completion done =
        launch(options, kernels::vector_add<float, kTile>, lent(c).partition({kTile}), lent(a), lent(b));
    EXPECT_EQ(done.event(), nullptr) << "launch " << i + 2;
    EXPECT_EQ(
        calls_since_snapshot(),
        (Calls{
            {"cuCtxSetCurrent", 0}, {"cuLaunchKernel", 1}, {"cuStreamWaitEvent", 0}, {"cuEventRecord", 0}}))
        << "launch " << i + 2;
  }
  // One tracked argument among lent ones: its borrow state holds the launch's completion, whose event is
  // recorded when asked for.
  const Completion done =
      launch(options, kernels::vector_add<float, kTile>, lent(c).partition({kTile}), a, lent(b));
  EXPECT_NE(done.event(), nullptr);
  EXPECT_EQ(calls_since_snapshot()["cuEventRecord"], 1);
}

TEST_F(NullDriverLaunch, ACApiCallLaunchesOnceAndRecordsNoEvent) {
  Device gpu{0};
  Stream stream{gpu};
  Tensor<float> a = randn<float>({kElements}, gpu, 7), b = randn<float>({kElements}, gpu, 8);
  Tensor<float> c = empty<float>({kElements}, gpu);
  const DLTensorDescriptors d(a, b, c);
  ASSERT_EQ(cutile_cpp_vector_add(&d.c, &d.a, &d.b, 0, stream.native_handle()), CUTILE_CPP_OK)
      << cutile_cpp_last_error();
  calls_since_snapshot();
  for (int i = 0; i < 3; ++i) {
    ASSERT_EQ(cutile_cpp_vector_add(&d.c, &d.a, &d.b, 0, stream.native_handle()), CUTILE_CPP_OK)
        << cutile_cpp_last_error();
    EXPECT_EQ(
        calls_since_snapshot(),
        (Calls{
            {"cuCtxSetCurrent", 0}, {"cuLaunchKernel", 1}, {"cuStreamWaitEvent", 0}, {"cuEventRecord", 0}}))
        << "call " << i + 2;
  }
}

TEST_F(NullDriverLaunch, ACApiCallLeavesTheCallersCurrentContext) {
  Device gpu{0};
  Tensor<float> a = randn<float>({kElements}, gpu, 9), b = randn<float>({kElements}, gpu, 10);
  Tensor<float> c = empty<float>({kElements}, gpu);
  const DLTensorDescriptors d(a, b, c);
  std::vector<float> host(kElements);
  cutile_cpp_tensor on_host =
      d.a;  // host memory passed as device memory: refused after the device is current
  on_host.data = host.data();
  const runtime::DriverApi& api = runtime::driver_api();
  for (const bool fails : {false, true}) {
    ASSERT_EQ(api.cuCtxSetCurrent(nullptr), 0);  // as on a thread that has not used CUDA
    const int32_t status = cutile_cpp_vector_add(&d.c, fails ? &on_host : &d.a, &d.b, 0, nullptr);
    EXPECT_EQ(status, fails ? CUTILE_CPP_ERROR_INVALID_POINTER : CUTILE_CPP_OK) << cutile_cpp_last_error();
    runtime::CUcontext current = nullptr;
    ASSERT_EQ(api.cuCtxGetCurrent(&current), 0);
    EXPECT_EQ(current, nullptr) << (fails ? "after a failed call" : "after a call");
  }
}

}  // namespace
}  // namespace cutile
