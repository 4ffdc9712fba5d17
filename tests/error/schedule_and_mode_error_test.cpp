// Misuse of schedules and float modes: each refused with its own message at the C++ line, before
// tileiras runs (meta tensors: no GPU needed).
#include <gtest/gtest.h>

#include "cutile/cutile.hpp"
#include "cutile/host/launch.hpp"
#include "support/error_of.hpp"

namespace {

namespace ct = cutile;
using cutile::test_support::error_of;
using Tiles = ct::OutTiles<float, ct::Shape<16>>;

void fill_linear(Tiles y) {
  ct::for_each_tile(y, ct::linear, [&](ct::TileIndex<float, ct::Shape<16>> t) { y.store(t, ct::zeros<float, 16>()); });
}

TEST(ScheduleErrors, OutTilesNeedA1DGrid) {
  auto y = ct::Tensor<float>::meta({256});
  ct::LaunchOptions options;
  options.grid = std::array<int64_t, 3>{4, 2, 1};
  const std::string message = error_of([&] { ct::compile_only("sm_90", options, fill_linear, y.partition({16})); });
  EXPECT_NE(message.find("a kernel with OutTiles or OutTilesList parameters runs on a 1-D grid"), std::string::npos) << message;
  EXPECT_NE(message.find("[4, 2, 1]"), std::string::npos) << message;
}

TEST(ScheduleErrors, OutTilesTakeNoPrefixPartition) {
  auto y = ct::Tensor<float>::meta({256});
  const std::string message = error_of([&] { ct::compile_only("sm_90", {}, fill_linear, y.partition_prefix({16})); });
  EXPECT_NE(message.find("argument 0 (OutTiles<f32>): a prefix partition cannot be an OutTiles argument, whose schedule "
                         "hands out every tile"),
            std::string::npos)
      << message;
}

// A TileIndex handed out for `a` cannot address `b`.
void cross_store(Tiles a, Tiles b) {
  ct::for_each_tile(a, ct::linear, [&](ct::TileIndex<float, ct::Shape<16>> t) { b.store(t, ct::zeros<float, 16>()); });
}

TEST(ScheduleErrors, ATileIndexFitsOnlyItsOwnOutput) {
  auto a = ct::Tensor<float>::meta({256}), b = ct::Tensor<float>::meta({256});
  const std::string message =
      error_of([&] { ct::compile_only("sm_90", {}, cross_store, a.partition({16}), b.partition({16})); });
  EXPECT_NE(message.find("schedule_and_mode_error_test.cpp:"), std::string::npos) << message;
  EXPECT_NE(message.find("a TileIndex made by for_each_tile for one output was used with another output"),
            std::string::npos)
      << message;
}

template <int CASE>
void bad_mode(ct::Out<ct::f16, ct::Shape<16>> y, ct::In<ct::f16, ct::Shape<ct::dyn>> x) {
  auto [i] = y.tile_index();
  auto v = x.load(ct::tile<16>, {i});
  if constexpr (CASE == 0) y.store(ct::exp2(v, ct::approx));                       // exp2 has no approx form
  if constexpr (CASE == 1) y.store(ct::exp(v, {.rounding = ct::Rounding::zero}));  // exp: only approx
  if constexpr (CASE == 2) y.store(ct::div(v, v, ct::ftz));                        // ftz needs f32
  if constexpr (CASE == 3) y.store(ct::tanh(v, ct::ftz));                          // tanh has no ftz
}

TEST(FloatModeErrors, EachOpRefusesTheModesItLacks) {
  auto y = ct::Tensor<ct::f16>::meta({64});
  auto x = ct::Tensor<ct::f16>::meta({64});
  auto message = [&](auto kernel) { return error_of([&] { ct::compile_only("sm_90", {}, kernel, y.partition({16}), x); }); };
  const std::string m0 = message(bad_mode<0>), m1 = message(bad_mode<1>), m2 = message(bad_mode<2>),
                    m3 = message(bad_mode<3>);
  EXPECT_NE(m0.find("exp2: there is no approximate form of this op"), std::string::npos) << m0;
  EXPECT_NE(m1.find("exp: rounding zero is not available (only approx or the standard one)"), std::string::npos) << m1;
  EXPECT_NE(m2.find("div: flush_to_zero needs f32 operands"), std::string::npos) << m2;
  EXPECT_NE(m3.find("tanh: this op has no flush-to-zero mode"), std::string::npos) << m3;
  for (const std::string* m : {&m0, &m1, &m2, &m3})
    EXPECT_NE(m->find("schedule_and_mode_error_test.cpp:"), std::string::npos) << *m;
}

}  // namespace
