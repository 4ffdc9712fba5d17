// Golden-text check of a traced kernel: verified, printed, compared with tests/golden/<dir>/<name>.mlir.
// CUTILE_REGENERATE_GOLDEN=1 rewrites the file (review the diff before committing it).
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "cutile/ir/printer.hpp"
#include "cutile/ir/verifier.hpp"

namespace cutile::test_support {

inline void expect_matches_golden(const ir::Module& module, const std::string& dir, const std::string& name) {
  ir::verify_module(module);
  const std::string text = ir::print_module(module);
  const auto path = std::filesystem::path(CUTILE_SOURCE_DIR) / "tests/golden" / dir / (name + ".mlir");
  if (std::getenv("CUTILE_REGENERATE_GOLDEN")) std::ofstream(path) << text;
  std::ifstream in(path);
  ASSERT_TRUE(in) << path << " is missing; run with CUTILE_REGENERATE_GOLDEN=1";
  std::stringstream expected;
  expected << in.rdbuf();
  EXPECT_EQ(text, expected.str()) << path;
}

}  // namespace cutile::test_support
