// The steps of the type-erased launch path, one source each: argument checks (arg_checks.cpp), grid
// inference (grid_inference.cpp), specialisation: facts, trace, dump, cubin cache and the kernel table
// (specialise.cpp), and the launch itself with the ahead-of-time entry (launch.cpp). Internal to
// src/launch.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>

#include "cutile/compile/cubin_cache.hpp"
#include "cutile/host/launch.hpp"
#include "cutile/ir/module.hpp"
#include "cutile/runtime/module.hpp"

namespace cutile::detail {

// ---- naming and walking the arguments (arg_checks.cpp)

/// "[4, dyn, 8]".
std::string dims_text(const Dims& dims);

/// "argument 2 (Out<f16>)".
std::string arg_name(size_t i, const LaunchArg& arg);

// One tensor an argument passes: the tensor or partition itself, or a list's descriptor rows or member.
struct ArgTensor {
  const TensorArgView* view;
  size_t arg;
  std::optional<size_t> member;  // a list member's number
  bool rows = false;             // a list's descriptor rows
  bool written = false;          // the kernel may write it
};

// Calls f(ArgTensor) for every tensor args[i] passes.
template <class F>
void for_each_tensor(std::span<const LaunchArg> args, size_t i, F&& f) {
  const LaunchArg& a = args[i];
  if (!a.tensor) return;
  if (!is_list(a.kind)) return f(ArgTensor{&*a.tensor, i, std::nullopt, false, is_written(a.kind)});
  f(ArgTensor{&*a.tensor, i, std::nullopt, true, false});
  for (size_t m = 0; m < a.members.size(); ++m) f(ArgTensor{&a.members[m], i, m, false, is_written(a.kind)});
}

/// The name of `t` in messages: its argument, and the list member or the descriptor rows it is.
std::string tensor_name(std::span<const LaunchArg> args, const ArgTensor& t);

// ---- argument checks (arg_checks.cpp)

// Everything that must hold before anything is traced or enqueued.
void check_args(std::span<LaunchArg> args, bool needs_memory);

// The device of the launch, made current on this thread (Device(i) does so when it is made).
Device launch_device(std::span<const LaunchArg> args, const LaunchOptions& options);

// ---- grid inference (grid_inference.cpp)

/// The launch grid: the output partitions' (they must agree), LaunchOptions::grid, or for a kernel whose
/// outputs are all OutTiles one block per tile up to `default_blocks` (the device's SMs), on a 1-D grid.
std::array<int64_t, 3> infer_grid(std::span<const LaunchArg> args, const LaunchOptions& options,
                                  int64_t default_blocks);

// ---- specialisation (specialise.cpp)

struct Specialisation {
  std::shared_ptr<const compile::CachedCubin> cubin;
  std::string name;
  double trace_seconds = 0;
  size_t bytecode_bytes = 0;
};

// Trace and verify (and dump when CUTILE_DUMP asks): the entry's name and module, compiled by nothing.
std::pair<std::string, std::unique_ptr<ir::Module>> trace_verified(const KernelRef& kernel,
                                                                   std::span<const LaunchArg> args,
                                                                   const LaunchOptions& options,
                                                                   const std::array<int64_t, 3>& grid);

// Trace, verify, write bytecode and get the cubin (bypassing the caches for a dumped kernel). The cache
// key is taken from the bytecode without source locations (cache_key.hpp).
Specialisation specialise(const KernelRef& kernel, std::span<const LaunchArg> args,
                          const LaunchOptions& options, const std::array<int64_t, 3>& grid,
                          const std::string& gpu);

// Launch-ready kernels, one per (kernel, argument facts, single-block grid axes, options, device): a loaded
// cubin for a GPU, the verified module for the CPU interpreter.
struct LoadedKernel {
  std::optional<runtime::LoadedModule> module;
  runtime::KernelFunction function;
  std::unique_ptr<ir::Module> interpreted;
  std::string name;
};

/// The launch-ready kernel for these arguments on `device`, from the kernel table or traced (and for a GPU
/// compiled and loaded) on a miss; every launch re-traces while CUTILE_DUMP is set.
std::shared_ptr<LoadedKernel> loaded_kernel(const KernelRef& kernel, std::span<const LaunchArg> args,
                                            const LaunchOptions& options, const std::array<int64_t, 3>& grid,
                                            const Device& device);

}  // namespace cutile::detail
