// Every rope instance the C ABI ships (capi/src/rope.cpp: each dtype, head tile 1 … 128 and half width
// 8 … 128, TILE_QH = TILE_KH) compiles with the real tileiras for sm_90, through compile_only with the
// launch's hints and the views the ABI passes for TileGym's transposed (B, S, H, D) buffers.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "cutile/host/launch.hpp"
#include "positional/rope.hpp"
#include "support/toolchain_fixture.hpp"

namespace {

namespace ct = cutile;

struct RopeInstance {
  std::string name;
  std::function<ct::CompiledKernel()> compile;
};

void PrintTo(const RopeInstance& i, std::ostream* os) {
  *os << i.name;
}

template <ct::Element E, int64_t TILE_H, int64_t TILE_RD>
RopeInstance instance(const std::string& dtype) {
  return {dtype + "_h" + std::to_string(TILE_H) + "_rd" + std::to_string(TILE_RD), [] {
            constexpr int64_t seq = 64, rows = 2 * seq, rope = 2 * TILE_RD, heads = TILE_H;
            // (B·S, H, R) views of (B, S, H, D = R) buffers, as cutile_cpp_rope makes them.
            auto q = ct::Tensor<E>::meta({rows, heads, rope}, {heads * rope, rope, 1});
            auto k = ct::Tensor<E>::meta({rows, heads, rope}, {heads * rope, rope, 1});
            ct::LaunchOptions options;
            options.hints.occupancy = 9;
            return ct::compile_only("sm_90", options, ct::kernels::rope<E, TILE_H, TILE_H, TILE_RD>,
                                    q.partition({1, TILE_H, rope}), k.partition({1, TILE_H, rope}),
                                    ct::Tensor<E>::meta({1, seq, rope}), ct::Tensor<E>::meta({1, seq, rope}),
                                    seq);
          }};
}

template <ct::Element E, int64_t TILE_H>
void add_widths(std::vector<RopeInstance>& out, const std::string& dtype) {
  [&]<int64_t... RD>(std::integer_sequence<int64_t, RD...>) {
    (out.push_back(instance<E, TILE_H, RD>(dtype)), ...);
  }
  (std::integer_sequence<int64_t, 8, 16, 32, 64, 128>{});
}

template <ct::Element E>
void add_dtype(std::vector<RopeInstance>& out, const std::string& dtype) {
  [&]<int64_t... H>(std::integer_sequence<int64_t, H...>) {
    (add_widths<E, H>(out, dtype), ...);
  }
  (std::integer_sequence<int64_t, 1, 2, 4, 8, 16, 32, 64, 128>{});
}

std::vector<RopeInstance> all_instances() {
  std::vector<RopeInstance> out;
  add_dtype<float>(out, "f32");
  add_dtype<ct::f16>(out, "f16");
  add_dtype<ct::bf16>(out, "bf16");
  return out;
}

class RopeCompile : public cutile::test_support::ToolchainTest,
                    public ::testing::WithParamInterface<RopeInstance> {};

TEST_P(RopeCompile, TileirasProducesACubin) {
  const ct::CompiledKernel kernel = GetParam().compile();
  ASSERT_GE(kernel.cubin.size(), 4u);
  EXPECT_EQ(std::string(kernel.cubin.begin() + 1, kernel.cubin.begin() + 4), "ELF");
}

INSTANTIATE_TEST_SUITE_P(Shipped, RopeCompile, ::testing::ValuesIn(all_instances()),
                         [](const auto& p) { return p.param.name; });

}  // namespace
