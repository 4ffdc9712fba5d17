// The DSL example kernels traced with fixed specialisation facts, shared by the ir and aot tiers.
#pragma once

#include <functional>
#include <ostream>
#include <memory>
#include <string>
#include <vector>

#include "cutile/detail/trace_kernel.hpp"
#include "02_row_softmax/row_softmax.hpp"
#include "01_vector_add/vector_add.hpp"

namespace cutile::test_support {

struct TracedKernel {
  std::string name;
  std::function<std::unique_ptr<cutile::ir::Module>()> trace;
};

inline void PrintTo(const TracedKernel& k, std::ostream* os) { *os << k.name; }

/// Facts of a contiguous, 16-byte aligned tensor of `rank` dims: unit innermost stride.
inline cutile::detail::ArrayFacts contiguous(size_t rank) {
  return {.unit_stride = 1u << (rank - 1), .base_aligned_16 = true};
}

template <class... P>
std::unique_ptr<cutile::ir::Module> trace_with(void (*kernel)(P...), std::vector<cutile::detail::ArrayFacts> facts) {
  return cutile::detail::trace_kernel(kernel, facts);
}

inline std::vector<TracedKernel> dsl_kernels() {
  using namespace cutile;
  std::vector<TracedKernel> out;
  auto add = [&]<class E>(std::string suffix, std::type_identity<E>) {
    out.push_back({"vector_add_" + suffix, [] {
                     return trace_with(&examples::vector_add<E, 1024>, {contiguous(1), contiguous(1), contiguous(1)});
                   }});
    out.push_back({"row_softmax_" + suffix, [] {
                     return trace_with(&examples::row_softmax<E, 4096>, {contiguous(2), contiguous(2)});
                   }});
  };
  add("f32", std::type_identity<float>{});
  add("f16", std::type_identity<f16>{});
  add("bf16", std::type_identity<bf16>{});
  // A ragged row stride that is not 16-byte divisible and an unaligned base: no assumes for them.
  out.push_back({"row_softmax_f32_unaligned", [] {
                   detail::ArrayFacts loose{.unit_stride = 2};
                   return trace_with(&examples::row_softmax<float, 1024>, {loose, loose});
                 }});
  // Every fact at once: extents and strides divisible by 16, a unit extent baked into the type.
  out.push_back({"row_softmax_f16_all_facts", [] {
                   detail::ArrayFacts all{.unit_stride = 2, .unit_extent = 1, .extent_div16 = 2,
                                          .stride_div16 = 1, .base_aligned_16 = true};
                   return trace_with(&examples::row_softmax<f16, 4096>, {all, all});
                 }});
  return out;
}

}  // namespace cutile::test_support
