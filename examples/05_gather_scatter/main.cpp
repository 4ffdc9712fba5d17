// Rung 05 of the ladder: gathers and atomic scatters.
//   look up bf16 embedding rows for a ragged number of token ids, and count each id's occurrences
#include <random>

#include "05_gather_scatter/embedding_lookup.hpp"
#include "ladder.hpp"
#include "program_main.hpp"

namespace {

namespace ct = cutile;

int run(int, char**) {
  const ct::Device device = examples::pick_device();
  constexpr int64_t D = 128;
  const int64_t vocabulary = device.is_cpu() ? 300 : 50'000, tokens = device.is_cpu() ? 1001 : 100'003;
  std::mt19937 rng(8);
  std::vector<int32_t> ids(static_cast<size_t>(tokens));
  for (int32_t& id : ids)
    id = std::uniform_int_distribution<int32_t>(0, static_cast<int32_t>(vocabulary - 1))(rng);

  auto table = ct::randn<ct::bf16>({vocabulary, D}, device, 9);
  auto id_tensor = ct::from_host<int32_t>(ids, {tokens}, device);
  auto y = ct::empty<ct::bf16>({tokens, D}, device);
  auto counts = ct::zeros<int32_t>({vocabulary}, device);
  ct::launch(examples::embedding_lookup<ct::bf16, 128, D>, y.partition({128, D}), counts, table, id_tensor)
      .sync();

  const std::vector<double> rows = examples::to_double(table);
  std::vector<double> want_y, want_counts(static_cast<size_t>(vocabulary), 0.0);
  for (int32_t id : ids) {
    want_y.insert(want_y.end(), rows.begin() + id * D, rows.begin() + (id + 1) * D);
    want_counts[static_cast<size_t>(id)] += 1;
  }
  // Copies and integer counts: exact.
  bool ok = examples::check("embedding rows bf16 " + std::to_string(tokens) + "x" + std::to_string(D),
                            examples::to_double(y), want_y, 0);
  ok &= examples::check("id counts", examples::to_double(counts), want_counts, 0);
  return examples::finish(device, ok);
}

}  // namespace

int main(int argc, char** argv) {
  return program::run_guarded(run, argc, argv);
}
