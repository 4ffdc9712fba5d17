// The layer-norm kernels the C ABI ships, traced with the facts of contiguous aligned tensors, compile
// with the real tileiras for sm_90: every kernel in every dtype at a middle row tile, and the smallest and
// largest row tiles the C ABI instantiates (32768 for layer_norm_legacy, 16384 for the persistent one).
#include <gtest/gtest.h>

#include <algorithm>

#include "cutile/bytecode/writer.hpp"
#include "cutile/compile/tileiras.hpp"
#include "cutile/compile/toolchain.hpp"
#include "normalization/layer_norm_legacy.hpp"
#include "normalization/persistent_layer_norm.hpp"
#include "support/dsl_kernels.hpp"
#include "support/toolchain_fixture.hpp"

namespace {

namespace ct = cutile;
namespace lib = cutile::kernels;
using cutile::test_support::contiguous;
using cutile::test_support::trace_with;
using cutile::test_support::TracedKernel;

// The persistent layer norm's two kernels at column tile TN (the C ABI ships TN ≤ 16384), with the rows per
// tile the C ABI picks (capi/src/persistent_layer_norm.cpp).
template <ct::Element E, int64_t TN>
void add_persistent_layer_norm(std::vector<TracedKernel>& out, const std::string& suffix) {
  const auto m1 = contiguous(1), m2 = contiguous(2);
  constexpr int64_t ROWS = std::clamp<int64_t>(32768 / TN, 1, 8);
  out.push_back({"persistent_layer_norm" + suffix, [=] {
                   return trace_with(&lib::persistent_layer_norm<E, ROWS, TN>, {m2, m1, m1, m2, m1, m1, {}});
                 }});
  out.push_back(
      {"persistent_layer_norm_given_stats" + suffix, [=] {
         return trace_with(&lib::persistent_layer_norm_given_stats<E, ROWS, TN>, {m2, m2, m1, m1, m1, m1});
       }});
}

// The layer norms' three kernels at row tile TN (TileGym's tile sizes for it).
template <ct::Element E, int64_t TN>
void add_instances(std::vector<TracedKernel>& out, const std::string& dtype) {
  const auto m1 = contiguous(1), m2 = contiguous(2);
  const std::string suffix = "_" + dtype + "_" + std::to_string(TN);
  if constexpr (TN <= 65536 / sizeof(E))
    out.push_back({"layer_norm_legacy_1" + suffix, [=] {
                     return trace_with(&lib::layer_norm_legacy<E, TN, 1>, {m2, m1, m1, m2, m1, m1, {}, {}});
                   }});
  if constexpr (TN <= 65536 / sizeof(E))
    out.push_back({"layer_norm_legacy_exact" + suffix, [=] {
                     return trace_with(&lib::layer_norm_legacy<E, TN, 1, TN>, {m2, m1, m1, m2, m1, m1, {}, {}});
                   }});
  if constexpr (TN < 65536 / sizeof(E))
    out.push_back({"layer_norm_legacy_2" + suffix, [=] {
                     return trace_with(&lib::layer_norm_legacy<E, TN, 2>, {m2, m1, m1, m2, m1, m1, {}, {}});
                   }});
  if constexpr (TN <= 16384) add_persistent_layer_norm<E, TN>(out, suffix);
}

std::vector<TracedKernel> instances() {
  std::vector<TracedKernel> out;
  add_instances<float, 1024>(out, "f32");
  add_instances<ct::f16, 1024>(out, "f16");
  add_instances<ct::bf16, 1024>(out, "bf16");
  add_instances<ct::bf16, 16>(out, "bf16");
  add_instances<ct::bf16, 32768>(out, "bf16");
  add_persistent_layer_norm<ct::bf16, 16384>(out, "_bf16_16384");
  return out;
}

class NormalizationCompile : public cutile::test_support::ToolchainTest,
                             public ::testing::WithParamInterface<TracedKernel> {};

TEST_P(NormalizationCompile, TileirasProducesACubin) {
  std::unique_ptr<ct::ir::Module> module = GetParam().trace();
  const ct::compile::CompileResult result =
      ct::compile::compile_to_cubin(toolchain, ct::bytecode::write_bytecode(*module), {}, GetParam().name);
  ASSERT_GE(result.cubin.size(), 4u);
  EXPECT_EQ(std::string(result.cubin.begin() + 1, result.cubin.begin() + 4), "ELF");
}

INSTANTIATE_TEST_SUITE_P(Kernels, NormalizationCompile, ::testing::ValuesIn(instances()),
                         [](const auto& p) { return p.param.name; });

}  // namespace
