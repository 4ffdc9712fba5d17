// Rung 02 of the ladder: reductions and padding.
//   softmax of each row, for rows that fill their tile (4096 columns) and rows that do not (1000 columns
//   in a 1024-wide tile); bf16 data, f32 arithmetic inside the kernel
#include "02_row_softmax/row_softmax.hpp"
#include "ladder.hpp"
#include "program_main.hpp"

namespace {

namespace ct = cutile;

template <int64_t TILE_N>
bool softmax_and_check(const ct::Device& device, int64_t rows, int64_t cols) {
  auto x = ct::randn<ct::bf16>({rows, cols}, device, 3);
  auto y = ct::empty<ct::bf16>({rows, cols}, device);
  // One (1, TILE_N) tile per row: the partition's tile grid, rows × 1, is the launch grid.
  ct::launch(examples::row_softmax<ct::bf16, TILE_N>, y.partition({1, TILE_N}), x).sync();
  // The output is rounded to bf16 (8 significant bits): about 2^-9 relative error per element.
  return examples::check("row_softmax bf16 " + std::to_string(rows) + "x" + std::to_string(cols),
                         examples::to_double(y), examples::softmax_rows(examples::to_double(x), rows, cols),
                         1e-2);
}

int run(int, char**) {
  const ct::Device device = examples::pick_device();
  const int64_t rows = device.is_cpu() ? 64 : 4096;
  bool ok = softmax_and_check<4096>(device, rows, 4096);
  ok &= softmax_and_check<1024>(device, rows, 1000);
  return examples::finish(device, ok);
}

}  // namespace

int main(int argc, char** argv) {
  return program::run_guarded(run, argc, argv);
}
