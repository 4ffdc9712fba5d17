// The driver path end to end: compile cuTile Python's vadd with tileiras, load it, launch it, check it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <random>

#include "cutile/compile/tileiras.hpp"
#include "cutile/error.hpp"
#include "cutile/runtime/device.hpp"
#include "cutile/runtime/device_buffer.hpp"
#include "cutile/runtime/launch.hpp"
#include "cutile/runtime/module.hpp"
#include "support/toolchain_fixture.hpp"

namespace cutile::runtime {
namespace {

constexpr unsigned kTile = 128;  // the TILE the reference was exported with

// Needs a driver, a GPU tileiras can target, and tileiras itself; skips with the reason otherwise.
class Gpu : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why;
    if (!driver_available(&why)) GTEST_SKIP() << "no CUDA driver: " << why;
    if (device_count() == 0) GTEST_SKIP() << "the CUDA driver sees no GPU";
    device.emplace(0);
    auto names = compile::supported_gpu_names();
    if (std::find(names.begin(), names.end(), device->arch()) == names.end())
      GTEST_SKIP() << device->name() << " is " << device->arch() << ", which tileiras does not target";
    auto toolchain = compile::find_toolchain(&why);
    if (!toolchain) GTEST_SKIP() << "no tileiras to build the kernel: " << why;
    compile::CompileOptions options;
    options.gpu_name = device->arch();
    cubin =
        compile::compile_to_cubin(
            *toolchain, test_support::read_binary(test_support::reference_bytecode_path()), options, "vadd")
            .cubin;
  }

  std::optional<Device> device;  // declared first: buffers and modules go before the context
  std::vector<uint8_t> cubin;
};

// cuTile Python's calling convention for a 1-d array: base pointer, then each shape and each stride.
struct ArrayArg {
  CUdeviceptr pointer;
  int32_t shape;
  int32_t stride;
};

std::vector<void*> kernel_params(std::vector<ArrayArg>& arrays) {
  std::vector<void*> params;
  for (auto& array : arrays) {
    params.push_back(&array.pointer);
    params.push_back(&array.shape);
    params.push_back(&array.stride);
  }
  return params;
}

TEST_F(Gpu, DeviceDescribesItself) {
  EXPECT_FALSE(device->name().empty());
  EXPECT_TRUE(device->arch().starts_with("sm_")) << device->arch();
  EXPECT_GT(device->sm_count(), 0);
  EXPECT_GE(driver_version(), 12000);
  std::printf("%s, %s, %d SMs, driver %d\n", device->name().c_str(), device->arch().c_str(),
              device->sm_count(), driver_version());
}

TEST_F(Gpu, BufferRoundTripsAndMemsets) {
  std::vector<int32_t> values{1, -2, 3, 1 << 30, 5};
  auto buffer = DeviceBuffer::from_host(values);
  EXPECT_EQ(buffer.size(), values.size() * sizeof(int32_t));
  EXPECT_EQ(buffer.download<int32_t>(), values);
  buffer.memset(0xff);
  EXPECT_EQ(buffer.download<int32_t>(), std::vector<int32_t>(values.size(), -1));
  EXPECT_THROW(buffer.upload(std::vector<int32_t>(6)), UserError);
  DeviceBuffer empty(0);
  EXPECT_TRUE(empty.download<float>().empty());
}

TEST_F(Gpu, VaddMatchesTheHostExactly) {
  const int32_t n = 1'000'003;  // not a multiple of the tile: the last tile is partial
  std::mt19937 random(1234);
  std::normal_distribution<float> normal;
  std::vector<float> a(n), b(n);
  for (int32_t i = 0; i < n; ++i) a[i] = normal(random), b[i] = normal(random);

  auto device_a = DeviceBuffer::from_host(a), device_b = DeviceBuffer::from_host(b);
  DeviceBuffer device_c(n * sizeof(float));
  device_c.memset(0xff);  // NaN everywhere, so an element the kernel skips cannot pass
  std::vector<ArrayArg> arrays{
      {device_a.address(), n, 1}, {device_b.address(), n, 1}, {device_c.address(), n, 1}};
  auto params = kernel_params(arrays);

  LoadedModule module(cubin);
  auto vadd = module.function("vadd");
  launch(vadd, {(n + kTile - 1) / kTile, 1, 1}, params);
  synchronize();

  auto c = device_c.download<float>();
  int32_t wrong = 0;
  for (int32_t i = 0; i < n; ++i) wrong += !(c[i] == a[i] + b[i]);
  EXPECT_EQ(wrong, 0) << "elements differ, e.g. c[" << n - 1 << "] = " << c[n - 1] << ", expected "
                      << a[n - 1] + b[n - 1];
}

TEST_F(Gpu, TimeLaunchMeasuresDeviceTime) {
  const int32_t n = 1 << 24;
  DeviceBuffer x(n * sizeof(float)), y(n * sizeof(float)), z(n * sizeof(float));
  x.memset(0);
  y.memset(0);
  std::vector<ArrayArg> arrays{{x.address(), n, 1}, {y.address(), n, 1}, {z.address(), n, 1}};
  auto params = kernel_params(arrays);
  LoadedModule module(cubin);
  auto timing = time_launch(module.function("vadd"), {n / kTile, 1, 1}, params, 3, 10);
  EXPECT_GT(timing.median_ms, 0);
  EXPECT_LE(timing.min_ms, timing.median_ms);
  EXPECT_EQ(timing.runs, 10);
  std::printf("vadd n=%d: median %.4f ms, %.0f GB/s\n", n, timing.median_ms,
              3.0 * n * sizeof(float) / (timing.median_ms * 1e6));
}

TEST_F(Gpu, MissingFunctionIsAUserError) {
  LoadedModule module(cubin);
  try {
    module.function("no_such_kernel");
    FAIL() << "expected a UserError";
  } catch (const UserError& error) {
    EXPECT_NE(error.message().find("the loaded module has no kernel function 'no_such_kernel'"),
              std::string::npos)
        << error.message();
    if (driver_api().cuModuleEnumerateFunctions) {
      EXPECT_NE(error.message().find("; it defines: vadd"), std::string::npos) << error.message();
    }
  }
}

TEST_F(Gpu, BadDeviceIndexIsAUserError) {
  EXPECT_THROW(Device{device_count()}, UserError);
}

}  // namespace
}  // namespace cutile::runtime
