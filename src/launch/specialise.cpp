// Specialisation: the facts a kernel is specialised on, tracing and verifying it, the CUTILE_DUMP dump,
// bytecode and the cubin cache, and the per-process table of launch-ready kernels.
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <unordered_map>

#include "cutile/bytecode/writer.hpp"
#include "cutile/compile/dump.hpp"
#include "cutile/error.hpp"
#include "cutile/ir/printer.hpp"
#include "cutile/ir/verifier.hpp"
#include "launch/launch_path.hpp"

namespace cutile::detail {
namespace {

using Clock = std::chrono::steady_clock;

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

ir::Version bytecode_version() {
  if (const char* requested = std::getenv("CUTILE_BYTECODE_VERSION")) {
    const auto v = ir::parse_version(requested);
    if (!v || *v < ir::kOldestVersion || *v > ir::kNewestVersion)
      throw UserError(std::string("CUTILE_BYTECODE_VERSION=") + requested +
                      " is not a version cutile writes (13.1 .. 13.5)");
    return *v;
  }
  return ir::kDefaultVersion;
}

// A traced and verified kernel.
struct TracedModule {
  std::unique_ptr<ir::Module> module;
  std::string name;
  ir::Version version;  // the bytecode version it was verified for
};

TracedModule trace_module(const KernelRef& kernel, std::span<const LaunchArg> args,
                          const LaunchOptions& options, const std::array<int64_t, 3>& grid) {
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
void fill_table_key(TableKey& key, const KernelRef& kernel, std::span<const LaunchArg> args,
                    const LaunchOptions& options, const std::array<int64_t, 3>& grid, int device) {
  key.kernel = kernel.kernel;
  key.device = device;
  key.opt_level = options.opt_level;
  key.signature.clear();
  for (const LaunchArg& a : args) {
    key.signature.push_back(static_cast<int64_t>(a.kind) << 8 | static_cast<int64_t>(a.element));
    if (a.tensor) {
      const ArrayFacts f = arg_facts(a);
      key.signature.insert(key.signature.end(),
                           {f.unit_stride, f.unit_extent, f.extent_div16, f.stride_div16, f.base_aligned_16});
    }
  }
  key.signature.push_back(single_block_axes(grid));
  const KernelHints& h = options.hints;
  for (const auto& hint : {h.num_ctas, h.occupancy, h.num_worker_warps})
    key.signature.push_back(hint.value_or(-1));
  for (const auto& [gpu, t] : h.targets) {
    key.signature.push_back(static_cast<int64_t>(gpu.size()));  // then the name, 8 characters per entry
    for (size_t k = 0; k < gpu.size(); k += 8) {
      int64_t chars = 0;
      std::memcpy(&chars, gpu.data() + k, std::min<size_t>(8, gpu.size() - k));
      key.signature.push_back(chars);
    }
    for (const auto& hint : {t.num_ctas, t.occupancy, t.num_worker_warps})
      key.signature.push_back(hint.value_or(-1));
  }
}

std::mutex table_mutex;
std::unordered_map<TableKey, std::shared_ptr<LoadedKernel>, TableKeyHash>& kernel_table() {
  static std::unordered_map<TableKey, std::shared_ptr<LoadedKernel>, TableKeyHash> table;
  return table;
}

}  // namespace

std::pair<std::string, std::unique_ptr<ir::Module>> trace_verified(const KernelRef& kernel,
                                                                   std::span<const LaunchArg> args,
                                                                   const LaunchOptions& options,
                                                                   const std::array<int64_t, 3>& grid) {
  TracedModule traced = trace_module(kernel, args, options, grid);
  dump_if_asked(traced);
  return {std::move(traced.name), std::move(traced.module)};
}

Specialisation specialise(const KernelRef& kernel, std::span<const LaunchArg> args,
                          const LaunchOptions& options, const std::array<int64_t, 3>& grid,
                          const std::string& gpu) {
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

}  // namespace cutile::detail
