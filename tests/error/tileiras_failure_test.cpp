// When tileiras fails, the error names the kernel and target and points at a complete reproducer.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "cutile/compile/tileiras.hpp"
#include "cutile/error.hpp"
#include "support/toolchain_fixture.hpp"

namespace cutile::compile {
namespace {

namespace fs = std::filesystem;
using test_support::read_binary;
using test_support::read_text;

class TileirasFailure : public test_support::ToolchainTest {
 protected:
  void SetUp() override {
    ToolchainTest::SetUp();
    std::string pattern = (fs::temp_directory_path() / "cutile-reproducers-XXXXXX").string();
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    options.reproducer_root = pattern;
  }
  void TearDown() override {
    if (!options.reproducer_root.empty()) fs::remove_all(options.reproducer_root);
  }

  // The message of the RuntimeError compile_to_cubin throws.
  std::string failure(const std::vector<uint8_t>& bytecode, std::string_view kernel) {
    try {
      compile_to_cubin(toolchain, bytecode, options, kernel);
    } catch (const RuntimeError& error) {
      return error.message();
    }
    ADD_FAILURE() << "compile_to_cubin did not throw a RuntimeError";
    return "";
  }

  static fs::path bundle_of(const std::string& message) {
    const std::string marker = "; reproducer bundle: ";
    auto at = message.find(marker);
    if (at == std::string::npos) return {};
    at += marker.size();
    return message.substr(at, message.find("; stderr: ", at) - at);
  }

  CompileOptions options;
};

TEST_F(TileirasFailure, CorruptBytecodeLeavesAReproducer) {
  auto bytecode = read_binary(test_support::reference_bytecode_path());
  ASSERT_GT(bytecode.size(), 100u);
  bytecode.resize(100);  // cut inside the first section

  std::string message = failure(bytecode, "corrupt_vadd");
  EXPECT_TRUE(message.starts_with("tileiras failed for kernel 'corrupt_vadd' (exit ")) << message;
  EXPECT_NE(message.find(") on sm_90; reproducer bundle: "), std::string::npos) << message;
  EXPECT_NE(message.find("; stderr: error: "), std::string::npos) << message;
  EXPECT_NE(message.find("exceeds remaining data size"), std::string::npos) << message;

  fs::path bundle = bundle_of(message);
  ASSERT_FALSE(bundle.empty()) << message;
  EXPECT_EQ(bundle.parent_path(), options.reproducer_root);
  std::string name = bundle.filename().string();
  EXPECT_TRUE(name.starts_with("corrupt_vadd-")) << name;
  EXPECT_TRUE(name.ends_with("-" + std::to_string(::getpid()))) << name;

  EXPECT_EQ(read_binary(bundle / "input.tileirbc"), bytecode);
  std::string command = read_text(bundle / "command.txt");
  EXPECT_NE(
      command.find("CUDA_HOME=" + toolchain.cuda_home.string() + " " + toolchain.tileiras.string() + " "),
      std::string::npos)
      << command;
  EXPECT_NE(command.find(" -o "), std::string::npos) << command;
  EXPECT_NE(command.find(" --gpu-name sm_90 -O3\n"), std::string::npos) << command;
  EXPECT_NE(command.find(" input.tileirbc -o output.cubin --gpu-name sm_90 -O3\n"), std::string::npos)
      << command;
  std::string versions = read_text(bundle / "versions.txt");
  EXPECT_NE(versions.find("V" + toolchain.release), std::string::npos) << versions;
  EXPECT_NE(versions.find(toolchain.libnvvm.string()), std::string::npos) << versions;
  std::string stderr_text = read_text(bundle / "stderr.txt");
  EXPECT_NE(stderr_text.find("exceeds remaining data size"), std::string::npos) << stderr_text;
}

TEST_F(TileirasFailure, TimeoutIsReported) {
  options.timeout = std::chrono::milliseconds(1);
  options.gpu_name = "sm_100";
  std::string message = failure(read_binary(test_support::reference_bytecode_path()), "slow_vadd");
  EXPECT_TRUE(
      message.starts_with("tileiras failed for kernel 'slow_vadd' (timed out after 1 ms) on sm_100; "))
      << message;
  EXPECT_TRUE(fs::is_regular_file(bundle_of(message) / "command.txt")) << message;
}

TEST_F(TileirasFailure, KernelNamesAreMadeSafeForDirectories) {
  std::string message = failure({}, "add<float, 128>/x");
  EXPECT_TRUE(message.starts_with("tileiras failed for kernel 'add<float, 128>/x' (exit ")) << message;
  EXPECT_TRUE(bundle_of(message).filename().string().starts_with("add_float__128__x-")) << message;
}

}  // namespace
}  // namespace cutile::compile
