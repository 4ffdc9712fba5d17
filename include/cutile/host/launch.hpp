// Launching a kernel: check the arguments against the kernel's signature, specialise and trace it (once
// per specialisation), compile through the cubin cache, and enqueue it on a stream.
//
//   cutile::launch(softmax_rows<bf16, 4096>, y.partition({1, 4096}), x).sync();
//
// Arguments: an In<E, S> takes a Tensor<E> (or an AnyTensor of element E), an Out<E, S> a Partition<E>
// whose tile shape is S and whose order is the Out's (so does an OutTiles<E, S>), an Atomic<E, S> a
// Tensor<E> that overlaps no other argument, a scalar Tile<E, Shape<>> a number, an InList<E, S> a
// TensorList<E>, an OutTilesList<E, S> a PartitionList<E> (its members checked as an OutTiles is), a
// RawPtr<E> a cutile::raw(Tensor<E>) that overlaps no other argument. The grid is the
// Out partitions' grid (they must agree) unless LaunchOptions::grid gives it; a kernel whose outputs are
// all OutTiles gets one block per SM (at most one per tile) by default, and always a 1-D grid. Launch-time checks: element type, rank, static
// dims, partition tile shape, device, outputs overlapping any other argument, live partitions of
// arguments; work on other streams that touches an argument is waited for.
#pragma once

#include <array>
#include <cstring>
#include <optional>
#include <string>

#include "cutile/detail/trace_kernel.hpp"
#include "cutile/host/completion.hpp"
#include "cutile/host/raw_arg.hpp"
#include "cutile/host/stream.hpp"
#include "cutile/host/tensor.hpp"
#include "cutile/host/tensor_list.hpp"

namespace cutile {

/// Entry hints for one GPU target.
struct TargetHints {
  std::optional<int> num_ctas;          ///< CTAs per cluster: a power of two ≤ 16 (1 on sm_8x)
  std::optional<int> occupancy;         ///< 1..32: tile blocks expected per SM
  std::optional<int> num_worker_warps;  ///< 4 or 8
};

/// Entry hints for tileiras, validated before it runs: defaults for every target, and values for named
/// targets that take precedence there, hint by hint (cuTile Python's ByTarget):
///
///   options.hints.occupancy = 2;                                          // every target
///   options.hints.for_target("sm_100", {.num_ctas = 2}).for_target("sm_90", {.occupancy = 1});
struct KernelHints {
  std::optional<int> num_ctas;          ///< CTAs per cluster: a power of two ≤ 16
  std::optional<int> occupancy;         ///< 1..32: tile blocks expected per SM
  std::optional<int> num_worker_warps;  ///< 4 or 8
  /// Per target ("sm_80" … "sm_121", each at most once), in the order given.
  std::vector<std::pair<std::string, TargetHints>> targets;

  KernelHints& for_target(std::string gpu, TargetHints hints) {
    targets.emplace_back(std::move(gpu), hints);
    return *this;
  }
};

/// The SMs compile_only sizes default persistent grids by when the options name none: an H200's.
inline constexpr int kDefaultSmCount = 132;

struct LaunchOptions {
  std::optional<std::array<int64_t, 3>> grid;  ///< needed when no output partition decides it
  std::optional<Stream> stream;                ///< default: the device's default stream
  /// The blocks a kernel whose outputs are all OutTiles gets when `grid` is not set (one per SM); default:
  /// the device's SM count, or kDefaultSmCount where nothing is launched. A caller sharing the GPU, or a
  /// test of grid sizes, may lower it.
  std::optional<int> sm_count;
  KernelHints hints;
  int opt_level = 3;  ///< tileiras -O
};

/// What compile_only() produced: enough to find the kernel in the cache and to report on it.
struct CompiledKernel {
  std::string name;             ///< the entry's name (the kernel function's)
  std::string gpu;              ///< e.g. "sm_90"
  std::string cache_key;        ///< hex SHA-256 of the bytecode and compile options
  size_t bytecode_bytes = 0;
  double trace_seconds = 0;     ///< trace + verify + bytecode
  double compile_seconds = 0;   ///< tileiras; 0 when the cubin came from a cache
  std::vector<uint8_t> cubin;
};

namespace detail {

using AnyKernel = void (*)();
using Tracer = std::unique_ptr<ir::Module> (*)(AnyKernel, std::span<const ArrayFacts>, uint32_t single_block_axes);

/// One argument as the type-erased launch path sees it.
struct LaunchArg {
  ArgKind kind = ArgKind::scalar;
  ir::ElementType element = ir::ElementType::i32;  ///< what the kernel expects
  std::optional<TensorArgView> tensor;             ///< tensors and partitions; a list's descriptor rows
  Dims kernel_dims;                  ///< In: the kernel's shape (dyn allowed); Out: the tile shape
  uint64_t scalar_bits = 0;          ///< scalars, in the element's own encoding
  Dims kernel_order;                  ///< Out, OutTiles: the order the partition must have
  std::vector<TensorArgView> members;  ///< lists: the member tensors or partitions, checked as `kernel_dims`
};

struct KernelRef {
  AnyKernel kernel;
  Tracer trace;
};

template <KernelParam... P>
std::unique_ptr<ir::Module> trace_erased(AnyKernel kernel, std::span<const ArrayFacts> facts,
                                         uint32_t single_block_axes) {
  return trace_kernel(reinterpret_cast<void (*)(P...)>(kernel), facts, single_block_axes);
}

/// The entry's optimization_hints: "default" from the defaults and one entry per target with that
/// target's own values, or nullopt when no hint is set. UserError naming the hint when one is invalid.
std::optional<ir::Attribute> entry_hints(const KernelHints& hints);

Completion launch_kernel(const KernelRef& kernel, std::span<LaunchArg> args, const LaunchOptions& options);
CompiledKernel compile_kernel(const KernelRef& kernel, std::span<LaunchArg> args, const LaunchOptions& options,
                              const std::string& gpu);
/// The checks and the trace of compile_kernel, without tileiras: the entry's name and verified module.
std::pair<std::string, std::unique_ptr<ir::Module>> trace_only(const KernelRef& kernel, std::span<LaunchArg> args,
                                                               const LaunchOptions& options);

template <class P>
struct arg_binder;

template <Element E, ShapeType S>
struct arg_binder<In<E, S>> {
  static LaunchArg bind(const AnyTensor& t) {
    return {ArgKind::input, ir_element<E>, t.arg_view(), S::dims, 0};
  }
  template <Element T>
  static LaunchArg bind(const Tensor<T>&) = delete;  // a Tensor of another element type
  static LaunchArg bind(const Tensor<E>& t) { return bind(static_cast<const AnyTensor&>(t)); }
};

template <Element E, ShapeType S>
struct arg_binder<Atomic<E, S>> {
  static LaunchArg bind(const Tensor<E>& t) { return {ArgKind::atomic, ir_element<E>, t.arg_view(), S::dims, 0}; }
};

template <Element E, ShapeType S, class O>
struct arg_binder<Out<E, S, O>> {
  static LaunchArg bind(const Partition<E>& p) {
    return {ArgKind::output, ir_element<E>, p.arg_view(), S::dims, 0, O::dims};
  }
};

template <Element E, ShapeType S, class O>
struct arg_binder<OutTiles<E, S, O>> {
  static LaunchArg bind(const Partition<E>& p) {
    return {ArgKind::output_tiles, ir_element<E>, p.arg_view(), S::dims, 0, O::dims};
  }
};

template <Element E, ShapeType S>
struct arg_binder<InList<E, S>> {
  static LaunchArg bind(const TensorList<E>& list) {
    LaunchArg arg{ArgKind::input_list, ir_element<E>, list.rows().arg_view(), S::dims, 0};
    for (const Tensor<E>& m : list.members()) arg.members.push_back(m.arg_view());
    return arg;
  }
};

template <Element E, ShapeType S>
struct arg_binder<OutTilesList<E, S>> {
  static LaunchArg bind(const PartitionList<E>& list) {
    LaunchArg arg{ArgKind::output_tiles_list, ir_element<E>, list.rows().arg_view(), S::dims, 0,
                  identity_order<S::rank>::dims};
    for (const Partition<E>& m : list.members()) arg.members.push_back(m.arg_view());
    return arg;
  }
};

template <Element E>
struct arg_binder<RawPtr<E>> {
  static LaunchArg bind(const Raw<E>& r) { return {ArgKind::raw_pointer, ir_element<E>, r.tensor.arg_view(), {}, 0}; }
};

template <Element E>
struct arg_binder<Tile<E, Shape<>>> {
  template <class N>
    requires std::is_arithmetic_v<N>
  static LaunchArg bind(N value) {
    LaunchArg arg{ArgKind::scalar, ir_element<E>, std::nullopt, {}, 0};
    const E converted = to_element<E>(static_cast<double>(value));
    std::memcpy(&arg.scalar_bits, &converted, sizeof(E));
    return arg;
  }
};

template <KernelParam... P, class... A>
std::array<LaunchArg, sizeof...(P)> bind_args(A&&... args) {
  static_assert(sizeof...(P) == sizeof...(A), "cutile::launch: the number of arguments differs from the kernel's parameters");
  return {arg_binder<std::remove_cvref_t<P>>::bind(args)...};
}

}  // namespace detail

/// Launches `kernel` with `args`; returns when the work is enqueued. `.sync()` waits for it (the event is
/// recorded when first waited for: Completion::defer), except when every tensor argument is lent
/// (AnyTensor::lend): their caller's stream orders the work, and the Completion is empty.
template <detail::KernelParam... P, class... A>
Completion launch(const LaunchOptions& options, void (*kernel)(P...), A&&... args) {
  auto bound = detail::bind_args<P...>(std::forward<A>(args)...);
  const detail::KernelRef ref{reinterpret_cast<detail::AnyKernel>(kernel), &detail::trace_erased<P...>};
  return detail::launch_kernel(ref, bound, options);
}

template <detail::KernelParam... P, class... A>
Completion launch(void (*kernel)(P...), A&&... args) {
  return launch(LaunchOptions{}, kernel, std::forward<A>(args)...);
}

/// Ahead-of-time compilation: the same checks, tracing and cache fill as launch() for `gpu`, with no GPU
/// needed (arguments may be meta tensors, Tensor<E>::meta(shape)) and nothing launched. A kernel whose
/// outputs are all OutTiles gets the grid it would get on a GPU with `options.sm_count` SMs (the H200's 132
/// by default) unless `options.grid` sets one.
template <detail::KernelParam... P, class... A>
CompiledKernel compile_only(const std::string& gpu, const LaunchOptions& options, void (*kernel)(P...), A&&... args) {
  auto bound = detail::bind_args<P...>(std::forward<A>(args)...);
  const detail::KernelRef ref{reinterpret_cast<detail::AnyKernel>(kernel), &detail::trace_erased<P...>};
  return detail::compile_kernel(ref, bound, options, gpu);
}

}  // namespace cutile
