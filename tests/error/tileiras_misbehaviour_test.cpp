// A tileiras that misbehaves. The cubin it leaves behind with exit status 0 is checked before anyone uses
// it: garbage, a truncated file, another machine's ELF or another kernel's cubin is refused with the defect
// named and a reproducer bundle that holds the bad output. Its time limit holds whatever it does with its
// output. What it prints reaches messages as printable text of bounded length, after the bundle's path.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <spawn.h>
#include <sys/file.h>
#include <sys/wait.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "cutile/compile/cubin_check.hpp"
#include "cutile/compile/tileiras.hpp"
#include "cutile/error.hpp"
#include "support/cutile_ir_tool.hpp"
#include "support/error_of.hpp"
#include "support/process_state.hpp"
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
  EXPECT_EQ(fs::status(bundle).permissions(), fs::perms::owner_all);
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

// Starts `argv` with `environment` added to this process's, without waiting for it.
pid_t start_process(const std::vector<std::string>& argv, const std::vector<std::string>& environment) {
  std::vector<std::string> words = argv, env = environment;
  for (char** entry = environ; *entry; ++entry) env.emplace_back(*entry);
  std::vector<char*> c_argv, c_env;
  for (auto& w : words) c_argv.push_back(w.data());
  for (auto& e : env) c_env.push_back(e.data());
  c_argv.push_back(nullptr);
  c_env.push_back(nullptr);
  pid_t pid = -1;
  EXPECT_EQ(::posix_spawn(&pid, c_argv[0], nullptr, nullptr, c_argv.data(), c_env.data()), 0);
  return pid;
}

std::vector<fs::path> scratch_dirs(const fs::path& tmp) {
  std::vector<fs::path> dirs;
  for (const auto& entry : fs::directory_iterator(tmp))
    if (entry.path().filename().string().starts_with("cutile-tileiras-")) dirs.push_back(entry.path());
  return dirs;
}

// A host killed while tileiras runs takes tileiras with it; the scratch directory it leaves is swept by a
// later compilation once it is stale, and nothing else is.
TEST_F(MisbehavingTileiras, KilledHostTakesTileirasWithItAndItsScratchIsSwept) {
  ASSERT_NE(std::string(test_support::kCutileIrTool), "");
  test_support::TempDir scratch("cutile-killed-host");
  const fs::path tmp = scratch.path() / "tmp", pid_file = scratch.path() / "tileiras.pid";
  fs::create_directories(tmp);
  TileirasWrapper wrapper(toolchain, "echo $$ > " + shell_quote(pid_file.string()) + "; exec sleep 400");
  const std::vector<std::string> environment{"TMPDIR=" + tmp.string(),
                                             "CUTILE_TILEIRAS=" + wrapper.path().string(),
                                             "CUTILE_CACHE_DIR=" + (scratch.path() / "cache").string()};
  const std::string input = test_support::reference_bytecode_path().string();
  const std::string output = (scratch.path() / "out.cubin").string();

  const pid_t host = start_process(
      {test_support::kCutileIrTool, "compile", input, "--gpu", "sm_90", "-o", output}, environment);
  std::error_code ec;
  for (int i = 0; i < 1500 && !(fs::exists(pid_file, ec) && fs::file_size(pid_file, ec) > 0); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  pid_t tileiras = 0;
  std::ifstream(pid_file) >> tileiras;
  ASSERT_GT(tileiras, 0) << "tileiras did not start";
  ::kill(host, SIGKILL);
  ::waitpid(host, nullptr, 0);
  EXPECT_TRUE(test_support::process_ends_within(tileiras, std::chrono::milliseconds(5000)));
  if (test_support::process_alive(tileiras)) ::kill(tileiras, SIGKILL);

  const auto left = scratch_dirs(tmp);
  ASSERT_EQ(left.size(), 1u);
  // Beside it: a fresh one, one in use (locked) and others that are not ours to remove.
  const auto long_ago = fs::file_time_type::clock::now() - std::chrono::hours(2);
  const fs::path fresh = tmp / "cutile-tileiras-fresh0", in_use = tmp / "cutile-tileiras-inuse0",
                 other = tmp / "cutile-other-stale0", link = tmp / "cutile-tileiras-link00";
  for (const auto& dir : {fresh, in_use, other}) fs::create_directory(dir);
  fs::create_directory_symlink(other, link);
  for (const auto& path : {left.front(), in_use, other}) fs::last_write_time(path, long_ago);
  const int lock = ::open(in_use.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  ASSERT_EQ(::flock(lock, LOCK_EX | LOCK_NB), 0);
  const fs::path foreign = tmp / "cutile-tileiras-nobody";
  const bool can_chown = ::geteuid() == 0;  // another user's directory, where this test may make one
  if (can_chown) {
    fs::create_directory(foreign);
    fs::last_write_time(foreign, long_ago);
    ASSERT_EQ(::chown(foreign.c_str(), 65534, 65534), 0);
  }

  SubprocessOptions run;
  run.environment = {{"TMPDIR", tmp.string()}, {"CUTILE_TILEIRAS", std::nullopt}};
  const auto again =
      run_subprocess({test_support::kCutileIrTool, "compile", input, "--gpu", "sm_90", "-o", output}, run);
  ::close(lock);
  EXPECT_TRUE(again.succeeded()) << again.stderr_text;
  EXPECT_FALSE(fs::exists(left.front()));
  for (const auto& path : {fresh, in_use, other}) EXPECT_TRUE(fs::is_directory(path)) << path;
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_EQ(can_chown, fs::is_directory(foreign));
  EXPECT_EQ(scratch_dirs(tmp).size(), can_chown ? 4u : 3u);  // fresh, in use, the link, another user's
}

}  // namespace
}  // namespace cutile::compile
