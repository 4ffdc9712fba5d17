// Every activation kernel instance the C ABI ships (capi/src/{relu,gelu,geglu,silu_and_mul,swiglu}.cpp):
// each dtype, GELU form and tile, with the C ABI's launch hints, compiles with the real tileiras for sm_90.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "activation/geglu.hpp"
#include "activation/gelu.hpp"
#include "activation/relu.hpp"
#include "activation/silu_and_mul.hpp"
#include "activation/swiglu.hpp"
#include "cutile/host/launch.hpp"
#include "support/toolchain_fixture.hpp"

namespace {

namespace ct = cutile;
namespace lib = cutile::kernels;
using lib::GeluApprox;

struct Instance {
  std::string name;
  std::function<ct::CompiledKernel()> compile;
};
void PrintTo(const Instance& i, std::ostream* os) {
  *os << i.name;
}

template <ct::Element E>
ct::Tensor<E> meta(std::vector<int64_t> shape) {
  return ct::Tensor<E>::meta(std::move(shape));
}

template <ct::Element E>
std::string dtype() {
  return std::string(ct::element_traits<E>::name);
}

constexpr const char* form_name(GeluApprox a) {
  return a == GeluApprox::tanh ? "tanh" : "none";
}

// The halves of an (M, 2H) meta tensor, as the C ABI reads them.
template <ct::Element E>
std::pair<ct::Tensor<E>, ct::Tensor<E>> halves(int64_t m, int64_t h) {
  auto x = meta<E>({m, 2 * h});
  return {x.as_strided({m, h}, {2 * h, 1}), x.as_strided({m, h}, {2 * h, 1}, h)};
}

template <ct::Element E>
void add_elementwise(std::vector<Instance>& out) {
  out.push_back({"relu_" + dtype<E>(), [] {
                   auto y = meta<E>({4096});
                   return ct::compile_only("sm_90", {}, lib::relu<E, 1024>, y.partition({1024}),
                                           meta<E>({4096}));
                 }});
  auto forms = [&]<GeluApprox A>() {
    auto gelu = [&]<int64_t T>() {
      out.push_back({"gelu_" + std::string(form_name(A)) + "_" + dtype<E>() + "_" + std::to_string(T), [] {
                       auto y = meta<E>({8192});
                       return ct::compile_only("sm_90", {}, lib::gelu<E, A, T>, y.partition({T}),
                                               meta<E>({8192}));
                     }});
    };
    gelu.template operator()<1024>();
    gelu.template operator()<4096>();
    out.push_back({"gelu_backward_" + std::string(form_name(A)) + "_" + dtype<E>(), [] {
                     auto dx = meta<E>({8192});
                     return ct::compile_only("sm_90", {}, lib::gelu_backward<E, A, 1024>,
                                             dx.partition({1024}), meta<E>({8192}), meta<E>({8192}));
                   }});
    auto geglu = [&]<int64_t BN>() {
      constexpr int64_t BM = 1024 / BN;
      const std::string suffix =
          std::string(form_name(A)) + "_" + dtype<E>() + "_" + std::to_string(BM) + "x" + std::to_string(BN);
      out.push_back(
          {"geglu_" + suffix, [] {
             auto [a, b] = halves<E>(512, 256);
             auto y = meta<E>({512, 256});
             return ct::compile_only("sm_90", {}, lib::geglu<E, A, BM, BN>, y.partition({BM, BN}), a, b);
           }});
      out.push_back({"geglu_backward_" + suffix, [] {
                       auto [a, b] = halves<E>(512, 256);
                       auto dx = meta<E>({512, 2, 256});
                       return ct::compile_only("sm_90", {}, lib::geglu_backward<E, A, BM, BN>,
                                               dx.partition({BM, 2, BN}), meta<E>({512, 256}), a, b);
                     }});
    };
    geglu.template operator()<16>();
    geglu.template operator()<64>();
    geglu.template operator()<256>();
    geglu.template operator()<1024>();
  };
  forms.template operator()<GeluApprox::none>();
  forms.template operator()<GeluApprox::tanh>();
}

// silu_and_mul's hints by the bytes of a row tile, as capi/src/silu_and_mul.cpp sets them.
template <ct::Element E>
ct::LaunchOptions silu_and_mul_options(int64_t tile) {
  ct::LaunchOptions options;
  const int64_t bytes = tile * static_cast<int64_t>(sizeof(E));
  options.hints.num_ctas = bytes <= 8192 ? 1 : 2;
  options.hints.num_worker_warps = bytes <= 2048 ? 4 : 8;
  return options;
}

template <ct::Element E, int64_t T = 64>
void add_row_kernels(std::vector<Instance>& out) {
  const std::string suffix = dtype<E>() + "_" + std::to_string(T);
  out.push_back({"silu_and_mul_" + suffix, [] {
                   auto y = meta<E>({64, 20000});
                   return ct::compile_only("sm_90", silu_and_mul_options<E>(T), lib::silu_and_mul<E, T>,
                                           y.partition({1, T}), meta<E>({64, 40000}));
                 }});
  out.push_back({"silu_and_mul_backward_" + suffix, [] {
                   auto dx = meta<E>({64, 2, 20000});
                   return ct::compile_only("sm_90", silu_and_mul_options<E>(T),
                                           lib::silu_and_mul_backward<E, T>, dx.partition({1, 2, T}),
                                           meta<E>({64, 20000}), meta<E>({64, 40000}));
                 }});
  out.push_back({"swiglu_" + suffix, [] {
                   ct::LaunchOptions options;
                   options.hints.occupancy = 1;
                   options.hints.num_worker_warps = 8;
                   auto c = meta<E>({64, 20000});
                   return ct::compile_only("sm_90", options, lib::swiglu<E, T>, c.partition({1, T}),
                                           meta<E>({64, 20000}), meta<E>({64, 20000}));
                 }});
  out.push_back({"swiglu_backward_" + suffix, [] {
                   auto da = meta<E>({64, 20000}), db = meta<E>({64, 20000});
                   return ct::compile_only("sm_90", {}, lib::swiglu_backward<E, T>, da.partition({1, T}),
                                           db.partition({1, T}), meta<E>({64, 20000}), meta<E>({64, 20000}),
                                           meta<E>({64, 20000}));
                 }});
  if constexpr (T < 16384) add_row_kernels<E, T * 2>(out);
}

std::vector<Instance> instances() {
  std::vector<Instance> out;
  add_elementwise<float>(out);
  add_elementwise<ct::f16>(out);
  add_elementwise<ct::bf16>(out);
  add_row_kernels<float>(out);
  add_row_kernels<ct::f16>(out);
  add_row_kernels<ct::bf16>(out);
  return out;
}

class ActivationCompile : public cutile::test_support::ToolchainTest,
                          public ::testing::WithParamInterface<Instance> {};

TEST_P(ActivationCompile, TileirasProducesACubin) {
  const ct::CompiledKernel compiled = GetParam().compile();
  ASSERT_GE(compiled.cubin.size(), 4u);
  EXPECT_EQ(std::string(compiled.cubin.begin() + 1, compiled.cubin.begin() + 4), "ELF");
}

INSTANTIATE_TEST_SUITE_P(Library, ActivationCompile, ::testing::ValuesIn(instances()),
                         [](const auto& p) { return p.param.name; });

}  // namespace
