// Rung 10 of the ladder: compiling ahead of time, without a GPU.
//   compile_only() specialises, traces and compiles a kernel for a named GPU as launch() would, from
//   meta tensors (shapes without memory), and fills the cubin cache. A cache filled so on a machine
//   without a GPU serves a GPU machine without tileiras: copy the directory there and point
//   CUTILE_CACHE_DIR at it. A specialisation depends on the arguments' facts (unit strides, 16-byte
//   divisible extents and strides, ...), so the meta tensors must have the shapes the launch will use.
//
//   10_ahead_of_time [sm_XX ...]
// Compiles rung 02's softmax for each GPU named (default: this machine's GPU, or sm_90 without one) at
// the GPU's problem size and says where the cubins went; then launches it on the GPU, which finds its
// cubin in the cache, or runs it on the interpreter at a smaller size, and checks it.
#include "02_row_softmax/row_softmax.hpp"
#include "ladder.hpp"
#include "program_main.hpp"

namespace {

namespace ct = cutile;

constexpr auto kernel = examples::row_softmax<ct::bf16, 1024>;
constexpr int64_t kRows = 8192, kCols = 1000;  // the size the GPU runs

int run(int argc, char** argv) {
  const ct::Device device = examples::pick_device();
  std::vector<std::string> gpus(argv + 1, argv + argc);
  if (gpus.empty()) gpus.push_back(device.is_cpu() ? "sm_90" : device.arch());

  auto y = ct::Tensor<ct::bf16>::meta({kRows, kCols});
  for (const std::string& gpu : gpus) {
    const ct::CompiledKernel k =
        ct::compile_only(gpu, {}, kernel, y.partition({1, 1024}), ct::Tensor<ct::bf16>::meta({kRows, kCols}));
    std::printf("%s for %s: cache key %.16s…, %s\n", k.name.c_str(), gpu.c_str(), k.cache_key.c_str(),
                k.compile_seconds > 0 ? ("compiled by tileiras in " +
                                         std::to_string(std::lround(k.compile_seconds * 1e3)) + " ms")
                                            .c_str()
                                      : "found in the cache");
  }
  const ct::compile::CacheConfig& cache = ct::compile::CubinCache::global().config();
  std::printf("cubins: %s\n", cache.disk_enabled
                                  ? ("in " + cache.dir.string()).c_str()
                                  : "in memory only (CUTILE_CACHE=off): nothing is left for another machine");

  const int64_t rows = device.is_cpu() ? 64 : kRows;
  auto x = ct::randn<ct::bf16>({rows, kCols}, device, 15);
  auto out = ct::empty<ct::bf16>({rows, kCols}, device);
  ct::launch(kernel, out.partition({1, 1024}), x).sync();
  const bool ok = examples::check("row_softmax bf16 " + std::to_string(rows) + "x" + std::to_string(kCols),
                                  examples::to_double(out),
                                  examples::softmax_rows(examples::to_double(x), rows, kCols), 1e-2);
  return ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  return program::run_guarded(run, argc, argv);
}
