// What the verifier's op families share: the rejection that ends the checks of an op at its first
// problem, element and type predicates, expectations that fail with what was expected and what was
// found, type validity and optimization hints (types.cpp), the accessors of an op's operands and
// results, and the checks of each op family, one source each. The core (src/ir/verifier.cpp) walks the
// module and dispatches per opcode.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cutile/ir/module.hpp"
#include "cutile/ir/version.hpp"

namespace cutile::ir::verifier {

using E = ElementType;

/// Thrown by the checks of one op after its first problem; caught per op.
struct Reject {
  std::string message;
};

[[noreturn]] inline void fail(std::string message) {
  throw Reject{std::move(message)};
}

inline bool is_pow2(int64_t v) {
  return v > 0 && (v & (v - 1)) == 0;
}

// ---- element and type predicates ---------------------------------------------------------------

/// i1 .. i64: what integer ops accept (i4 only flows through exti/trunci/pack/unpack and memory).
inline bool is_op_int(E e) {
  return e == E::i1 || e == E::i8 || e == E::i16 || e == E::i32 || e == E::i64;
}
/// Any int (i1..i64) or float: the pointee and constant element types (no i4).
inline bool is_number(E e) {
  return e != E::i4;
}

inline std::optional<E> scalar_element(const Type& t) {
  if (!t.is(TypeKind::tile) || !t.element().is(TypeKind::element)) return std::nullopt;
  return t.element().element_type();
}

template <class Pred>
bool tile_of(const Type& t, Pred pred) {
  const std::optional<E> e = scalar_element(t);
  return e && pred(*e);
}

inline bool is_pointer_tile(const Type& t) {
  return t.is(TypeKind::tile) && t.element().is(TypeKind::pointer);
}
inline bool is_scalar_int(const Type& t) {
  return t.is_scalar_tile() && tile_of(t, is_op_int);
}
inline bool is_view(const Type& t) {
  return t.is(TypeKind::partition_view) || t.is(TypeKind::strided_view) ||
         t.is(TypeKind::gather_scatter_view);
}
inline bool shapes_match(const Type& a, const Type& b) {
  return a.is(TypeKind::tile) && b.is(TypeKind::tile) && a.shape() == b.shape();
}

inline std::string name(E e) {
  return std::string(element_type_name(e));
}
inline std::string list(const std::vector<Type>& types) {
  std::string out = "(";
  for (size_t i = 0; i < types.size(); ++i) out += (i ? ", " : "") + types[i].str();
  return out + ")";
}

template <class T>
std::string shape_text(const std::vector<T>& dims) {
  std::string out = "[";
  for (size_t i = 0; i < dims.size(); ++i) out += (i ? ", " : "") + std::to_string(dims[i]);
  return out + "]";
}

// ---- type validity, dense constants, optimization hints (types.cpp) ----------------------------

/// Why `t` is not a valid type at `version`; nullopt when it is.
std::optional<std::string> type_problem(const Type& t, Version version);

/// Why the dense elements attribute `value` cannot be a constant at `version`; nullopt when it can.
std::optional<std::string> dense_problem(const Attribute& value, Version version);

/// `allowed` lists the hint names valid for the op (entry or load/store kind).
void check_hints(const Attribute& hints, const std::vector<std::string_view>& allowed, Version version);

// ---- expectations (each fails with what was expected and what was found) -------------------------

template <class Pred>
void expect_tile(const Type& t, const std::string& what, Pred pred, const std::string& allowed) {
  if (!tile_of(t, pred)) fail(what + " must be a tile of " + allowed + ", got " + t.str());
}
inline void expect_same(const Type& a, const Type& b, const std::string& what) {
  if (a != b) fail(what + ": " + a.str() + " vs " + b.str());
}
inline void expect_same_shape(const Type& a, const Type& b, const std::string& what) {
  if (!shapes_match(a, b)) fail(what + " must have the same shape: " + a.str() + " vs " + b.str());
}
inline void expect_token(const Type& t, const std::string& what) {
  if (!t.is(TypeKind::token)) fail(what + " must be a token, got " + t.str());
}

inline const std::string kBaseFloats = "f16/bf16/f32/f64";
inline const std::string kInts = "i1/i8/i16/i32/i64";

// ---- accessors (valid after the op table's structure checks) -----------------------------------

inline const Type& in(const Operation& op, size_t group) {
  return op.operand_groups()[group][0]->type();
}
inline const Type& out(const Operation& op, size_t i = 0) {
  return op.result(i)->type();
}
inline const std::vector<Value*>& group(const Operation& op, size_t g) {
  return op.operand_groups()[g];
}
inline std::optional<Type> optional_in(const Operation& op, size_t g) {
  const auto& v = op.operand_groups()[g];
  return v.empty() ? std::nullopt : std::optional<Type>(v[0]->type());
}
inline RoundingMode rounding(const Operation& op, std::string_view attr = "rounding_mode") {
  return static_cast<RoundingMode>(op.enum_attr_or_default(attr));
}
inline std::string keyword(EnumKind k, int64_t v) {
  return std::string(enum_keyword(k, v));
}

// ---- the op families: the rules of each op that the op table cannot express ---------------------

// arith.cpp
void check_float_unary(const Operation& op);
void check_float_binary(const Operation& op);
void check_fma(const Operation& op);
void check_fpowi(const Operation& op);
void check_int_unary(const Operation& op);
void check_int_binary(const Operation& op);
void check_compare(const Operation& op);
void check_select(const Operation& op);

// conversion.cpp
void check_int_resize(const Operation& op);
void check_conversion(const Operation& op, Version version);
void check_int_to_ptr(const Operation& op);
void check_ptr_to_int(const Operation& op);
void check_ptr_to_ptr(const Operation& op);

// tile.cpp
void check_constant(const Operation& op, Version version);
void check_iota(const Operation& op);
void check_grid_query(const Operation& op);
void check_shape_op(const Operation& op);
void check_pack(const Operation& op);

// mma.cpp
void check_mma(const Operation& op);

// assume.cpp
void check_assume(const Operation& op);

// debug.cpp
void check_assert(const Operation& op);
void check_print(const Operation& op);

// memory.cpp
void check_make_token(const Operation& op);
void check_join_tokens(const Operation& op);
void check_token_op(const Operation& op);
void check_offset(const Operation& op);
void check_get_global(const Operation& op, const Module& module);
void check_alloca(const Operation& op);
void check_make_tensor_view(const Operation& op);
void check_make_view(const Operation& op);
void check_shape_query(const Operation& op);
/// Indices of a view access: one scalar int per tile dimension (gather views: a 1-D tile at sparse_dim).
void check_view_indices(const Type& view, const std::vector<Value*>& idx);
void check_view_access(const Operation& op, Version version);
void check_ptr_access(const Operation& op, Version version);
/// Ordering/scope rules of non-atomic loads and stores (weak: no scope; relaxed and acquire/release: one).
void check_memory_model(const Operation& op, bool load);

// multimem.cpp
void check_multimem_view(const Operation& op);

// atomic.cpp
void check_atomic(const Operation& op);
void check_atomic_red_view(const Operation& op);

// control_flow.cpp
void check_if(const Operation& op);
void check_for(const Operation& op);
void check_loop(const Operation& op);
void check_aggregate(const Operation& op);
void check_yield(const Operation& op);
void check_continue(const Operation& op);
void check_break(const Operation& op);
void check_return(const Operation& op, Version version);

}  // namespace cutile::ir::verifier
