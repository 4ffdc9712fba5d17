#include <gtest/gtest.h>

#include "cutile/compile/toolchain.hpp"
#include "cutile/error.hpp"
#include "support/scoped_env.hpp"

namespace cutile::compile {
namespace {

constexpr const char* kTileirasVersion =
    "tileiras: NVIDIA (R) Cuda Tile IR optimizing assembler\n"
    "Copyright (c) 2005-2026 NVIDIA Corporation\n"
    "Cuda compilation tools, release 13.4, V13.4.92\n"
    "Build local.local.38855100_\n";

Toolchain toolchain_reading(std::vector<ir::Version> versions) {
  Toolchain toolchain;
  toolchain.release = "13.4.92";
  toolchain.bytecode_versions = std::move(versions);
  return toolchain;
}

TEST(ParseRelease, ReadsTheFullRelease) {
  EXPECT_EQ(parse_release(kTileirasVersion), "13.4.92");
  EXPECT_EQ(parse_release("Cuda compilation tools, release 13.0, V13.0.48\n"), "13.0.48");
}

TEST(ParseRelease, RejectsOtherText) {
  EXPECT_EQ(parse_release(""), std::nullopt);
  EXPECT_EQ(parse_release("tileiras version 1\n"), std::nullopt);
  EXPECT_EQ(parse_release("release 13.4, V\n"), std::nullopt);
}

TEST(ParseVersionList, ReadsOneVersionPerLineSorted) {
  auto versions = parse_version_list("13.2\n13.1\r\n 13.4 \n13.3\n13.3\n");
  EXPECT_EQ(versions, (std::vector<ir::Version>{ir::v13_1, ir::v13_2, ir::v13_3, ir::v13_4}));
}

TEST(ParseVersionList, IgnoresOtherLines) {
  EXPECT_EQ(parse_version_list("Supported versions:\n13.3\n\nbogus\n"), std::vector<ir::Version>{ir::v13_3});
  EXPECT_TRUE(parse_version_list("").empty());
}

TEST(BytecodeVersion, DefaultsTo13_3AndOffers13_4OnRequest) {
  test_support::ScopedEnv env("CUTILE_BYTECODE_VERSION", std::nullopt);
  auto toolchain = toolchain_reading({ir::v13_1, ir::v13_2, ir::v13_3, ir::v13_4});
  EXPECT_EQ(select_bytecode_version(toolchain), ir::v13_3);
  EXPECT_EQ(select_bytecode_version(toolchain, ir::v13_4), ir::v13_4);
  EXPECT_EQ(newest_bytecode_version(toolchain), ir::v13_4);
}

TEST(BytecodeVersion, ReadsTheEnvironment) {
  test_support::ScopedEnv env("CUTILE_BYTECODE_VERSION", "13.4");
  auto toolchain = toolchain_reading({ir::v13_1, ir::v13_2, ir::v13_3, ir::v13_4});
  EXPECT_EQ(select_bytecode_version(toolchain), ir::v13_4);
  EXPECT_EQ(select_bytecode_version(toolchain, ir::v13_2), ir::v13_2);  // the API wins
}

TEST(BytecodeVersion, ClampsToWhatBothSidesSupport) {
  test_support::ScopedEnv env("CUTILE_BYTECODE_VERSION", std::nullopt);
  EXPECT_EQ(select_bytecode_version(toolchain_reading({ir::v13_1, ir::v13_2})), ir::v13_2);
  EXPECT_EQ(select_bytecode_version(toolchain_reading({ir::v13_5, {13, 6}})), ir::v13_5);
  EXPECT_EQ(newest_bytecode_version(toolchain_reading({ir::v13_4, ir::v13_5, {13, 6}, {14, 0}})), ir::v13_5);
  EXPECT_EQ(supported_bytecode_versions(toolchain_reading({{13, 0}, ir::v13_1, {13, 6}})),
            std::vector<ir::Version>{ir::v13_1});
}

// tileiras 13.5.37 lists 13.1 .. 13.5: the default stays 13.3 and 13.5 is written on request.
TEST(BytecodeVersion, Tileiras13_5KeepsTheDefaultAndOffers13_5) {
  test_support::ScopedEnv env("CUTILE_BYTECODE_VERSION", std::nullopt);
  auto toolchain = toolchain_reading({ir::v13_1, ir::v13_2, ir::v13_3, ir::v13_4, ir::v13_5});
  EXPECT_EQ(select_bytecode_version(toolchain), ir::v13_3);
  EXPECT_EQ(select_bytecode_version(toolchain, ir::v13_5), ir::v13_5);
  EXPECT_EQ(newest_bytecode_version(toolchain), ir::v13_5);
  auto tileiras_13_4 = toolchain_reading({ir::v13_1, ir::v13_2, ir::v13_3, ir::v13_4});
  EXPECT_THROW(select_bytecode_version(tileiras_13_4, ir::v13_5), UserError);
}

TEST(BytecodeVersion, NoCommonVersionIsARuntimeError) {
  EXPECT_THROW(newest_bytecode_version(toolchain_reading({{13, 0}, {14, 0}})), RuntimeError);
}

}  // namespace
}  // namespace cutile::compile
