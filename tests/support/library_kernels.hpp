// The kernel library's GEMM and attention kernels traced with the facts of contiguous, aligned tensors;
// shared by the ir (golden text) and aot (tileiras) tiers.
#pragma once

#include <vector>

#include "attention/fmha.hpp"
#include "gemm/group_gemm.hpp"
#include "gemm/matmul.hpp"
#include "support/dsl_kernels.hpp"

namespace cutile::test_support::library_kernels {

namespace ct = cutile;
namespace lib = cutile::kernels;

inline std::vector<TracedKernel> all() {
  const auto m2 = contiguous(2), m3 = contiguous(3);
  return {
      {"matmul_f16", [=] { return trace_with(&lib::matmul<ct::f16, ct::f16, 128, 128, 64>, {m2, m2, m2}); }},
      {"matmul_bf16", [=] { return trace_with(&lib::matmul<ct::bf16, ct::bf16, 128, 128, 64>, {m2, m2, m2}); }},
      {"matmul_f32_tf32", [=] { return trace_with(&lib::matmul<float, float, 64, 64, 32>, {m2, m2, m2}); }},
      {"matmul_f8e4m3_f16",
       [=] { return trace_with(&lib::matmul<ct::f8e4m3fn, ct::f16, 128, 128, 128>, {m2, m2, m2}); }},
      {"persistent_matmul_f16_grouped",
       [=] { return trace_with(&lib::persistent_matmul<ct::f16, ct::f16, 128, 128, 64, 8>, {m2, m2, m2}); }},
      {"group_gemm_f16",
       [=] { return trace_with(&lib::group_gemm<ct::f16, 128, 128, 128, false>, {m2, m2, m2}); }},
      {"group_gemm_bf16_transposed_b",
       [=] { return trace_with(&lib::group_gemm<ct::bf16, 128, 128, 64, true>, {m2, m2, m2}); }},
      {"fmha_f16_causal",
       [=] { return trace_with(&lib::fmha<ct::f16, 128, 128, 64, true>, {m3, m3, m3, m3, {}, {}, {}, {}}); }},
      {"fmha_bf16", [=] { return trace_with(&lib::fmha<ct::bf16, 64, 64, 64, false>, {m3, m3, m3, m3, {}, {}, {}, {}}); }},
  };
}

}  // namespace cutile::test_support::library_kernels
