// The launch itself: the kernel's parameters packed, the driver launch on the stream (or the CPU
// interpreter), the borrow states' records; and the ahead-of-time entry, which checks and specialises
// without launching. The steps before are in launch_path.hpp.
#include <string>
#include <vector>

#include "cutile/interp/run.hpp"
#include "cutile/runtime/launch.hpp"
#include "launch/launch_path.hpp"

namespace cutile::detail {
namespace {

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

// Runs the kernel on the CPU interpreter, synchronously: the tensors' host memory is all it may touch,
// inputs read-only.
void interpret(const LoadedKernel& loaded, std::span<const LaunchArg> args,
               const std::array<int64_t, 3>& grid) {
  std::vector<interp::MemoryRegion> memory;
  for (size_t i = 0; i < args.size(); ++i)
    for_each_tensor(args, i, [&](const ArgTensor& t) {
      memory.push_back({.address = t.view->address,
                        .bytes = t.view->byte_extent(),
                        .name = tensor_name(args, t),
                        .writable = t.written,
                        .initialised = t.view->initialised,
                        .shape = t.view->shape,
                        .strides = t.view->strides,
                        .element_size = t.view->element_size});
    });
  interp::run(*loaded.interpreted, loaded.name, pack(args).slots, grid, memory);
}

}  // namespace

Completion launch_kernel(const KernelRef& kernel, std::span<LaunchArg> args, const LaunchOptions& options) {
  check_args(args, /*needs_memory=*/true);
  const Device device = launch_device(args, options);
  const std::array<int64_t, 3> grid = infer_grid(args, options, options.sm_count.value_or(device.sm_count()));
  const Stream stream = options.stream ? *options.stream : Stream::default_stream(device);
  // Whether some tensor is lent (AnyTensor::lend), and whether some has a borrow state.
  bool lent = false, tracked = false;
  for (size_t i = 0; i < args.size(); ++i)
    for_each_tensor(args, i, [&](const ArgTensor& t) {
      (t.view->state ? tracked : lent) = true;
      t.view->order_before_use(stream, t.written ? Access::write : Access::read,
                               [&] { return tensor_name(args, t); });
    });
  std::shared_ptr<LoadedKernel> loaded = loaded_kernel(kernel, args, options, grid, device);
  if (device.is_cpu()) {
    interpret(*loaded, args, grid);
    return Completion();  // finished
  }
  PackedParams& params = pack(args);  // launch_device made the device current
  runtime::launch(
      loaded->function,
      {static_cast<unsigned>(grid[0]), static_cast<unsigned>(grid[1]), static_cast<unsigned>(grid[2])},
      params.pointers, stream.handle());
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
  const std::array<int64_t, 3> grid = infer_grid(args, options, options.sm_count.value_or(kDefaultSmCount));
  const Specialisation s = specialise(kernel, args, options, grid, gpu);
  return {s.name,        gpu, s.cubin->key.hex(), s.bytecode_bytes, s.trace_seconds, s.cubin->compile_seconds,
          s.cubin->cubin};
}

std::pair<std::string, std::unique_ptr<ir::Module>> trace_only(const KernelRef& kernel, std::span<LaunchArg> args,
                                                               const LaunchOptions& options) {
  check_args(args, /*needs_memory=*/false);
  const std::array<int64_t, 3> grid = infer_grid(args, options, options.sm_count.value_or(kDefaultSmCount));
  return trace_verified(kernel, args, options, grid);
}

}  // namespace cutile::detail
