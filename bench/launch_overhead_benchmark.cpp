// Host cost of launching a cached kernel (vector add, f32, 4096 elements): through the C ABI
// (cutile_cpp_vector_add, as C, Python and TileGym call it) and through cutile::launch directly, against
// the floor the driver sets — cuLaunchKernel alone on the same cubin, and with an event recorded after it
// (what a launch's completion costs once something waits for it: cutile defers the record until then) —
// and the cost of the calls that make a context current. Google Benchmark reports the wall time per
// launch; the stream is drained every kBatch launches outside the timing, so the launch queue never fills
// and the time measured is the host's. Needs a GPU.
//   cutile-bench-launch-overhead --benchmark_format=json --benchmark_out=FILE
#include <benchmark/benchmark.h>

#include <cstring>
#include <optional>

#include "cutile/host/launch.hpp"
#include "cutile/runtime/driver_api.hpp"
#include "cutile/runtime/module.hpp"
#include "cutile_cpp/kernels.h"
#include "elementwise/vector_add.hpp"

namespace {

namespace ct = cutile;

constexpr int64_t kElements = 4096;
constexpr int kBatch = 256;

struct Fixture {
  ct::Device gpu{0};
  ct::Stream stream{gpu};
  ct::Tensor<float> a = ct::randn<float>({kElements}, gpu, 1), b = ct::randn<float>({kElements}, gpu, 2);
  ct::Tensor<float> c = ct::empty<float>({kElements}, gpu);
};

// The fixture, or the reason there is none (no driver, no GPU).
std::optional<Fixture>& fixture(std::string& why) {
  static std::string reason;
  static std::optional<Fixture> f = [&]() -> std::optional<Fixture> {
    try {
      return std::optional<Fixture>(std::in_place);
    } catch (const ct::Error& e) {
      reason = e.what();
      return std::nullopt;
    }
  }();
  why = reason;
  return f;
}

cutile_cpp_tensor descriptor(const ct::AnyTensor& t) {
  cutile_cpp_tensor d;
  std::memset(&d, 0, sizeof d);
  d.data = t.data();
  d.ndim = t.rank();
  for (int i = 0; i < t.rank(); ++i) {
    d.shape[i] = t.shape()[i];
    d.strides[i] = t.strides()[i];
  }
  d.dtype = CUTILE_CPP_F32;
  d.device_type = CUTILE_CPP_DEVICE_CUDA;
  d.device_id = t.device().index();
  return d;
}

template <class Launch>
void run_launches(benchmark::State& state, const ct::Stream& stream, Launch launch_one) {
  launch_one();  // the first launch traces, compiles (or reads the cache) and loads the kernel
  stream.synchronize();
  int in_batch = 0;
  for (auto _ : state) {
    launch_one();
    if (++in_batch == kBatch) {
      state.PauseTiming();
      stream.synchronize();
      in_batch = 0;
      state.ResumeTiming();
    }
  }
  stream.synchronize();
}

void capi_vector_add(benchmark::State& state) {
  std::string why;
  auto& f = fixture(why);
  if (!f) return state.SkipWithError(why.c_str());
  const cutile_cpp_tensor a = descriptor(f->a), b = descriptor(f->b), c = descriptor(f->c);
  bool failed = false;
  run_launches(state, f->stream, [&] {
    failed |= cutile_cpp_vector_add(&c, &a, &b, 0, f->stream.native_handle()) != CUTILE_CPP_OK;
  });
  if (failed) state.SkipWithError(cutile_cpp_last_error());
}

void cpp_launch_vector_add(benchmark::State& state) {
  std::string why;
  auto& f = fixture(why);
  if (!f) return state.SkipWithError(why.c_str());
  ct::LaunchOptions options;
  options.stream = f->stream;
  run_launches(state, f->stream, [&] {
    ct::launch(options, ct::kernels::vector_add<float, 1024>, f->c.partition({1024}), f->a, f->b);
  });
}

// The same cubin launched with the driver API only: what any launcher pays.
template <bool RECORD_EVENT>
void driver_launch_vector_add(benchmark::State& state) {
  std::string why;
  auto& f = fixture(why);
  if (!f) return state.SkipWithError(why.c_str());
  const ct::CompiledKernel compiled =
      ct::compile_only(f->gpu.arch(), {}, ct::kernels::vector_add<float, 1024>, f->c.partition({1024}), f->a, f->b);
  f->gpu.make_current();
  const ct::runtime::LoadedModule module(compiled.cubin);
  const ct::runtime::KernelFunction function = module.function(compiled.name);
  // Per tensor: base pointer, extent, stride (the kernel's parameters for rank-1 tensors).
  uint64_t slots[9] = {f->c.address(), kElements, 1, f->a.address(), kElements, 1, f->b.address(), kElements, 1};
  void* params[9];
  for (int i = 0; i < 9; ++i) params[i] = &slots[i];
  const ct::runtime::DriverApi& api = ct::runtime::driver_api();
  run_launches(state, f->stream, [&] {
    api.cuLaunchKernel(function.handle, kElements / 1024, 1, 1, 1, 1, 1, 0, f->stream.handle(), params, nullptr);
    if constexpr (RECORD_EVENT) benchmark::DoNotOptimize(ct::Completion::record(f->stream));
  });
}

// What asking for the current context costs against setting it (Device::make_current asks first).
template <bool SET>
void driver_current_context(benchmark::State& state) {
  std::string why;
  auto& f = fixture(why);
  if (!f) return state.SkipWithError(why.c_str());
  f->gpu.make_current();
  const ct::runtime::DriverApi& api = ct::runtime::driver_api();
  ct::runtime::CUcontext context = nullptr;
  api.cuCtxGetCurrent(&context);
  for (auto _ : state) {
    if constexpr (SET)
      api.cuCtxSetCurrent(context);
    else
      api.cuCtxGetCurrent(&context);
    benchmark::DoNotOptimize(context);
  }
}

BENCHMARK(driver_current_context<false>)->Name("driver_ctx_get_current")->Unit(benchmark::kMicrosecond)
    ->MinTime(0.5)->Repetitions(5)->ReportAggregatesOnly(true);
BENCHMARK(driver_current_context<true>)->Name("driver_ctx_set_current")->Unit(benchmark::kMicrosecond)
    ->MinTime(0.5)->Repetitions(5)->ReportAggregatesOnly(true);
BENCHMARK(driver_launch_vector_add<false>)->Name("driver_launch_vector_add")->Unit(benchmark::kMicrosecond)
    ->MinTime(2.0)->Repetitions(5)->ReportAggregatesOnly(true);
BENCHMARK(driver_launch_vector_add<true>)->Name("driver_launch_and_event_vector_add")->Unit(benchmark::kMicrosecond)
    ->MinTime(2.0)->Repetitions(5)->ReportAggregatesOnly(true);
BENCHMARK(capi_vector_add)->Unit(benchmark::kMicrosecond)->MinTime(2.0)->Repetitions(5)->ReportAggregatesOnly(true);
BENCHMARK(cpp_launch_vector_add)->Unit(benchmark::kMicrosecond)->MinTime(2.0)->Repetitions(5)->ReportAggregatesOnly(true);

}  // namespace

BENCHMARK_MAIN();
