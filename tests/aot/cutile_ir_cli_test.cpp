// `cutile-ir` against the real toolchain: dump agrees with NVIDIA's tileirdisasm on cuTile Python's
// bytecode, compile writes a cubin, diff of a kernel with itself is PASS.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "compile/subprocess.hpp"
#include "cutile/bytecode/writer.hpp"
#include "support/cutile_ir_tool.hpp"
#include "support/dsl_kernels.hpp"
#include "support/op_modules.hpp"
#include "support/temp_dir.hpp"
#include "support/toolchain_fixture.hpp"

namespace cutile {
namespace {

using test_support::run_cutile_ir;

class CutileIrTool : public test_support::ToolchainTest {
 protected:
  void SetUp() override {
    ToolchainTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    ASSERT_NE(std::string(test_support::kCutileIrTool), "") << "CUTILE_IR_TOOL_PATH is not defined";
  }
};

/// The dump without its header comment and module wrapper: what tileirdisasm prints.
std::string entries_of_dump(const std::string& dump) {
  std::string body = dump.substr(dump.find('\n') + 1);
  const std::string open = "cuda_tile.module @kernels {";
  EXPECT_TRUE(body.starts_with(open)) << body;
  body = body.substr(open.size());
  const size_t close = body.rfind('}');
  return body.substr(0, close);
}

TEST_F(CutileIrTool, DumpMatchesTileirdisasmOnEveryReferenceFile) {
  ASSERT_FALSE(toolchain.tileirdisasm.empty()) << "the toolchain has no tileirdisasm";
  for (const auto& file : test_support::reference_bytecode_files()) {
    const auto dump = run_cutile_ir({"dump", file.string()});
    compile::SubprocessOptions options;
    options.timeout = std::chrono::seconds(60);
    const auto official = compile::run_subprocess({toolchain.tileirdisasm.string(), file.string()}, options);
    if (!official.succeeded()) {  // an invalid fixture: both must reject it
      EXPECT_EQ(dump.exit_code, 3) << file << " was rejected by tileirdisasm:\n" << official.stderr_text;
      EXPECT_TRUE(dump.stderr_text.starts_with("cutile-ir: error: " + file.string() + ": ")) << dump.stderr_text;
      continue;
    }
    ASSERT_EQ(dump.exit_code, 0) << file << "\n" << dump.stderr_text;
    EXPECT_TRUE(dump.stdout_text.starts_with("// " + file.string() + ": Tile IR bytecode 13.")) << dump.stdout_text;
    EXPECT_EQ(test_support::normalize_ir_text(entries_of_dump(dump.stdout_text)),
              test_support::normalize_ir_text(official.stdout_text))
        << file << "\nours:\n" << dump.stdout_text << "\ntileirdisasm:\n" << official.stdout_text;
  }
}

TEST_F(CutileIrTool, DumpOfOneKernelIsItsEntry) {
  const auto file = test_support::reference_file("gemm_cutile_python_13_3.tileirbc");
  const auto all = run_cutile_ir({"dump", file.string()});
  ASSERT_EQ(all.exit_code, 0) << all.stderr_text;
  const size_t at = all.stdout_text.find("entry @") + 7;
  const std::string name = all.stdout_text.substr(at, all.stdout_text.find('(', at) - at);
  const auto one = run_cutile_ir({"dump", file.string(), "--kernel", name});
  ASSERT_EQ(one.exit_code, 0) << one.stderr_text;
  EXPECT_NE(one.stdout_text.find("\nentry @" + name + "("), std::string::npos) << one.stdout_text;
  EXPECT_EQ(one.stdout_text.find("cuda_tile.module"), std::string::npos);
}

TEST_F(CutileIrTool, CompileWritesACubin) {
  test_support::TempDir dir("cutile-ir-compile");
  const auto out = dir.path() / "vadd.cubin";
  const auto result = run_cutile_ir({"compile", test_support::reference_bytecode_path().string(), "--gpu", "sm_90",
                                     "-o", out.string(), "-O", "2"});
  ASSERT_EQ(result.exit_code, 0) << result.stderr_text;
  EXPECT_NE(result.stdout_text.find("wrote " + out.string()), std::string::npos) << result.stdout_text;
  EXPECT_NE(result.stdout_text.find("; tileiras "), std::string::npos) << result.stdout_text;
  const auto cubin = test_support::read_binary(out);
  ASSERT_GE(cubin.size(), 4u);
  EXPECT_EQ(std::string(cubin.begin(), cubin.begin() + 4), "\x7f" "ELF");
}

TEST_F(CutileIrTool, CompileRejectsAnUnknownGpu) {
  const auto result =
      run_cutile_ir({"compile", test_support::reference_bytecode_path().string(), "--gpu", "sm_1", "-o", "/dev/null"});
  EXPECT_EQ(result.exit_code, 3) << result.stderr_text;
  EXPECT_TRUE(result.stderr_text.starts_with("cutile-ir: error: ")) << result.stderr_text;
}

TEST_F(CutileIrTool, DiffOfEveryReferenceFileWithItselfIsPass) {
  test_support::TempDir dir("cutile-ir-diff");
  for (const auto& file : test_support::reference_bytecode_files()) {
    const auto json = dir.path() / "report.json";
    const auto result = run_cutile_ir({"diff", file.string(), file.string(), "--json", json.string()});
    if (run_cutile_ir({"dump", file.string()}).exit_code == 3) {  // the invalid fixture
      EXPECT_EQ(result.exit_code, 3) << file;
      continue;
    }
    EXPECT_EQ(result.exit_code, 0) << file << "\n" << result.stdout_text << result.stderr_text;
    EXPECT_TRUE(result.stdout_text.ends_with("\nverdict: PASS\n")) << result.stdout_text;
    EXPECT_NE(test_support::read_text(json).find("\"verdict\": \"PASS\""), std::string::npos);
  }
}

// Our traced row softmax against cuTile Python's at the same configuration (f32, one row of 256 per
// block, base aligned to 16, unit inner stride): the port uses the same memory path, shapes, reductions
// and assumptions; the differences left are the padding our ragged-row support adds and the missing token.
TEST_F(CutileIrTool, DslSoftmaxAgainstCutilePythonSoftmax) {
  test_support::TempDir dir("cutile-ir-softmax");
  const auto ours = dir.path() / "row_softmax.tileirbc";
  const auto module = test_support::trace_with(&examples::row_softmax<float, 256>,
                                               {test_support::contiguous(2), test_support::contiguous(2)});
  test_support::write_binary(ours, bytecode::write_bytecode(*module));
  const auto result = run_cutile_ir(
      {"diff", test_support::reference_file("softmax_cutile_python_13_3.tileirbc").string(), ours.string()});
  const std::string& table = result.stdout_text;
  EXPECT_EQ(result.exit_code, 2) << table << result.stderr_text;
  EXPECT_TRUE(table.ends_with("\nverdict: PASS_WITH_NOTES\n")) << table;
  for (const char* row : {"load_view #0 tile", "reduce #0 axis", "reduce #1 identities", "tile shapes",
                          "assume pointer div_by", "count exp"})
    EXPECT_NE(table.find(row), std::string::npos) << row << " missing from\n" << table;
  EXPECT_EQ(table.find("CRITICAL\n"), std::string::npos) << table;
}

// An explanations file (--explained): a malformed one is bad input; a record that pins no row is reported
// as stale and changes nothing.
TEST_F(CutileIrTool, DiffReadsAnExplanationsFile) {
  test_support::TempDir dir("cutile-ir-explained");
  const std::string file = test_support::reference_bytecode_path().string();
  const auto bad = dir.path() / "bad.explained";
  std::ofstream(bad) << "kernal: vector_add\n";
  auto result = run_cutile_ir({"diff", file, file, "--explained", bad.string()});
  EXPECT_EQ(result.exit_code, 3) << result.stdout_text;
  EXPECT_NE(result.stderr_text.find(bad.string() + ":1: expected 'kernel:', 'feature:'"), std::string::npos)
      << result.stderr_text;
  const auto stale = dir.path() / "stale.explained";
  std::ofstream(stale) << "# a row the kernel does not have\nkernel: vadd\nfeature: count exp\nreference: 1\n"
                          "generated: 2\nwhy: none\n";
  result = run_cutile_ir({"diff", file, file, "--explained", stale.string()});
  EXPECT_EQ(result.exit_code, 0) << result.stdout_text << result.stderr_text;
  EXPECT_NE(result.stderr_text.find("cutile-ir: note: " + stale.string() +
                                    " explains 'count exp' of @vadd as 1 against 2, which no row is now"),
            std::string::npos)
      << result.stderr_text;
}

}  // namespace
}  // namespace cutile
