// Runs the DSL kernels — the examples (examples/kernels) and the library's GEMM and attention kernels
// (kernels/) — through cutile::launch and checks each against a float64 CPU reference: on the GPU when
// there is one, else on the CPU interpreter (Device::cpu(), at smaller sizes). Without a GPU it also
// compiles them ahead of time for sm_90 (cutile::compile_only on meta tensors), which fills the cubin
// cache that a GPU machine without tileiras can use.
//
//   cutile-dsl-examples [--gpu sm_XX] [--aot DIR]
// --gpu: the AOT target (default sm_90). --aot DIR: only compile, and write each AOT cubin and a
// manifest.json (kernel, element type, shape) to DIR, for scripts/gpu_check.py to run against PyTorch.
// CUTILE_BACKEND=interpret runs on the interpreter even where there is a GPU.
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "attention/fmha.hpp"
#include "cutile/host/launch.hpp"
#include "cutile/runtime/driver_api.hpp"
#include "gemm/matmul.hpp"
#include "kernels/row_softmax.hpp"
#include "kernels/vector_add.hpp"
#include "program_main.hpp"
#include "reference/float64.hpp"

namespace {

namespace ct = cutile;
namespace lib = cutile::kernels;
using Shape = std::vector<int64_t>;

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
std::vector<double> to_double(const ct::Tensor<E>& t) {
  std::vector<double> out;
  for (const E& v : t.to_host()) out.push_back(ct::from_element(v));
  return out;
}

template <ct::Element E>
double run_vector_add(const ct::Device& device, const Shape& shape) {
  const int64_t n = shape[0];
  auto a = ct::randn<E>({n}, device, 1), b = ct::randn<E>({n}, device, 2);
  auto c = ct::empty<E>({n}, device);
  ct::launch(examples::vector_add<E, 1024>, c.partition({1024}), a, b).sync();
  const std::vector<double> ha = to_double(a), hb = to_double(b);
  std::vector<double> ref(ha.size());
  for (size_t i = 0; i < ref.size(); ++i) ref[i] = ha[i] + hb[i];
  return relative_error(c.to_host(), ref);
}

template <ct::Element E, int64_t TILE_N>
double run_row_softmax(const ct::Device& device, const Shape& shape) {
  const int64_t rows = shape[0], cols = shape[1];
  auto x = ct::randn<E>({rows, cols}, device, 3);
  auto y = ct::empty<E>({rows, cols}, device);
  ct::launch(examples::row_softmax<E, TILE_N>, y.partition({1, TILE_N}), x).sync();
  const std::vector<double> hx = to_double(x);
  std::vector<double> ref(hx.size());
  for (int64_t r = 0; r < rows; ++r) {
    const double* row = &hx[static_cast<size_t>(r * cols)];
    double m = -INFINITY, s = 0;
    for (int64_t c = 0; c < cols; ++c) m = std::max(m, row[c]);
    for (int64_t c = 0; c < cols; ++c) s += std::exp(row[c] - m);
    for (int64_t c = 0; c < cols; ++c) ref[static_cast<size_t>(r * cols + c)] = std::exp(row[c] - m) / s;
  }
  return relative_error(y.to_host(), ref);
}

template <ct::Element T, ct::Element C, int64_t BM, int64_t BN, int64_t BK, bool PERSISTENT>
double run_matmul(const ct::Device& device, const Shape& shape) {
  const int64_t m = shape[0], n = shape[1], k = shape[2];
  auto a = ct::randn<T>({m, k}, device, 4), b = ct::randn<T>({k, n}, device, 5);
  auto c = ct::empty<C>({m, n}, device);
  if constexpr (PERSISTENT)
    ct::launch(lib::persistent_matmul<T, C, BM, BN, BK, 8>, c.partition({BM, BN}), a, b).sync();
  else
    ct::launch(lib::matmul<T, C, BM, BN, BK>, c.partition({BM, BN}), a, b).sync();
  return relative_error(c.to_host(), examples::reference::matmul(to_double(a), to_double(b), m, n, k));
}

// shape: batch·heads, sequence, heads, query group.
template <ct::Element T, int64_t D, int64_t TM, int64_t TN, bool CAUSAL>
double run_fmha(const ct::Device& device, const Shape& shape) {
  const int64_t bh = shape[0], s = shape[1], heads = shape[2], group = shape[3];
  const int64_t kv_bh = bh / group;
  auto q = ct::randn<T>({bh, s, D}, device, 6), k = ct::randn<T>({kv_bh, s, D}, device, 7);
  auto v = ct::randn<T>({kv_bh, s, D}, device, 8);
  auto o = ct::empty<T>({bh, s, D}, device);
  const double scale = 1.0 / std::sqrt(static_cast<double>(D));
  ct::launch(lib::fmha<T, D, TM, TN, CAUSAL>, o.partition({TM, 1, D}, {1, 0, 2}), q, k, v, scale, 0, heads, group).sync();
  const examples::reference::Attention problem{bh, s, s, D, heads, group, CAUSAL, 0, scale};
  return relative_error(o.to_host(), examples::reference::attention(to_double(q), to_double(k), to_double(v), problem));
}

// AOT compilation specialises on the same facts as a launch with the same shapes (extents, strides,
// alignment), so a GPU machine without tileiras finds exactly these cubins in the cache.
template <ct::Element E>
ct::CompiledKernel aot_vector_add(const std::string& gpu, const Shape& shape) {
  auto c = ct::Tensor<E>::meta(shape);
  return ct::compile_only(gpu, {}, examples::vector_add<E, 1024>, c.partition({1024}), ct::Tensor<E>::meta(shape),
                          ct::Tensor<E>::meta(shape));
}

template <ct::Element E, int64_t TILE_N>
ct::CompiledKernel aot_row_softmax(const std::string& gpu, const Shape& shape) {
  auto y = ct::Tensor<E>::meta(shape);
  return ct::compile_only(gpu, {}, examples::row_softmax<E, TILE_N>, y.partition({1, TILE_N}), ct::Tensor<E>::meta(shape));
}

template <ct::Element T, ct::Element C, int64_t BM, int64_t BN, int64_t BK, bool PERSISTENT>
ct::CompiledKernel aot_matmul(const std::string& gpu, const Shape& shape) {
  auto c = ct::Tensor<C>::meta({shape[0], shape[1]});
  auto a = ct::Tensor<T>::meta({shape[0], shape[2]}), b = ct::Tensor<T>::meta({shape[2], shape[1]});
  if constexpr (PERSISTENT)
    return ct::compile_only(gpu, {}, lib::persistent_matmul<T, C, BM, BN, BK, 8>, c.partition({BM, BN}), a, b);
  else
    return ct::compile_only(gpu, {}, lib::matmul<T, C, BM, BN, BK>, c.partition({BM, BN}), a, b);
}

template <ct::Element T, int64_t D, int64_t TM, int64_t TN, bool CAUSAL>
ct::CompiledKernel aot_fmha(const std::string& gpu, const Shape& shape) {
  auto o = ct::Tensor<T>::meta({shape[0], shape[1], D});
  auto q = ct::Tensor<T>::meta({shape[0], shape[1], D});
  auto kv = ct::Tensor<T>::meta({shape[0] / shape[3], shape[1], D});
  return ct::compile_only(gpu, {}, lib::fmha<T, D, TM, TN, CAUSAL>, o.partition({TM, 1, D}, {1, 0, 2}), q, kv, kv, 0.0, 0, 1, 1);
}

struct Case {
  std::string kernel;  // the manifest's name for scripts/gpu_check.py
  std::string element;
  std::string label;
  Shape gpu_shape, cpu_shape;  // cpu: the interpreter's (smaller) problem
  double tolerance;
  std::function<double(const ct::Device&, const Shape&)> run;
  std::function<ct::CompiledKernel(const std::string&, const Shape&)> aot;
};

template <ct::Element E>
void add_example_cases(std::vector<Case>& cases, double tolerance) {
  const std::string t(ct::element_traits<E>::name);
  cases.push_back({"vector_add", t, "vector_add " + t, {1'000'003}, {100'003}, tolerance, run_vector_add<E>,
                   aot_vector_add<E>});
  cases.push_back({"row_softmax", t, "row_softmax " + t, {4096, 4096}, {64, 4096}, tolerance,
                   run_row_softmax<E, 4096>, aot_row_softmax<E, 4096>});
  cases.push_back({"row_softmax", t, "row_softmax " + t, {1024, 1000}, {37, 1000}, tolerance,
                   run_row_softmax<E, 1024>, aot_row_softmax<E, 1024>});
}

std::vector<Case> all_cases() {
  std::vector<Case> cases;
  add_example_cases<float>(cases, 1e-5);
  add_example_cases<ct::f16>(cases, 2e-3);  // the output's own rounding: half an ulp of f16 is 2^-11
  add_example_cases<ct::bf16>(cases, 1e-2);
  // GEMM: ragged M, N and K on both; the output's rounding bounds the error.
  cases.push_back({"matmul", "f16", "matmul f16", {1000, 777, 300}, {130, 200, 96}, 2e-3,
                   run_matmul<ct::f16, ct::f16, 128, 128, 64, false>, aot_matmul<ct::f16, ct::f16, 128, 128, 64, false>});
  cases.push_back({"matmul", "bf16", "matmul bf16", {1000, 777, 300}, {130, 200, 96}, 1e-2,
                   run_matmul<ct::bf16, ct::bf16, 128, 128, 64, false>,
                   aot_matmul<ct::bf16, ct::bf16, 128, 128, 64, false>});
  cases.push_back({"matmul", "f8e4m3fn", "matmul f8e4m3fn→f16", {1024, 768, 512}, {128, 96, 256}, 2e-3,
                   run_matmul<ct::f8e4m3fn, ct::f16, 128, 128, 128, false>,
                   aot_matmul<ct::f8e4m3fn, ct::f16, 128, 128, 128, false>});
  cases.push_back({"persistent_matmul", "f16", "persistent_matmul f16", {1000, 777, 300}, {300, 260, 64}, 2e-3,
                   run_matmul<ct::f16, ct::f16, 128, 128, 64, true>, aot_matmul<ct::f16, ct::f16, 128, 128, 64, true>});
  // Attention: batch·heads, sequence, heads, query group (2: grouped-query attention).
  cases.push_back({"fmha_causal", "f16", "fmha f16 causal", {8, 1000, 4, 2}, {2, 200, 2, 2}, 2e-3,
                   run_fmha<ct::f16, 64, 64, 64, true>, aot_fmha<ct::f16, 64, 64, 64, true>});
  cases.push_back({"fmha", "bf16", "fmha bf16", {8, 1000, 4, 1}, {2, 130, 2, 1}, 1e-2,
                   run_fmha<ct::bf16, 64, 64, 64, false>, aot_fmha<ct::bf16, 64, 64, 64, false>});
  return cases;
}

std::string shape_text(const Shape& shape) {
  std::string out;
  for (int64_t d : shape) out += (out.empty() ? "" : "x") + std::to_string(d);
  return out;
}

int run_all(const std::vector<Case>& cases, const ct::Device& device) {
  std::printf("DSL kernels on %s (%s), checked against float64\n\n%-28s %-16s %12s  %s\n", device.name().c_str(),
              device.arch().c_str(), "kernel", "shape", "rel. error", "result");
  int failed = 0;
  for (const Case& c : cases) {
    const Shape& shape = device.is_cpu() ? c.cpu_shape : c.gpu_shape;
    const double error = c.run(device, shape);
    const bool ok = error <= c.tolerance;
    failed += !ok;
    std::printf("%-28s %-16s %12.2e  %s\n", c.label.c_str(), shape_text(shape).c_str(), error, ok ? "ok" : "FAIL");
  }
  std::printf("\n%zu passed, %d failed\n", cases.size() - failed, failed);
  return failed;
}

void compile_all(const std::vector<Case>& cases, const std::string& gpu, const std::filesystem::path& aot_dir) {
  std::printf("compiling the DSL kernels ahead of time for %s\n\n%-28s %-16s %9s %9s  %s\n", gpu.c_str(), "kernel",
              "shape", "trace ms", "tileiras", "cache key");
  std::string manifest;
  for (const Case& c : cases) {
    const ct::CompiledKernel k = c.aot(gpu, c.gpu_shape);
    std::printf("%-28s %-16s %9.2f %7.0f ms  %.16s…\n", c.label.c_str(), shape_text(c.gpu_shape).c_str(),
                k.trace_seconds * 1e3, k.compile_seconds * 1e3, k.cache_key.c_str());
    if (aot_dir.empty()) continue;
    std::filesystem::create_directories(aot_dir);
    const std::string file = "dsl_" + k.cache_key.substr(0, 16) + ".cubin";
    std::ofstream(aot_dir / file, std::ios::binary)
        .write(reinterpret_cast<const char*>(k.cubin.data()), static_cast<std::streamsize>(k.cubin.size()));
    std::string shape;
    for (int64_t d : c.gpu_shape) shape += (shape.empty() ? "" : ", ") + std::to_string(d);
    manifest += std::string(manifest.empty() ? "" : ",\n") + "  {\"kernel\": \"dsl_" + c.kernel + "\", \"dtype\": \"" +
                c.element + "\", \"gpu\": \"" + gpu + "\", \"cubin\": \"" + file + "\", \"symbol\": \"" + k.name +
                "\", \"shape\": [" + shape + "]}";
  }
  if (!aot_dir.empty()) std::ofstream(aot_dir / "manifest.json") << "{\n \"kernels\": [\n" << manifest << "\n ]\n}\n";
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
  const std::vector<Case> cases = all_cases();
  if (!aot_dir.empty()) {
    compile_all(cases, aot_gpu, aot_dir);
    return 0;
  }
  std::string why_cpu = "CUTILE_BACKEND=interpret";
  if (ct::default_backend() == ct::Backend::cuda) {
    std::string no_driver;
    if (!ct::runtime::driver_available(&no_driver)) why_cpu = "no GPU (" + no_driver + ")";
    else if (ct::runtime::device_count() == 0) why_cpu = "no GPU (the CUDA driver sees none)";
    else return run_all(cases, ct::Device(0)) == 0 ? 0 : 1;
  }
  std::printf("%s: running on the CPU interpreter\n\n", why_cpu.c_str());
  const int failed = run_all(cases, ct::Device::cpu());
  std::printf("\n");
  compile_all(cases, aot_gpu, aot_dir);
  return failed == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) { return program::run_guarded(run, argc, argv); }
