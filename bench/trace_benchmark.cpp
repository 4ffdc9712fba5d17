// Front-end cost per kernel: trace the body, verify the module, write its bytecode. This is what a
// launch pays on the first call of a specialisation before tileiras runs (tileiras and the disk
// cache are timed separately). Target: ≤ 20 ms per kernel.
#include <benchmark/benchmark.h>

#include "cutile/bytecode/writer.hpp"
#include "cutile/ir/verifier.hpp"
#include "support/dsl_kernels.hpp"

namespace {

void trace_verify_write(benchmark::State& state, const cutile::test_support::TracedKernel& kernel) {
  size_t bytes = 0;
  for (auto _ : state) {
    std::unique_ptr<cutile::ir::Module> module = kernel.trace();
    cutile::ir::verify_module(*module);
    bytes = cutile::bytecode::write_bytecode(*module).size();
    benchmark::DoNotOptimize(bytes);
  }
  state.counters["bytecode_bytes"] = static_cast<double>(bytes);
}

const int registered = [] {
  for (const cutile::test_support::TracedKernel& kernel : cutile::test_support::dsl_kernels())
    benchmark::RegisterBenchmark(("trace+verify+bytecode/" + kernel.name).c_str(), trace_verify_write, kernel)
        ->Unit(benchmark::kMicrosecond);
  return 0;
}();

}  // namespace

BENCHMARK_MAIN();
