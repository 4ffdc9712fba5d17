// Structural diff of two Tile IR kernels: does a port use the same memory paths, tile shapes, reductions,
// hints and assumptions as its reference? Both kernels are canonicalised first, then compared as sets of
// FEATURES rather than op sequences, so value names, op order, dead constants and equivalent spellings of
// the same index math do not count as differences.
//
// Canonicalisation
//   - dead ops without side effects are dropped (dead constants, unused views and shape queries);
//   - ceil-div written as `divi rounding<positive_inf>`, as `(a + b - 1) / b` or read from
//     `get_index_space_shape` is one feature, "ceil_div", whose forms are compared as SEMANTIC_EQUIV;
//   - a `remi` with a sign fix-up (select on r < 0, or ((a % b) + b) % b) is the feature "remainder"
//     like a plain `remi`; the ops of the fix-up are not counted as arithmetic;
//   - reduce/scan bodies are described by their combiner, not counted as arithmetic.
//
// Severity policy (after reference/cutile-rs-and-skill.md §E.13), one Rule per feature family; the
// severities live in the table in src/ir_diff/diff.cpp and nowhere else:
//   rule                  feature rows                                   differs  missing  extra
//   memory_op             count of each load/store/atomic opcode, path    CRIT     CRIT     CRIT
//   view_tile             tile shape of each view access                  CRIT     CRIT     CRIT
//   view_padding          padding_value of each view access               CRIT     CRIT     WARN
//   view_unit_stride      innermost static stride 1 of the reference      CRIT     CRIT     INFO
//   view_layout           other strides, static extents, dim_map          WARN     WARN     WARN
//   element_type          element type of an access (configuration)       WARN     WARN     WARN
//   access_latency        `latency` hint of a load/store                  WARN     WARN     WARN
//   access_allow_tma      `allow_tma` hint                                WARN     WARN     WARN
//   access_no_tma         `allow_tma=false` of the reference              CRIT     CRIT     WARN
//   mma                   mma operand and accumulator types               CRIT     CRIT     CRIT
//   reduction             reduce/scan axis, identities, combiner, dtype   CRIT     CRIT     CRIT
//   critical_count        exp, exp2, rsqrt, fma, for, loop, mma, reduce    CRIT     CRIT     CRIT
//   loop_structure        nesting, carried values and step of each for    CRIT     CRIT     CRIT
//   arith_count           float arithmetic and math (|Δ| ≤ 2: WARN)       CRIT     CRIT     CRIT
//   index_count           integer arithmetic (|Δ| ≤ 2: INFO)              WARN     WARN     WARN
//   ceil_div              ceil-div count (a floor-vs-ceil bug otherwise)  CRIT     CRIT     WARN
//   other_count           conversions, shapes, select, compare, iota...   INFO     INFO     INFO
//   tile_shapes           the set of tile shapes                          CRIT     CRIT     CRIT
//   entry_hint            occupancy, num_cta_in_cga, num_worker_warps     CRIT     WARN     WARN
//   pointer_assume_view   pointer div_by, generated kernel on views       WARN     WARN     INFO
//   pointer_assume_ptr    pointer div_by, generated kernel on pointers    CRIT     CRIT     INFO
//   scalar_div_by         div_by on integer scalars (extents, strides)    CRIT     WARN     CRIT
//   scalar_bounded        assume bounded (block ids, extents, loop vars)  INFO     INFO     INFO
//   rounding_ftz          non-default rounding_mode / flush_to_zero       CRIT     CRIT     WARN
//   token_count           make_token count                                WARN     WARN     WARN
//   signature             number and kinds of entry parameters            WARN     WARN     WARN
// MATCH and SEMANTIC_EQUIV rows are INFO. Verdict: FAIL with any CRITICAL row that no explanation pins,
// PASS_WITH_NOTES with any WARN row or explained CRITICAL row, else PASS.
//
// Explanations: a port may keep a CRITICAL difference on purpose (a different but equivalent indexing, a
// fact its launch checks and states). An explanation pins one such row exactly (reference kernel,
// feature, both values) and says why; the row stays CRITICAL in every report, marked explained. Any change
// to the row, in either kernel, unpins it and the verdict is FAIL again.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cutile/ir/module.hpp"

namespace cutile::ir {

enum class DiffStatus { match, semantic_equiv, differs, missing, extra };
enum class Severity { info, warn, critical };
enum class Verdict { pass, pass_with_notes, fail };

std::string_view diff_status_name(DiffStatus status);  ///< "MATCH", "SEMANTIC_EQUIV", ...
std::string_view severity_name(Severity severity);     ///< "INFO", "WARN", "CRITICAL"
std::string_view verdict_name(Verdict verdict);        ///< "PASS", "PASS_WITH_NOTES", "FAIL"

struct DiffRow {
  std::string feature;    ///< e.g. "load_view #0 tile", "count exp", "hint occupancy"
  std::string rule;       ///< the policy rule that set the severity, e.g. "view_tile"
  std::string reference;  ///< the value in the reference kernel; "-" when absent
  std::string generated;  ///< the value in the generated kernel; "-" when absent
  DiffStatus status = DiffStatus::match;
  Severity severity = Severity::info;
  std::string why;  ///< for a CRITICAL row an explanation pins: the reason; else empty
};

struct DiffReport {
  std::string reference_kernel;
  std::string generated_kernel;
  std::vector<DiffRow> rows;
  Verdict verdict = Verdict::pass;
};

/// Compares the generated kernel `gen` against the reference `ref`.
DiffReport diff_functions(const Function& ref, const Function& gen);

/// The entry named `name`, or with no name the only entry; a UserError naming `role` ("reference",
/// "generated") and listing the entries when there is no such entry or several to choose from.
const Function& select_kernel(const Module& module, const std::optional<std::string>& name, std::string_view role);

/// One CRITICAL row a port keeps on purpose; see "Explanations" above.
struct Explanation {
  std::string reference_kernel;  ///< without the '@'
  std::string feature;
  std::string reference;
  std::string generated;
  std::string why;
};

/// Parses an explanations file: records of five `key: value` lines (kernel, feature, reference, generated,
/// why) separated by blank lines; lines starting with '#' are comments. A UserError names `source` and the
/// line of anything else.
std::vector<Explanation> parse_explanations(std::string_view text, std::string_view source);

/// Marks the CRITICAL rows of `report` that an explanation pins and recomputes the verdict. Returns the
/// explanations of the report's reference kernel that pin no row: stale, the row changed or was fixed.
std::vector<Explanation> explain(DiffReport& report, const std::vector<Explanation>& explanations);

/// Aligned text table, one row per feature, then `verdict: ...`.
std::string format_diff_table(const DiffReport& report);
/// {"reference": ..., "generated": ..., "rows": [...], "verdict": ...}
std::string format_diff_json(const DiffReport& report);

/// Process exit status for a verdict: 0 PASS, 2 PASS_WITH_NOTES, 1 FAIL.
int verdict_exit_code(Verdict verdict);

}  // namespace cutile::ir
