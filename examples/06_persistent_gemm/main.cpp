// Rung 06 of the ladder: a persistent schedule over output tiles.
//   C = A · B in bf16 on the default grid (one block per SM), and on a grid of 3 blocks: any grid gives
//   the same C, because the schedule deals every tile to exactly one block
#include "06_persistent_gemm/persistent_gemm.hpp"
#include "ladder.hpp"
#include "program_main.hpp"

namespace {

namespace ct = cutile;

int run(int, char**) {
  const ct::Device device = examples::pick_device();
  const int64_t m = device.is_cpu() ? 300 : 3000, n = device.is_cpu() ? 260 : 2500,
                k = device.is_cpu() ? 64 : 512;
  auto a = ct::randn<ct::bf16>({m, k}, device, 10), b = ct::randn<ct::bf16>({k, n}, device, 11);
  const std::vector<double> ref = examples::matmul(examples::to_double(a), examples::to_double(b), m, n, k);
  const std::string shape = std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k);
  constexpr auto kernel = examples::persistent_gemm<ct::bf16, 128, 128, 64, 8>;

  auto c = ct::empty<ct::bf16>({m, n}, device);
  ct::launch(kernel, c.partition({128, 128}), a, b).sync();
  // The output's rounding to bf16 (2^-9 relative) bounds the error.
  bool ok = examples::check("persistent_gemm bf16 " + shape, examples::to_double(c), ref, 1e-2);

  ct::LaunchOptions three_blocks;
  three_blocks.grid = {{3, 1, 1}};
  auto c3 = ct::empty<ct::bf16>({m, n}, device);
  ct::launch(three_blocks, kernel, c3.partition({128, 128}), a, b).sync();
  ok &= examples::check("persistent_gemm bf16 " + shape + ", 3 blocks", examples::to_double(c3), ref, 1e-2);
  return examples::finish(device, ok);
}

}  // namespace

int main(int argc, char** argv) {
  return program::run_guarded(run, argc, argv);
}
