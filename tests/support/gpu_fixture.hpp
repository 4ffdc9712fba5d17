// Tests that need the CUDA driver and a GPU: skipped with the reason where there is none.
#pragma once

#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "cutile/host/device.hpp"
#include "cutile/runtime/driver_api.hpp"

namespace cutile::test_support {

class GpuTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why;
    if (!runtime::driver_available(&why)) GTEST_SKIP() << "no CUDA driver: " << why;
    if (runtime::device_count() == 0) GTEST_SKIP() << "the CUDA driver sees no GPU";
    gpu.emplace(0);
  }

  std::optional<Device> gpu;  ///< GPU 0
};

}  // namespace cutile::test_support
