// The type-erased launch path: argument checks, specialisation facts, the per-process kernel table,
// tracing and compiling on a miss, parameter packing and the driver launch.
#include "cutile/host/launch.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <unordered_map>
#include <mutex>
#include <sstream>

#include "cutile/bytecode/writer.hpp"
#include "cutile/compile/cubin_cache.hpp"
#include "cutile/compile/dump.hpp"
#include "cutile/error.hpp"
#include "cutile/interp/run.hpp"
#include "cutile/ir/printer.hpp"
#include "cutile/ir/verifier.hpp"
#include "cutile/runtime/driver_api.hpp"
#include "cutile/runtime/module.hpp"

namespace cutile::detail {
namespace {

using Clock = std::chrono::steady_clock;

std::string dims_text(const Dims& dims) {
  std::string out = "[";
  for (size_t i = 0; i < dims.size(); ++i)
    out += (i ? ", " : "") + (dims[i] == dyn ? std::string("dyn") : std::to_string(dims[i]));
  return out + "]";
}

std::string arg_name(size_t i, const LaunchArg& arg) {
  const char* kind = arg.kind == ArgKind::input               ? "In"
                     : arg.kind == ArgKind::output            ? "Out"
                     : arg.kind == ArgKind::output_tiles      ? "OutTiles"
                     : arg.kind == ArgKind::atomic            ? "Atomic"
                     : arg.kind == ArgKind::input_list        ? "InList"
                     : arg.kind == ArgKind::output_tiles_list ? "OutTilesList"
                     : arg.kind == ArgKind::raw_pointer       ? "RawPtr"
                                                              : "scalar";
  return "argument " + std::to_string(i) + " (" + kind + "<" + std::string(ir::element_type_name(arg.element)) + ">)";
}

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

std::string tensor_name(std::span<const LaunchArg> args, const ArgTensor& t) {
  return arg_name(t.arg, args[t.arg]) + (t.member ? " member " + std::to_string(*t.member) : "") +
         (t.rows ? "'s descriptor rows" : "");
}

// The element, rank, shape or tile, borrow and range checks of one tensor (a list's: of each member).
template <class Name>
void check_tensor(const LaunchArg& arg, const TensorArgView& t, const Name& name_text, bool needs_memory) {
  if (t.element != arg.element)
    throw UserError(name_text() + ": expected a tensor of " + std::string(ir::element_type_name(arg.element)) + ", got " +
                    t.describe());
  // A raw pointer passes the base address alone: no rank, shape or index range to check.
  const bool layout_passed = arg.kind != ArgKind::raw_pointer;
  if (layout_passed) {
    if (t.shape.size() != arg.kernel_dims.size())
      throw UserError(name_text() + ": expected a rank-" + std::to_string(arg.kernel_dims.size()) + " tensor, got " +
                      t.describe() + " (rank " + std::to_string(t.shape.size()) + ")");
    if (arg.kind == ArgKind::input || arg.kind == ArgKind::atomic || arg.kind == ArgKind::input_list) {
      for (size_t d = 0; d < t.shape.size(); ++d)
        if (arg.kernel_dims[d] != dyn && arg.kernel_dims[d] != t.shape[d])
          throw UserError(name_text() + ": dimension " + std::to_string(d) + " must be " + std::to_string(arg.kernel_dims[d]) +
                          " (the kernel's shape " + dims_text(arg.kernel_dims) + "), got " + t.describe());
    } else if (t.tile_shape != arg.kernel_dims) {
      throw UserError(name_text() + ": the partition's tile " + dims_text(t.tile_shape) + " differs from the kernel's output tile " +
                      dims_text(arg.kernel_dims) + " (" + t.describe() + ")");
    } else if (arg.kind == ArgKind::output_tiles && t.prefix_cover) {
      throw UserError(name_text() + ": a prefix partition cannot be an OutTiles argument, whose schedule hands out every "
                      "tile (" + t.describe() + ")");
    } else if (t.tile_order != arg.kernel_order) {
      throw UserError(name_text() + ": the partition's order " + dims_text(t.tile_order) + " differs from the kernel's output order " +
                      dims_text(arg.kernel_order) + " (" + t.describe() + "); partition it with tensor.partition(tile, " +
                      dims_text(arg.kernel_order) + ")");
    }
  }
  // A live partition holds its tensor exclusively: only that partition, as this output, may use it.
  if (t.state)
    t.state->check_not_borrowed([&] { return "use " + name_text() + " (" + t.describe() + ") in a launch"; }, t.borrow);
  if (needs_memory && t.device < 0)
    throw UserError(name_text() + " is a meta tensor without memory: it can be compiled for (cutile::compile_only) but not launched");
  if (!layout_passed) return;
  for (int64_t v : t.shape)
    if (v > INT32_MAX) throw UserError(name_text() + ": extent " + std::to_string(v) + " exceeds the i32 index range of the kernel");
  for (int64_t v : t.strides)
    if (v > INT32_MAX) throw UserError(name_text() + ": stride " + std::to_string(v) + " exceeds the i32 index range of the kernel");
}

// Everything that must hold before anything is traced or enqueued.
void check_args(std::span<LaunchArg> args, bool needs_memory) {
  thread_local std::vector<ArgTensor> tensors;  // keeps its capacity from launch to launch
  tensors.clear();
  for (size_t i = 0; i < args.size(); ++i) {
    const LaunchArg& arg = args[i];
    if (!arg.tensor) continue;
    if (!is_list(arg.kind)) {
      check_tensor(arg, *arg.tensor, [&] { return arg_name(i, arg); }, needs_memory);
    } else {
      if (needs_memory && arg.tensor->device < 0)
        throw UserError(arg_name(i, arg) + " is a list of meta tensors without memory: it can be compiled for "
                        "(cutile::compile_only) but not launched");
      for (size_t m = 0; m < arg.members.size(); ++m)
        check_tensor(arg, arg.members[m], [&] { return arg_name(i, arg) + " member " + std::to_string(m); }, needs_memory);
    }
    for_each_tensor(args, i, [&](const ArgTensor& t) { tensors.push_back(t); });
  }
  // Outputs and atomics are exclusive: no other tensor of the launch may reach their memory.
  for (const ArgTensor& w : tensors) {
    if (!w.written) continue;
    for (const ArgTensor& other : tensors) {
      if (&other == &w || w.view->device < 0 || !storage_overlaps(*w.view, *other.view)) continue;
      throw UserError(tensor_name(args, w) + " overlaps " + tensor_name(args, other) + " in memory (" +
                      w.view->describe() + " and " + other.view->describe() +
                      (args[w.arg].kind == ArgKind::atomic        ? "): an Atomic tensor may not alias another argument"
                       : args[w.arg].kind == ArgKind::raw_pointer ? "): a RawPtr's tensor may not alias another argument"
                                                                  : "): an output may not alias another argument"));
    }
  }
}

ArrayFacts facts_of(const TensorArgView& t) {
  ArrayFacts f;
  for (size_t d = 0; d < t.shape.size(); ++d) {
    if (t.strides[d] == 1) f.unit_stride |= 1u << d;
    if (t.shape[d] == 1) f.unit_extent |= 1u << d;
    if (t.shape[d] % 16 == 0) f.extent_div16 |= 1u << d;
    if ((t.strides[d] * t.element_size) % 16 == 0) f.stride_div16 |= 1u << d;
  }
  f.base_aligned_16 = t.address % 16 == 0;
  return f;
}

// The facts the kernel is specialised on: a tensor's, those all of a list's members share, none for a scalar.
ArrayFacts arg_facts(const LaunchArg& a) {
  if (!a.tensor) return {};
  if (a.kind == ArgKind::raw_pointer) return {.base_aligned_16 = a.tensor->address % 16 == 0};
  if (!is_list(a.kind)) return facts_of(*a.tensor);
  ArrayFacts shared = facts_of(a.members.front());
  for (const TensorArgView& m : a.members) {
    const ArrayFacts f = facts_of(m);
    shared.unit_stride &= f.unit_stride;
    shared.unit_extent &= f.unit_extent;
    shared.extent_div16 &= f.extent_div16;
    shared.stride_div16 &= f.stride_div16;
    shared.base_aligned_16 = shared.base_aligned_16 && f.base_aligned_16;
  }
  return shared;
}

std::vector<ArrayFacts> all_facts(std::span<const LaunchArg> args) {
  std::vector<ArrayFacts> facts;
  for (const LaunchArg& a : args) facts.push_back(arg_facts(a));
  return facts;
}

// The tiles per axis of an output partition, padded with 1 to three axes.
std::array<int64_t, 3> tile_grid(const TensorArgView& t) {
  std::array<int64_t, 3> g = {1, 1, 1};
  for (size_t d = 0; d < t.shape.size(); ++d) {
    const int64_t extent = t.shape[static_cast<size_t>(t.tile_order[d])];  // tile dim d walks it
    g[d] = (extent + t.tile_shape[d] - 1) / t.tile_shape[d];
  }
  return g;
}

// `default_blocks`: how many blocks a kernel whose outputs are all OutTiles gets (the device's SMs).
std::array<int64_t, 3> infer_grid(std::span<const LaunchArg> args, const LaunchOptions& options, int64_t default_blocks) {
  std::optional<std::array<int64_t, 3>> grid;
  size_t decided_by = 0;
  int64_t most_tiles = 0;  // of any OutTiles argument
  std::vector<std::pair<size_t, std::array<int64_t, 3>>> prefixes;  // prefix outputs and their tile grids
  for (size_t i = 0; i < args.size(); ++i) {
    if (!is_output(args[i].kind)) continue;
    if (args[i].kind == ArgKind::output_tiles_list) {  // the tiles of all members, numbered as one
      int64_t tiles = 0;
      for (const TensorArgView& m : args[i].members) {
        const std::array<int64_t, 3> g = tile_grid(m);
        tiles += g[0] * g[1] * g[2];
      }
      most_tiles = std::max(most_tiles, tiles);
      continue;
    }
    const TensorArgView& t = *args[i].tensor;
    const std::array<int64_t, 3> g = tile_grid(t);
    if (args[i].kind == ArgKind::output_tiles) {
      most_tiles = std::max(most_tiles, g[0] * g[1] * g[2]);
      continue;
    }
    if (t.prefix_cover) {  // bounds the grid, checked below; never sets it
      prefixes.emplace_back(i, g);
      continue;
    }
    if (grid && *grid != g)
      throw UserError("output partitions disagree on the launch grid: " + arg_name(decided_by, args[decided_by]) + " gives " +
                      dims_text({(*grid)[0], (*grid)[1], (*grid)[2]}) + ", " + arg_name(i, args[i]) + " gives " +
                      dims_text({g[0], g[1], g[2]}));
    grid = g;
    decided_by = i;
  }
  if (options.grid) {
    if (grid && *grid != *options.grid)
      throw UserError("LaunchOptions::grid " + dims_text({(*options.grid)[0], (*options.grid)[1], (*options.grid)[2]}) +
                      " differs from the output partitions' grid " + dims_text({(*grid)[0], (*grid)[1], (*grid)[2]}));
    grid = options.grid;
  }
  const bool scheduled = std::any_of(args.begin(), args.end(), [](const LaunchArg& a) {
    return a.kind == ArgKind::output_tiles || a.kind == ArgKind::output_tiles_list;
  });
  if (!grid && scheduled) grid = std::array<int64_t, 3>{std::clamp<int64_t>(most_tiles, 1, default_blocks), 1, 1};
  if (!grid && !prefixes.empty())
    throw UserError("the kernel's output partitions are prefixes, which bound the launch grid but do not set it: pass "
                    "LaunchOptions::grid");
  if (!grid) throw UserError("the kernel has no output partition to take the launch grid from: pass LaunchOptions::grid");
  for (int64_t g : *grid)
    if (g < 1 || g > INT32_MAX) throw UserError("launch grid dimensions must be in 1..2^31-1, got " + std::to_string(g));
  if (scheduled && ((*grid)[1] != 1 || (*grid)[2] != 1))
    throw UserError("a kernel with OutTiles or OutTilesList parameters runs on a 1-D grid (its schedules hand out "
                    "tiles by the x block "
                    "index only), got the grid " + dims_text({(*grid)[0], (*grid)[1], (*grid)[2]}));
  for (const auto& [i, g] : prefixes)
    for (size_t d = 0; d < 3; ++d)
      if ((*grid)[d] > g[d])
        throw UserError("the launch grid " + dims_text({(*grid)[0], (*grid)[1], (*grid)[2]}) + " has more blocks along axis " +
                        std::to_string(d) + " than " + arg_name(i, args[i]) + ", a prefix partition, has tiles " +
                        dims_text({g[0], g[1], g[2]}) + ": a block would write past its tensor");
  return *grid;
}

ir::Version bytecode_version() {
  if (const char* requested = std::getenv("CUTILE_BYTECODE_VERSION")) {
    const auto v = ir::parse_version(requested);
    if (!v || *v < ir::kOldestVersion || *v > ir::kNewestVersion)
      throw UserError(std::string("CUTILE_BYTECODE_VERSION=") + requested + " is not a version cutile writes (13.1 .. 13.4)");
    return *v;
  }
  return ir::kDefaultVersion;
}

struct Specialisation {
  std::shared_ptr<const compile::CachedCubin> cubin;
  std::string name;
  double trace_seconds = 0;
  size_t bytecode_bytes = 0;
};

// A traced and verified kernel.
struct TracedModule {
  std::unique_ptr<ir::Module> module;
  std::string name;
  ir::Version version;  // the bytecode version it was verified for
};

TracedModule trace_module(const KernelRef& kernel, std::span<const LaunchArg> args, const LaunchOptions& options,
                          const std::array<int64_t, 3>& grid) {
  TracedModule traced;
  traced.module = kernel.trace(kernel.kernel, all_facts(args), single_block_axes(grid));
  ir::Function& entry = *traced.module->functions().front();
  entry.set_hints(entry_hints(options.hints));
  traced.version = bytecode_version();
  ir::verify_module(*traced.module, traced.version);
  traced.name = entry.name();
  return traced;
}

// Writes the IR text and bytecode when CUTILE_DUMP asks for this kernel; whether it did.
bool dump_if_asked(const TracedModule& traced) {
  const compile::DumpConfig dump = compile::DumpConfig::from_env();
  if (!dump.wants(traced.name)) return false;
  compile::write_dump(dump, traced.name, ir::print_module(*traced.module),
                      bytecode::write_bytecode(*traced.module, {.version = traced.version}));
  return true;
}

// Trace, verify, write bytecode and get the cubin (bypassing the caches for a dumped kernel). The cache
// key is taken from the bytecode without source locations (cache_key.hpp).
Specialisation specialise(const KernelRef& kernel, std::span<const LaunchArg> args, const LaunchOptions& options,
                          const std::array<int64_t, 3>& grid, const std::string& gpu) {
  const auto start = Clock::now();
  const TracedModule traced = trace_module(kernel, args, options, grid);
  const std::vector<uint8_t> bytecode = bytecode::write_bytecode(*traced.module, {.version = traced.version});
  const std::vector<uint8_t> identity =
      bytecode::write_bytecode(*traced.module, {.version = traced.version, .debug_info = false});
  Specialisation s;
  s.name = traced.name;
  s.bytecode_bytes = bytecode.size();
  s.trace_seconds = std::chrono::duration<double>(Clock::now() - start).count();
  compile::CompileOptions compile_options;
  compile_options.gpu_name = gpu;
  compile_options.opt_level = options.opt_level;
  compile::CubinCache& cache = compile::CubinCache::global();
  s.cubin = dump_if_asked(traced) ? cache.compile_fresh(bytecode, compile_options, s.name, identity)
                                  : cache.get(bytecode, compile_options, s.name, identity);
  return s;
}

// Launch-ready kernels, one per (kernel, argument facts, single-block grid axes, options, device): a loaded
// cubin for a GPU, the verified module for the CPU interpreter.
struct LoadedKernel {
  std::optional<runtime::LoadedModule> module;
  runtime::KernelFunction function;
  std::unique_ptr<ir::Module> interpreted;
  std::string name;
};

struct TableKey {
  AnyKernel kernel;
  int device;
  int opt_level;
  std::vector<int64_t> signature;  // per argument: kind, element, facts; single-block axes; hints
  bool operator==(const TableKey&) const = default;
};

struct TableKeyHash {
  size_t operator()(const TableKey& k) const {
    size_t h = std::hash<const void*>{}(reinterpret_cast<const void*>(k.kernel)) ^ (size_t(k.device) << 48) ^
               (size_t(k.opt_level) << 56);
    for (int64_t v : k.signature) h = (h ^ std::hash<int64_t>{}(v)) * 0x100000001b3ULL;
    return h;
  }
};

// `device` is the GPU ordinal, or -1 for the CPU. Fills `key` in place: its signature keeps its capacity
// from launch to launch, so a table hit allocates nothing.
void fill_table_key(TableKey& key, const KernelRef& kernel, std::span<const LaunchArg> args, const LaunchOptions& options,
                    const std::array<int64_t, 3>& grid, int device) {
  key.kernel = kernel.kernel;
  key.device = device;
  key.opt_level = options.opt_level;
  key.signature.clear();
  for (const LaunchArg& a : args) {
    key.signature.push_back(static_cast<int64_t>(a.kind) << 8 | static_cast<int64_t>(a.element));
    if (a.tensor) {
      const ArrayFacts f = arg_facts(a);
      key.signature.insert(key.signature.end(), {f.unit_stride, f.unit_extent, f.extent_div16, f.stride_div16,
                                                 f.base_aligned_16});
    }
  }
  key.signature.push_back(single_block_axes(grid));
  const KernelHints& h = options.hints;
  for (const auto& hint : {h.num_ctas, h.occupancy, h.num_worker_warps}) key.signature.push_back(hint.value_or(-1));
  for (const auto& [gpu, t] : h.targets) {
    key.signature.push_back(static_cast<int64_t>(gpu.size()));  // then the name, 8 characters per entry
    for (size_t k = 0; k < gpu.size(); k += 8) {
      int64_t chars = 0;
      std::memcpy(&chars, gpu.data() + k, std::min<size_t>(8, gpu.size() - k));
      key.signature.push_back(chars);
    }
    for (const auto& hint : {t.num_ctas, t.occupancy, t.num_worker_warps}) key.signature.push_back(hint.value_or(-1));
  }
}

std::mutex table_mutex;
std::unordered_map<TableKey, std::shared_ptr<LoadedKernel>, TableKeyHash>& kernel_table() {
  static std::unordered_map<TableKey, std::shared_ptr<LoadedKernel>, TableKeyHash> table;
  return table;
}

std::shared_ptr<LoadedKernel> loaded_kernel(const KernelRef& kernel, std::span<const LaunchArg> args,
                                            const LaunchOptions& options, const std::array<int64_t, 3>& grid,
                                            const Device& device) {
  // A dump must never be skipped by a table hit, so dumping re-traces every launch.
  const bool dumping = std::getenv("CUTILE_DUMP") != nullptr;
  thread_local TableKey key;
  fill_table_key(key, kernel, args, options, grid, device.is_cpu() ? -1 : device.index());
  if (!dumping) {
    std::lock_guard lock(table_mutex);
    if (auto it = kernel_table().find(key); it != kernel_table().end()) return it->second;
  }
  auto loaded = std::make_shared<LoadedKernel>();
  if (device.is_cpu()) {
    TracedModule traced = trace_module(kernel, args, options, grid);
    dump_if_asked(traced);
    loaded->interpreted = std::move(traced.module);
    loaded->name = traced.name;
  } else {
    const Specialisation s = specialise(kernel, args, options, grid, device.arch());
    device.make_current();
    loaded->module.emplace(s.cubin->cubin);
    loaded->function = loaded->module->function(s.name);
    loaded->name = s.name;
  }
  std::lock_guard lock(table_mutex);
  return kernel_table().emplace(key, std::move(loaded)).first->second;
}

// Kernel parameters: per tensor its base pointer, extents and strides (i32), per list its descriptor
// rows' address and member count (i32), per raw pointer its address, per scalar its value.
struct PackedParams {
  std::vector<uint64_t> slots;
  std::vector<void*> pointers;
};

// Packs into this thread's buffers, which keep their capacity from launch to launch; valid until the
// thread's next pack.
PackedParams& pack(std::span<const LaunchArg> args) {
  thread_local PackedParams p;
  p.slots.clear();
  p.pointers.clear();
  for (const LaunchArg& a : args) {
    if (!a.tensor) {
      p.slots.push_back(a.scalar_bits);
      continue;
    }
    p.slots.push_back(a.tensor->address);
    if (a.kind == ArgKind::raw_pointer) continue;
    if (is_list(a.kind)) {
      p.slots.push_back(static_cast<uint32_t>(a.members.size()));
      continue;
    }
    for (int64_t v : a.tensor->shape) p.slots.push_back(static_cast<uint32_t>(static_cast<int32_t>(v)));
    for (int64_t v : a.tensor->strides) p.slots.push_back(static_cast<uint32_t>(static_cast<int32_t>(v)));
  }
  for (uint64_t& slot : p.slots) p.pointers.push_back(&slot);
  return p;
}

std::string device_text(const TensorArgView& t) { return t.on_cpu ? "cpu" : "cuda:" + std::to_string(t.device); }

// The device of the launch, made current on this thread (Device(i) does so when it is made).
Device launch_device(std::span<const LaunchArg> args, const LaunchOptions& options) {
  const TensorArgView* first = nullptr;
  size_t decided_by = 0;
  for (size_t i = 0; i < args.size(); ++i) {
    if (!args[i].tensor) continue;
    const TensorArgView& t = *args[i].tensor;
    if (!first) {
      first = &t;
      decided_by = i;
    } else if (t.on_cpu != first->on_cpu || t.device != first->device) {
      throw UserError(arg_name(i, args[i]) + " is on " + device_text(t) + " but " + arg_name(decided_by, args[decided_by]) +
                      " is on " + device_text(*first) + ": all tensors of a launch must be on one device");
    }
  }
  if (options.stream) {
    const Device& device = options.stream->device();
    if (first && (device.is_cpu() != first->on_cpu || device.index() != first->device))
      throw UserError("the launch stream belongs to " + device.describe() + " but the tensors are on " + device_text(*first));
    device.make_current();
    return device;
  }
  if (!first) return default_device();
  return first->on_cpu ? Device::cpu() : Device(first->device);
}

// Runs the kernel on the CPU interpreter, synchronously: the tensors' host memory is all it may touch,
// inputs read-only.
void interpret(const LoadedKernel& loaded, std::span<const LaunchArg> args, const std::array<int64_t, 3>& grid) {
  std::vector<interp::MemoryRegion> memory;
  for (size_t i = 0; i < args.size(); ++i)
    for_each_tensor(args, i, [&](const ArgTensor& t) {
      memory.push_back({.address = t.view->address,
                        .bytes = t.view->byte_extent(),
                        .name = tensor_name(args, t),
                        .writable = t.written,
                        .initialised = t.view->initialised});
    });
  interp::run(*loaded.interpreted, loaded.name, pack(args).slots, grid, memory);
}

}  // namespace

Completion launch_kernel(const KernelRef& kernel, std::span<LaunchArg> args, const LaunchOptions& options) {
  check_args(args, /*needs_memory=*/true);
  const Device device = launch_device(args, options);
  const std::array<int64_t, 3> grid = infer_grid(args, options, device.sm_count());
  const Stream stream = options.stream ? *options.stream : Stream::default_stream(device);
  bool lent = false, tracked = false;  // whether some tensor is lent (AnyTensor::lend), some has a borrow state
  for (size_t i = 0; i < args.size(); ++i)
    for_each_tensor(args, i, [&](const ArgTensor& t) {
      (t.view->state ? tracked : lent) = true;
      t.view->order_before_use(stream, t.written ? Access::write : Access::read, [&] { return tensor_name(args, t); });
    });
  std::shared_ptr<LoadedKernel> loaded = loaded_kernel(kernel, args, options, grid, device);
  if (device.is_cpu()) {
    interpret(*loaded, args, grid);
    return Completion();  // finished
  }
  PackedParams& params = pack(args);  // launch_device made the device current
  runtime::check(runtime::driver_api().cuLaunchKernel(loaded->function.handle, static_cast<unsigned>(grid[0]),
                                                      static_cast<unsigned>(grid[1]), static_cast<unsigned>(grid[2]),
                                                      1, 1, 1, 0, stream.handle(), params.pointers.data(), nullptr),
                 "cuLaunchKernel");
  // Lent memory is ordered by its caller's stream: a launch that touches nothing else records nothing.
  if (lent && !tracked) return Completion();
  Completion done = Completion::defer(stream);
  for (size_t i = 0; i < args.size(); ++i)
    for_each_tensor(args, i, [&](const ArgTensor& t) {
      if (!t.view->state) return;
      if (t.written)
        t.view->state->record_write(done);
      else
        t.view->state->record_read(done);
    });
  return done;
}

CompiledKernel compile_kernel(const KernelRef& kernel, std::span<LaunchArg> args, const LaunchOptions& options,
                              const std::string& gpu) {
  check_args(args, /*needs_memory=*/false);
  const Specialisation s = specialise(kernel, args, options, infer_grid(args, options, 1), gpu);
  return {s.name, gpu, s.cubin->key.hex(), s.bytecode_bytes, s.trace_seconds, s.cubin->compile_seconds, s.cubin->cubin};
}

}  // namespace cutile::detail
