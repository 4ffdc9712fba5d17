// Rung 08 of the ladder: flash attention, forward.
//   bf16 attention over all keys and f16 causal attention, sequences not a multiple of the tiles
#include <cmath>

#include "08_flash_attention/flash_attention.hpp"
#include "ladder.hpp"
#include "program_main.hpp"

namespace {

namespace ct = cutile;

// softmax(scale · q kᵀ [causal mask]) v per head; q, k, v: (heads, s, d).
std::vector<double> attention(const std::vector<double>& q, const std::vector<double>& k,
                              const std::vector<double>& v, int64_t heads, int64_t s, int64_t d, double scale,
                              bool causal) {
  std::vector<double> o(q.size(), 0.0), p(static_cast<size_t>(s));
  auto at = [&](int64_t h, int64_t row) { return static_cast<size_t>((h * s + row) * d); };
  for (int64_t h = 0; h < heads; ++h)
    for (int64_t i = 0; i < s; ++i) {
      double m = -INFINITY, sum = 0;
      for (int64_t j = 0; j < s; ++j) {
        double dot = 0;
        for (int64_t e = 0; e < d; ++e) dot += q[at(h, i) + e] * k[at(h, j) + e];
        p[j] = causal && j > i ? -INFINITY : dot * scale;
        m = std::max(m, p[j]);
      }
      for (double& w : p) sum += (w = std::exp(w - m));
      for (int64_t j = 0; j < s; ++j)
        for (int64_t e = 0; e < d; ++e) o[at(h, i) + e] += p[j] / sum * v[at(h, j) + e];
    }
  return o;
}

template <ct::Element T, bool CAUSAL>
bool attend_and_check(const ct::Device& device, int64_t heads, int64_t s, double tolerance) {
  constexpr int64_t D = 64;
  auto q = ct::randn<T>({heads, s, D}, device, 12), k = ct::randn<T>({heads, s, D}, device, 13);
  auto v = ct::randn<T>({heads, s, D}, device, 14);
  auto o = ct::empty<T>({heads, s, D}, device);
  const double scale = 1.0 / std::sqrt(static_cast<double>(D));
  ct::launch(examples::flash_attention<T, D, 64, 64, CAUSAL>, o.partition({1, 64, D}), q, k, v, scale).sync();
  const std::string what = "flash_attention " + std::string(ct::element_traits<T>::name) +
                           (CAUSAL ? " causal " : " ") + std::to_string(heads) + "x" + std::to_string(s) +
                           "x" + std::to_string(D);
  return examples::check(what, examples::to_double(o),
                         attention(examples::to_double(q), examples::to_double(k), examples::to_double(v),
                                   heads, s, D, scale, CAUSAL),
                         tolerance);
}

int run(int, char**) {
  const ct::Device device = examples::pick_device();
  const int64_t heads = device.is_cpu() ? 2 : 16, s = device.is_cpu() ? 130 : 1000;
  // The output's rounding (bf16 2^-9, f16 2^-11 relative) and the probabilities' rounding to T before
  // the second mma bound the error.
  bool ok = attend_and_check<ct::bf16, false>(device, heads, s, 1e-2);
  ok &= attend_and_check<ct::f16, true>(device, heads, s, 2e-3);
  return examples::finish(device, ok);
}

}  // namespace

int main(int argc, char** argv) {
  return program::run_guarded(run, argc, argv);
}
