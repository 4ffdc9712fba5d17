// Options tileiras would refuse are the caller's error, reported before tileiras runs.
#include <gtest/gtest.h>

#include "cutile/compile/tileiras.hpp"
#include "cutile/error.hpp"

namespace cutile::compile {
namespace {

// Validation comes first, so no real toolchain is needed: this one would fail to run.
Toolchain unused_toolchain() {
  Toolchain toolchain;
  toolchain.tileiras = "/nonexistent/tileiras";
  return toolchain;
}

std::string user_error_of(const CompileOptions& options) {
  const std::vector<uint8_t> bytecode{0x7f};
  try {
    compile_to_cubin(unused_toolchain(), bytecode, options, "vadd");
  } catch (const UserError& error) {
    return error.message();
  }
  ADD_FAILURE() << "compile_to_cubin did not throw a UserError";
  return "";
}

TEST(CompileOptions, UnknownGpuNameIsAUserError) {
  CompileOptions options;
  options.gpu_name = "sm_75";
  std::string message = user_error_of(options);
  EXPECT_NE(message.find("cannot compile kernel 'vadd' for gpu_name 'sm_75'"), std::string::npos) << message;
  EXPECT_NE(message.find("sm_80, sm_86, sm_87, sm_88, sm_89, sm_90, sm_100"), std::string::npos) << message;
  options.gpu_name = "sm_90a";
  EXPECT_NE(user_error_of(options).find("gpu_name 'sm_90a'"), std::string::npos);
}

TEST(CompileOptions, OptLevelOutOfRangeIsAUserError) {
  CompileOptions options;
  options.opt_level = 4;
  std::string message = user_error_of(options);
  EXPECT_NE(message.find("cannot compile kernel 'vadd' with opt_level 4: tileiras takes 0 to 3"),
            std::string::npos)
      << message;
  options.opt_level = -1;
  EXPECT_NE(user_error_of(options).find("opt_level -1"), std::string::npos);
}

}  // namespace
}  // namespace cutile::compile
