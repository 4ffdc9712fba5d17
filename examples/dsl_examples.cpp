// Runs the DSL example kernels (kernels/*.hpp) through cutile::launch on the GPU and checks them against
// a float64 CPU reference; without a GPU, compiles them ahead of time for sm_90 (cutile::compile_only on
// meta tensors), which fills the cubin cache that a GPU machine without tileiras can use.
//
//   cutile-dsl-examples [--gpu sm_XX] [--aot DIR]
// --gpu: the AOT target when there is no GPU (default sm_90). --aot DIR: also write each AOT cubin and a
// manifest.json (kernel, element type, shape) to DIR, for scripts/gpu_check.py to run against PyTorch.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "cutile/launch.hpp"
#include "cutile/runtime/driver_api.hpp"
#include "kernels/row_softmax.hpp"
#include "kernels/vector_add.hpp"
#include "program_main.hpp"

namespace {

namespace ct = cutile;

template <ct::Element E>
double relative_error(const std::vector<E>& out, const std::vector<double>& ref) {
  double num = 0, den = 0;
  for (size_t i = 0; i < ref.size(); ++i) {
    const double v = ct::from_element(out[i]);
    if (!std::isfinite(v)) return INFINITY;
    num += (v - ref[i]) * (v - ref[i]);
    den += ref[i] * ref[i];
  }
  return std::sqrt(num / std::max(den, 1e-300));
}

template <ct::Element E>
double run_vector_add(const ct::Device& gpu, int64_t n) {
  auto a = ct::randn<E>({n}, gpu, 1), b = ct::randn<E>({n}, gpu, 2);
  auto c = ct::empty<E>({n}, gpu);
  ct::launch(examples::vector_add<E, 1024>, c.partition({1024}), a, b).sync();
  const std::vector<E> ha = a.to_host(), hb = b.to_host();
  std::vector<double> ref(static_cast<size_t>(n));
  for (size_t i = 0; i < ref.size(); ++i) ref[i] = ct::from_element(ha[i]) + ct::from_element(hb[i]);
  return relative_error(c.to_host(), ref);
}

template <ct::Element E, int64_t TILE_N>
double run_row_softmax(const ct::Device& gpu, int64_t rows, int64_t cols) {
  auto x = ct::randn<E>({rows, cols}, gpu, 3);
  auto y = ct::empty<E>({rows, cols}, gpu);
  ct::launch(examples::row_softmax<E, TILE_N>, y.partition({1, TILE_N}), x).sync();
  const std::vector<E> hx = x.to_host();
  std::vector<double> ref(hx.size());
  for (int64_t r = 0; r < rows; ++r) {
    const auto row = [&](int64_t c) { return ct::from_element(hx[static_cast<size_t>(r * cols + c)]); };
    double m = -INFINITY, s = 0;
    for (int64_t c = 0; c < cols; ++c) m = std::max(m, row(c));
    for (int64_t c = 0; c < cols; ++c) s += std::exp(row(c) - m);
    for (int64_t c = 0; c < cols; ++c) ref[static_cast<size_t>(r * cols + c)] = std::exp(row(c) - m) / s;
  }
  return relative_error(y.to_host(), ref);
}

// Ahead-of-time compilation specialises on the same facts as the launches above (extents, strides,
// alignment), so a GPU machine without tileiras finds exactly these cubins in the cache.
template <ct::Element E>
ct::CompiledKernel aot_vector_add(const std::string& gpu, int64_t n) {
  auto c = ct::Tensor<E>::meta({n});
  return ct::compile_only(gpu, {}, examples::vector_add<E, 1024>, c.partition({1024}), ct::Tensor<E>::meta({n}),
                          ct::Tensor<E>::meta({n}));
}

template <ct::Element E, int64_t TILE_N>
ct::CompiledKernel aot_row_softmax(const std::string& gpu, int64_t rows, int64_t cols) {
  auto y = ct::Tensor<E>::meta({rows, cols});
  return ct::compile_only(gpu, {}, examples::row_softmax<E, TILE_N>, y.partition({1, TILE_N}),
                          ct::Tensor<E>::meta({rows, cols}));
}

struct Case {
  std::string kernel;  // entry name
  std::string element;
  std::vector<int64_t> shape;
  std::string name;
  double tolerance;
  std::function<double(const ct::Device&)> run;
  std::function<ct::CompiledKernel(const std::string&)> aot;
};

template <ct::Element E>
void add_cases(std::vector<Case>& cases, double tolerance) {
  const std::string t(ct::element_traits<E>::name);
  cases.push_back({"vector_add", t, {1'000'003}, "vector_add " + t + " n=1000003", tolerance, [](auto& g) { return run_vector_add<E>(g, 1'000'003); },
                   [](auto& gpu) { return aot_vector_add<E>(gpu, 1'000'003); }});
  cases.push_back({"row_softmax", t, {4096, 4096}, "row_softmax " + t + " 4096x4096", tolerance,
                   [](auto& g) { return run_row_softmax<E, 4096>(g, 4096, 4096); },
                   [](auto& gpu) { return aot_row_softmax<E, 4096>(gpu, 4096, 4096); }});
  cases.push_back({"row_softmax", t, {1024, 1000}, "row_softmax " + t + " 1024x1000", tolerance,
                   [](auto& g) { return run_row_softmax<E, 1024>(g, 1024, 1000); },
                   [](auto& gpu) { return aot_row_softmax<E, 1024>(gpu, 1024, 1000); }});
  cases.push_back({"row_softmax", t, {37, 4096}, "row_softmax " + t + " 37x4096", tolerance,
                   [](auto& g) { return run_row_softmax<E, 4096>(g, 37, 4096); },
                   [](auto& gpu) { return aot_row_softmax<E, 4096>(gpu, 37, 4096); }});
}

int run(int argc, char** argv) {
  std::string aot_gpu = "sm_90";
  std::filesystem::path aot_dir;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--gpu" && i + 1 < argc) aot_gpu = argv[++i];
    else if (arg == "--aot" && i + 1 < argc) aot_dir = argv[++i];
    else throw ct::UserError("unknown argument '" + arg + "'; usage: cutile-dsl-examples [--gpu sm_XX] [--aot DIR]");
  }
  std::vector<Case> cases;
  add_cases<float>(cases, 1e-5);
  add_cases<ct::f16>(cases, 2e-3);  // the output's own rounding: half an ulp of f16 is 2^-11
  add_cases<ct::bf16>(cases, 1e-2);
  std::string no_gpu;
  const bool have_gpu = ct::runtime::driver_available(&no_gpu) && ct::runtime::device_count() > 0;
  int failed = 0;
  if (have_gpu && aot_dir.empty()) {
    ct::Device gpu(0);
    std::printf("DSL examples on %s (%s), checked against float64\n\n%-28s %12s  %s\n", gpu.name().c_str(),
                gpu.arch().c_str(), "kernel", "rel. error", "result");
    for (const Case& c : cases) {
      const double error = c.run(gpu);
      const bool ok = error <= c.tolerance;
      failed += !ok;
      std::printf("%-28s %12.2e  %s\n", c.name.c_str(), error, ok ? "ok" : "FAIL");
    }
    std::printf("\n%zu passed, %d failed\n", cases.size() - failed, failed);
  } else {
    if (!have_gpu) std::printf("no GPU (%s)\n", no_gpu.c_str());
    std::printf("compiling the DSL examples ahead of time for %s\n\n%-28s %-14s %9s %9s  %s\n", aot_gpu.c_str(),
                "kernel", "entry", "trace ms", "tileiras", "cache key");
    std::string manifest;
    for (const Case& c : cases) {
      const ct::CompiledKernel k = c.aot(aot_gpu);
      std::printf("%-28s %-14s %9.2f %7.0f ms  %.16s…\n", c.name.c_str(), k.name.c_str(), k.trace_seconds * 1e3,
                  k.compile_seconds * 1e3, k.cache_key.c_str());
      if (aot_dir.empty()) continue;
      std::filesystem::create_directories(aot_dir);
      const std::string file = "dsl_" + k.cache_key.substr(0, 16) + ".cubin";
      std::ofstream(aot_dir / file, std::ios::binary)
          .write(reinterpret_cast<const char*>(k.cubin.data()), static_cast<std::streamsize>(k.cubin.size()));
      std::string shape;
      for (int64_t d : c.shape) shape += (shape.empty() ? "" : ", ") + std::to_string(d);
      manifest += std::string(manifest.empty() ? "" : ",\n") + "  {\"kernel\": \"dsl_" + c.kernel + "\", \"dtype\": \"" +
                  c.element + "\", \"gpu\": \"" + aot_gpu + "\", \"cubin\": \"" + file + "\", \"symbol\": \"" + k.name +
                  "\", \"shape\": [" + shape + "]}";
    }
    if (!aot_dir.empty()) std::ofstream(aot_dir / "manifest.json") << "{\n \"kernels\": [\n" << manifest << "\n ]\n}\n";
  }
  return failed == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) { return program::run_guarded(run, argc, argv); }
