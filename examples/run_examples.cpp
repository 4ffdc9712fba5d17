// The main job: builds the example kernels, verifies them, writes bytecode, compiles it with tileiras,
// and runs each kernel on the GPU against a float64 CPU reference when a GPU is present.
//
//   cutile-examples [--print-ir] [--aot DIR | --cubins DIR]
//
// --aot DIR also compiles for sm_90 and sm_100 and writes the cubins plus manifest.json to DIR, for a
// GPU machine without tileiras. --cubins DIR runs the cubins of such a directory instead of compiling
// (scripts/gpu_check.py runs the same cubins against PyTorch).
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iomanip>
#include <iterator>
#include <sstream>
#include <random>
#include <string>
#include <vector>

#include "builder/builder_kernels.hpp"
#include "cutile/bytecode/writer.hpp"
#include "cutile/compile/tileiras.hpp"
#include "cutile/compile/toolchain.hpp"
#include "cutile/error.hpp"
#include "cutile/ir/float_format.hpp"
#include "cutile/ir/printer.hpp"
#include "cutile/ir/verifier.hpp"
#include "cutile/runtime/device.hpp"
#include "cutile/runtime/device_buffer.hpp"
#include "cutile/runtime/launch.hpp"
#include "cutile/runtime/module.hpp"
#include "program_main.hpp"

namespace {

using namespace cutile;
using ir::ElementType;

struct Example {
  std::string kernel;
  ElementType element;
  std::string tiles;        // tile parameters, short form: names the cubin
  std::string params_json;  // tile parameters, for the manifest
  std::function<std::unique_ptr<ir::Module>()> build;
  // Runs the loaded kernel on the GPU and returns ‖out − ref‖ / ‖ref‖ against float64.
  std::function<double(const runtime::KernelFunction&)> run;
};

// Host storage of one element type: values are rounded to the type when stored.
struct HostArray {
  ElementType element;
  std::vector<uint8_t> bytes;

  HostArray(ElementType e, size_t n) : element(e), bytes(n * width()) {}
  size_t width() const { return static_cast<size_t>(ir::element_bits(element) / 8); }
  size_t size() const { return bytes.size() / width(); }
  void set(size_t i, double v) {
    const uint64_t bits = ir::float_to_bits(element, v);
    for (size_t b = 0; b < width(); ++b) bytes[i * width() + b] = static_cast<uint8_t>(bits >> (8 * b));
  }
  double get(size_t i) const {
    uint64_t bits = 0;
    for (size_t b = 0; b < width(); ++b) bits |= uint64_t{bytes[i * width() + b]} << (8 * b);
    return ir::bits_to_float(element, bits);
  }
};

HostArray random_array(ElementType e, size_t n, std::mt19937_64& rng, double scale = 1.0) {
  std::normal_distribution<double> dist(0.0, scale);
  HostArray a(e, n);
  for (size_t i = 0; i < n; ++i) a.set(i, dist(rng));
  return a;
}

runtime::DeviceBuffer upload(const HostArray& a) { return runtime::DeviceBuffer::from_host(a.bytes); }

// Poisoned output: every byte 0xFF is a NaN in each float format used here.
runtime::DeviceBuffer poisoned(ElementType e, size_t n) {
  runtime::DeviceBuffer b(n * static_cast<size_t>(ir::element_bits(e) / 8));
  b.memset(0xFF);
  return b;
}

HostArray download(const runtime::DeviceBuffer& b, ElementType e) {
  HostArray a(e, 0);
  a.bytes = b.download<uint8_t>();
  return a;
}

double relative_error(const HostArray& out, const std::vector<double>& ref) {
  double num = 0, den = 0;
  for (size_t i = 0; i < ref.size(); ++i) {
    const double d = out.get(i) - ref[i];
    if (!std::isfinite(out.get(i))) return INFINITY;
    num += d * d;
    den += ref[i] * ref[i];
  }
  return std::sqrt(num / std::max(den, 1e-300));
}

unsigned cdiv(int64_t a, int64_t b) { return static_cast<unsigned>((a + b - 1) / b); }

double run_vector_add(const runtime::KernelFunction& fn, ElementType e, int tile) {
  std::mt19937_64 rng(1);
  const int32_t n = 100'003;  // ragged: not a multiple of the tile
  HostArray a = random_array(e, n, rng), b = random_array(e, n, rng);
  runtime::DeviceBuffer da = upload(a), db = upload(b), dc = poisoned(e, n);
  runtime::CUdeviceptr pa = da.address(), pb = db.address(), pc = dc.address();
  int32_t count = n;
  void* args[] = {&pa, &pb, &pc, &count};
  runtime::launch(fn, {cdiv(n, tile), 1, 1}, args);
  runtime::synchronize();
  std::vector<double> ref(n);
  for (int32_t i = 0; i < n; ++i) ref[i] = a.get(i) + b.get(i);
  return relative_error(download(dc, e), ref);
}

double run_row_softmax(const runtime::KernelFunction& fn, ElementType e, int32_t rows, int32_t cols) {
  std::mt19937_64 rng(2);
  HostArray x = random_array(e, size_t(rows) * cols, rng, 4.0);
  runtime::DeviceBuffer dx = upload(x), dy = poisoned(e, size_t(rows) * cols);
  runtime::CUdeviceptr px = dx.address(), py = dy.address();
  int32_t r = rows, c = cols, sx = cols, sy = cols;
  void* args[] = {&px, &py, &r, &c, &sx, &sy};
  runtime::launch(fn, {static_cast<unsigned>(rows), 1, 1}, args);
  runtime::synchronize();
  std::vector<double> ref(size_t(rows) * cols);
  for (int32_t i = 0; i < rows; ++i) {
    double m = -INFINITY, s = 0;
    for (int32_t j = 0; j < cols; ++j) m = std::max(m, x.get(size_t(i) * cols + j));
    for (int32_t j = 0; j < cols; ++j) s += std::exp(x.get(size_t(i) * cols + j) - m);
    for (int32_t j = 0; j < cols; ++j) ref[size_t(i) * cols + j] = std::exp(x.get(size_t(i) * cols + j) - m) / s;
  }
  return relative_error(download(dy, e), ref);
}

double run_tiled_gemm(const runtime::KernelFunction& fn, ElementType e, int bm, int bn) {
  std::mt19937_64 rng(3);
  const int32_t m = 300, n = 200, k = 100;  // ragged in every dimension
  HostArray a = random_array(e, size_t(m) * k, rng), b = random_array(e, size_t(k) * n, rng);
  runtime::DeviceBuffer da = upload(a), db = upload(b), dc = poisoned(e, size_t(m) * n);
  runtime::CUdeviceptr pa = da.address(), pb = db.address(), pc = dc.address();
  int32_t vm = m, vn = n, vk = k, lda = k, ldb = n, ldc = n;
  void* args[] = {&pa, &pb, &pc, &vm, &vn, &vk, &lda, &ldb, &ldc};
  runtime::launch(fn, {cdiv(m, bm), cdiv(n, bn), 1}, args);
  runtime::synchronize();
  std::vector<double> ref(size_t(m) * n, 0.0);
  for (int32_t i = 0; i < m; ++i)
    for (int32_t kk = 0; kk < k; ++kk)
      for (int32_t j = 0; j < n; ++j) ref[size_t(i) * n + j] += a.get(size_t(i) * k + kk) * b.get(size_t(kk) * n + j);
  return relative_error(download(dc, e), ref);
}

std::vector<Example> examples() {
  std::vector<Example> list;
  for (ElementType e : {ElementType::f32, ElementType::f16, ElementType::bf16}) {
    const int tile = 1024;
    list.push_back({"vector_add", e, "1024", "\"tile\": 1024", [=] { return examples::vector_add_module(e, tile); },
                    [=](const runtime::KernelFunction& fn) { return run_vector_add(fn, e, tile); }});
    for (int tile_n : {1024, 4096}) {
      const int32_t rows = tile_n == 1024 ? 37 : 9, cols = tile_n == 1024 ? 1000 : 4096;
      list.push_back({"row_softmax", e, "1x" + std::to_string(tile_n), "\"tile_n\": " + std::to_string(tile_n),
                      [=] { return examples::row_softmax_module(e, tile_n); },
                      [=](const runtime::KernelFunction& fn) { return run_row_softmax(fn, e, rows, cols); }});
    }
    const int bm = e == ElementType::f32 ? 64 : 128, bn = bm, bk = 32;
    list.push_back({"tiled_gemm", e, std::to_string(bm) + "x" + std::to_string(bn) + "x" + std::to_string(bk),
                    "\"bm\": " + std::to_string(bm) + ", \"bn\": " + std::to_string(bn) + ", \"bk\": " + std::to_string(bk),
                    [=] { return examples::tiled_gemm_module(e, bm, bn, bk); },
                    [=](const runtime::KernelFunction& fn) { return run_tiled_gemm(fn, e, bm, bn); }});
  }
  return list;
}

double tolerance(ElementType e) { return e == ElementType::bf16 ? 1e-2 : 2e-3; }

std::string element_name(ElementType e) { return std::string(ir::element_type_name(e)); }

std::vector<uint8_t> read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw RuntimeError("cannot read " + path.string());
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

int run(int argc, char** argv) {
  bool print_ir = false;
  std::filesystem::path aot_dir, cubin_dir;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--print-ir") print_ir = true;
    else if (arg == "--aot" && i + 1 < argc) aot_dir = argv[++i];
    else if (arg == "--cubins" && i + 1 < argc) cubin_dir = argv[++i];
    else throw UserError("unknown argument '" + arg + "'; usage: cutile-examples [--print-ir] [--aot DIR | --cubins DIR]");
  }

  std::string no_toolchain;
  const std::optional<compile::Toolchain> toolchain = compile::find_toolchain(&no_toolchain);
  std::string no_gpu;
  std::optional<runtime::Device> device;
  if (runtime::driver_available(&no_gpu) && runtime::device_count() > 0) device.emplace(0);
  std::printf("toolchain: %s\n", toolchain ? (toolchain->tileiras.string() + " (" + toolchain->release + ")").c_str()
                                            : ("none — " + no_toolchain).c_str());
  std::printf("gpu:       %s\n", device ? (device->name() + " " + device->arch()).c_str()
                                        : ("none — kernels are compiled, not run (" + no_gpu + ")").c_str());
  if (!aot_dir.empty()) std::filesystem::create_directories(aot_dir);

  std::vector<std::string> targets = {device ? device->arch() : std::string("sm_90")};
  if (!aot_dir.empty()) targets = {"sm_90", "sm_100"};
  std::string manifest = "{\n \"kernels\": [\n";
  int failures = 0, checked = 0;
  std::printf("\n%-12s %-5s %-14s %9s %9s %12s  %s\n", "kernel", "dtype", "tiles", "build ms", "tileiras", "rel. error",
              "result");
  for (const Example& ex : examples()) {
    const auto start = std::chrono::steady_clock::now();
    std::unique_ptr<ir::Module> module = ex.build();
    ir::verify_module(*module);
    const std::vector<uint8_t> bytecode = bytecode::write_bytecode(*module);
    const double build_ms = seconds_since(start) * 1e3;
    if (print_ir) std::printf("%s\n", ir::print_module(*module).c_str());
    const char* tiles = ex.tiles.c_str();
    if (!toolchain && cubin_dir.empty()) {
      std::printf("%-12s %-5s %-14s %9.2f %9s %12s  %s\n", ex.kernel.c_str(), element_name(ex.element).c_str(),
                  tiles, build_ms, "-", "-", "built (no tileiras)");
      continue;
    }
    for (const std::string& gpu : targets) {
      const std::string file = ex.kernel + "_" + element_name(ex.element) + "_" + ex.tiles + "_" + gpu + ".cubin";
      compile::CompileResult compiled;
      if (cubin_dir.empty()) {
        compile::CompileOptions options;
        options.gpu_name = gpu;
        compiled = compile::compile_to_cubin(*toolchain, bytecode, options, ex.kernel);
      } else {
        compiled.cubin = read_file(cubin_dir / file);
      }
      std::string outcome = "compiled " + gpu;
      double error = NAN;
      if (device && gpu == device->arch()) {
        runtime::LoadedModule loaded(compiled.cubin);
        error = ex.run(loaded.function(ex.kernel));
        const bool ok = error <= tolerance(ex.element);
        outcome = ok ? "ok on " + device->name() : "FAIL on " + device->name();
        failures += !ok;
        ++checked;
      }
      if (!aot_dir.empty()) {
        std::ofstream(aot_dir / file, std::ios::binary)
            .write(reinterpret_cast<const char*>(compiled.cubin.data()), static_cast<std::streamsize>(compiled.cubin.size()));
        manifest += std::string(manifest.back() == '\n' ? "" : ",\n") + "  {\"kernel\": \"" + ex.kernel +
                    "\", \"dtype\": \"" + element_name(ex.element) + "\", \"gpu\": \"" + gpu + "\", \"cubin\": \"" +
                    file + "\", \"tileiras_seconds\": " + std::to_string(compiled.seconds) + ", " + ex.params_json + "}";
      }
      const std::string error_text = std::isnan(error) ? "-" : (std::ostringstream() << std::scientific << std::setprecision(2) << error).str();
      const std::string tileiras_text = cubin_dir.empty() ? std::to_string(std::lround(compiled.seconds * 1e3)) + " ms" : "aot";
      std::printf("%-12s %-5s %-14s %9.2f %9s %12s  %s\n", ex.kernel.c_str(), element_name(ex.element).c_str(), tiles,
                  build_ms, tileiras_text.c_str(), error_text.c_str(), outcome.c_str());
    }
  }
  if (!aot_dir.empty()) {
    std::ofstream(aot_dir / "manifest.json") << manifest << "\n ]\n}\n";
    std::printf("\nwrote cubins and manifest.json to %s\n", aot_dir.c_str());
  }
  if (device) std::printf("\n%d passed, %d failed\n", checked - failures, failures);
  return failures == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) { return program::run_guarded(run, argc, argv); }
