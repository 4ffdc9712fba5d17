// Compiles one of our DSL kernels ahead of time at one configuration, so that CUTILE_DUMP writes its
// bytecode; scripts/ir_diff_op.sh builds and runs it. cutile-dsl-examples compiles several
// configurations of each kernel under the same entry name, and each dump overwrites the previous one.
//
//   CUTILE_DUMP=bytecode CUTILE_DUMP_DIR=DIR dsl_dump softmax DTYPE ROWS COLS   (DTYPE: f32, f16, bf16)
//                                     the four softmax kernels, TileGym's occupancies
//   ... dsl_dump dropout DTYPE N       dropout and dropout_inplace, tile 1024
//   ... dsl_dump matmul M N K              f16, tile 128x128x32, num_ctas 1, occupancy 1
//   ... dsl_dump persistent_matmul M N K   f16, tile 128x512x64, grouped<8>, num_ctas 4, occupancy 1
//   ... dsl_dump group_gemm GROUPS M N K   f16, GROUPS members of (M, K) @ (K, N), tile 128x128x128, B not
//                                           transposed, num_ctas 1, occupancy 1, grid SMs (132)
//   ... dsl_dump fmha B H S                f16, D 128, tiles 256x128, causal, occupancy 2
//   ... dsl_dump relu DTYPE N | gelu DTYPE N APPROX | geglu DTYPE M N APPROX | silu_and_mul DTYPE M H |
//       swiglu DTYPE ROWS N    (APPROX: none, tanh) with the tiles and hints the C ABI picks
//       (capi/src/<op>.cpp); gelu, geglu, silu_and_mul and swiglu dump the backward kernel too
//   ... dsl_dump rms_norm M N              bf16, N in 2049..4096 or 8193..16384: the three forward schedules
//                                           and the backward
//   ... dsl_dump layer_norm_legacy M N     f16, 2048 < N ≤ 4096 or 8192 < N ≤ 16384 (one tile of N
//                                           columns or two of N/2, as TileGym picks)
//   ... dsl_dump persistent_layer_norm M N bf16, N ≤ 1024 < 2N: 8-row tiles, 4 worker warps
//   ... dsl_dump rope DTYPE H S D          one batch of contiguous (B, H, S, D) q and k (H heads each),
//                                          full rotation, occupancy 9, as cutile_cpp_rope launches it
// (the configurations of TileGym's benchmark kernels in tests/data/reference/tilegym).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "activation/geglu.hpp"
#include "activation/gelu.hpp"
#include "activation/relu.hpp"
#include "activation/silu_and_mul.hpp"
#include "activation/swiglu.hpp"
#include "attention/fmha.hpp"
#include "cutile/error.hpp"
#include "cutile/host/launch.hpp"
#include "elementwise/dropout.hpp"
#include "gemm/group_gemm.hpp"
#include "gemm/matmul.hpp"
#include "normalization/layer_norm_legacy.hpp"
#include "normalization/persistent_layer_norm.hpp"
#include "normalization/rms_norm.hpp"
#include "normalization/softmax.hpp"
#include "positional/rope.hpp"
#include "program_main.hpp"

namespace {

namespace ct = cutile;

void report(const ct::CompiledKernel& k);

// TileGym's launch choices: occupancy 4 for the gather and chunked kernels, 2 for the TMA one.
template <ct::Element E, int64_t TILE_N>
void softmax(int64_t rows, int64_t cols) {
  auto y = ct::Tensor<E>::meta({rows, cols});
  auto x = ct::Tensor<E>::meta({rows, cols});
  ct::LaunchOptions four, two;
  four.hints.occupancy = 4;
  two.hints.occupancy = 2;
  // The gather kernels with N baked in when the row is one tile, as the C ABI launches them.
  auto gather_kernels = [&]<int64_t COLS>(std::integral_constant<int64_t, COLS>) {
    report(ct::compile_only("sm_90", four, ct::kernels::softmax_gather<E, TILE_N, COLS>, y.partition({1, TILE_N}),
                            x));
    report(ct::compile_only("sm_90", {}, ct::kernels::softmax_row<E, TILE_N, COLS>, y.partition({1, TILE_N}), x));
  };
  if (cols == TILE_N)
    gather_kernels(std::integral_constant<int64_t, TILE_N>{});
  else
    gather_kernels(std::integral_constant<int64_t, ct::dyn>{});
  report(ct::compile_only("sm_90", two, ct::kernels::softmax_tma<E, TILE_N>, y.partition({1, TILE_N}), x));
  // One chunk of TILE_N when it holds the row, else chunks of 8192, as cutile_cpp_softmax_variant picks.
  if constexpr (TILE_N <= 8192)
    report(ct::compile_only("sm_90", four, ct::kernels::softmax_chunked<E, TILE_N, 1>,
                            y.partition({1, TILE_N}), x));
  else
    report(ct::compile_only("sm_90", four, ct::kernels::softmax_chunked<E, 8192, ct::dyn>,
                            y.partition({1, 8192}), x));
}

// TILE_N is the next power of two of the columns, as TileGym's launcher chooses it.
template <ct::Element E>
void softmax(int64_t rows, int64_t cols) {
  if (cols <= 1024) return softmax<E, 1024>(rows, cols);
  if (cols <= 2048) return softmax<E, 2048>(rows, cols);
  if (cols <= 4096) return softmax<E, 4096>(rows, cols);
  if (cols <= 8192) return softmax<E, 8192>(rows, cols);
  if (cols <= 16384) return softmax<E, 16384>(rows, cols);
  throw ct::UserError("dsl_dump: softmax supports at most 16384 columns, got " + std::to_string(cols));
}

// Runtime seed, p and scale; TILE 1024 as TileGym's launcher.
template <ct::Element E>
void dropout(int64_t n) {
  auto y = ct::Tensor<E>::meta({n});
  report(ct::compile_only("sm_90", {}, ct::kernels::dropout<E, 1024>, y.partition({1024}),
                          ct::Tensor<E>::meta({n}), 0, 0.5, 2.0));
  report(
      ct::compile_only("sm_90", {}, ct::kernels::dropout_inplace<E, 1024>, y.partition({1024}), 0, 0.5, 2.0));
}

void report(const ct::CompiledKernel& k) {
  std::printf("%s: %zu bytes of bytecode\n", k.name.c_str(), k.bytecode_bytes);
}

void matmul(int64_t m, int64_t n, int64_t k, bool persistent) {
  auto c = ct::Tensor<ct::f16>::meta({m, n});
  auto a = ct::Tensor<ct::f16>::meta({m, k}), b = ct::Tensor<ct::f16>::meta({k, n});
  ct::LaunchOptions options;
  if (persistent) {
    options.hints = {.num_ctas = 4, .occupancy = 1};
    report(ct::compile_only("sm_90", options,
                            ct::kernels::persistent_matmul<ct::f16, ct::f16, 128, 512, 64, 8>,
                            c.partition({128, 512}), a, b));
  } else {
    options.hints = {.num_ctas = 1, .occupancy = 1};
    report(ct::compile_only("sm_90", options, ct::kernels::matmul<ct::f16, ct::f16, 128, 128, 32>,
                            c.partition({128, 128}), a, b));
  }
}

void group_gemm(int64_t groups, int64_t m, int64_t n, int64_t k) {
  auto list = [&](int64_t rows, int64_t cols) {  // distinct members: an output list may not repeat a tensor
    std::vector<ct::Tensor<ct::f16>> members;
    for (int64_t g = 0; g < groups; ++g) members.push_back(ct::Tensor<ct::f16>::meta({rows, cols}));
    return ct::TensorList<ct::f16>(std::move(members));
  };
  ct::LaunchOptions options;
  options.hints = {.num_ctas = 1, .occupancy = 1};
  options.grid = std::array<int64_t, 3>{132, 1, 1};
  report(ct::compile_only("sm_90", options, ct::kernels::group_gemm<ct::f16, 128, 128, 128, false>,
                          list(m, n).partition({128, 128}), list(m, k), list(k, n)));
}

void fmha(int64_t batch, int64_t heads, int64_t seq) {
  auto o = ct::Tensor<ct::f16>::meta({batch * heads, seq, 128});
  auto q = ct::Tensor<ct::f16>::meta({batch * heads, seq, 128});
  ct::LaunchOptions options;
  options.hints.occupancy = 2;
  report(ct::compile_only("sm_90", options, ct::kernels::fmha<ct::f16, 128, 256, 128, true>,
                          o.partition({256, 1, 128}, {1, 0, 2}), q, q, q, 1.0 / std::sqrt(128.0), 0, heads,
                          1));
}

// ---- activations, as capi/src/{relu,gelu,geglu,silu_and_mul,swiglu}.cpp launch them

namespace lib = ct::kernels;

template <ct::Element E>
void relu(int64_t n) {
  auto y = ct::Tensor<E>::meta({n});
  report(ct::compile_only("sm_90", {}, lib::relu<E, 1024>, y.partition({1024}), ct::Tensor<E>::meta({n})));
}

template <ct::Element E, lib::GeluApprox A>
void gelu(int64_t n) {
  auto y = ct::Tensor<E>::meta({n});
  if (n >= (int64_t{1} << 24))
    report(
        ct::compile_only("sm_90", {}, lib::gelu<E, A, 4096>, y.partition({4096}), ct::Tensor<E>::meta({n})));
  else
    report(
        ct::compile_only("sm_90", {}, lib::gelu<E, A, 1024>, y.partition({1024}), ct::Tensor<E>::meta({n})));
  report(ct::compile_only("sm_90", {}, lib::gelu_backward<E, A, 1024>, y.partition({1024}),
                          ct::Tensor<E>::meta({n}), ct::Tensor<E>::meta({n})));
}

// x (M, 2N) read as its halves, dx as (M, 2, N).
template <ct::Element E, lib::GeluApprox A, int64_t BN>
void geglu(int64_t m, int64_t n) {
  constexpr int64_t BM = 1024 / BN;
  auto x = ct::Tensor<E>::meta({m, 2 * n});
  auto a = x.as_strided({m, n}, {2 * n, 1}), b = x.as_strided({m, n}, {2 * n, 1}, n);
  auto y = ct::Tensor<E>::meta({m, n});
  report(ct::compile_only("sm_90", {}, lib::geglu<E, A, BM, BN>, y.partition({BM, BN}), a, b));
  auto dx = ct::Tensor<E>::meta({m, 2 * n}).as_strided({m, 2, n}, {2 * n, n, 1});
  report(ct::compile_only("sm_90", {}, lib::geglu_backward<E, A, BM, BN>, dx.partition({BM, 2, BN}),
                          ct::Tensor<E>::meta({m, n}), a, b));
}

template <ct::Element E, lib::GeluApprox A>
void geglu(int64_t m, int64_t n) {
  if (n <= 16) return geglu<E, A, 16>(m, n);
  if (n <= 64) return geglu<E, A, 64>(m, n);
  if (n <= 256) return geglu<E, A, 256>(m, n);
  geglu<E, A, 1024>(m, n);
}

template <ct::Element E, int64_t TILE = 64>
void silu_and_mul(int64_t m, int64_t h) {
  if constexpr (TILE < 16384) {
    if (h > TILE) return silu_and_mul<E, TILE * 2>(m, h);
  }
  ct::LaunchOptions options;
  const int64_t bytes = TILE * static_cast<int64_t>(sizeof(E));
  options.hints.num_ctas = bytes <= 8192 ? 1 : 2;
  options.hints.num_worker_warps = bytes <= 2048 ? 4 : 8;
  auto x = ct::Tensor<E>::meta({m, 2 * h});
  auto y = ct::Tensor<E>::meta({m, h});
  report(ct::compile_only("sm_90", options, lib::silu_and_mul<E, TILE>, y.partition({1, TILE}), x));
  auto dx = ct::Tensor<E>::meta({m, 2 * h}).as_strided({m, 2, h}, {2 * h, h, 1});
  report(ct::compile_only("sm_90", options, lib::silu_and_mul_backward<E, TILE>, dx.partition({1, 2, TILE}),
                          ct::Tensor<E>::meta({m, h}), x));
}

template <ct::Element E, int64_t TILE = 64>
void swiglu_forward(int64_t rows, int64_t n) {
  if constexpr (TILE < 16384) {
    if (n > TILE) return swiglu_forward<E, TILE * 2>(rows, n);
  }
  ct::LaunchOptions options;
  options.hints.occupancy = 1;
  options.hints.num_worker_warps = 8;
  auto c = ct::Tensor<E>::meta({rows, n});
  report(ct::compile_only("sm_90", options, lib::swiglu<E, TILE>, c.partition({1, TILE}),
                          ct::Tensor<E>::meta({rows, n}), ct::Tensor<E>::meta({rows, n})));
}

// The backward's width: n / ⌈SMs / rows⌉ on the H200's 132 SMs.
template <ct::Element E, int64_t TILE = 64>
void swiglu_backward(int64_t rows, int64_t n, int64_t want) {
  if constexpr (TILE < 16384) {
    if (want > TILE) return swiglu_backward<E, TILE * 2>(rows, n, want);
  }
  auto da = ct::Tensor<E>::meta({rows, n}), db = ct::Tensor<E>::meta({rows, n});
  report(ct::compile_only("sm_90", {}, lib::swiglu_backward<E, TILE>, da.partition({1, TILE}),
                          db.partition({1, TILE}), ct::Tensor<E>::meta({rows, n}),
                          ct::Tensor<E>::meta({rows, n}), ct::Tensor<E>::meta({rows, n})));
}

template <ct::Element E>
void swiglu(int64_t rows, int64_t n) {
  swiglu_forward<E>(rows, n);
  swiglu_backward<E>(rows, n, n / ((132 + rows - 1) / rows));
}

template <class Body>
void with_dtype(const std::string& dtype, Body&& body) {
  if (dtype == "f32") return body(std::type_identity<float>{});
  if (dtype == "f16") return body(std::type_identity<ct::f16>{});
  if (dtype == "bf16") return body(std::type_identity<ct::bf16>{});
  throw ct::UserError("dsl_dump: unknown dtype '" + dtype + "'; expected f32, f16 or bf16");
}

lib::GeluApprox gelu_form(const std::string& name) {
  if (name == "none") return lib::GeluApprox::none;
  if (name == "tanh") return lib::GeluApprox::tanh;
  throw ct::UserError("dsl_dump: unknown GELU approximation '" + name + "'; expected none or tanh");
}

// true when `op` is an activation and was dumped.
bool activation(const std::string& op, int argc, char** argv) {
  using lib::GeluApprox;
  auto arg = [&](int i) { return std::stoll(argv[i]); };
  if (op == "relu" && argc == 4) {
    with_dtype(argv[2], [&]<class E>(std::type_identity<E>) { relu<E>(arg(3)); });
  } else if (op == "gelu" && argc == 5) {
    const GeluApprox form = gelu_form(argv[4]);
    with_dtype(argv[2], [&]<class E>(std::type_identity<E>) {
      form == GeluApprox::tanh ? gelu<E, GeluApprox::tanh>(arg(3)) : gelu<E, GeluApprox::none>(arg(3));
    });
  } else if (op == "geglu" && argc == 6) {
    const GeluApprox form = gelu_form(argv[5]);
    with_dtype(argv[2], [&]<class E>(std::type_identity<E>) {
      form == GeluApprox::tanh ? geglu<E, GeluApprox::tanh>(arg(3), arg(4))
                               : geglu<E, GeluApprox::none>(arg(3), arg(4));
    });
  } else if (op == "silu_and_mul" && argc == 5) {
    with_dtype(argv[2], [&]<class E>(std::type_identity<E>) { silu_and_mul<E>(arg(3), arg(4)); });
  } else if (op == "swiglu" && argc == 5) {
    with_dtype(argv[2], [&]<class E>(std::type_identity<E>) { swiglu<E>(arg(3), arg(4)); });
  } else {
    return false;
  }
  return true;
}

// The row tile of a dump instance: next_pow2(n) must be `tile`.
void require_tile(const char* op, int64_t n, int64_t tile) {
  if (n > tile || 2 * n <= tile)
    throw ct::UserError(std::string("dsl_dump: ") + op + " is instantiated for " +
                        std::to_string(tile / 2 + 1) + ".." + std::to_string(tile) + " columns, got " +
                        std::to_string(n));
}

// TileGym's tiles at next_pow2(n) = TN: TM rows per static persistent tile, TILE columns per reload
// gather, BWD_TM rows per backward tile (capi/src/rms_norm.cpp picks the same).
template <int64_t TN>
void rms_norm(int64_t m, int64_t n) {
  namespace k = ct::kernels;
  require_tile("rms_norm", n, TN);
  using E = ct::bf16;
  constexpr int64_t TM = TN <= 1024 ? 16 : TN >= 16384 ? 2 : 4;
  constexpr int64_t TILE = std::min<int64_t>(2048, TN);
  auto x = ct::Tensor<E>::meta({m, n}), y = ct::Tensor<E>::meta({m, n}), dy = ct::Tensor<E>::meta({m, n});
  auto w = ct::Tensor<E>::meta({n});
  auto rstd = ct::Tensor<float>::meta({m});
  ct::LaunchOptions persistent;
  persistent.hints.num_worker_warps = 8;  // as the C ABI launches it
  report(ct::compile_only("sm_90", persistent, k::rms_norm_static_persistent<E, TM, TN>,
                          y.partition({TM, TN}), rstd.partition({TM}), x, w, 1e-5f, 0.0f));
  report(ct::compile_only("sm_90", {}, k::rms_norm_row_reload<E, TN, TILE>, y.partition({1, TN}),
                          rstd.partition({1}), x, w, 1e-5f, 0.0f));
  report(ct::compile_only("sm_90", {}, k::rms_norm_row_cached<E, TN>, y.partition({1, TN}),
                          rstd.partition({1}), x, w, 1e-5f, 0.0f));
  ct::LaunchOptions options;
  options.hints.occupancy = 1;
  auto backward = [&]<int64_t BWD_TM>(std::integral_constant<int64_t, BWD_TM>) {
    auto partial = ct::Tensor<float>::meta({32, TN});
    report(ct::compile_only("sm_90", options, k::rms_norm_backward<E, BWD_TM, TN>, y.partition({BWD_TM, TN}),
                            partial.partition({1, TN}), dy, x, w, rstd));
  };
  if (TN <= 2048 || (TN <= 4096 && m >= 8192))
    backward(std::integral_constant<int64_t, 4>{});
  else
    backward(std::integral_constant<int64_t, 1>{});
}

void rms_norm(int64_t m, int64_t n) {
  if (n > 4096) return rms_norm<16384>(m, n);
  rms_norm<4096>(m, n);
}

// TileGym's BLOCK, the largest power of two ≤ N, is ROW_TILE (one tile) or ROW_TILE / 2 (two tiles).
template <int64_t ROW_TILE>
void layer_norm_legacy(int64_t m, int64_t n) {
  require_tile("layer_norm_legacy", n, ROW_TILE);
  using E = ct::f16;
  auto x = ct::Tensor<E>::meta({m, n}), y = ct::Tensor<E>::meta({m, n});
  auto w = ct::Tensor<E>::meta({n}), b = ct::Tensor<E>::meta({n});
  auto mean = ct::Tensor<float>::meta({m}), rstd = ct::Tensor<float>::meta({m});
  auto compile = [&]<int64_t BLOCK, int64_t TILES, int64_t COLS>(
                     std::integral_constant<int64_t, BLOCK>, std::integral_constant<int64_t, TILES>,
                     std::integral_constant<int64_t, COLS>) {
    report(ct::compile_only("sm_90", {}, ct::kernels::layer_norm_legacy<E, BLOCK, TILES, COLS>,
                            y.partition({1, TILES * BLOCK}), mean.partition({1}), rstd.partition({1}), x, w,
                            b, 1e-5f, 0.0f));
  };
  if (n == ROW_TILE)  // N baked in, as the C ABI launches it
    compile(std::integral_constant<int64_t, ROW_TILE>{}, std::integral_constant<int64_t, 1>{},
            std::integral_constant<int64_t, ROW_TILE>{});
  else
    compile(std::integral_constant<int64_t, ROW_TILE / 2>{}, std::integral_constant<int64_t, 2>{},
            std::integral_constant<int64_t, ct::dyn>{});
}

void layer_norm_legacy(int64_t m, int64_t n) {
  if (n > 4096) return layer_norm_legacy<16384>(m, n);
  layer_norm_legacy<4096>(m, n);
}

void persistent_layer_norm(int64_t m, int64_t n) {
  require_tile("persistent_layer_norm", n, 1024);
  using E = ct::bf16;
  auto x = ct::Tensor<E>::meta({m, n}), y = ct::Tensor<E>::meta({m, n});
  auto w = ct::Tensor<E>::meta({n}), b = ct::Tensor<E>::meta({n});
  auto mean = ct::Tensor<float>::meta({m}), rstd = ct::Tensor<float>::meta({m});
  ct::LaunchOptions options;
  options.hints = {.num_ctas = 1, .num_worker_warps = 4};
  report(ct::compile_only("sm_90", options, ct::kernels::persistent_layer_norm<E, 8, 1024>,
                          y.partition({8, 1024}), mean.partition({8}), rstd.partition({8}), x, w, b, 1e-6f));
}

// The head tile and half width cutile_cpp_rope picks: the next powers of two of H and D/2.
template <ct::Element E, int64_t TILE_H = 1, int64_t TILE_RD = 8>
void rope(int64_t heads, int64_t seq, int64_t head_dim) {
  if constexpr (TILE_H < 128) {
    if (heads > TILE_H) return rope<E, TILE_H * 2, TILE_RD>(heads, seq, head_dim);
  }
  if constexpr (TILE_RD < 128) {
    if (head_dim / 2 > TILE_RD) return rope<E, TILE_H, TILE_RD * 2>(heads, seq, head_dim);
  }
  if (heads > TILE_H || head_dim != 2 * TILE_RD)
    throw ct::UserError("dsl_dump: rope takes H <= 128 and D = 2^n in [16, 256]");
  // cutile_cpp_rope's (S, H, D) view of one batch of a contiguous (B, H, S, D) tensor.
  auto q = ct::Tensor<E>::meta({seq, heads, head_dim}, {head_dim, seq * head_dim, 1});
  auto k = ct::Tensor<E>::meta({seq, heads, head_dim}, {head_dim, seq * head_dim, 1});
  ct::LaunchOptions options;
  options.hints.occupancy = 9;
  report(ct::compile_only("sm_90", options, ct::kernels::rope<E, TILE_H, TILE_H, TILE_RD>,
                          q.partition({1, TILE_H, 2 * TILE_RD}), k.partition({1, TILE_H, 2 * TILE_RD}),
                          ct::Tensor<E>::meta({1, seq, head_dim}), ct::Tensor<E>::meta({1, seq, head_dim}),
                          seq));
}

int run(int argc, char** argv) {
  const std::string op = argc > 1 ? argv[1] : "";
  if (activation(op, argc, argv)) return 0;
  if (argc == 4 && op == "rms_norm") {
    rms_norm(std::stoll(argv[2]), std::stoll(argv[3]));
    return 0;
  }
  if (argc == 4 && op == "layer_norm_legacy") {
    layer_norm_legacy(std::stoll(argv[2]), std::stoll(argv[3]));
    return 0;
  }
  if (argc == 4 && op == "persistent_layer_norm") {
    persistent_layer_norm(std::stoll(argv[2]), std::stoll(argv[3]));
    return 0;
  }
  if (argc == 5 && (op == "matmul" || op == "persistent_matmul")) {
    matmul(std::stoll(argv[2]), std::stoll(argv[3]), std::stoll(argv[4]), op == "persistent_matmul");
    return 0;
  }
  if (argc == 6 && op == "group_gemm") {
    group_gemm(std::stoll(argv[2]), std::stoll(argv[3]), std::stoll(argv[4]), std::stoll(argv[5]));
    return 0;
  }
  if (argc == 5 && op == "fmha") {
    fmha(std::stoll(argv[2]), std::stoll(argv[3]), std::stoll(argv[4]));
    return 0;
  }
  if (argc == 6 && op == "rope") {
    const std::string dtype = argv[2];
    const int64_t heads = std::stoll(argv[3]), seq = std::stoll(argv[4]), head_dim = std::stoll(argv[5]);
    if (dtype == "f32")
      rope<float>(heads, seq, head_dim);
    else if (dtype == "f16")
      rope<ct::f16>(heads, seq, head_dim);
    else if (dtype == "bf16")
      rope<ct::bf16>(heads, seq, head_dim);
    else
      throw ct::UserError("dsl_dump: unknown dtype '" + dtype + "'; expected f32, f16 or bf16");
    return 0;
  }
  if (argc == 4 && op == "dropout") {
    const std::string dtype = argv[2];
    const int64_t n = std::stoll(argv[3]);
    if (dtype == "f32")
      dropout<float>(n);
    else if (dtype == "f16")
      dropout<ct::f16>(n);
    else if (dtype == "bf16")
      dropout<ct::bf16>(n);
    else
      throw ct::UserError("dsl_dump: unknown dtype '" + dtype + "'; expected f32, f16 or bf16");
    return 0;
  }
  if (argc != 5 || op != "softmax")
    throw ct::UserError(
        "usage: dsl_dump softmax DTYPE ROWS COLS | dropout DTYPE N | matmul M N K | persistent_matmul M N K | "
        "group_gemm GROUPS M N K | fmha B H S | relu DTYPE N | gelu DTYPE N APPROX | geglu DTYPE M N APPROX | silu_and_mul DTYPE M H | "
        "swiglu DTYPE ROWS N | rms_norm M N | layer_norm_legacy M N | persistent_layer_norm M N | rope DTYPE "
        "H S D");
  const std::string dtype = argv[2];
  const int64_t rows = std::stoll(argv[3]);
  const int64_t cols = std::stoll(argv[4]);
  if (dtype == "f32")
    softmax<float>(rows, cols);
  else if (dtype == "f16")
    softmax<ct::f16>(rows, cols);
  else if (dtype == "bf16")
    softmax<ct::bf16>(rows, cols);
  else
    throw ct::UserError("dsl_dump: unknown dtype '" + dtype + "'; expected f32, f16 or bf16");
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return program::run_guarded(run, argc, argv);
}
