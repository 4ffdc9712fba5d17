// A missing or incomplete toolchain is named precisely, with the way to install one.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "cutile/compile/toolchain.hpp"
#include "cutile/error.hpp"
#include "support/scoped_env.hpp"
#include "support/toolchain_fixture.hpp"
#include "support/error_of.hpp"

namespace cutile::compile {
namespace {

namespace fs = std::filesystem;
using test_support::ScopedEnv;

std::string require_toolchain_message() {
  return test_support::error_of<RuntimeError>([] { require_toolchain(); });
}

// A directory laid out like a toolchain prefix, for the checks that run before tileiras does.
class FakePrefix {
 public:
  FakePrefix() {
    std::string pattern = (fs::temp_directory_path() / "cutile-fake-toolchain-XXXXXX").string();
    root_ = ::mkdtemp(pattern.data());
    fs::create_directories(root_ / "bin");
  }
  ~FakePrefix() { fs::remove_all(root_); }
  void add_program(const std::string& name) {
    std::ofstream(root_ / "bin" / name) << "#!/bin/sh\nexit 0\n";
    ::chmod((root_ / "bin" / name).c_str(), 0755);
  }
  const fs::path& root() const { return root_; }

 private:
  fs::path root_;
};

TEST(ToolchainMissing, WrongCutileTileirasIsNamed) {
  ScopedEnv env("CUTILE_TILEIRAS", "/nonexistent");
  std::string why;
  EXPECT_FALSE(find_toolchain(&why).has_value());
  EXPECT_EQ(why, "CUTILE_TILEIRAS=/nonexistent: no such file");
  std::string message = require_toolchain_message();
  EXPECT_NE(
      message.find("the Tile IR compiler (tileiras) is missing: CUTILE_TILEIRAS=/nonexistent: no such file"),
      std::string::npos)
      << message;
  EXPECT_NE(message.find("scripts/install_toolchain.sh"), std::string::npos) << message;
}

TEST(ToolchainMissing, NonExecutableCutileTileirasIsNamed) {
  ScopedEnv env("CUTILE_TILEIRAS", test_support::reference_bytecode_path().string());
  std::string why;
  EXPECT_FALSE(find_toolchain(&why).has_value());
  EXPECT_NE(why.find("vadd_cutile_python_13_3.tileirbc: not an executable file"), std::string::npos) << why;
}

TEST(ToolchainMissing, WrongCutileToolchainDirIsNamed) {
  ScopedEnv tileiras("CUTILE_TILEIRAS", std::nullopt);
  ScopedEnv dir("CUTILE_TOOLCHAIN_DIR", "/nonexistent-prefix");
  std::string message = require_toolchain_message();
  EXPECT_NE(message.find("CUTILE_TOOLCHAIN_DIR=/nonexistent-prefix: no usable tileiras in "),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("/nonexistent-prefix/bin"), std::string::npos) << message;
}

TEST(ToolchainMissing, TileirasWithoutPtxasIsNamed) {
  FakePrefix prefix;
  prefix.add_program("tileiras");
  ScopedEnv env("CUTILE_TILEIRAS", (prefix.root() / "bin" / "tileiras").string());
  std::string why;
  EXPECT_FALSE(find_toolchain(&why).has_value());
  EXPECT_NE(why.find("no executable ptxas beside it"), std::string::npos) << why;
  EXPECT_NE(why.find("nvidia-cuda-nvcc"), std::string::npos) << why;
}

TEST(ToolchainMissing, TileirasWithoutLibnvvmIsNamed) {
  FakePrefix prefix;
  prefix.add_program("tileiras");
  prefix.add_program("ptxas");
  ScopedEnv env("CUTILE_TILEIRAS", (prefix.root() / "bin" / "tileiras").string());
  std::string why;
  EXPECT_FALSE(find_toolchain(&why).has_value());
  EXPECT_NE(why.find("no libNVVM under " + fs::canonical(prefix.root()).string()), std::string::npos) << why;
  EXPECT_NE(why.find("nvidia-nvvm"), std::string::npos) << why;
}

TEST(ToolchainMissing, BadBytecodeVersionRequestNamesTheSupportedOnes) {
  Toolchain toolchain;
  toolchain.release = "13.4.92";
  toolchain.bytecode_versions = {ir::v13_1, ir::v13_2, ir::v13_3, ir::v13_4};
  {
    ScopedEnv env("CUTILE_BYTECODE_VERSION", "13.9");
    try {
      select_bytecode_version(toolchain);
      FAIL() << "expected a UserError";
    } catch (const UserError& error) {
      EXPECT_NE(error.message().find(
                    "bytecode version 13.9 (requested by CUTILE_BYTECODE_VERSION) is not supported"),
                std::string::npos)
          << error.message();
      EXPECT_NE(error.message().find("supported: 13.1, 13.2, 13.3, 13.4"), std::string::npos)
          << error.message();
    }
  }
  {
    ScopedEnv env("CUTILE_BYTECODE_VERSION", "latest");
    try {
      select_bytecode_version(toolchain);
      FAIL() << "expected a UserError";
    } catch (const UserError& error) {
      EXPECT_NE(error.message().find("CUTILE_BYTECODE_VERSION='latest' is not a bytecode version"),
                std::string::npos)
          << error.message();
    }
  }
}

}  // namespace
}  // namespace cutile::compile
