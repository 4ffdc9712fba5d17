// Tracing a kernel: declare the entry's parameters from the kernel's parameter types, run the body on
// symbolic values, and return the finished module.
#pragma once

#include <memory>
#include <span>
#include <tuple>

#include "cutile/error.hpp"
#include "cutile/params/atomic.hpp"
#include "cutile/params/in.hpp"
#include "cutile/params/list.hpp"
#include "cutile/params/out.hpp"
#include "cutile/params/out_tiles.hpp"
#include "cutile/params/raw_ptr.hpp"

namespace cutile::detail {

template <class P>
struct param_traits;

// A tensor parameter of kind KIND whose kernel-side object P is made from the traced tensor view (and,
// when TOKENS, a token chain of its own). STATIC_DIMS: the kernel's static extents; outputs have none
// (their shape is the tile's, the tensor's extents are runtime values).
template <class P, ArgKind KIND, Element E, size_t RANK, bool TOKENS, auto STATIC_DIMS>
struct tensor_param_traits {
  static constexpr ArgKind kind = KIND;
  static constexpr size_t rank = RANK;
  using element = E;
  static std::vector<ir::Type> types() { return array_param_types(ir_element<E>, rank); }
  static P trace(TraceContext& ctx, size_t first, const ArrayFacts& facts) {
    ArrayValues values = trace_array(ctx, first, ir_element<E>, STATIC_DIMS, facts);
    if constexpr (TOKENS)
      return P(std::move(values), ctx.new_token_chain());
    else
      return P(std::move(values));
  }
};

template <Element E, ShapeType S>
struct param_traits<In<E, S>> : tensor_param_traits<In<E, S>, ArgKind::input, E, S::rank, false, S::dims> {};

template <Element E, ShapeType S, class O>
struct param_traits<Out<E, S, O>>
    : tensor_param_traits<Out<E, S, O>, ArgKind::output, E, S::rank, true, all_dynamic<S::rank>> {};

template <Element E, ShapeType S, class O>
struct param_traits<OutTiles<E, S, O>>
    : tensor_param_traits<OutTiles<E, S, O>, ArgKind::output_tiles, E, S::rank, true, all_dynamic<S::rank>> {
};

template <Element E, ShapeType S>
struct param_traits<Atomic<E, S>>
    : tensor_param_traits<Atomic<E, S>, ArgKind::atomic, E, S::rank, true, S::dims> {};

// A list parameter of kind KIND whose kernel-side object P is made from the traced list (and, when
// TOKENS, a token chain of its own, shared by all members). `facts`: those all the members share.
template <class P, ArgKind KIND, Element E, size_t RANK, bool TOKENS>
struct list_param_traits {
  static constexpr ArgKind kind = KIND;
  static constexpr size_t rank = RANK;
  using element = E;
  static std::vector<ir::Type> types() { return list_param_types(); }
  static P trace(TraceContext& ctx, size_t first, const ArrayFacts& facts) {
    ListValues values = trace_list(ctx, first, RANK, facts);
    if constexpr (TOKENS)
      return P(std::move(values), ctx.new_token_chain());
    else
      return P(std::move(values));
  }
};

template <Element E, ShapeType S>
struct param_traits<InList<E, S>> : list_param_traits<InList<E, S>, ArgKind::input_list, E, S::rank, false> {
};

template <Element E, ShapeType S>
struct param_traits<OutTilesList<E, S>>
    : list_param_traits<OutTilesList<E, S>, ArgKind::output_tiles_list, E, S::rank, true> {};

template <Element E>
struct param_traits<RawPtr<E>> {
  static constexpr ArgKind kind = ArgKind::raw_pointer;
  static constexpr size_t rank = 0;
  using element = E;
  static std::vector<ir::Type> types() { return {ir::Type::scalar_tile_of_pointer(ir_element<E>)}; }
  // The base alone: its alignment is the one fact the kernel gets.
  static RawPtr<E> trace(TraceContext& ctx, size_t first, const ArrayFacts& facts) {
    ir::Value* base = ctx.function().parameter(first);
    if (facts.base_aligned_16) base = ctx.builder().assume(base, ir::Attribute::div_by(16));
    return RawPtr<E>(base, ctx.new_token_chain());
  }
};

template <Element E>
struct param_traits<Tile<E, Shape<>>> {
  static constexpr ArgKind kind = ArgKind::scalar;
  static constexpr size_t rank = 0;
  using element = E;
  static std::vector<ir::Type> types() { return {ir::Type::scalar(ir_element<E>)}; }
  static Tile<E, Shape<>> trace(TraceContext& ctx, size_t first, const ArrayFacts&) {
    return Tile<E, Shape<>>(ctx.function().parameter(first));
  }
};

template <class P>
concept KernelParam = requires { param_traits<std::remove_cvref_t<P>>::kind; };

/// "softmax_rows" from "void softmax_rows(cutile::Out<...>, ...) [with ...]"; "kernel" if none.
std::string kernel_name_from_signature(std::string_view pretty_function);

/// Finishes a traced body: appends `return`, names the entry after the kernel function.
void finish_trace(TraceContext& ctx);

/// Traces `kernel` for arguments with the given facts (one per parameter: a list's are those its members
/// share; ignored for scalars), for a grid with one block along the axes of `single_block_axes`
/// (SingleBlockAxes: their block ids are the constant 0).
template <KernelParam... P>
std::unique_ptr<ir::Module> trace_kernel(void (*kernel)(P...), std::span<const ArrayFacts> facts,
                                         uint32_t single_block_axes = 0) {
  if (facts.size() != sizeof...(P))
    throw InternalError("trace_kernel: one ArrayFacts per parameter expected");
  std::vector<ir::Type> types;
  (
      [&] {
        for (ir::Type& t : param_traits<std::remove_cvref_t<P>>::types()) types.push_back(std::move(t));
      }(),
      ...);
  auto module = std::make_unique<ir::Module>();
  ir::Function& function = module->add_function("kernel", std::move(types));
  TraceContext ctx(*module, function, single_block_axes);
  size_t next_param = 0, next_arg = 0;
  auto bind = [&]<class Q>(std::type_identity<Q>) {
    using traits = param_traits<std::remove_cvref_t<Q>>;
    const size_t first = next_param;
    next_param += traits::types().size();
    return traits::trace(ctx, first, facts[next_arg++]);
  };
  // Braced initialisation evaluates left to right: parameters are bound in declaration order.
  std::tuple<std::remove_cvref_t<P>...> params{bind(std::type_identity<P>{})...};
  std::apply(kernel, params);
  finish_trace(ctx);
  return module;
}

}  // namespace cutile::detail
