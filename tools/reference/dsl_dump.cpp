// Compiles one of our DSL kernels ahead of time at one configuration, so that CUTILE_DUMP writes its
// bytecode; scripts/ir_diff_op.sh builds and runs it. cutile-dsl-examples compiles several
// configurations of each kernel under the same entry name, and each dump overwrites the previous one.
//
//   CUTILE_DUMP=bytecode CUTILE_DUMP_DIR=DIR dsl_dump softmax DTYPE ROWS COLS   (DTYPE: f32, f16, bf16)
//   ... dsl_dump matmul M N K              f16, tile 128x128x32, num_ctas 1, occupancy 1
//   ... dsl_dump persistent_matmul M N K   f16, tile 128x512x64, grouped<8>, num_ctas 4, occupancy 1
//   ... dsl_dump fmha B H S                f16, D 128, tiles 256x128, causal, occupancy 2
//   ... dsl_dump rope DTYPE H S D          one batch of contiguous (B, H, S, D) q and k (H heads each),
//                                          full rotation, occupancy 9, as cutile_cpp_rope launches it
// (the configurations of TileGym's benchmark kernels in tests/data/reference/tilegym).
#include <cmath>
#include <cstdio>
#include <string>

#include "cutile/error.hpp"
#include "cutile/launch.hpp"
#include "attention/fmha.hpp"
#include "gemm/matmul.hpp"
#include "kernels/row_softmax.hpp"
#include "positional/rope.hpp"
#include "program_main.hpp"

namespace {

namespace ct = cutile;

template <ct::Element E, int64_t TILE_N>
void softmax(int64_t rows, int64_t cols) {
  auto y = ct::Tensor<E>::meta({rows, cols});
  const ct::CompiledKernel k = ct::compile_only("sm_90", {}, examples::row_softmax<E, TILE_N>,
                                                y.partition({1, TILE_N}), ct::Tensor<E>::meta({rows, cols}));
  std::printf("row_softmax %s %lldx%lld, tile 1x%lld: %zu bytes of bytecode\n",
              std::string(ct::element_traits<E>::name).c_str(),
              static_cast<long long>(rows), static_cast<long long>(cols), static_cast<long long>(TILE_N),
              k.bytecode_bytes);
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

void report(const ct::CompiledKernel& k) {
  std::printf("%s: %zu bytes of bytecode\n", k.name.c_str(), k.bytecode_bytes);
}

void matmul(int64_t m, int64_t n, int64_t k, bool persistent) {
  auto c = ct::Tensor<ct::f16>::meta({m, n});
  auto a = ct::Tensor<ct::f16>::meta({m, k}), b = ct::Tensor<ct::f16>::meta({k, n});
  ct::LaunchOptions options;
  if (persistent) {
    options.hints = {.num_ctas = 4, .occupancy = 1};
    report(ct::compile_only("sm_90", options, ct::kernels::persistent_matmul<ct::f16, ct::f16, 128, 512, 64, 8>,
                            c.partition({128, 512}), a, b));
  } else {
    options.hints = {.num_ctas = 1, .occupancy = 1};
    report(ct::compile_only("sm_90", options, ct::kernels::matmul<ct::f16, ct::f16, 128, 128, 32>,
                            c.partition({128, 128}), a, b));
  }
}

void fmha(int64_t batch, int64_t heads, int64_t seq) {
  auto o = ct::Tensor<ct::f16>::meta({batch * heads, seq, 128});
  auto q = ct::Tensor<ct::f16>::meta({batch * heads, seq, 128});
  ct::LaunchOptions options;
  options.hints.occupancy = 2;
  report(ct::compile_only("sm_90", options, ct::kernels::fmha<ct::f16, 128, 256, 128, true>, o.partition({256, 1, 128}, {1, 0, 2}),
                          q, q, q, 1.0 / std::sqrt(128.0), 0, heads, 1));
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
                          ct::Tensor<E>::meta({1, seq, head_dim}), ct::Tensor<E>::meta({1, seq, head_dim}), seq));
}

int run(int argc, char** argv) {
  const std::string op = argc > 1 ? argv[1] : "";
  if (argc == 5 && (op == "matmul" || op == "persistent_matmul")) {
    matmul(std::stoll(argv[2]), std::stoll(argv[3]), std::stoll(argv[4]), op == "persistent_matmul");
    return 0;
  }
  if (argc == 5 && op == "fmha") {
    fmha(std::stoll(argv[2]), std::stoll(argv[3]), std::stoll(argv[4]));
    return 0;
  }
  if (argc == 6 && op == "rope") {
    const std::string dtype = argv[2];
    const int64_t heads = std::stoll(argv[3]), seq = std::stoll(argv[4]), head_dim = std::stoll(argv[5]);
    if (dtype == "f32") rope<float>(heads, seq, head_dim);
    else if (dtype == "f16") rope<ct::f16>(heads, seq, head_dim);
    else if (dtype == "bf16") rope<ct::bf16>(heads, seq, head_dim);
    else throw ct::UserError("dsl_dump: unknown dtype '" + dtype + "'; expected f32, f16 or bf16");
    return 0;
  }
  if (argc != 5 || op != "softmax")
    throw ct::UserError(
        "usage: dsl_dump softmax DTYPE ROWS COLS | matmul M N K | persistent_matmul M N K | fmha B H S | "
        "rope DTYPE H S D");
  const std::string dtype = argv[2];
  const int64_t rows = std::stoll(argv[3]);
  const int64_t cols = std::stoll(argv[4]);
  if (dtype == "f32") softmax<float>(rows, cols);
  else if (dtype == "f16") softmax<ct::f16>(rows, cols);
  else if (dtype == "bf16") softmax<ct::bf16>(rows, cols);
  else throw ct::UserError("dsl_dump: unknown dtype '" + dtype + "'; expected f32, f16 or bf16");
  return 0;
}

}  // namespace

int main(int argc, char** argv) { return program::run_guarded(run, argc, argv); }
