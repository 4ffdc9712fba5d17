// CUTILE_DUMP on the launch path: a dumped kernel writes its IR and bytecode and is compiled afresh even
// when the cache holds it, so a dump never goes missing behind a cache hit; the filter picks kernels.
#include <gtest/gtest.h>

#include <filesystem>

#include "01_vector_add/vector_add.hpp"
#include "02_row_softmax/row_softmax.hpp"
#include "cutile/host/launch.hpp"
#include "support/scoped_env.hpp"
#include "support/temp_dir.hpp"
#include "support/toolchain_fixture.hpp"

namespace {

namespace ct = cutile;
using cutile::test_support::ScopedEnv;
using cutile::test_support::TempDir;

class Dump : public cutile::test_support::ToolchainTest {};

ct::CompiledKernel compile_softmax() {
  auto y = ct::Tensor<float>::meta({64, 1024});
  return ct::compile_only("sm_90", {}, examples::row_softmax<float, 1024>, y.partition({1, 1024}),
                          ct::Tensor<float>::meta({64, 1024}));
}

ct::CompiledKernel compile_vector_add() {
  auto c = ct::Tensor<float>::meta({4096});
  return ct::compile_only("sm_90", {}, examples::vector_add<float, 1024>, c.partition({1024}),
                          ct::Tensor<float>::meta({4096}), ct::Tensor<float>::meta({4096}));
}

TEST_F(Dump, FilteredKernelIsDumpedAndCompiledAfresh) {
  const TempDir dir;
  compile_softmax();  // now in the cache
  ScopedEnv dump("CUTILE_DUMP", "ir,bytecode");
  ScopedEnv filter("CUTILE_DUMP_FILTER", "softmax");
  ScopedEnv where("CUTILE_DUMP_DIR", dir.path().string());
  const ct::CompiledKernel softmax = compile_softmax();
  EXPECT_GT(softmax.compile_seconds, 0) << "a dumped kernel must bypass the cache";
  EXPECT_TRUE(std::filesystem::exists(dir.path() / "row_softmax.mlir"));
  EXPECT_TRUE(std::filesystem::exists(dir.path() / "row_softmax.tileirbc"));
  const std::string ir = cutile::test_support::read_text(dir.path() / "row_softmax.mlir");
  EXPECT_NE(ir.find("entry @row_softmax"), std::string::npos) << ir;

  compile_vector_add();  // filtered out
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "vector_add.mlir"));
}

}  // namespace
