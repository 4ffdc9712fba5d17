// Tests that run the real tileiras. Without one they fail, since CI installs it, unless
// CUTILE_ALLOW_NO_TILEIRAS=1 lets them skip.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "cutile/compile/toolchain.hpp"

namespace cutile::test_support {

inline std::filesystem::path reference_bytecode_path() {
  return std::filesystem::path(CUTILE_SOURCE_DIR) / "tests/data/reference/vadd_cutile_python_13_3.tileirbc";
}

inline std::vector<uint8_t> read_binary(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

class ToolchainTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why;
    auto found = compile::find_toolchain(&why);
    if (!found) {
      const char* allow = std::getenv("CUTILE_ALLOW_NO_TILEIRAS");
      if (allow && std::string(allow) == "1")
        GTEST_SKIP() << "no tileiras (CUTILE_ALLOW_NO_TILEIRAS=1): " << why;
      FAIL()
          << "this test needs tileiras; run scripts/install_toolchain.sh or set CUTILE_ALLOW_NO_TILEIRAS=1: "
          << why;
    }
    toolchain = *found;
  }

  compile::Toolchain toolchain;
};

/// A ToolchainTest with the reference kernel's bytecode (reference_bytecode_path()) read.
class ReferenceKernelTest : public ToolchainTest {
 protected:
  void SetUp() override {
    ToolchainTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    bytecode = read_binary(reference_bytecode_path());
    ASSERT_FALSE(bytecode.empty()) << reference_bytecode_path();
  }

  std::vector<uint8_t> bytecode;
};

}  // namespace cutile::test_support
