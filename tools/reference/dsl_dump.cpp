// Compiles one of our DSL example kernels ahead of time at one configuration, so that CUTILE_DUMP
// writes its bytecode; scripts/ir_diff_op.sh builds and runs it. cutile-dsl-examples compiles several
// configurations of each kernel under the same entry name, and each dump overwrites the previous one.
//
//   CUTILE_DUMP=bytecode CUTILE_DUMP_DIR=DIR dsl_dump softmax DTYPE ROWS COLS   (DTYPE: f32, f16, bf16)
#include <cstdio>
#include <string>

#include "cutile/error.hpp"
#include "cutile/launch.hpp"
#include "kernels/row_softmax.hpp"
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

int run(int argc, char** argv) {
  if (argc != 5 || std::string(argv[1]) != "softmax")
    throw ct::UserError("usage: dsl_dump softmax DTYPE ROWS COLS (DTYPE: f32, f16, bf16)");
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
