// Rung 07 of the ladder: a persistent grouped GEMM over lists of tensors.
//   three f16 GEMMs of different shapes, one launch
#include "07_grouped_gemm/grouped_gemm.hpp"
#include "ladder.hpp"
#include "program_main.hpp"

namespace {

namespace ct = cutile;

struct Problem {
  int64_t m, n, k;
};

int run(int, char**) {
  const ct::Device device = examples::pick_device();
  const std::vector<Problem> problems =
      device.is_cpu() ? std::vector<Problem>{{130, 200, 64}, {64, 64, 96}, {1, 300, 40}}
                      : std::vector<Problem>{{2048, 1024, 512}, {1000, 777, 300}, {1, 4096, 256}};
  std::vector<ct::Tensor<ct::f16>> a, b, c;
  for (size_t g = 0; g < problems.size(); ++g) {
    const auto [m, n, k] = problems[g];
    a.push_back(ct::randn<ct::f16>({m, k}, device, 20 + g));
    b.push_back(ct::randn<ct::f16>({k, n}, device, 30 + g));
    c.push_back(ct::empty<ct::f16>({m, n}, device));
  }
  // A list holds its members and a small tensor of their addresses, extents and strides.
  ct::TensorList<ct::f16> as(a), bs(b), cs(c);
  ct::launch(examples::grouped_gemm<ct::f16, 128, 128, 64>, cs.partition({128, 128}), as, bs).sync();

  bool ok = true;
  for (size_t g = 0; g < problems.size(); ++g) {
    const auto [m, n, k] = problems[g];
    // The output's rounding to f16 (2^-11 relative) bounds the error.
    ok &= examples::check("grouped_gemm f16 member " + std::to_string(g) + " " + std::to_string(m) + "x" +
                              std::to_string(n) + "x" + std::to_string(k),
                          examples::to_double(c[g]),
                          examples::matmul(examples::to_double(a[g]), examples::to_double(b[g]), m, n, k),
                          2e-3);
  }
  return examples::finish(device, ok);
}

}  // namespace

int main(int argc, char** argv) {
  return program::run_guarded(run, argc, argv);
}
