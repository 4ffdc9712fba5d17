// `cutile doctor` runs anywhere, exits 0 and reports the toolchain it finds.
#include <gtest/gtest.h>

#include "compile/subprocess.hpp"
#include "cutile/compile/toolchain.hpp"
#include "cutile/runtime/device.hpp"

namespace cutile::compile {
namespace {

#ifdef CUTILE_TOOL_PATH
constexpr const char* kTool = CUTILE_TOOL_PATH;
#else
constexpr const char* kTool = "";
#endif

SubprocessResult run_tool(std::vector<std::string> args) {
  args.insert(args.begin(), kTool);
  SubprocessOptions options;
  options.timeout = std::chrono::milliseconds(60000);
  return run_subprocess(args, options);
}

TEST(Doctor, ReportsTheToolchain) {
  ASSERT_NE(std::string(kTool), "")
      << "CUTILE_TOOL_PATH is not defined: cmake/library_settings.cmake wires it";
  auto result = run_tool({"doctor"});
  EXPECT_EQ(result.exit_code, 0) << result.stderr_text;
  const std::string& out = result.stdout_text;
  EXPECT_TRUE(out.starts_with("cutile ")) << out;
  for (const char* section : {"\ntoolchain\n", "\ncuda driver\n", "\ncache\n"})
    EXPECT_NE(out.find(section), std::string::npos) << section << " missing from:\n" << out;
  std::string why;
  if (auto toolchain = find_toolchain(&why)) {
    EXPECT_NE(out.find("tileiras      " + toolchain->tileiras.string() + "\n"), std::string::npos) << out;
    EXPECT_NE(out.find("release       " + toolchain->release + "\n"), std::string::npos) << out;
    EXPECT_NE(out.find("libnvvm       " + toolchain->libnvvm.string() + "\n"), std::string::npos) << out;
  } else {
    EXPECT_NE(out.find("missing: tileiras: "), std::string::npos) << out;
  }
}

// Without a driver (or a GPU) it says what still works: the interpreter.
TEST(Doctor, NamesTheInterpreterWhenThereIsNoGpu) {
  ASSERT_NE(std::string(kTool), "");
  auto result = run_tool({"doctor"});
  const bool gpu = runtime::driver_available() && runtime::device_count() > 0;
  const std::string row = "interpreter   the CPU interpreter runs kernels without a CUDA driver";
  const bool named = result.stdout_text.find(row) != std::string::npos;
  EXPECT_EQ(named, !gpu) << result.stdout_text;
}

TEST(Doctor, UnknownCommandIsAUsageError) {
  ASSERT_NE(std::string(kTool), "");
  auto result = run_tool({"bogus"});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.stderr_text.find("unknown command 'bogus'"), std::string::npos) << result.stderr_text;
}

}  // namespace
}  // namespace cutile::compile
