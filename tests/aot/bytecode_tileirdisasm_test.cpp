// NVIDIA's tileirdisasm (its reader and verifier) accepts every module the bytecode writer produces, at
// 13.3, 13.4 and (with tileiras 13.5) 13.5, and sees the debug locations we write.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "compile/subprocess.hpp"
#include "cutile/bytecode/writer.hpp"
#include "support/op_modules.hpp"
#include "support/toolchain_fixture.hpp"

namespace cutile {
namespace {

using namespace ir;

class BytecodeTileirdisasm : public test_support::ToolchainTest {
 protected:
  void SetUp() override {
    ToolchainTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    ASSERT_FALSE(toolchain.tileirdisasm.empty()) << "the toolchain has no tileirdisasm";
    dir_ = std::filesystem::temp_directory_path() / ("cutile_disasm_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override {
    if (!dir_.empty()) std::filesystem::remove_all(dir_);
  }

  compile::SubprocessResult disassemble(const std::vector<uint8_t>& bytes, const std::string& stem, bool debug) {
    const std::filesystem::path file = dir_ / (stem + ".tileirbc");
    std::ofstream(file, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()),
                                                static_cast<std::streamsize>(bytes.size()));
    std::vector<std::string> argv = {toolchain.tileirdisasm.string()};
    if (debug) argv.push_back("-g");
    argv.push_back(file.string());
    compile::SubprocessOptions options;
    options.timeout = std::chrono::seconds(60);
    return compile::run_subprocess(argv, options);
  }

  /// 13.3, 13.4, and 13.5 when the installed tileiras reads it.
  std::vector<Version> versions() const {
    std::vector<Version> out = {v13_3, v13_4};
    const auto& listed = toolchain.bytecode_versions;
    if (std::find(listed.begin(), listed.end(), v13_5) != listed.end()) out.push_back(v13_5);
    return out;
  }

  std::filesystem::path dir_;
};

TEST_F(BytecodeTileirdisasm, AcceptsEveryOpModuleAtEachVersionItReads) {
  for (const test_support::OpModule& m : test_support::op_modules())
    for (Version v : versions()) {
      if (v < m.version) continue;
      Module module = test_support::build_module(m);
      const auto result = disassemble(bytecode::write_bytecode(module, {v}), m.name + "_" + v.str(), false);
      EXPECT_TRUE(result.succeeded()) << m.name << " at " << v.str() << ":\n" << result.stderr_text;
      EXPECT_NE(result.stdout_text.find("entry @"), std::string::npos) << m.name;
    }
}

TEST_F(BytecodeTileirdisasm, SeesOurDebugLocations) {
  Module m;
  Function& f = m.add_function("located", {scalar_type(ElementType::i32)}, {"/src/kernels/add.cpp", 10, 3});
  Builder b(f.entry_block());
  b.set_location({"/src/kernels/add.cpp", 11, 5});
  Value* x = b.constant_float(ElementType::f32, 1.0, {4});
  b.set_location({"/src/kernels/add.cpp", 12, 7});
  b.unary(Opcode::negf, x);
  b.set_location({});
  b.return_();
  for (Version v : versions()) {
    const auto result = disassemble(bytecode::write_bytecode(m, {v}), "located_" + v.str(), true);
    ASSERT_TRUE(result.succeeded()) << result.stderr_text;
    const std::string& text = result.stdout_text;
    EXPECT_NE(text.find("loc(\"/src/kernels/add.cpp\":11:5)"), std::string::npos) << text;
    EXPECT_NE(text.find("loc(\"/src/kernels/add.cpp\":12:7)"), std::string::npos) << text;
    EXPECT_NE(text.find("#cuda_tile.di_file<\"add.cpp\" in \"/src/kernels\">"), std::string::npos) << text;
    EXPECT_NE(text.find("name = \"located\", linkageName = \"located\""), std::string::npos) << text;
  }
}

}  // namespace
}  // namespace cutile
