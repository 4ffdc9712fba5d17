// On the GPU: device time of the group GEMM (kernels/gemm/group_gemm.hpp) at TileGym's benchmark
// configurations — groups of 4 and 16 f16 matrices with M = N = K of 1024, 2048 and 4096 — for each of the
// two tile candidates TileGym's autotuner chooses between on sm_90: (128, 128, 128) with one CTA per
// block, and (256, 256, 64) with two. The grid is TileGym's: SMs / num_ctas · occupancy blocks. Prints one
// JSON object; bench/group_gemm_reference.py times TileGym's cuTile Python kernel and PyTorch the same way.
//
// Device time: CUDA events around each launch, after warm-up, with the L2 cache flushed (a 256 MiB
// memset) before every timed launch; the median of the runs is reported.
//   usage: cutile-bench-group-gemm               time every configuration
//          cutile-bench-group-gemm --compile-only GPU   fill the cubin cache for GPU (e.g. sm_90), no GPU needed
#include <algorithm>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "cutile/host/launch.hpp"
#include "cutile/runtime/event_timer.hpp"
#include "gemm/group_gemm.hpp"
#include "program_main.hpp"

namespace {

namespace ct = cutile;
namespace lib = cutile::kernels;

struct Config {
  int64_t groups, size;
};
// The SMs of the H200 the cubins are compiled for ahead of time (--compile-only has no device to ask).
constexpr int kH200Sms = 132;
const std::vector<Config> kConfigs = {{4, 1024}, {16, 1024}, {4, 2048}, {16, 2048}, {4, 4096}, {16, 4096}};

// The three lists of one configuration: random A and B, uninitialised C (meta tensors for --compile-only).
struct Lists {
  ct::TensorList<ct::f16> as, bs, cs;
};
Lists make_lists(const ct::Device& gpu, const ct::Stream& stream, const Config& c, bool compile_only) {
  auto make = [&](auto make_member) {
    std::vector<ct::Tensor<ct::f16>> list;
    for (int64_t g = 0; g < c.groups; ++g) list.push_back(make_member(static_cast<uint64_t>(g)));
    return ct::TensorList<ct::f16>(std::move(list), stream);
  };
  auto random = [&](uint64_t seed) {
    return compile_only ? ct::Tensor<ct::f16>::meta({c.size, c.size}) : ct::randn<ct::f16>({c.size, c.size}, gpu, seed);
  };
  auto uninitialised = [&](uint64_t) {
    return compile_only ? ct::Tensor<ct::f16>::meta({c.size, c.size}) : ct::empty<ct::f16>({c.size, c.size}, gpu);
  };
  return {make([&](uint64_t g) { return random(1 + g); }), make([&](uint64_t g) { return random(100 + g); }),
          make(uninitialised)};
}

template <int64_t BM, int64_t BN, int64_t BK, int NUM_CTAS>
double time_candidate(const ct::Device& gpu, const ct::Stream& stream, const Lists& lists, ct::Tensor<int8_t>& flush,
                      bool compile_only, const std::string& target) {
  ct::LaunchOptions options;
  options.hints.num_ctas = NUM_CTAS;
  options.hints.occupancy = 1;
  options.grid = std::array<int64_t, 3>{(compile_only ? kH200Sms : gpu.sm_count()) / NUM_CTAS, 1, 1};
  constexpr auto kernel = lib::group_gemm<ct::f16, BM, BN, BK, false>;
  if (compile_only) {
    ct::compile_only(target, options, kernel, lists.cs.partition({BM, BN}), lists.as, lists.bs);
    return 0;
  }
  options.stream = stream;
  auto once = [&] { ct::launch(options, kernel, lists.cs.partition({BM, BN}), lists.as, lists.bs); };
  for (int i = 0; i < 5; ++i) once();
  return cutile::runtime::median(cutile::runtime::times_ms_after_flush(stream, flush, 30, once));
}

int run(int argc, char** argv) {
  const bool compile_only = argc > 2 && std::string(argv[1]) == "--compile-only";
  const std::string target = compile_only ? argv[2] : "";
  std::optional<ct::Device> gpu;
  std::optional<ct::Stream> stream;
  ct::Tensor<int8_t> flush = ct::Tensor<int8_t>::meta({1});
  if (!compile_only) {
    gpu.emplace(0);
    stream.emplace(*gpu);
    flush = ct::empty<int8_t>({256 << 20}, *gpu);
  }
  const ct::Device& device = compile_only ? ct::Device::cpu() : *gpu;
  const ct::Stream& on = compile_only ? ct::Stream::default_stream(device) : *stream;
  std::printf("{\"gpu\": \"%s\", \"kernel\": \"group_gemm<f16>\", \"protocol\": \"CUDA events, L2 flushed, median of 30 "
              "after 5 warm-up launches\", \"configs\": [",
              compile_only ? target.c_str() : gpu->name().c_str());
  for (size_t i = 0; i < kConfigs.size(); ++i) {
    const Config& c = kConfigs[i];
    const Lists lists = make_lists(device, on, c, compile_only);
    const double small = time_candidate<128, 128, 128, 1>(device, on, lists, flush, compile_only, target);
    const double large = time_candidate<256, 256, 64, 2>(device, on, lists, flush, compile_only, target);
    const double flops = 2.0 * static_cast<double>(c.groups) * static_cast<double>(c.size * c.size * c.size);
    std::printf("%s{\"groups\": %lld, \"M\": %lld, \"N\": %lld, \"K\": %lld, \"device_ms_median\": "
                "{\"128x128x128_ctas1\": %.5f, \"256x256x64_ctas2\": %.5f}, \"tflops_best\": %.1f}",
                i ? ", " : "", static_cast<long long>(c.groups), static_cast<long long>(c.size),
                static_cast<long long>(c.size), static_cast<long long>(c.size), small, large,
                compile_only ? 0.0 : flops / (std::min(small, large) * 1e-3) / 1e12);
    std::fflush(stdout);
  }
  std::printf("]}\n");
  return 0;
}

}  // namespace

int main(int argc, char** argv) { return program::run_guarded(run, argc, argv); }
