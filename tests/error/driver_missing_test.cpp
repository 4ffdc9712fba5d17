// Without a CUDA driver every runtime entry point throws a RuntimeError that says why; nothing crashes.
#include <gtest/gtest.h>

#include "cutile/error.hpp"
#include "cutile/runtime/device.hpp"
#include "cutile/runtime/device_buffer.hpp"
#include "cutile/runtime/driver_api.hpp"
#include "cutile/runtime/module.hpp"
#include "support/error_of.hpp"

namespace cutile::runtime {
namespace {

class DriverMissing : public ::testing::Test {
 protected:
  void SetUp() override {
    if (driver_available(&why)) GTEST_SKIP() << "a CUDA driver is present on this machine";
  }
  std::string why;
};

TEST_F(DriverMissing, SaysWhy) {
  EXPECT_FALSE(why.empty());
  if (why.starts_with("cannot load")) {
    EXPECT_NE(why.find("libcuda.so.1"), std::string::npos) << why;
  }
}

TEST_F(DriverMissing, EveryEntryPointThrowsTheReason) {
  EXPECT_EQ(test_support::error_of<RuntimeError>([] { Device device(0); }), why);
  EXPECT_EQ(test_support::error_of<RuntimeError>([] { device_count(); }), why);
  EXPECT_EQ(test_support::error_of<RuntimeError>([] { driver_version(); }), why);
  EXPECT_EQ(test_support::error_of<RuntimeError>([] { DeviceBuffer buffer(64); }), why);
  const std::vector<uint8_t> cubin{0x7f, 'E', 'L', 'F'};
  EXPECT_EQ(test_support::error_of<RuntimeError>([&] { LoadedModule module(cubin); }), why);
}

}  // namespace
}  // namespace cutile::runtime
