// Rung 04 of the ladder: loops, branches and carried state.
//   RMS norm of f16 rows whose lengths come from a tensor (some rows empty, some full)
#include <cmath>
#include <random>

#include "04_loops_and_branches/varlen_rms_norm.hpp"
#include "ladder.hpp"
#include "program_main.hpp"

namespace {

namespace ct = cutile;

std::vector<double> varlen_rms_norm(const std::vector<double>& x, const std::vector<int32_t>& lengths,
                                    int64_t cols, double eps) {
  std::vector<double> y(x.size(), 0.0);
  for (size_t r = 0; r < lengths.size(); ++r) {
    const double* in = &x[r * static_cast<size_t>(cols)];
    const int32_t n = lengths[r];
    double squares = 0;
    for (int32_t c = 0; c < n; ++c) squares += in[c] * in[c];
    for (int32_t c = 0; c < n; ++c)
      y[r * static_cast<size_t>(cols) + c] = in[c] / std::sqrt(squares / n + eps);
  }
  return y;
}

int run(int, char**) {
  const ct::Device device = examples::pick_device();
  const int64_t rows = device.is_cpu() ? 50 : 4000, cols = 3000;
  const double eps = 1e-6;
  std::mt19937 rng(6);
  std::vector<int32_t> lengths(static_cast<size_t>(rows));
  for (int32_t& n : lengths) n = std::uniform_int_distribution<int32_t>(0, cols)(rng);
  lengths[0] = 0;  // the branch's other side
  lengths[1] = static_cast<int32_t>(cols);

  auto x = ct::randn<ct::f16>({rows, cols}, device, 7);
  auto n = ct::from_host<int32_t>(lengths, {rows}, device);
  auto y = ct::empty<ct::f16>({rows, cols}, device);
  ct::launch(examples::varlen_rms_norm<ct::f16, 4096, 512>, y.partition({1, 4096}), x, n, eps).sync();
  // f32 arithmetic, an f16 result: the output's rounding (2^-11 relative) bounds the error.
  const bool ok = examples::check("varlen_rms_norm f16 " + std::to_string(rows) + "x" + std::to_string(cols),
                                  examples::to_double(y),
                                  varlen_rms_norm(examples::to_double(x), lengths, cols, eps), 2e-3);
  return examples::finish(device, ok);
}

}  // namespace

int main(int argc, char** argv) {
  return program::run_guarded(run, argc, argv);
}
