// The description of an op: its tensors (name, role, dtype and shape), its scalars (type, default, valid
// values), the shape rules it requires, its launcher, its backward, how TileGym calls it and where its IR
// is compared with cuTile Python's. Everything else about an op comes from this one object: the C ABI
// entry and its checks, the C header, the Python function with its torch.library schema and fake
// implementation, the TileGym registration, the IR parity cases. Each op file defines one and registers
// it (registry.hpp).
//
//   const OpSpec rms_norm_op{
//       .name = "rms_norm",
//       .dtypes = {{"E", kFloatDtypes}},
//       .tensors = {out("y", "E[M, N]").rows().like("x"), out("rstd", "f32[M]"), in("x", "E[M, N]").rows(),
//                   in("weight", "E[N]")},
//       .scalars = {real("eps", 1e-6).valid_when("eps >= 0"), ...},
//       .rules = {unsupported_unless("N <= 32768", "a row is one row tile")},
//       .launch = bind<launch_rms_norm>(),
//   };
//
// Types are written "E[M, N]": a dtype (a variable of the op, or a fixed one such as f32) and one term per
// dim. A term is a symbol, a number or an expression of symbols (`2*H`, `N/2`, `R + 1`). The inputs bind the
// symbols (a lone symbol, or k*S, binds at its first occurrence) and every other occurrence must agree; the
// outputs' shapes follow from them. Conditions (`rules`, a scalar's `valid`) are expressions over the
// symbols, the scalars and `size(E)` (bytes of an element), with + - * / %, comparisons, && || !, and the
// functions min, max, pow2 (a power of two) and finite.
//
// A tensor may be a list of tensors, `in("group_A", "E[M, K]").listed("G")`: G is the symbol of its length
// (lists of one length symbol have equal lengths, at least 1), and the symbols of a listed type are bound
// per element: element g of every list of length G binds M and K for that g alone, and a condition that
// reads them holds for every g. Such a symbol appears in no type that is not listed; the length symbol may
// appear anywhere. Every element has the op's dtypes.
#pragma once

#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "cutile/op/dtype.hpp"
#include "cutile/op/error.hpp"
#include "cutile/op/launcher.hpp"

namespace cutile::op {

enum class Role : uint8_t {
  in,     ///< read only
  out,    ///< written; allocated by the Python layer
  inout,  ///< read and written in place
};

/// How the Python layer passes a tensor whose rank is not the declared one.
enum class View : uint8_t {
  exact,  ///< only the declared rank
  rows,   ///< declared (M, N); any rank >= 1 taken as (prod(leading), N). Outputs return in that leading shape
  flat,   ///< declared (N); any rank taken as its elements. Outputs return in that shape
  leading_ones,  ///< inputs: a lower rank is taken with leading dims of extent 1, (S, W) as (1, S, W)
};

struct TensorSpec {
  std::string_view name;
  Role role = Role::in;
  std::string_view type;  ///< "E[M, N]"
  std::string_view doc;
  View view = View::exact;
  std::string_view like;  ///< an output allocated with this input's layout (torch.empty_like)
  bool optional = false;  ///< may be absent: a null descriptor in C, None in Python
  /// A flag scalar that, when set, says the tensor is stored transposed: its type names the logical dims,
  /// and the last two are stored swapped (TileGym's trans_a: a given as (K, M) for an "E[M, K]").
  std::string_view transposed_by;
  /// The symbol of its length when it is a list of tensors; empty for a single tensor.
  std::string_view list_length;

  constexpr TensorSpec rows() const { return with_view(View::rows); }
  constexpr TensorSpec flat() const { return with_view(View::flat); }
  constexpr TensorSpec leading_ones() const { return with_view(View::leading_ones); }
  constexpr TensorSpec like_input(std::string_view input) const {
    TensorSpec t = *this;
    t.like = input;
    return t;
  }
  constexpr TensorSpec may_be_absent() const {
    TensorSpec t = *this;
    t.optional = true;
    return t;
  }
  constexpr TensorSpec transposed_when(std::string_view flag) const {
    TensorSpec t = *this;
    t.transposed_by = flag;
    return t;
  }
  /// A list of tensors of this type, as many as the symbol `length` says: an input or an output, with an
  /// exact view, never absent.
  constexpr TensorSpec listed(std::string_view length) const {
    TensorSpec t = *this;
    t.list_length = length;
    return t;
  }
  constexpr bool is_list() const { return !list_length.empty(); }

 private:
  constexpr TensorSpec with_view(View v) const {
    TensorSpec t = *this;
    t.view = v;
    return t;
  }
};

constexpr TensorSpec in(std::string_view name, std::string_view type, std::string_view doc = {}) {
  return {name, Role::in, type, doc};
}
constexpr TensorSpec out(std::string_view name, std::string_view type, std::string_view doc = {}) {
  return {name, Role::out, type, doc};
}
constexpr TensorSpec inout(std::string_view name, std::string_view type, std::string_view doc = {}) {
  return {name, Role::inout, type, doc};
}

/// A named set of choices: the C enum `cutile_cpp_<name>` with constants CUTILE_CPP_<NAME>_<VALUE>, in
/// order from 0; Python takes the value names (and None for the default).
struct ChoiceSet {
  std::string_view name;
  std::vector<std::string_view> values;
  std::string_view doc;
};

enum class ScalarType : uint8_t {
  real,     ///< C double
  integer,  ///< C int64_t
  flag,     ///< C int32_t, 0 or 1; Python bool
  choice,   ///< C int32_t, an index of the ChoiceSet; Python one of its names
};

struct ScalarSpec {
  std::string_view name;
  ScalarType type = ScalarType::real;
  std::optional<double> default_value;  ///< choices: the index; none: the caller must pass it
  std::string_view doc;
  const ChoiceSet* choices = nullptr;
  std::string_view valid;  ///< a condition on the value (INVALID_ARGUMENT otherwise)

  constexpr ScalarSpec valid_when(std::string_view condition) const {
    ScalarSpec s = *this;
    s.valid = condition;
    return s;
  }
  constexpr ScalarSpec described(std::string_view text) const {
    ScalarSpec s = *this;
    s.doc = text;
    return s;
  }
};

constexpr ScalarSpec real(std::string_view name, std::optional<double> default_value = std::nullopt) {
  return {name, ScalarType::real, default_value};
}
constexpr ScalarSpec integer(std::string_view name, std::optional<double> default_value = std::nullopt) {
  return {name, ScalarType::integer, default_value};
}
constexpr ScalarSpec flag(std::string_view name, bool default_value = false) {
  return {name, ScalarType::flag, default_value ? 1.0 : 0.0};
}
/// `default_value` names one of the set's values.
ScalarSpec choice(std::string_view name, const ChoiceSet& set, std::string_view default_value);

/// A dtype variable: every tensor typed with it has one dtype, one of `dtypes`.
struct DtypeVar {
  std::string_view name;
  std::vector<Dtype> dtypes;
};

inline const std::vector<Dtype> kFloatDtypes = {Dtype::f32, Dtype::f16, Dtype::bf16};

/// A shape rule beyond the types: `condition` must hold, else `problem` with `why`.
struct Requirement {
  std::string_view condition;
  Problem problem = Problem::shape_mismatch;
  std::string_view why;
};

/// A shape rule the kernels need (UNSUPPORTED_SHAPE), not one of the op's mathematics.
constexpr Requirement unsupported_unless(std::string_view condition, std::string_view why) {
  return {condition, Problem::unsupported_shape, why};
}
constexpr Requirement requires_that(std::string_view condition, std::string_view why) {
  return {condition, Problem::shape_mismatch, why};
}

/// One comparison of our IR with cuTile Python's: the launcher, run at `config`, launches `kernel`,
/// which ports the reference kernel in tests/data/reference/tilegym/<reference>.tileirbc.
struct ParityCase {
  std::string_view reference;  ///< "<recipe>.<variant>", e.g. "rms_norm.static_persistent"
  std::string_view kernel;     ///< our entry's name
  std::string_view config;     ///< "M=4096 N=4096 E=bf16 mode=static_persistent": symbols, dtypes, scalars
};

/// How TileGym's dispatcher calls the op, when it has the op (cutile_cpp.tilegym registers it).
struct TileGymFace {
  std::string_view name;       ///< the dispatcher's name; empty: not a TileGym op
  std::string_view signature;  ///< TileGym's parameter list, in Python syntax with its defaults
  std::string_view renames;    ///< "x=input, y=out": ours=theirs, where the names differ
  std::string_view ignored;    ///< their parameters that are accepted and unused ("normalized_shape")
  std::string_view unsupported;  ///< their parameters that must keep their default (NotImplementedError)
  std::string_view returns;    ///< our outputs it returns, in order; empty: all of them
};

/// A launch choice the autotuner may make for the op (tuning.hpp): the launcher asks for it by name with
/// Target::tuned, and the tuner tries each candidate. The search space is every combination.
struct Tunable {
  std::string_view name;  ///< "occupancy", "TILE_N": what the launcher passes to Target::tuned
  std::vector<int64_t> candidates;
  std::string_view doc;
};

inline Tunable tunable(std::string_view name, std::vector<int64_t> candidates, std::string_view doc = {}) {
  return {name, std::move(candidates), doc};
}

struct OpSpec {
  std::string_view name;        ///< C entry cutile_cpp_<name>, Python cutile_cpp.<name>
  std::string_view family;      ///< DESIGN.md §6: elementwise, normalization, position, gemm, ...
  std::string_view doc;         ///< what it computes, for the C header and the Python docstring
  std::string_view provenance;  ///< the TileGym file it ports
  std::vector<DtypeVar> dtypes;
  std::vector<TensorSpec> tensors;  ///< in the C order: outputs first, then in-outs and inputs
  std::vector<ScalarSpec> scalars;
  std::vector<Requirement> rules;
  Launcher launch;
  std::string_view backward;  ///< the op that computes its gradients (names: see python/cutile_cpp)
  std::vector<ParityCase> parity;
  /// More configurations the aot tier compiles with tileiras, besides the parity cases': a value may be a
  /// set, "N={16,1024,16384} E={f32,f16,bf16}", for every combination (configuration.hpp).
  std::vector<std::string_view> configurations;
  TileGymFace tilegym;
  /// The autotuner's search space; empty for an op the launcher's policy alone decides.
  std::vector<Tunable> tuning;
};

}  // namespace cutile::op
