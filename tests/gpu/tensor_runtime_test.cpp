// Tensors, streams and completions on a real GPU: allocation, host round trips for every layout,
// borrowed memory and streams, and ordering of work across streams through the borrow state.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <numeric>
#include <optional>
#include <thread>

#include "cutile/error.hpp"
#include "cutile/host/completion.hpp"
#include "cutile/host/device.hpp"
#include "cutile/host/partition.hpp"
#include "cutile/host/stream.hpp"
#include "cutile/host/tensor.hpp"
#include "cutile/runtime/device_buffer.hpp"

namespace cutile {
namespace {

using Extents = std::vector<int64_t>;
using runtime::check;
using runtime::driver_api;

class TensorGpu : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why;
    if (!runtime::driver_available(&why)) GTEST_SKIP() << "no CUDA driver: " << why;
    if (runtime::device_count() == 0) GTEST_SKIP() << "the CUDA driver sees no GPU";
    device.emplace(0);
  }

  // Keeps `stream` busy for a while (several passes of memset over a large scratch buffer), so that work
  // queued behind it is still pending when another stream or the host looks.
  void keep_busy(const Stream& stream) {
    if (!scratch) scratch.emplace(empty<i8>({int64_t{4} << 30}, *device, stream));
    for (int i = 0; i < 16; ++i) scratch->zero(stream);
  }

  std::optional<Device> device;
  std::optional<Tensor<i8>> scratch;
};

template <Element E>
std::vector<E> iota_values(int64_t count) {
  std::vector<E> values(static_cast<size_t>(count));
  for (int64_t i = 0; i < count; ++i)
    values[static_cast<size_t>(i)] = to_element<E>(static_cast<double>(i % 1000) - 500);
  return values;
}

template <Element E>
std::vector<uint64_t> bits_of(const std::vector<E>& values) {
  std::vector<uint64_t> bits;
  for (const E& value : values) {
    uint64_t b = 0;
    std::memcpy(&b, &value, sizeof(E));
    bits.push_back(b);
  }
  return bits;
}

TEST_F(TensorGpu, DeviceHandlesShareOneStatePerOrdinal) {
  Device again(0);
  EXPECT_TRUE(again == *device);
  EXPECT_EQ(&again.runtime_device(), &device->runtime_device());
  EXPECT_EQ(device->index(), 0);
  EXPECT_TRUE(device->arch().starts_with("sm_")) << device->arch();
  EXPECT_GT(device->sm_count(), 0);
  EXPECT_EQ(device->describe(), "cuda:0");
  std::printf("%s %s, %d SMs, stream-ordered allocation: %s\n", device->name().c_str(),
              device->arch().c_str(), device->sm_count(), device->memory_pools_supported() ? "yes" : "no");
  EXPECT_THROW(Device{runtime::device_count()}, UserError);
}

TEST_F(TensorGpu, EmptyAndZerosAllocate) {
  auto t = empty<f32>({1024, 1024}, *device);
  EXPECT_NE(t.address(), 0u);
  EXPECT_EQ(t.address() % 256, 0u);
  EXPECT_FALSE(t.is_borrowed());
  EXPECT_EQ(t.device().index(), 0);
  EXPECT_EQ(t.describe(), "f32[1024, 1024] on cuda:0");
  auto z = zeros<bf16>({3, 5, 7}, *device);
  for (bf16 value : z.to_host()) EXPECT_EQ(value.bits, 0);
  auto none = empty<f32>({0, 16}, *device);
  EXPECT_EQ(none.address(), 0u);
  EXPECT_TRUE(none.to_host().empty());
  auto scalar = from_host<i32>(std::vector<i32>{42}, {}, *device);
  EXPECT_EQ(scalar.to_host(), std::vector<i32>{42});
}

template <class E>
void expect_round_trip(const Device& device) {
  const Extents shape{37, 129};
  auto values = iota_values<E>(numel(shape));
  auto t = from_host<E>(values, shape, device);
  EXPECT_EQ(bits_of(t.to_host()), bits_of(values)) << element_traits<E>::name;
  // A second handle reads the same storage.
  Tensor<E> copy = t;
  EXPECT_EQ(copy.address(), t.address());
  EXPECT_EQ(bits_of(copy.to_host()), bits_of(values));
}

TEST_F(TensorGpu, HostRoundTripF32F16Bf16) {
  expect_round_trip<f32>(*device);
  expect_round_trip<f16>(*device);
  expect_round_trip<bf16>(*device);
  expect_round_trip<i64>(*device);
  expect_round_trip<f8e4m3fn>(*device);
}

TEST_F(TensorGpu, BoolTensorsRoundTrip) {
  std::vector<uint8_t> bytes{1, 0, 0, 1, 1};
  std::vector<bool> expected(bytes.begin(), bytes.end());
  bool host[5] = {true, false, false, true, true};
  auto t = from_host<bool>(std::span<const bool>(host, 5), {5}, *device);
  EXPECT_EQ(t.to_host(), expected);
}

template <class E>
void expect_strided_views(const Device& device) {
  // A [4, 6] matrix with element (i, j) = 10 i + j.
  std::vector<E> values;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 6; ++j) values.push_back(to_element<E>(10 * i + j));
  auto m = from_host<E>(values, {4, 6}, device);
  auto as_doubles = [](const std::vector<E>& xs) {
    std::vector<double> out;
    for (const E& x : xs) out.push_back(from_element(x));
    return out;
  };
  // Transposed.
  std::vector<double> transposed;
  for (int j = 0; j < 6; ++j)
    for (int i = 0; i < 4; ++i) transposed.push_back(10 * i + j);
  EXPECT_EQ(as_doubles(m.as_strided({6, 4}, {1, 6}).to_host()), transposed);
  // Column 2, and every other column of rows 1..2 (an offset view).
  EXPECT_EQ(as_doubles(m.as_strided({4}, {6}, 2).to_host()), (std::vector<double>{2, 12, 22, 32}));
  EXPECT_EQ(as_doubles(m.as_strided({2, 3}, {6, 2}, 6).to_host()),
            (std::vector<double>{10, 12, 14, 20, 22, 24}));
  // Row 3 broadcast twice.
  EXPECT_EQ(as_doubles(m.as_strided({2, 6}, {0, 1}, 18).to_host()),
            (std::vector<double>{30, 31, 32, 33, 34, 35, 30, 31, 32, 33, 34, 35}));
  // A rank-5 view with unit axes.
  EXPECT_EQ(as_doubles(m.as_strided({1, 2, 1, 2, 1}, {0, 6, 0, 1, 0}, 1).to_host()),
            (std::vector<double>{1, 2, 11, 12}));
}

TEST_F(TensorGpu, StridedViewsReadInRowMajorOrder) {
  expect_strided_views<f32>(*device);
  expect_strided_views<f16>(*device);
  expect_strided_views<bf16>(*device);
}

TEST_F(TensorGpu, BorrowedMemoryIsReadAndNeverFreed) {
  std::vector<float> values(1000);
  std::iota(values.begin(), values.end(), 0.0f);
  auto buffer = runtime::DeviceBuffer::from_host(values);
  {
    auto t = Tensor<f32>::borrow(reinterpret_cast<void*>(buffer.address()), {10, 100}, *device);
    EXPECT_TRUE(t.is_borrowed());
    EXPECT_EQ(t.to_host(), values);
    auto columns =
        Tensor<f32>::borrow(reinterpret_cast<void*>(buffer.address()), {100, 10}, {1, 100}, *device);
    EXPECT_EQ(columns.to_host()[1], 100.0f);
    // Writing through a borrowed tensor reaches the owner's memory.
    auto first = Tensor<f32>::borrow(reinterpret_cast<void*>(buffer.address()), {10}, *device);
    first.copy_from_host(std::vector<float>(10, -1.0f));
    EXPECT_EQ(first.to_host(), std::vector<float>(10, -1.0f));
  }
  // The handles are gone and the memory is still the buffer's.
  auto after = buffer.download<float>();
  EXPECT_EQ(after[0], -1.0f);
  EXPECT_EQ(after[999], 999.0f);
}

TEST_F(TensorGpu, BorrowRejectsHostAndMisalignedPointers) {
  std::vector<float> host(16);
  try {
    Tensor<f32>::borrow(host.data(), {16}, *device);
    FAIL() << "expected a UserError";
  } catch (const UserError& error) {
    EXPECT_NE(error.message().find("the CUDA driver does not know it"), std::string::npos) << error.message();
  }
  auto t = empty<f32>({16}, *device);
  try {
    Tensor<f32>::borrow(reinterpret_cast<void*>(t.address() + 2), {4}, *device);
    FAIL() << "expected a UserError";
  } catch (const UserError& error) {
    EXPECT_NE(error.message().find("is not aligned to 4 bytes"), std::string::npos) << error.message();
  }
}

TEST_F(TensorGpu, ForeignStreamIsBorrowedAndNotDestroyed) {
  device->make_current();
  runtime::CUstream foreign = nullptr;
  check(driver_api().cuStreamCreate(&foreign, runtime::kStreamNonBlocking), "cuStreamCreate");
  {
    Stream stream = Stream::borrow(foreign, *device);
    EXPECT_FALSE(stream.is_owned());
    EXPECT_EQ(stream.native_handle(), static_cast<void*>(foreign));
    auto values = iota_values<f32>(4096);
    auto t = from_host<f32>(values, {4096}, *device, stream);
    stream.synchronize();
    EXPECT_EQ(t.to_host(), values);
  }
  // Still a valid stream: cutile did not destroy it.
  check(driver_api().cuStreamSynchronize(foreign), "cuStreamSynchronize");
  check(driver_api().cuStreamDestroy_v2(foreign), "cuStreamDestroy_v2");
}

TEST_F(TensorGpu, DefaultStreamIsTheNullStream) {
  Stream stream = Stream::default_stream(*device);
  EXPECT_TRUE(stream.is_default());
  EXPECT_EQ(stream.native_handle(), nullptr);
  stream.synchronize();
  EXPECT_TRUE(Stream::borrow(nullptr, *device) == stream);
}

// The launch path's pattern: a write queued on stream A behind long work, then a read on stream B that
// orders itself after A's write through the borrow state. B must see the written data.
TEST_F(TensorGpu, ReadOnAnotherStreamWaitsForTheWrite) {
  Stream a(*device), b(*device);
  const int64_t n = 1 << 20;
  auto x = from_host<i32>(std::vector<i32>(n, 7), {n}, *device);
  x.to_host();  // settled: every element is 7

  keep_busy(a);
  x.zero(a);  // queued behind the busy work; records the write on A
  ASSERT_EQ(x.borrow_state().pending().size(), 1u);

  x.borrow_state().order_before_use(b, Access::read, x.region(), [] { return std::string("read x on stream B"); });
  std::vector<i32> seen(n, -1);
  device->make_current();
  // From device to pageable memory the copy returns only once it has completed.
  check(driver_api().cuMemcpyDtoHAsync_v2(seen.data(), x.address(), n * sizeof(i32), b.handle()),
        "cuMemcpyDtoHAsync_v2");
  x.borrow_state().record_read(Completion::record(b));
  EXPECT_EQ(seen, std::vector<i32>(n, 0));
}

TEST_F(TensorGpu, HostReadWaitsForThePendingWrite) {
  Stream a(*device);
  const int64_t n = 1 << 20;
  auto x = from_host<i32>(std::vector<i32>(n, 7), {n}, *device);
  keep_busy(a);
  x.zero(a);
  EXPECT_EQ(x.to_host(), std::vector<i32>(n, 0));
}

TEST_F(TensorGpu, WriteOnAnotherStreamWaitsForEarlierReadsAndWrites) {
  Stream a(*device), b(*device);
  const int64_t n = 1 << 16;
  auto x = from_host<i32>(std::vector<i32>(n, 7), {n}, *device, a);
  keep_busy(a);
  x.zero(a);
  auto values = iota_values<i32>(n);
  x.copy_from_host(values, b);  // must land after A's zeroing, not before it
  EXPECT_EQ(x.to_host(), values);
}

TEST_F(TensorGpu, FreeingWithWorkInFlightIsSafe) {
  Stream a(*device);
  for (int i = 0; i < 4; ++i) {
    auto t = empty<f32>({1 << 24}, *device, a);
    keep_busy(a);
    t.zero(a);
  }  // each freed while its zeroing may still be queued
  a.synchronize();
  auto fresh = zeros<f32>({1 << 24}, *device, a);
  EXPECT_EQ(fresh.to_host()[12345], 0.0f);
}

TEST_F(TensorGpu, PartitionBlocksReadsOnTheGpuPathToo) {
  auto y = zeros<f32>({64, 64}, *device);
  Stream s(*device);
  auto p = y.partition({16, 64});
  EXPECT_EQ(p.grid(), (std::array<int64_t, 3>{4, 1, 1}));
  try {
    y.arg_view().order_before_use(s, Access::read, [] { return std::string("argument 'x'"); });
    FAIL() << "expected a UserError";
  } catch (const UserError& error) {
    EXPECT_EQ(
        error.message(),
        "cannot use argument 'x' (f32[64, 64] on cuda:0) in a launch: a partition of it (tile [16, 64]) is "
        "live and holds it exclusively; call unpartition() on the partition or let it go out of scope first");
  }
  EXPECT_NO_THROW(p.arg_view().order_before_use(s, Access::write, [] { return std::string("argument 'y'"); }));
  EXPECT_THROW(y.to_host(), UserError);
  auto back = std::move(p).unpartition();
  EXPECT_EQ(back.to_host()[0], 0.0f);
}

TEST_F(TensorGpu, CompletionSyncsAndReports) {
  Completion done;
  EXPECT_TRUE(done.ready());
  EXPECT_NO_THROW(done.sync());
  EXPECT_EQ(done.stream(), nullptr);
  Stream a(*device);
  keep_busy(a);
  Completion busy = Completion::record(a);
  Completion shared = busy;
  EXPECT_TRUE(*busy.stream() == a);
  std::printf("ready right after queueing long work: %s\n", busy.ready() ? "yes" : "no");
  shared.sync();
  EXPECT_TRUE(busy.ready());
  Completion moved = std::move(busy);
  EXPECT_TRUE(moved.ready());
}

TEST_F(TensorGpu, RandomTensorsAreSeededAndDistributed) {
  const int64_t n = 1 << 16;
  auto x = randn<f32>({n}, *device, 1).to_host();
  double sum = 0, squares = 0;
  for (float v : x) sum += v, squares += double(v) * v;
  const double mean = sum / n, variance = squares / n - mean * mean;
  EXPECT_NEAR(mean, 0.0, 0.02);
  EXPECT_NEAR(variance, 1.0, 0.03);
  EXPECT_EQ(randn<f32>({n}, *device, 1).to_host(), x);
  EXPECT_NE(randn<f32>({n}, *device, 2).to_host(), x);
  // bf16 is the f32 draw rounded.
  auto xb = randn<bf16>({n}, *device, 1).to_host();
  for (int64_t i = 0; i < 100; ++i) EXPECT_EQ(xb[i].bits, to_element<bf16>(double(x[i])).bits);
  for (f16 v : rand<f16>({1000}, *device, 3).to_host()) {
    EXPECT_GE(from_element(v), 0.0);
    EXPECT_LE(from_element(v), 1.0);
  }
}

TEST_F(TensorGpu, WorksFromAnotherThread) {
  auto values = iota_values<f32>(1000);
  auto t = from_host<f32>(values, {1000}, *device);
  std::vector<f32> seen;
  std::thread other([&] {
    // No context is current on a fresh thread; every operation makes the device's current itself.
    auto u = from_host<f32>(values, {10, 100}, Device(0));
    seen = t.to_host();
    EXPECT_EQ(u.to_host(), values);
  });
  other.join();
  EXPECT_EQ(seen, values);
}

TEST_F(TensorGpu, HostCopiesCheckTheirArguments) {
  std::vector<float> three(3);
  try {
    from_host<f32>(three, {2, 2}, *device);
    FAIL() << "expected a UserError";
  } catch (const UserError& error) {
    EXPECT_EQ(error.message(), "from_host got 3 values for shape [2, 2] of 4 elements");
  }
  auto m = zeros<f32>({4, 4}, *device);
  auto column = m.as_strided({4}, {4});
  try {
    column.copy_from_host(std::vector<float>(4));
    FAIL() << "expected a UserError";
  } catch (const UserError& error) {
    EXPECT_EQ(error.message(),
              "cannot copy host data into tensor f32[4] on cuda:0 with strides [4]: it is not contiguous");
  }
  EXPECT_THROW(m.copy_from_host(three), UserError);
}

}  // namespace
}  // namespace cutile
