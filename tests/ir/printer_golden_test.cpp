// The printer against golden text. tests/golden/printer/<module>.mlir is what NVIDIA's official
// printer (tileirdisasm) prints for the bytecode of tests/support/op_modules.hpp's module of that
// name; tests/golden/printer/regenerate.sh rebuilds the files. Our printer must reproduce them
// exactly: same syntax, same spacing, same SSA names.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <sstream>

#include "cutile/bytecode/reader.hpp"
#include "cutile/ir/builder.hpp"
#include "cutile/ir/printer.hpp"
#include "support/op_modules.hpp"
#include "support/toolchain_fixture.hpp"

namespace cutile::ir {
namespace {

using test_support::op_modules;

std::filesystem::path golden_dir() {
  return std::filesystem::path(CUTILE_SOURCE_DIR) / "tests/golden/printer";
}

class PrinterGolden : public ::testing::TestWithParam<test_support::OpModule> {};

TEST_P(PrinterGolden, MatchesTheOfficialPrinter) {
  const auto path = golden_dir() / (GetParam().name + ".mlir");
  ASSERT_TRUE(std::filesystem::exists(path)) << path << " is missing; run tests/golden/printer/regenerate.sh";
  const Module module = test_support::build_module(GetParam());
  EXPECT_EQ(test_support::disassembly_form(module), test_support::read_text(path));
}

INSTANTIATE_TEST_SUITE_P(OpModules, PrinterGolden, ::testing::ValuesIn(op_modules()),
                         [](const auto& p) { return p.param.name; });

TEST(PrinterGoldenFiles, EveryGoldenFileHasAModule) {
  std::set<std::string> names;
  for (const auto& m : op_modules()) names.insert(m.name);
  for (const auto& entry : std::filesystem::directory_iterator(golden_dir())) {
    if (entry.path().extension() == ".mlir") {
      EXPECT_TRUE(names.count(entry.path().stem().string())) << "stale golden file " << entry.path();
    }
  }
}

TEST(PrinterCoverage, ModulesUseEveryOpOfTheTable) {
  std::set<Opcode> used;
  auto walk = [&](auto&& self, const Block& block) -> void {
    for (const auto& op : block.operations()) {
      used.insert(op->opcode());
      for (const auto& region : op->regions())
        for (const auto& nested : region->blocks()) self(self, *nested);
    }
  };
  bool has_global = false;
  for (const auto& m : op_modules()) {
    const Module module = test_support::build_module(m);
    has_global = has_global || !module.globals().empty();
    for (const auto& f : module.functions()) walk(walk, f->entry_block());
  }
  EXPECT_TRUE(has_global);
  for (const OpSpec& spec : all_ops()) {
    if (spec.opcode == Opcode::entry || spec.opcode == Opcode::global || spec.opcode == Opcode::module)
      continue;
    EXPECT_TRUE(used.count(spec.opcode)) << "no printer test module uses " << spec.mnemonic;
  }
}

// cuTile Python's vadd, read back from its bytecode, prints exactly as tileirdisasm prints that file.
TEST(PrinterGoldenFiles, CuTilePythonVaddReadBackPrintsLikeTileirdisasm) {
  const auto read = bytecode::read_bytecode_file(test_support::reference_bytecode_path());
  EXPECT_EQ(test_support::disassembly_form(*read.module),
            test_support::read_text(golden_dir() / "reference/vadd_cutile_python_13_3.mlir"));
}

Module small_module() {
  Module m("mine");
  Function& f = m.add_function("k", {pointer_type(ElementType::f32)}, Location{"k.cpp", 3, 1});
  Builder b(f.entry_block());
  b.set_location({"k.cpp", 4, 7});
  b.assume(f.parameter(0), Attribute::div_by(16));
  b.set_location({});
  b.return_();
  return m;
}

TEST(PrintModule, WrapsGlobalsAndEntriesInTheModuleOp) {
  Module m = small_module();
  m.set_producer("cutile-cpp \"test\"");
  m.add_global({"g", Attribute::dense(tile_type({1}, ElementType::i32), {7, 0, 0, 0}), 0, true, false});
  EXPECT_EQ(print_module(m),
            "cuda_tile.module @mine attributes {producer = \"cutile-cpp \\22test\\22\"} {\n"
            "  global private  @g <i32: 7> : tile<1xi32>\n"
            "  entry @k(%arg0: tile<ptr<f32>>) {\n"
            "    %assume = assume div_by<16>, %arg0 : tile<ptr<f32>>\n"
            "    return\n"
            "  }\n"
            "}\n");
}

TEST(PrintModule, AppendsLocationsOnRequest) {
  const Module m = small_module();
  EXPECT_EQ(print_function(*m.functions()[0], {.locations = true}),
            "entry @k(%arg0: tile<ptr<f32>>) {\n"
            "  %assume = assume div_by<16>, %arg0 : tile<ptr<f32>> loc(\"k.cpp\":4:7)\n"
            "  return loc(unknown)\n"
            "} loc(\"k.cpp\":3:1)");
}

TEST(PrintModule, StreamsModulesFunctionsAndTypes) {
  const Module m = small_module();
  std::ostringstream os;
  os << m << *m.functions()[0] << "|" << tile_type({2, 4}, ElementType::bf16);
  EXPECT_EQ(os.str(), print_module(m) + print_function(*m.functions()[0]) + "|tile<2x4xbf16>");
}

TEST(NormalizeIrText, RenamesValuesInOrderAndCollapsesSpaces) {
  EXPECT_EQ(test_support::normalize_ir_text("%x = addf %a,  %b \n  %y:2 = f %x#1 \"%s\""),
            "%0 = addf %1, %2 %3:2 = f %0#1 \"%s\"");
}

}  // namespace
}  // namespace cutile::ir
