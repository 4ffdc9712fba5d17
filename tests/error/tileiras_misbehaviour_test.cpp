// A tileiras that misbehaves. The cubin it leaves behind with exit status 0 is checked before anyone uses
// it: garbage, a truncated file, another machine's ELF or another kernel's cubin is refused with the defect
// named and a reproducer bundle that holds the bad output. Its time limit holds whatever it does with its
// output. What it prints reaches messages as printable text of bounded length, after the bundle's path.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include "cutile/compile/cubin_check.hpp"
#include "cutile/compile/tileiras.hpp"
#include "cutile/error.hpp"
#include "support/error_of.hpp"
#include "support/temp_dir.hpp"
#include "support/tileiras_wrapper.hpp"
#include "support/toolchain_fixture.hpp"

namespace cutile::compile {
namespace {

namespace fs = std::filesystem;
using test_support::read_binary;
using test_support::TileirasWrapper;

class MisbehavingTileiras : public test_support::ToolchainTest {
 protected:
  void SetUp() override {
    ToolchainTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    options.reproducer_root = reproducers.path();
    bytecode = read_binary(test_support::reference_bytecode_path());
  }

  std::string failure(const Toolchain& with) {
    return test_support::error_of<RuntimeError>([&] { compile_to_cubin(with, bytecode, options, "vadd"); });
  }

  static fs::path bundle_of(const std::string& message) {
    const std::string marker = "reproducer bundle: ";
    const auto at = message.find(marker);
    if (at == std::string::npos) return {};
    const auto begin = at + marker.size();
    return message.substr(begin, message.find(';', begin) - begin);
  }

  test_support::TempDir reproducers{"cutile-misbehaving-tileiras"};
  CompileOptions options;
  std::vector<uint8_t> bytecode;
};

TEST_F(MisbehavingTileiras, GarbageWithExitZeroIsRefusedWithABundle) {
  TileirasWrapper wrapper(toolchain, "printf garbage > \"$3\"; exit 0");
  const std::string message = failure(wrapper.toolchain());
  EXPECT_TRUE(
      message.starts_with("tileiras failed for kernel 'vadd' (exit 0 but the cubin is invalid: "
                          "truncated: 7 bytes, shorter than an ELF header) on sm_90"))
      << message;
  const fs::path bundle = bundle_of(message);
  ASSERT_FALSE(bundle.empty()) << message;
  EXPECT_EQ(read_binary(bundle / "output.cubin"), (std::vector<uint8_t>{'g', 'a', 'r', 'b', 'a', 'g', 'e'}));
  EXPECT_EQ(read_binary(bundle / "input.tileirbc"), bytecode);
}

TEST_F(MisbehavingTileiras, TruncatedCubinIsRefused) {
  TileirasWrapper wrapper(toolchain,
                          "\"$REAL\" \"$@\" || exit; head -c 2000 \"$3\" > \"$3.cut\"; mv \"$3.cut\" \"$3\"");
  const std::string message = failure(wrapper.toolchain());
  EXPECT_NE(message.find("(exit 0 but the cubin is invalid: the section table (19 entries) at byte "),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("runs past the end of the 2000-byte file) on sm_90"), std::string::npos) << message;
  EXPECT_EQ(fs::file_size(bundle_of(message) / "output.cubin"), 2000u) << message;
}

TEST_F(MisbehavingTileiras, CubinOfAnotherKernelIsRefused) {
  const auto softmax =
      test_support::reference_bytecode_path().parent_path() / "softmax_cutile_python_13_3.tileirbc";
  TileirasWrapper wrapper(
      toolchain, "exec \"$REAL\" " + shell_quote(softmax.string()) + " \"$2\" \"$3\" --gpu-name sm_90");
  EXPECT_NE(failure(wrapper.toolchain()).find("no function symbol for entry 'vadd' in the symbol table"),
            std::string::npos);
}

TEST_F(MisbehavingTileiras, TimeoutHoldsAfterTileirasClosesItsOutput) {
  TileirasWrapper wrapper(toolchain, "exec >/dev/null 2>&1; exec sleep 400");
  options.timeout = std::chrono::milliseconds(300);
  const auto start = std::chrono::steady_clock::now();
  const std::string message = failure(wrapper.toolchain());
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  EXPECT_TRUE(message.starts_with("tileiras failed for kernel 'vadd' (timed out after 300 ms) on sm_90"))
      << message;
}

// Each defect of a real cubin, named.
TEST_F(MisbehavingTileiras, EachDefectIsNamed) {
  const std::vector<uint8_t> good = compile_to_cubin(toolchain, bytecode, options, "vadd").cubin;
  const std::vector<std::string> vadd{"vadd"};
  EXPECT_EQ(cubin_problem(good, vadd), std::nullopt);
  EXPECT_EQ(entry_names(bytecode), vadd);

  const auto problem = [&](auto&& damage, std::vector<std::string> entries = {"vadd"}) {
    auto bytes = good;
    damage(bytes);
    return cubin_problem(bytes, entries).value_or("(accepted)");
  };
  EXPECT_EQ(problem([](auto& b) { b.clear(); }), "truncated: 0 bytes, shorter than an ELF header");
  EXPECT_EQ(problem([](auto& b) { b[1] = 'X'; }), "not an ELF file (bad magic)");
  EXPECT_EQ(problem([](auto& b) { b[4] = 1; }), "ELF class 1, expected 64-bit (2)");
  EXPECT_EQ(problem([](auto& b) { b[5] = 2; }), "not a little-endian ELF file");
  EXPECT_EQ(problem([](auto& b) { b[18] = 62; }), "ELF machine 62, expected EM_CUDA (190)");
  EXPECT_EQ(problem([](auto& b) { b[60] = b[61] = 0; }), "no section table");
  EXPECT_EQ(problem([](auto& b) { b[58] = 32; }), "section header size 32, expected 64");
  EXPECT_NE(problem([](auto& b) { b[47] = 0x10; }).find("the section table (19 entries) at byte "),
            std::string::npos);  // e_shoff far beyond the file
  EXPECT_NE(
      problem([](auto& b) { b.resize(b.size() - 1); }).find("the program header table (6 entries) at byte "),
      std::string::npos);
  EXPECT_EQ(problem([](auto&) {}, {"vadd", "other"}),
            "no function symbol for entry 'other' in the symbol table");
}

TEST_F(MisbehavingTileiras, StderrIsMadePrintableAndFollowsTheBundle) {
  TileirasWrapper wrapper(toolchain, "printf 'error: bad\\000hidden \\033[31mred\\033[0m\\n' >&2; exit 1");
  try {
    compile_to_cubin(wrapper.toolchain(), bytecode, options, "vadd");
    FAIL() << "compile_to_cubin did not throw";
  } catch (const RuntimeError& error) {
    const std::string what = error.what();  // as the C ABI's last_error sees it
    EXPECT_EQ(what, "cutile runtime error: " + error.message());
    EXPECT_EQ(what.find('\x1b'), std::string::npos) << what;
    const auto bundle = what.find("; reproducer bundle: ");
    const auto said = what.find("; stderr: error: bad\\x00hidden \\x1b[31mred\\x1b[0m");
    EXPECT_NE(bundle, std::string::npos) << what;
    EXPECT_NE(said, std::string::npos) << what;
    EXPECT_LT(bundle, said) << what;
  }
}

TEST_F(MisbehavingTileiras, LongStderrIsCapped) {
  TileirasWrapper wrapper(toolchain, "head -c 1000000 /dev/zero | tr '\\000' x >&2; exit 1");
  const std::string message = failure(wrapper.toolchain());
  EXPECT_LT(message.size(), 1500u) << message.substr(0, 300);
  EXPECT_TRUE(message.ends_with("xxx...")) << message.substr(message.size() - 100);
  EXPECT_EQ(fs::file_size(bundle_of(message) / "stderr.txt"), 1000000u);
}

}  // namespace
}  // namespace cutile::compile
