// An op's launcher: the one C++ function that holds its host policy (variant, tile sizes, hints, grid)
// and launches its kernels on a Target. It is an ordinary typed function,
//
//   void launch_rms_norm(Target& target, const AnyTensor& y, const AnyTensor& rstd, const AnyTensor& x,
//                        const AnyTensor& weight, double eps, double offset, RmsNormMode mode);
//
// taking the op's tensors and then its scalars, in the description's order. `bind<launch_rms_norm>()`
// makes the description's type-erased Launcher of it, which every caller goes through (op::run, the C
// ABI, Python, the tests, the benchmarks, the IR parity test), after the description's checks.
//
// Parameter types: `const AnyTensor&` for a tensor, `const AnyTensor*` for an optional one (null when
// absent), `std::span<const AnyTensor* const>` for a list of tensors (its elements, at least one),
// `double` for a real, `int64_t` for an integer, `bool` for a flag, an enum (0-based, in the ChoiceSet's
// order) for a choice.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

#include "cutile/op/target.hpp"
#include "cutile/host/tensor.hpp"

namespace cutile::op {

/// A scalar argument: a real or an integer (flags and choices are integers).
struct Scalar {
  enum class Kind : uint8_t { real, integer };
  Kind kind = Kind::integer;
  double real = 0;
  int64_t integer = 0;

  Scalar() = default;
  template <std::floating_point F>
  Scalar(F value) : kind(Kind::real), real(static_cast<double>(value)) {}  // NOLINT: a scalar is a number
  template <class I>
    requires std::is_integral_v<I> || std::is_enum_v<I>
  Scalar(I value) : integer(static_cast<int64_t>(value)) {}  // NOLINT
};

/// The tensors of one tensor argument: one for a tensor (null when an optional one is absent), the
/// elements for a list (TensorSpec::listed).
template <class T>
using Elements = std::span<const T* const>;

/// One call's arguments in the description's order, after its checks: per tensor its Elements, and each
/// scalar with its spec's kind.
struct Arguments {
  std::span<const Elements<AnyTensor>> tensors;
  std::span<const Scalar> scalars;
};

enum class ParamKind : uint8_t { tensor, optional_tensor, tensor_list, real, integer, flag, choice };

struct Launcher {
  void (*function)(Target&, const Arguments&) = nullptr;
  /// The bound function's parameters after the Target, which the registry holds to the description.
  std::vector<ParamKind> params;
};

namespace detail {

template <class T>
struct launch_param;

template <>
struct launch_param<const AnyTensor&> {
  static constexpr ParamKind kind = ParamKind::tensor;
  static const AnyTensor& get(const Arguments& a, size_t i) { return *a.tensors[i][0]; }
};
template <>
struct launch_param<const AnyTensor*> {
  static constexpr ParamKind kind = ParamKind::optional_tensor;
  static const AnyTensor* get(const Arguments& a, size_t i) { return a.tensors[i][0]; }
};
template <>
struct launch_param<std::span<const AnyTensor* const>> {
  static constexpr ParamKind kind = ParamKind::tensor_list;
  static std::span<const AnyTensor* const> get(const Arguments& a, size_t i) { return a.tensors[i]; }
};
template <>
struct launch_param<double> {
  static constexpr ParamKind kind = ParamKind::real;
  static double get(const Arguments& a, size_t i) { return a.scalars[i].real; }
};
template <>
struct launch_param<int64_t> {
  static constexpr ParamKind kind = ParamKind::integer;
  static int64_t get(const Arguments& a, size_t i) { return a.scalars[i].integer; }
};
template <>
struct launch_param<bool> {
  static constexpr ParamKind kind = ParamKind::flag;
  static bool get(const Arguments& a, size_t i) { return a.scalars[i].integer != 0; }
};
template <class E>
  requires std::is_enum_v<E>
struct launch_param<E> {
  static constexpr ParamKind kind = ParamKind::choice;
  static E get(const Arguments& a, size_t i) { return static_cast<E>(a.scalars[i].integer); }
};

constexpr bool is_tensor_kind(ParamKind k) {
  return k == ParamKind::tensor || k == ParamKind::optional_tensor || k == ParamKind::tensor_list;
}

// Parameter k's index among the tensors, or among the scalars.
template <class... P>
constexpr size_t argument_index(size_t k) {
  constexpr std::array<ParamKind, sizeof...(P)> kinds = {launch_param<P>::kind...};
  size_t n = 0;
  for (size_t i = 0; i < k; ++i) n += is_tensor_kind(kinds[i]) == is_tensor_kind(kinds[k]);
  return n;
}

template <auto F, class... P, size_t... K>
void invoke(Target& target, const Arguments& args, std::index_sequence<K...>) {
  F(target, launch_param<P>::get(args, argument_index<P...>(K))...);
}

template <auto F, class... P>
void invoke(Target& target, const Arguments& args) {
  invoke<F, P...>(target, args, std::index_sequence_for<P...>{});
}

}  // namespace detail

/// The Launcher of `F`, a launcher function as above.
template <auto F>
Launcher bind() {
  return []<class... P>(void (*)(Target&, P...)) {
    return Launcher{&detail::invoke<F, P...>, {detail::launch_param<P>::kind...}};
  }(F);
}

}  // namespace cutile::op
