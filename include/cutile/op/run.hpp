// Calling an op: its description's checks, then its launcher. C++ callers use op::run; the C ABI checks
// the caller's descriptors with op::check before it places anything, then calls the launcher itself.
//
//   op::Target target = op::Target::on(stream);
//   op::run(kernels::softmax_op, target, {&y, &x}, {false, false, false});
//
// An op with lists takes each tensor argument as its Elements (launcher.hpp): one tensor, or a list's.
//
//   const std::vector<const AnyTensor*> ys = {&y0, &y1}, xs = {&x0, &x1};
//   const op::Elements<AnyTensor> tensors[] = {ys, xs};
//   op::run(scale_groups_op, target, tensors, {2.0});
#pragma once

#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "cutile/op/spec.hpp"

namespace cutile::op {

/// What the checks read of one tensor argument.
struct TensorFacts {
  std::string_view name;         ///< the argument's name, for messages
  std::optional<Dtype> dtype;    ///< nullopt: an element type with no Dtype
  std::span<const int64_t> shape;
  std::span<const int64_t> strides;
  uint64_t address = 0;          ///< 0 for a meta tensor: no memory to overlap
  enum class Place : uint8_t { cuda, cpu, meta } place = Place::cuda;
  int device = 0;                ///< the CUDA ordinal
  int64_t element = -1;          ///< its index in a list argument; -1 for a single tensor

  /// "x (bf16[4, 8] on cuda:0)", "xs[2] (bf16[4, 8] on cuda:0)"
  std::string describe() const;
};

/// Spans of one into `tensors`, the Elements of a call that has no lists.
template <class T>
std::vector<Elements<T>> one_each(std::span<const T* const> tensors) {
  std::vector<Elements<T>> elements;
  elements.reserve(tensors.size());
  for (size_t i = 0; i < tensors.size(); ++i) elements.push_back(tensors.subspan(i, 1));
  return elements;
}

/// Checks one call against `spec` (OpError otherwise, naming the argument and the rule): every required
/// tensor is present, no list is empty; dtypes; ranks; shapes and rules, per element of lists; scalars'
/// types and valid values; extents and strides within the kernels' i32 indices; written tensors
/// overlapping nothing, other elements of their list included. `tensors` are in the spec's order, each as
/// its Elements (null: absent); `scalars` too, and come back converted to their spec's kinds. Devices,
/// pointers and streams are the caller's to check.
void check(const OpSpec& spec, std::span<const Elements<TensorFacts>> tensors, std::span<Scalar> scalars);
/// The same for an op without lists: one tensor each.
void check(const OpSpec& spec, std::span<const TensorFacts* const> tensors, std::span<Scalar> scalars);

/// The output shapes the spec derives from the inputs (the outputs in `tensors` are not read), after the
/// checks of check() that concern inputs and scalars; in the order of the spec's outputs, a listed output
/// as its elements in order (as many as its length symbol says).
struct OutputShape {
  Dtype dtype;
  std::vector<int64_t> shape;
};
std::vector<OutputShape> output_shapes(const OpSpec& spec, std::span<const Elements<TensorFacts>> tensors,
                                       std::span<Scalar> scalars);
/// The same for an op without lists: one tensor each.
std::vector<OutputShape> output_shapes(const OpSpec& spec, std::span<const TensorFacts* const> tensors,
                                       std::span<Scalar> scalars);

/// Whether every written tensor of the call is empty, so that there is nothing to launch.
bool nothing_to_write(const OpSpec& spec, std::span<const Elements<TensorFacts>> tensors);

/// A call checked as run() checks it, and not launched.
struct CheckedCall {
  std::vector<Scalar> scalars;  ///< converted to the spec's kinds
  bool writes_nothing;          ///< every written tensor is empty: nothing to launch
};
/// run()'s checks: the counts of `tensors` (one for a tensor) and `scalars`, then check() on their facts.
CheckedCall check_call(const OpSpec& spec, std::span<const Elements<AnyTensor>> tensors,
                       std::span<const Scalar> scalars);

/// Checks, then launches on `target`: `tensors` and `scalars` in the spec's order, each tensor argument
/// as its Elements (null: an absent optional tensor). Scalars may be given as any number; they are
/// converted to the spec's kinds.
void run(const OpSpec& spec, Target& target, std::span<const Elements<AnyTensor>> tensors,
         std::span<const Scalar> scalars);
void run(const OpSpec& spec, Target& target, std::span<const Elements<AnyTensor>> tensors,
         std::initializer_list<Scalar> scalars);
/// The same for an op without lists: one tensor each.
void run(const OpSpec& spec, Target& target, std::span<const AnyTensor* const> tensors,
         std::span<const Scalar> scalars);
void run(const OpSpec& spec, Target& target, std::initializer_list<const AnyTensor*> tensors,
         std::initializer_list<Scalar> scalars = {});

/// The facts of a tensor argument named `name`; `element` is its index in a list argument (-1: none).
TensorFacts facts_of(const AnyTensor& tensor, std::string_view name, int64_t element = -1);

/// The Elements of tensors held per argument (one tensor, or a list's elements), as run() takes them; the
/// tensors must outlive it. Not copyable: its spans point into itself.
class ElementTable {
 public:
  explicit ElementTable(std::span<const std::vector<AnyTensor>> tensors);
  ElementTable(ElementTable&&) = default;
  ElementTable& operator=(ElementTable&&) = default;

  std::span<const Elements<AnyTensor>> elements() const { return elements_; }

 private:
  std::vector<std::vector<const AnyTensor*>> pointers_;
  std::vector<Elements<AnyTensor>> elements_;
};

}  // namespace cutile::op
