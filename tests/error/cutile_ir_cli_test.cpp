// `cutile-ir` on bad input: every missing, truncated, corrupt or too new file, unknown kernel and bad
// argument gives one clear error line and exit status 3, never a crash.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cutile/bytecode/writer.hpp"
#include "cutile/ir/builder.hpp"
#include "support/cutile_ir_tool.hpp"
#include "support/temp_dir.hpp"
#include "support/toolchain_fixture.hpp"

namespace cutile {
namespace {

using test_support::reference_file;
using test_support::run_cutile_ir;

/// Exit status 3 and exactly one line on stderr that starts with "cutile-ir: error: " and contains `text`.
void expect_input_error(const std::vector<std::string>& args, const std::string& text) {
  ASSERT_NE(std::string(test_support::kCutileIrTool), "") << "CUTILE_IR_TOOL_PATH is not defined";
  const auto result = run_cutile_ir(args);
  std::string command;
  for (const auto& a : args) command += " " + a;
  EXPECT_EQ(result.signal, 0) << command;
  EXPECT_EQ(result.exit_code, 3) << command << "\n" << result.stderr_text;
  const std::string& err = result.stderr_text;
  EXPECT_TRUE(err.starts_with("cutile-ir: error: ")) << command << "\n" << err;
  EXPECT_EQ(err.find('\n'), err.size() - 1) << command << ": not one line:\n" << err;
  EXPECT_NE(err.find(text), std::string::npos) << command << ": expected '" << text << "' in\n" << err;
  EXPECT_EQ(result.stdout_text.find("verdict:"), std::string::npos) << command;
}

const std::string kSoftmax = reference_file("softmax_cutile_python_13_3.tileirbc").string();

TEST(CutileIrCli, MissingFile) {
  expect_input_error({"dump", "/nonexistent/k.tileirbc"}, "/nonexistent/k.tileirbc: no such file");
  expect_input_error({"diff", kSoftmax, "/nonexistent/k.tileirbc"}, "/nonexistent/k.tileirbc: no such file");
  expect_input_error({"compile", "/nonexistent/k.tileirbc", "--gpu", "sm_90"}, "no such file");
  expect_input_error({"dump", "/tmp"}, "/tmp: not a regular file");
}

TEST(CutileIrCli, TruncatedCorruptAndNewerBytecode) {
  test_support::TempDir dir("cutile-ir-cli");
  const auto bytes = test_support::read_binary(kSoftmax);

  const auto truncated = dir.path() / "truncated.tileirbc";
  test_support::write_binary(truncated, {bytes.begin(), bytes.begin() + 5});
  expect_input_error({"dump", truncated.string()}, "truncated.tileirbc: malformed bytecode at byte offset 5: truncated header");

  auto corrupt = bytes;
  corrupt[1] = 'X';
  const auto bad_magic = dir.path() / "bad_magic.tileirbc";
  test_support::write_binary(bad_magic, corrupt);
  expect_input_error({"dump", bad_magic.string()}, "bad_magic.tileirbc: ");

  auto newer = bytes;
  newer[9] = 9;  // header: magic, major 13, minor
  const auto too_new = dir.path() / "newer.tileirbc";
  test_support::write_binary(too_new, newer);
  expect_input_error({"dump", too_new.string()}, "bytecode version 13.9 is newer than the newest this reader knows");
  expect_input_error({"diff", too_new.string(), kSoftmax}, "bytecode version 13.9 is newer");
  expect_input_error({"compile", too_new.string(), "--gpu", "sm_90"}, "bytecode version 13.9 is newer");

  const auto empty = dir.path() / "empty.tileirbc";
  test_support::write_binary(empty, {});
  expect_input_error({"diff", kSoftmax, empty.string()}, "empty.tileirbc: ");
}

TEST(CutileIrCli, UnknownKernel) {
  expect_input_error({"dump", kSoftmax, "--kernel", "nope"}, "the input module has no kernel @nope (it has: @softmax_rows");
  expect_input_error({"diff", kSoftmax, kSoftmax, "--kernel", "nope"}, "the reference module has no kernel @nope");
  expect_input_error({"diff", kSoftmax, kSoftmax, "--gen-kernel", "nope"}, "the generated module has no kernel @nope");
}

TEST(CutileIrCli, BadArguments) {
  expect_input_error({"frobnicate"}, "unknown command 'frobnicate'");
  expect_input_error({"dump"}, "dump takes one FILE");
  expect_input_error({"dump", kSoftmax, kSoftmax}, "dump takes one FILE");
  expect_input_error({"dump", kSoftmax, "--colour", "red"}, "unknown option '--colour'");
  expect_input_error({"dump", kSoftmax, "--kernel"}, "option --kernel needs a value");
  expect_input_error({"diff", kSoftmax}, "diff takes REF and GEN");
  expect_input_error({"diff", kSoftmax, kSoftmax, "--kernel", "a", "--ref-kernel", "b"},
                     "--kernel cannot be combined with --ref-kernel/--gen-kernel");
  expect_input_error({"diff", kSoftmax, kSoftmax, "--json", "/nonexistent/dir/out.json"},
                     "cannot write the JSON report to /nonexistent/dir/out.json");
  expect_input_error({"compile", kSoftmax}, "compile needs --gpu sm_XX");
  expect_input_error({"compile", kSoftmax, "--gpu", "sm_90", "-O", "7"}, "-O takes 0, 1, 2 or 3, not '7'");
  expect_input_error({"compile", kSoftmax, "--gpu", "sm_90", "--gpu", "sm_100"}, "option --gpu given twice");

  const auto no_args = run_cutile_ir({});
  EXPECT_EQ(no_args.exit_code, 3);
  EXPECT_NE(no_args.stderr_text.find("usage:"), std::string::npos);
}

// Bytecode that decodes but does not verify is bad input as well: the printer and the diff assume a
// verified module. The error is the verifier's, located at the op.
TEST(CutileIrCli, UnverifiedModuleIsAnInputError) {
  ir::Module module;
  ir::Function& f = module.add_function("bad", {ir::pointer_type(ir::ElementType::f32)});
  ir::Builder b(f.entry_block());
  b.set_location(ir::Location{"/src/bad_kernel.cpp", 12, 3});
  ir::Value* tile = b.constant_float(ir::ElementType::f32, 0, {1, 16});
  ir::Value* zero = b.constant_int(ir::ElementType::i32, 0);
  const auto weak = ir::Attribute::enum_of(ir::EnumKind::memory_ordering, ir::MemoryOrdering::weak);
  b.create(ir::Opcode::load_view_tko, {tile->type(), ir::Type::token()}, {{tile}, {zero, zero}, {}},
           {{"memory_ordering_semantics", weak}});  // a load from a tile, not from a view
  b.return_();
  test_support::TempDir dir("cutile-ir-unverified");
  const auto path = dir.path() / "unverified.tileirbc";
  test_support::write_binary(path, bytecode::write_bytecode(module));

  const std::string where = path.string() +
                            ": not a valid Tile IR module: in kernel 'bad' at /src/bad_kernel.cpp:12:3: "
                            "load_view_tko: ";
  expect_input_error({"dump", path.string()}, where);
  expect_input_error({"diff", path.string(), kSoftmax}, where);
  expect_input_error({"diff", kSoftmax, path.string()}, where);
  expect_input_error({"compile", path.string(), "--gpu", "sm_90"}, where);
}

// Fuzz-style: every prefix of a reference file is rejected with a message by dump and by diff (as the
// reference and as the generated side), never accepted silently and never a crash.
TEST(CutileIrCli, EveryTruncationIsAnInputError) {
  test_support::TempDir dir("cutile-ir-trunc");
  const auto path = reference_file("vadd_cutile_python_13_3.tileirbc");
  const auto bytes = test_support::read_binary(path);
  ASSERT_GT(bytes.size(), 100u);
  const std::string whole = path.string();
  const auto prefix = dir.path() / "prefix.tileirbc";
  for (size_t n = 0; n < bytes.size(); ++n) {
    test_support::write_binary(prefix, {bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(n)});
    const auto d = run_cutile_ir({"dump", prefix.string()});
    ASSERT_EQ(d.exit_code, 3) << "dump of " << n << " bytes: signal " << d.signal << "\n" << d.stderr_text;
    ASSERT_TRUE(d.stderr_text.starts_with("cutile-ir: error: " + prefix.string() + ": ")) << n << ": " << d.stderr_text;
    const auto f = run_cutile_ir(n % 2 ? std::vector<std::string>{"diff", prefix.string(), whole}
                                       : std::vector<std::string>{"diff", whole, prefix.string()});
    ASSERT_EQ(f.exit_code, 3) << "diff with " << n << " bytes: signal " << f.signal << "\n" << f.stderr_text;
  }
}

}  // namespace
}  // namespace cutile
