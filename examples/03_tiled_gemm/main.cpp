// Rung 03 of the ladder: a K loop with mma.
//   C = A · B in f16 with f32 accumulation, every dimension ragged (no multiple of its tile)
#include "03_tiled_gemm/tiled_gemm.hpp"
#include "ladder.hpp"
#include "program_main.hpp"

namespace {

namespace ct = cutile;

int run(int, char**) {
  const ct::Device device = examples::pick_device();
  const int64_t m = device.is_cpu() ? 130 : 1000, n = device.is_cpu() ? 200 : 777,
                k = device.is_cpu() ? 96 : 300;
  auto a = ct::randn<ct::f16>({m, k}, device, 4), b = ct::randn<ct::f16>({k, n}, device, 5);
  auto c = ct::empty<ct::f16>({m, n}, device);
  ct::launch(examples::tiled_gemm<ct::f16, 128, 128, 64>, c.partition({128, 128}), a, b).sync();
  // The sums are exact enough in f32; the output's rounding to f16 (2^-11 relative) bounds the error.
  const bool ok = examples::check(
      "tiled_gemm f16 " + std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k),
      examples::to_double(c), examples::matmul(examples::to_double(a), examples::to_double(b), m, n, k),
      2e-3);
  return examples::finish(device, ok);
}

}  // namespace

int main(int argc, char** argv) {
  return program::run_guarded(run, argc, argv);
}
