// Rung 01 of the ladder: a first kernel, launched and checked.
//   c = a + b over a ragged length (not a multiple of the tile), in f32 and bf16
// Tensors live on a device (a GPU or the CPU); launch() checks the arguments against the kernel's
// signature, traces and compiles the kernel (cached per specialisation) and enqueues it.
#include "01_vector_add/vector_add.hpp"
#include "ladder.hpp"
#include "program_main.hpp"

namespace {

namespace ct = cutile;

template <ct::Element E>
bool add_and_check(const ct::Device& device, int64_t n, double tolerance) {
  // Seeded: the same numbers on every device.
  auto a = ct::randn<E>({n}, device, 1), b = ct::randn<E>({n}, device, 2);
  auto c = ct::empty<E>({n}, device);
  // c.partition({1024}) cuts c into tiles of 1024 elements, one per block: the grid is its tile count.
  ct::launch(examples::vector_add<E, 1024>, c.partition({1024}), a, b).sync();

  const std::vector<double> ha = examples::to_double(a), hb = examples::to_double(b);
  std::vector<double> ref(ha.size());
  for (size_t i = 0; i < ref.size(); ++i) ref[i] = ha[i] + hb[i];
  return examples::check("vector_add " + std::string(ct::element_traits<E>::name) + " n=" + std::to_string(n),
                         examples::to_double(c), ref, tolerance);
}

int run(int, char**) {
  const ct::Device device = examples::pick_device();
  const int64_t n = device.is_cpu() ? 100'003 : 10'000'019;
  bool ok = add_and_check<float>(device, n, 1e-6);
  // bf16 keeps 8 significant bits: the sum rounded to bf16 is within 2^-9 of the exact one.
  ok &= add_and_check<ct::bf16>(device, n, 4e-3);
  return examples::finish(device, ok);
}

}  // namespace

int main(int argc, char** argv) {
  return program::run_guarded(run, argc, argv);
}
