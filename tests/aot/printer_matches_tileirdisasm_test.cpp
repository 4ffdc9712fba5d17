// For every printer test module: our printer == NVIDIA's tileirdisasm on the bytecode our writer
// produces, after renaming SSA values in order of appearance and collapsing whitespace. With
// CUTILE_REGENERATE_PRINTER_GOLDEN=1 it also rewrites tests/golden/printer/*.mlir from
// tileirdisasm's output (see tests/golden/printer/regenerate.sh).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "compile/subprocess.hpp"
#include "cutile/bytecode/writer.hpp"
#include "cutile/ir/printer.hpp"
#include "support/op_modules.hpp"
#include "support/temp_dir.hpp"
#include "support/toolchain_fixture.hpp"

namespace cutile::ir {
namespace {

class PrinterMatchesTileirdisasm : public test_support::ToolchainTest,
                                   public ::testing::WithParamInterface<test_support::OpModule> {};

TEST_P(PrinterMatchesTileirdisasm, AfterNormalisingNames) {
  if (toolchain.tileirdisasm.empty()) {
    const char* allow = std::getenv("CUTILE_ALLOW_NO_TILEIRAS");
    if (allow && std::string(allow) == "1") GTEST_SKIP() << "no tileirdisasm next to " << toolchain.tileiras;
    FAIL() << "tileirdisasm is not installed next to " << toolchain.tileiras
           << " (set CUTILE_ALLOW_NO_TILEIRAS=1 to skip)";
  }
  const test_support::OpModule& m = GetParam();
  const auto& listed = toolchain.bytecode_versions;
  if (std::find(listed.begin(), listed.end(), m.version) == listed.end())
    GTEST_SKIP() << m.name << " needs bytecode " << m.version.str() << ", which tileiras " << toolchain.release
                 << " does not read";
  const Module module = test_support::build_module(m);
  const std::vector<uint8_t> bytes = bytecode::write_bytecode(module, {.version = m.version});

  const test_support::TempDir dir;
  const auto path = dir.path() / (m.name + ".tileirbc");
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  const compile::SubprocessResult disasm = compile::run_subprocess(
      {toolchain.tileirdisasm.string(), path.string()}, {.timeout = std::chrono::seconds(60)});
  ASSERT_TRUE(disasm.succeeded()) << "tileirdisasm rejected " << path << ":\n" << disasm.stderr_text;

  if (const char* regen = std::getenv("CUTILE_REGENERATE_PRINTER_GOLDEN"); regen && std::string(regen) == "1")
    std::ofstream(std::filesystem::path(CUTILE_SOURCE_DIR) / "tests/golden/printer" / (m.name + ".mlir"))
        << disasm.stdout_text;

  const std::string ours = test_support::disassembly_form(module);
  EXPECT_EQ(test_support::normalize_ir_text(ours), test_support::normalize_ir_text(disasm.stdout_text))
      << "ours:\n"
      << ours << "\ntileirdisasm:\n"
      << disasm.stdout_text;
}

INSTANTIATE_TEST_SUITE_P(OpModules, PrinterMatchesTileirdisasm,
                         ::testing::ValuesIn(test_support::op_modules()),
                         [](const auto& p) { return p.param.name; });

}  // namespace
}  // namespace cutile::ir
