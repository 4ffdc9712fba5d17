// Rung 09 of the ladder: below the DSL, kernels written op by op with the IR builder.
//   builds vector add, row softmax and a tiled GEMM (builder_kernels.cpp) in f32, f16 and bf16, verifies
//   each module, writes its bytecode, compiles it with tileiras when there is one, and runs it: on the GPU
//   through the driver, else on the CPU interpreter (interp::run) — the two roads a traced DSL kernel
//   takes under cutile::launch, here taken by hand. Each result is checked against float64.
//
//   09_ir_builder [--print-ir] [--cubins DIR]
// --print-ir prints each module's Tile IR; --cubins DIR writes each cubin to DIR (kernel_dtype_arch.cubin).
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <random>

#include "09_ir_builder/builder_kernels.hpp"
#include "cutile/bytecode/writer.hpp"
#include "cutile/compile/tileiras.hpp"
#include "cutile/compile/toolchain.hpp"
#include "cutile/interp/run.hpp"
#include "cutile/ir/float_format.hpp"
#include "cutile/ir/printer.hpp"
#include "cutile/ir/verifier.hpp"
#include "cutile/runtime/device_buffer.hpp"
#include "cutile/runtime/launch.hpp"
#include "cutile/runtime/module.hpp"
#include "ladder.hpp"
#include "program_main.hpp"

namespace {

namespace ct = cutile;
namespace ir = cutile::ir;
using ir::ElementType;

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
  std::vector<double> values() const {
    std::vector<double> out(size());
    for (size_t i = 0; i < out.size(); ++i) out[i] = get(i);
    return out;
  }
};

HostArray random_array(ElementType e, size_t n, uint64_t seed, double scale = 1.0) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> dist(0.0, scale);
  HostArray a(e, n);
  for (size_t i = 0; i < n; ++i) a.set(i, dist(rng));
  return a;
}

// One run of a builder kernel: its pointer parameters (the last one the output, written) and then its
// i32 parameters, as the entry declares them.
struct Run {
  std::array<int64_t, 3> grid;
  std::vector<HostArray*> arrays;
  std::vector<int32_t> scalars;
};

// On the GPU: copy the arrays to device memory, pass each parameter by address, copy the output back.
void run_on_gpu(const std::vector<uint8_t>& cubin, const std::string& entry, const Run& run) {
  std::vector<ct::runtime::DeviceBuffer> buffers;
  std::vector<ct::runtime::CUdeviceptr> pointers;
  for (const HostArray* a : run.arrays)
    pointers.push_back(buffers.emplace_back(ct::runtime::DeviceBuffer::from_host(a->bytes)).address());
  std::vector<int32_t> scalars = run.scalars;
  std::vector<void*> args;
  for (ct::runtime::CUdeviceptr& p : pointers) args.push_back(&p);
  for (int32_t& s : scalars) args.push_back(&s);
  ct::runtime::LoadedModule module(cubin);
  const auto grid = [&](size_t d) { return static_cast<unsigned>(run.grid[d]); };
  ct::runtime::launch(module.function(entry), {grid(0), grid(1), grid(2)}, args);
  ct::runtime::synchronize();
  HostArray& out = *run.arrays.back();
  buffers.back().copy_to_host(out.bytes.data(), out.bytes.size());
}

// On the interpreter: one 64-bit slot per parameter (host addresses, i32 bits), and a memory region per
// array, so that every access is checked against the arrays the kernel was given.
void run_on_cpu(const ir::Module& module, const std::string& entry, const Run& run) {
  std::vector<uint64_t> params;
  std::vector<ct::interp::MemoryRegion> regions;
  for (HostArray* a : run.arrays) {
    params.push_back(reinterpret_cast<uint64_t>(a->bytes.data()));
    const bool output = a == run.arrays.back();
    regions.push_back(
        {params.back(), static_cast<int64_t>(a->bytes.size()), output ? "output" : "input", output, {}});
  }
  for (int32_t s : run.scalars) params.push_back(static_cast<uint32_t>(s));
  ct::interp::run(module, entry, params, run.grid, regions);
}

struct Example {
  std::string kernel;
  std::function<std::unique_ptr<ir::Module>()> build;
  // Makes the inputs, runs the kernel through `launch` and returns (output, float64 reference).
  std::function<std::pair<std::vector<double>, std::vector<double>>(
      const std::function<void(const Run&)>& launch)>
      run;
};

int64_t cdiv(int64_t a, int64_t b) {
  return (a + b - 1) / b;
}

std::vector<Example> examples_of(ElementType e) {
  std::vector<Example> list;
  list.push_back({"vector_add", [e] { return examples::vector_add_module(e, 1024); },
                  [e](const auto& launch) {
                    const int32_t n = 100'003;  // ragged: not a multiple of the tile
                    HostArray a = random_array(e, n, 1), b = random_array(e, n, 2), c(e, n);
                    launch(Run{{cdiv(n, 1024), 1, 1}, {&a, &b, &c}, {n}});
                    std::vector<double> ref(n);
                    for (int32_t i = 0; i < n; ++i) ref[i] = a.get(i) + b.get(i);
                    return std::pair{c.values(), ref};
                  }});
  list.push_back({"row_softmax", [e] { return examples::row_softmax_module(e, 1024); },
                  [e](const auto& launch) {
                    const int32_t rows = 37, cols = 1000;
                    HostArray x = random_array(e, size_t(rows) * cols, 3, 4.0), y(e, size_t(rows) * cols);
                    launch(Run{{rows, 1, 1}, {&x, &y}, {rows, cols, cols, cols}});
                    return std::pair{y.values(), examples::softmax_rows(x.values(), rows, cols)};
                  }});
  const int bm = e == ElementType::f32 ? 64 : 128;
  list.push_back({"tiled_gemm", [e, bm] { return examples::tiled_gemm_module(e, bm, bm, 32); },
                  [e, bm](const auto& launch) {
                    const int32_t m = 300, n = 200, k = 100;  // ragged in every dimension
                    HostArray a = random_array(e, size_t(m) * k, 4), b = random_array(e, size_t(k) * n, 5);
                    HostArray c(e, size_t(m) * n);
                    launch(Run{{cdiv(m, bm), cdiv(n, bm), 1}, {&a, &b, &c}, {m, n, k, k, n, n}});
                    return std::pair{c.values(), examples::matmul(a.values(), b.values(), m, n, k)};
                  }});
  return list;
}

// The output's rounding bounds each error (bf16 2^-9, f16 2^-11 relative); f32 GEMM operands may go
// through tf32 on the tensor cores.
double tolerance(ElementType e) {
  return e == ElementType::bf16 ? 1e-2 : 2e-3;
}

int run(int argc, char** argv) {
  bool print_ir = false;
  std::filesystem::path cubin_dir;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--print-ir")
      print_ir = true;
    else if (arg == "--cubins" && i + 1 < argc)
      cubin_dir = argv[++i];
    else
      throw ct::UserError("unknown argument '" + arg + "'; usage: 09_ir_builder [--print-ir] [--cubins DIR]");
  }
  const ct::Device device = examples::pick_device();
  device.make_current();  // the driver calls below work in the current context
  std::string no_toolchain;
  const std::optional<ct::compile::Toolchain> toolchain = ct::compile::find_toolchain(&no_toolchain);
  const std::string gpu = device.is_cpu() ? "sm_90" : device.arch();
  std::printf("tileiras: %s\n", toolchain ? toolchain->tileiras.c_str() : ("none — " + no_toolchain).c_str());
  if (!toolchain && !device.is_cpu())
    throw ct::UserError("the GPU runs cubins, and there is no tileiras to make them");
  if (!cubin_dir.empty()) std::filesystem::create_directories(cubin_dir);

  bool ok = true;
  for (ElementType e : {ElementType::f32, ElementType::f16, ElementType::bf16}) {
    for (const Example& ex : examples_of(e)) {
      const std::string name = ex.kernel + " " + std::string(ir::element_type_name(e));
      const std::unique_ptr<ir::Module> module = ex.build();
      ir::verify_module(*module);  // what tileiras would reject, rejected here with a message
      if (print_ir) std::printf("%s\n", ir::print_module(*module).c_str());
      const std::vector<uint8_t> bytecode = ct::bytecode::write_bytecode(*module);
      std::vector<uint8_t> cubin;
      if (toolchain) {
        ct::compile::CompileOptions options;
        options.gpu_name = gpu;
        cubin = ct::compile::compile_to_cubin(*toolchain, bytecode, options, ex.kernel).cubin;
        if (!cubin_dir.empty()) {
          const auto file =
              cubin_dir / (ex.kernel + "_" + std::string(ir::element_type_name(e)) + "_" + gpu + ".cubin");
          std::ofstream(file, std::ios::binary)
              .write(reinterpret_cast<const char*>(cubin.data()), static_cast<std::streamsize>(cubin.size()));
        }
      }
      std::printf(
          "%-22s %6zu bytes of bytecode, %s\n", name.c_str(), bytecode.size(),
          toolchain ? (std::to_string(cubin.size()) + " bytes of cubin for " + gpu).c_str() : "not compiled");
      const auto [out, ref] = ex.run([&](const Run& r) {
        if (device.is_cpu())
          run_on_cpu(*module, ex.kernel, r);
        else
          run_on_gpu(cubin, ex.kernel, r);
      });
      ok &= examples::check(name, out, ref, tolerance(e));
    }
  }
  if (!toolchain)
    std::printf("cubins: none (no tileiras)\n");
  else if (cubin_dir.empty())
    std::printf("cubins: kept in memory only (--cubins DIR writes them)\n");
  else
    std::printf("cubins: in %s\n", cubin_dir.c_str());
  return ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  return program::run_guarded(run, argc, argv);
}
