// Where an op's launches go: onto a stream (a GPU's, or the CPU interpreter's), into tileiras for an
// architecture with no GPU present (ahead-of-time compilation and the aot tests), or into traced modules
// only (IR parity and dumps, no tileiras). A launcher is written once against a Target and serves all
// three.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cutile/host/launch.hpp"
#include "cutile/op/choice.hpp"
#include "cutile/op/dtype.hpp"

namespace cutile::op {

/// A kernel a trace target recorded, as launched: its entry's name and its verified module.
struct TracedKernel {
  std::string name;
  std::shared_ptr<const ir::Module> module;
};

class Target {
 public:
  enum class Mode { launch, compile, trace };

  /// Launches on `stream`, on its device; persistent grids are sized by `sm_count` SMs (default: the
  /// device's), which a caller sharing the GPU, or a test of grid sizes, may lower.
  static Target on(const Stream& stream, std::optional<int> sm_count = std::nullopt);
  /// Compiles every launch for `gpu` (e.g. "sm_90"), a GPU with `sm_count` SMs, and launches nothing.
  static Target compile_for(std::string gpu, int sm_count);
  /// Traces and verifies every launch for `gpu` with `sm_count` SMs, keeping the modules.
  static Target trace_for(std::string gpu, int sm_count);

  Mode mode() const { return mode_; }
  /// The SMs persistent grids are sized by (hardware threads on the CPU interpreter).
  int sm_count() const { return sm_count_; }
  /// tileiras' --gpu-name, e.g. "sm_90"; "interpret" on the CPU.
  const std::string& gpu() const { return gpu_; }
  /// The stream of a launch target; a cutile::InternalError for the others.
  const Stream& stream() const;

  /// Launches `kernel` (compiles it, traces it) with `options`; a launch target sets the stream.
  template <detail::KernelParam... P, class... A>
  void launch(LaunchOptions options, void (*kernel)(P...), A&&... args) {
    auto bound = detail::bind_args<P...>(std::forward<A>(args)...);
    const detail::KernelRef ref{reinterpret_cast<detail::AnyKernel>(kernel), &detail::trace_erased<P...>};
    dispatch(ref, bound, std::move(options));
  }

  /// The value of the op's tunable `name` for the call being launched: the tuner's candidate while it
  /// measures one, else the tuning record that holds for this call (tuning.hpp), else `fallback`, the
  /// launcher's own policy.
  int64_t tuned(std::string_view name, int64_t fallback) const {
    const Choice* choice = forced_ ? forced_ : recorded_;
    const auto value = choice ? choice->value(name) : std::nullopt;
    return value.value_or(fallback);
  }
  /// The choice every later launch takes instead of any record (null: none; an empty choice: the launcher's
  /// policy): the tuner's. It must outlive those launches.
  void force(const Choice* choice) { forced_ = choice; }
  /// The recorded choice for the call about to be launched (null: none); op::launch sets it per call.
  void use_record(const Choice* choice) { recorded_ = choice; }

  /// Memory for intermediate results of one call: row-major on the target's device, in its stream's
  /// order, freed after the launches that use it; a meta tensor for compile and trace targets.
  AnyTensor scratch(Dtype dtype, std::vector<int64_t> shape) const;

  /// The elements of a list argument as a TensorList, for an InList or, partitioned, an OutTilesList: its
  /// descriptor rows written in the stream's order (meta for compile and trace targets, as the elements).
  template <Element E>
  TensorList<E> tensor_list(std::span<const AnyTensor* const> elements) const {
    std::vector<Tensor<E>> members;
    members.reserve(elements.size());
    for (const AnyTensor* element : elements) members.emplace_back(*element);
    return stream_ ? TensorList<E>(std::move(members), *stream_) : TensorList<E>(std::move(members));
  }

  /// What a compile target compiled, in launch order.
  std::span<const CompiledKernel> compiled() const { return compiled_; }
  /// What a trace target traced, in launch order.
  std::span<const TracedKernel> traced() const { return traced_; }

 private:
  Target(Mode mode, std::string gpu, int sm_count) : mode_(mode), gpu_(std::move(gpu)), sm_count_(sm_count) {}
  void dispatch(const detail::KernelRef& kernel, std::span<detail::LaunchArg> args, LaunchOptions options);

  Mode mode_;
  std::string gpu_;
  int sm_count_;
  std::optional<Stream> stream_;
  std::vector<CompiledKernel> compiled_;
  std::vector<TracedKernel> traced_;
  const Choice* forced_ = nullptr;
  const Choice* recorded_ = nullptr;
};

}  // namespace cutile::op
