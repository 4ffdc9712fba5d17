// On the GPU: device time of the DSL row softmax (bf16, 4096 x 4096 by default) through cutile::launch,
// and the host cost of launching a cached kernel. Prints one JSON object; bench/torch_softmax.py times
// torch.softmax the same way and bench/run_softmax_benchmark.sh puts the two side by side.
//
// Device time: CUDA events around each launch, after warm-up, with the L2 cache flushed (a 256 MiB
// memset) before every timed launch; the median of the runs is reported.
// Launch overhead: wall time of many back-to-back launches of a cached kernel, divided by their number.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "01_vector_add/vector_add.hpp"
#include "02_row_softmax/row_softmax.hpp"
#include "cutile/host/launch.hpp"
#include "cutile/runtime/event_timer.hpp"
#include "program_main.hpp"
#include "softmax_variants.hpp"

namespace {

namespace ct = cutile;
int run(int argc, char** argv) {
  const int64_t rows = argc > 1 ? std::stoll(argv[1]) : 4096, cols = argc > 2 ? std::stoll(argv[2]) : 4096;
  const int runs = 100;
  ct::Device gpu(0);
  ct::Stream stream(gpu);
  auto x = ct::randn<ct::bf16>({rows, cols}, gpu, 7);
  auto y = ct::empty<ct::bf16>({rows, cols}, gpu);
  auto flush = ct::empty<int8_t>({256 << 20}, gpu);
  ct::LaunchOptions options;
  options.stream = stream;

  const auto first_start = std::chrono::steady_clock::now();
  auto launch_softmax = [&] {
    return ct::launch(options, examples::row_softmax<ct::bf16, 4096>, y.partition({1, 4096}), x);
  };
  launch_softmax().sync();
  const double first_call_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - first_start).count();
  for (int i = 0; i < 10; ++i) launch_softmax();
  const std::vector<double> device_ms = cutile::runtime::times_ms_after_flush(stream, flush, runs, launch_softmax);
  const double softmax_ms = cutile::runtime::median(device_ms);
  const double bytes = 2.0 * static_cast<double>(rows * cols) * sizeof(ct::bf16);

  // Variants of the kernel, same protocol.
  auto time_variant = [&](auto launch_one) {
    for (int i = 0; i < 10; ++i) launch_one();
    return cutile::runtime::median(cutile::runtime::times_ms_after_flush(stream, flush, runs, launch_one));
  };
  const double reciprocal_ms = time_variant([&] {
    ct::launch(options, bench::row_softmax_reciprocal<ct::bf16, 1, 4096, ct::FloatMode{}>, y.partition({1, 4096}), x);
  });
  const double approx_ms = time_variant([&] {
    ct::launch(options, bench::row_softmax_reciprocal<ct::bf16, 1, 4096, ct::approx>, y.partition({1, 4096}), x);
  });
  auto rows_ms = [&]<int64_t ROWS>(std::integral_constant<int64_t, ROWS>) {
    return time_variant([&] {
      ct::launch(options, bench::row_softmax_reciprocal<ct::bf16, ROWS, 4096, ct::approx>,
                 y.partition({ROWS, 4096}), x);
    });
  };
  const double rows2_ms = rows_ms(std::integral_constant<int64_t, 2>{});
  const double rows4_ms = rows_ms(std::integral_constant<int64_t, 4>{});
  const double rows8_ms = rows_ms(std::integral_constant<int64_t, 8>{});
  const double rows16_ms = rows_ms(std::integral_constant<int64_t, 16>{});

  // Host launch overhead of a cached kernel: a small vector add, enqueued back to back.
  auto a = ct::randn<float>({4096}, gpu, 1), b = ct::randn<float>({4096}, gpu, 2);
  auto c = ct::empty<float>({4096}, gpu);
  auto launch_add = [&] { return ct::launch(options, examples::vector_add<float, 1024>, c.partition({1024}), a, b); };
  launch_add().sync();
  const int launches = 20000;
  std::vector<double> per_launch_us;
  for (int rep = 0; rep < 5; ++rep) {
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < launches; ++i) launch_add();
    const auto t1 = std::chrono::steady_clock::now();
    stream.synchronize();
    per_launch_us.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count() / launches);
  }
  std::printf(
      "{\"gpu\": \"%s\", \"kernel\": \"row_softmax<bf16, 4096>\", \"shape\": [%lld, %lld], \"runs\": %d, "
      "\"device_ms_median\": %.5f, \"device_ms_min\": %.5f, \"achieved_GBps\": %.1f, \"first_call_ms\": %.2f, "
      "\"host_launch_us_median\": %.3f, \"variants_device_ms_median\": {\"reciprocal\": %.5f, "
      "\"reciprocal_approx_exp\": %.5f, \"reciprocal_approx_exp_2_rows\": %.5f, \"reciprocal_approx_exp_4_rows\": %.5f, "
      "\"reciprocal_approx_exp_8_rows\": %.5f, \"reciprocal_approx_exp_16_rows\": %.5f}}\n",
      gpu.name().c_str(), static_cast<long long>(rows), static_cast<long long>(cols), runs, softmax_ms,
      *std::min_element(device_ms.begin(), device_ms.end()), bytes / (softmax_ms * 1e-3) / 1e9, first_call_ms,
      cutile::runtime::median(per_launch_us), reciprocal_ms, approx_ms, rows2_ms, rows4_ms, rows8_ms, rows16_ms);
  return 0;
}

}  // namespace

int main(int argc, char** argv) { return program::run_guarded(run, argc, argv); }
