// Launch-time argument checks: element type, rank, static dims, partition tile and order, borrows,
// memory and index ranges of every tensor, outputs overlapping other arguments, and the device of the
// launch. Also how messages name the arguments.
#include <optional>
#include <string>
#include <vector>

#include "cutile/error.hpp"
#include "launch/launch_path.hpp"

namespace cutile::detail {
namespace {

// The element, rank, shape or tile, borrow and range checks of one tensor (a list's: of each member).
template <class Name>
void check_tensor(const LaunchArg& arg, const TensorArgView& t, const Name& name_text, bool needs_memory) {
  if (t.element != arg.element)
    throw UserError(name_text() + ": expected a tensor of " +
                    std::string(ir::element_type_name(arg.element)) + ", got " + t.describe());
  // A raw pointer passes the base address alone: no rank, shape or index range to check.
  const bool layout_passed = arg.kind != ArgKind::raw_pointer;
  if (layout_passed) {
    if (t.shape.size() != arg.kernel_dims.size())
      throw UserError(name_text() + ": expected a rank-" + std::to_string(arg.kernel_dims.size()) +
                      " tensor, got " + t.describe() + " (rank " + std::to_string(t.shape.size()) + ")");
    if (arg.kind == ArgKind::input || arg.kind == ArgKind::atomic || arg.kind == ArgKind::input_list) {
      for (size_t d = 0; d < t.shape.size(); ++d)
        if (arg.kernel_dims[d] != dyn && arg.kernel_dims[d] != t.shape[d])
          throw UserError(name_text() + ": dimension " + std::to_string(d) + " must be " +
                          std::to_string(arg.kernel_dims[d]) + " (the kernel's shape " +
                          dims_text(arg.kernel_dims) + "), got " + t.describe());
    } else if (t.tile_shape != arg.kernel_dims) {
      throw UserError(name_text() + ": the partition's tile " + dims_text(t.tile_shape) +
                      " differs from the kernel's output tile " + dims_text(arg.kernel_dims) + " (" +
                      t.describe() + ")");
    } else if (arg.kind == ArgKind::output_tiles && t.prefix_cover) {
      throw UserError(name_text() +
                      ": a prefix partition cannot be an OutTiles argument, whose schedule hands out every "
                      "tile (" +
                      t.describe() + ")");
    } else if (t.tile_order != arg.kernel_order) {
      throw UserError(name_text() + ": the partition's order " + dims_text(t.tile_order) +
                      " differs from the kernel's output order " + dims_text(arg.kernel_order) + " (" +
                      t.describe() + "); partition it with tensor.partition(tile, " +
                      dims_text(arg.kernel_order) + ")");
    }
  }
  // A live partition holds its elements exclusively: only that partition, as this output, may use them.
  if (t.state)
    t.state->check_not_borrowed({t.address, t.shape, t.strides, t.element_size}, [&] { return "use " + name_text() + " (" + t.describe() + ") in a launch"; },
                                t.borrow);
  if (needs_memory && t.device < 0)
    throw UserError(
        name_text() +
        " is a meta tensor without memory: it can be compiled for (cutile::compile_only) but not launched");
  if (!layout_passed) return;
  for (int64_t v : t.shape)
    if (v > INT32_MAX)
      throw UserError(name_text() + ": extent " + std::to_string(v) +
                      " exceeds the i32 index range of the kernel");
  for (int64_t v : t.strides)
    if (v > INT32_MAX)
      throw UserError(name_text() + ": stride " + std::to_string(v) +
                      " exceeds the i32 index range of the kernel");
}

std::string device_text(const TensorArgView& t) {
  return t.on_cpu ? "cpu" : "cuda:" + std::to_string(t.device);
}

}  // namespace

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
  return "argument " + std::to_string(i) + " (" + kind + "<" +
         std::string(ir::element_type_name(arg.element)) + ">)";
}

std::string tensor_name(std::span<const LaunchArg> args, const ArgTensor& t) {
  return arg_name(t.arg, args[t.arg]) + (t.member ? " member " + std::to_string(*t.member) : "") +
         (t.rows ? "'s descriptor rows" : "");
}

void check_args(std::span<LaunchArg> args, bool needs_memory) {
  thread_local std::vector<ArgTensor> tensors;  // keeps its capacity from launch to launch
  tensors.clear();
  for (size_t i = 0; i < args.size(); ++i) {
    const LaunchArg& arg = args[i];
    if (!arg.tensor) continue;
    if (!is_list(arg.kind)) {
      check_tensor(
          arg, *arg.tensor, [&] { return arg_name(i, arg); }, needs_memory);
    } else {
      if (needs_memory && arg.tensor->device < 0)
        throw UserError(arg_name(i, arg) +
                        " is a list of meta tensors without memory: it can be compiled for "
                        "(cutile::compile_only) but not launched");
      for (size_t m = 0; m < arg.members.size(); ++m)
        check_tensor(
            arg, arg.members[m], [&] { return arg_name(i, arg) + " member " + std::to_string(m); },
            needs_memory);
    }
    for_each_tensor(args, i, [&](const ArgTensor& t) { tensors.push_back(t); });
  }
  // Outputs and atomics are exclusive: no other tensor of the launch may reach their memory.
  for (const ArgTensor& w : tensors) {
    if (!w.written) continue;
    for (const ArgTensor& other : tensors) {
      if (&other == &w || w.view->device < 0 || !storage_overlaps(*w.view, *other.view)) continue;
      throw UserError(
          tensor_name(args, w) + " overlaps " + tensor_name(args, other) + " in memory (" +
          w.view->describe() + " and " + other.view->describe() +
          (args[w.arg].kind == ArgKind::atomic        ? "): an Atomic tensor may not alias another argument"
           : args[w.arg].kind == ArgKind::raw_pointer ? "): a RawPtr's tensor may not alias another argument"
                                                      : "): an output may not alias another argument"));
    }
  }
}

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
      throw UserError(arg_name(i, args[i]) + " is on " + device_text(t) + " but " +
                      arg_name(decided_by, args[decided_by]) + " is on " + device_text(*first) +
                      ": all tensors of a launch must be on one device");
    }
  }
  if (options.stream) {
    const Device& device = options.stream->device();
    if (first && (device.is_cpu() != first->on_cpu || device.index() != first->device))
      throw UserError("the launch stream belongs to " + device.describe() + " but the tensors are on " +
                      device_text(*first));
    device.make_current();
    return device;
  }
  if (!first) return default_device();
  return first->on_cpu ? Device::cpu() : Device(first->device);
}

}  // namespace cutile::detail
