// Compiles one of our DSL kernels ahead of time at one configuration, so that CUTILE_DUMP writes its
// bytecode; scripts/ir_diff_op.sh builds and runs it. cutile-dsl-examples compiles several
// configurations of each kernel under the same entry name, and each dump overwrites the previous one.
//
//   CUTILE_DUMP=bytecode CUTILE_DUMP_DIR=DIR dsl_dump softmax DTYPE ROWS COLS   (DTYPE: f32, f16, bf16)
//                                     the four softmax kernels, TileGym's occupancies
//   ... dsl_dump dropout DTYPE N       dropout and dropout_inplace, tile 1024
//   ... dsl_dump matmul M N K              f16, tile 128x128x32, num_ctas 1, occupancy 1
//   ... dsl_dump persistent_matmul M N K   f16, tile 128x512x64, grouped<8>, num_ctas 4, occupancy 1
//   ... dsl_dump fmha B H S                f16, D 128, tiles 256x128, causal, occupancy 2
// (the configurations of TileGym's benchmark kernels in tests/data/reference/tilegym).
#include <cmath>
#include <cstdio>
#include <string>

#include "attention/fmha.hpp"
#include "cutile/error.hpp"
#include "cutile/launch.hpp"
#include "elementwise/dropout.hpp"
#include "gemm/matmul.hpp"
#include "normalization/softmax.hpp"
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
  report(
      ct::compile_only("sm_90", four, ct::kernels::softmax_gather<E, TILE_N>, y.partition({1, TILE_N}), x));
  report(ct::compile_only("sm_90", {}, ct::kernels::softmax_row<E, TILE_N>, y.partition({1, TILE_N}), x));
  report(ct::compile_only("sm_90", two, ct::kernels::softmax_tma<E, TILE_N>, y.partition({1, TILE_N}), x));
  constexpr int64_t CHUNK = TILE_N < 8192 ? TILE_N : 8192;
  report(ct::compile_only("sm_90", four, ct::kernels::softmax_chunked<E, CHUNK>, y.partition({1, CHUNK}), x));
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

void fmha(int64_t batch, int64_t heads, int64_t seq) {
  auto o = ct::Tensor<ct::f16>::meta({batch * heads, seq, 128});
  auto q = ct::Tensor<ct::f16>::meta({batch * heads, seq, 128});
  ct::LaunchOptions options;
  options.hints.occupancy = 2;
  report(ct::compile_only("sm_90", options, ct::kernels::fmha<ct::f16, 128, 256, 128, true>,
                          o.partition({256, 1, 128}, {1, 0, 2}), q, q, q, 1.0 / std::sqrt(128.0), 0, heads,
                          1));
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
        "usage: dsl_dump softmax DTYPE ROWS COLS | dropout DTYPE N | matmul M N K | persistent_matmul M N K "
        "| fmha B H S");
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
