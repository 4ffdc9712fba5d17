// The IR diff engine: a kernel against itself is PASS; each seeded divergence from a softmax-like kernel
// gives its row with the policy's severity; equivalent spellings of index math are not differences.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <optional>

#include "cutile/bytecode/reader.hpp"
#include "cutile/bytecode/writer.hpp"
#include "cutile/error.hpp"
#include "cutile/ir/builder.hpp"
#include "cutile/ir_diff/diff.hpp"
#include "support/dsl_kernels.hpp"
#include "support/error_of.hpp"
#include "support/op_modules.hpp"
#include "support/toolchain_fixture.hpp"

namespace cutile::ir {
namespace {

// ---------------------------------------------------------------------------------------------------
// A row softmax built op by op, with knobs for each divergence the tests seed.

struct Softmax {
  int64_t max_axis = 1;
  bool assume_x = true;
  int64_t tile = 256;
  bool no_tma = false;
  ElementType sum_element = ElementType::f32;
  std::optional<int64_t> occupancy;
  bool approx_exp = false;
  bool extra_scale = false;  ///< one more mulf
};

Attribute hint(std::string name, Attribute value) {
  return Attribute::optimization_hints({{"sm_90", Attribute::dictionary({{std::move(name), std::move(value)}})}});
}

Attribute float_attr(ElementType e, double v) { return Attribute::floating(Type::element(e), v); }

Module softmax(const Softmax& s) {
  Module m;
  const Type ptr = pointer_type(ElementType::f32), i32 = scalar_type(ElementType::i32);
  Function& f = m.add_function("softmax", {ptr, i32, i32, i32, ptr});
  if (s.occupancy) f.set_hints(hint("occupancy", Attribute::i32(*s.occupancy)));
  Builder b(f.entry_block());
  Value* x = s.assume_x ? b.assume(f.parameter(0), Attribute::div_by(16)) : f.parameter(0);
  Value* y = b.assume(f.parameter(4), Attribute::div_by(16));
  Value* rows = b.assume(f.parameter(1), Attribute::bounded(0, std::nullopt));
  Value* cols = b.assume(f.parameter(2), Attribute::bounded(0, std::nullopt));
  Value* stride = b.assume(f.parameter(3), Attribute::bounded(0, std::nullopt));
  const Type tv = Type::tensor_view(Type::element(ElementType::f32), {kDynamic, kDynamic}, {kDynamic, 1});
  Value* tx = b.make_tensor_view(x, tv, {rows, cols}, {stride});
  Value* ty = b.make_tensor_view(y, tv, {rows, cols}, {stride});
  b.constant_int(ElementType::i32, 7);  // dead: canonicalisation drops it
  Value* bid = b.tile_block_id()[0];
  Value* zero = b.constant_int(ElementType::i32, 0);
  Value* token = b.make_token();
  std::optional<Attribute> load_hints;
  if (s.no_tma) load_hints = hint("allow_tma", Attribute::boolean(false));
  auto [t, tok] = b.load_view(b.make_partition_view(tx, {1, static_cast<int32_t>(s.tile)}, PaddingValue::neg_inf),
                              {bid, zero}, token, MemoryOrdering::weak, std::nullopt, load_hints);
  const auto combine = [](Opcode op) {
    return [op](Builder& body, std::span<Value* const> args) -> std::vector<Value*> {
      return {body.binary(op, args[0], args[1])};
    };
  };
  Value* max = b.reduce({t}, s.max_axis, {float_attr(ElementType::f32, -INFINITY)}, combine(Opcode::maxf))[0];
  Value* max_b = b.broadcast(b.reshape(max, {1, s.max_axis == 1 ? 1 : s.tile}), {1, s.tile});
  std::vector<NamedAttribute> exp_attrs;
  if (s.approx_exp) exp_attrs.push_back({"rounding_mode", Attribute::enum_of(EnumKind::rounding, RoundingMode::approx)});
  Value* e = b.unary(Opcode::exp, b.binary(Opcode::subf, t, max_b), exp_attrs);
  Value* e_acc = s.sum_element == ElementType::f32 ? e : b.ftof(e, s.sum_element);
  Value* sum = b.reduce({e_acc}, 1, {float_attr(s.sum_element, 0)}, combine(Opcode::addf))[0];
  if (s.sum_element != ElementType::f32) sum = b.ftof(sum, ElementType::f32);
  Value* out = b.binary(Opcode::divf, e, b.broadcast(b.reshape(sum, {1, 1}), {1, s.tile}));
  if (s.extra_scale) out = b.binary(Opcode::mulf, out, b.constant_float(ElementType::f32, 1.0, {1, s.tile}));
  b.store_view(out, b.make_partition_view(ty, {1, static_cast<int32_t>(s.tile)}), {bid, zero}, tok);
  b.return_();
  return m;
}

DiffReport diff(const Module& ref, const Module& gen) {
  return diff_functions(*ref.functions().front(), *gen.functions().front());
}

const DiffRow* find_row(const DiffReport& report, std::string_view feature) {
  for (const DiffRow& r : report.rows)
    if (r.feature == feature) return &r;
  return nullptr;
}

/// Every row that is neither MATCH nor SEMANTIC_EQUIV, for failure messages.
std::string differences(const DiffReport& report) {
  std::string out;
  for (const DiffRow& r : report.rows)
    if (r.status != DiffStatus::match && r.status != DiffStatus::semantic_equiv)
      out += r.feature + ": " + r.reference + " vs " + r.generated + " " + std::string(diff_status_name(r.status)) +
             " " + std::string(severity_name(r.severity)) + "\n";
  return out;
}

void expect_row(const DiffReport& report, std::string_view feature, DiffStatus status, Severity severity) {
  const DiffRow* row = find_row(report, feature);
  ASSERT_NE(row, nullptr) << "no row '" << feature << "' in\n" << format_diff_table(report);
  EXPECT_EQ(diff_status_name(row->status), diff_status_name(status)) << feature << "\n" << format_diff_table(report);
  EXPECT_EQ(severity_name(row->severity), severity_name(severity)) << feature << "\n" << format_diff_table(report);
}

TEST(IrDiff, SoftmaxAgainstItselfIsPass) {
  const DiffReport report = diff(softmax({}), softmax({}));
  EXPECT_EQ(report.verdict, Verdict::pass) << differences(report);
  EXPECT_EQ(verdict_exit_code(report.verdict), 0);
  expect_row(report, "reduce #0 axis", DiffStatus::match, Severity::info);
  expect_row(report, "load_view #0 tile", DiffStatus::match, Severity::info);
  EXPECT_EQ(find_row(report, "count constant"), nullptr) << "constants are not features";
}

TEST(IrDiff, EveryOpModuleAgainstItselfIsPass) {
  for (const test_support::OpModule& m : test_support::op_modules()) {
    const Module a = test_support::build_module(m), b = test_support::build_module(m);
    const DiffReport report = diff(a, b);
    EXPECT_EQ(report.verdict, Verdict::pass) << m.name << "\n" << differences(report);
  }
}

TEST(IrDiff, EveryReferenceKernelAgainstItsRoundTripIsPass) {
  const auto dir = std::filesystem::path(CUTILE_SOURCE_DIR) / "tests/data/reference";
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".tileirbc") continue;
    bytecode::ReadResult read;
    try {
      read = bytecode::read_bytecode_file(entry.path());
    } catch (const UserError&) {
      continue;  // an invalid fixture (f4e2m1fn-in-13.1): the reader tests' business
    }
    ++files;
    // Through our writer and back: the copy is a distinct module with freshly numbered values.
    const auto copy = bytecode::read_bytecode(bytecode::write_bytecode(*read.module, {read.version}));
    for (const auto& f : read.module->functions()) {
      const DiffReport report = diff_functions(*f, select_kernel(*copy.module, f->name(), "generated"));
      EXPECT_EQ(report.verdict, Verdict::pass) << entry.path() << " @" << f->name() << "\n" << differences(report);
    }
  }
  EXPECT_GE(files, 4);
}

TEST(IrDiff, DslSoftmaxAgainstItselfIsPass) {
  for (const auto& kernel : test_support::dsl_kernels()) {
    const auto a = kernel.trace(), b = kernel.trace();
    const DiffReport report = diff(*a, *b);
    EXPECT_EQ(report.verdict, Verdict::pass) << kernel.name << "\n" << differences(report);
  }
}

TEST(IrDiff, WrongReduceAxisIsCritical) {
  const DiffReport report = diff(softmax({}), softmax({.max_axis = 0}));
  expect_row(report, "reduce #0 axis", DiffStatus::differs, Severity::critical);
  EXPECT_EQ(report.verdict, Verdict::fail);
  EXPECT_EQ(verdict_exit_code(report.verdict), 1);
}

TEST(IrDiff, MissingPointerAssumeOnAViewPathIsAWarning) {
  const DiffReport report = diff(softmax({}), softmax({.assume_x = false}));
  expect_row(report, "assume pointer div_by", DiffStatus::missing, Severity::warn);
  EXPECT_EQ(report.verdict, Verdict::pass_with_notes) << differences(report);
  EXPECT_EQ(verdict_exit_code(report.verdict), 2);
}

TEST(IrDiff, ChangedTileShapeIsCritical) {
  const DiffReport report = diff(softmax({}), softmax({.tile = 512}));
  expect_row(report, "load_view #0 tile", DiffStatus::differs, Severity::critical);
  expect_row(report, "store_view #0 tile", DiffStatus::differs, Severity::critical);
  expect_row(report, "tile shapes", DiffStatus::differs, Severity::critical);
  EXPECT_EQ(report.verdict, Verdict::fail);
}

TEST(IrDiff, MissingAllowTmaFalseIsCritical) {
  const DiffReport report = diff(softmax({.no_tma = true}), softmax({}));
  expect_row(report, "load_view #0 allow_tma", DiffStatus::missing, Severity::critical);
  EXPECT_EQ(report.verdict, Verdict::fail);
  // The other way round the port only forbids what the reference allowed: a note.
  expect_row(diff(softmax({}), softmax({.no_tma = true})), "load_view #0 allow_tma", DiffStatus::extra, Severity::warn);
}

TEST(IrDiff, F16ReductionAccumulatorIsCritical) {
  const DiffReport report = diff(softmax({}), softmax({.sum_element = ElementType::f16}));
  expect_row(report, "reduce #1 element", DiffStatus::differs, Severity::critical);
  EXPECT_EQ(report.verdict, Verdict::fail);
}

TEST(IrDiff, DifferentOccupancyIsCritical) {
  const DiffReport report = diff(softmax({.occupancy = 2}), softmax({.occupancy = 4}));
  expect_row(report, "hint occupancy", DiffStatus::differs, Severity::critical);
  EXPECT_EQ(report.verdict, Verdict::fail);
  expect_row(diff(softmax({.occupancy = 2}), softmax({})), "hint occupancy", DiffStatus::missing, Severity::warn);
}

TEST(IrDiff, MissingApproxRoundingIsCritical) {
  const DiffReport report = diff(softmax({.approx_exp = true}), softmax({}));
  expect_row(report, "exp rounding_mode", DiffStatus::missing, Severity::critical);
  expect_row(diff(softmax({}), softmax({.approx_exp = true})), "exp rounding_mode", DiffStatus::extra, Severity::warn);
}

// An mma kernel: C = A(f16) x B(f16) + acc, stored through a view.
Module mma(ElementType acc_element) {
  Module m;
  Function& f = m.add_function("mma", {pointer_type(acc_element), scalar_type(ElementType::i32)});
  Builder b(f.entry_block());
  const Type tv = Type::tensor_view(Type::element(acc_element), {kDynamic, 16}, {16, 1});
  Value* view = b.make_partition_view(b.make_tensor_view(f.parameter(0), tv, {f.parameter(1)}, {}), {16, 16});
  Value* a = b.constant_float(ElementType::f16, 1.0, {16, 16});
  Value* c = b.mmaf(a, a, b.constant_float(acc_element, 0.0, {16, 16}));
  Value* zero = b.constant_int(ElementType::i32, 0);
  b.store_view(c, view, {zero, zero});
  b.return_();
  return m;
}

TEST(IrDiff, F16MmaAccumulatorIsCritical) {
  EXPECT_EQ(diff(mma(ElementType::f32), mma(ElementType::f32)).verdict, Verdict::pass);
  const DiffReport report = diff(mma(ElementType::f32), mma(ElementType::f16));
  expect_row(report, "mma #0 accumulator", DiffStatus::differs, Severity::critical);
  expect_row(report, "mma #0 operands", DiffStatus::match, Severity::info);
  EXPECT_EQ(report.verdict, Verdict::fail);
}

// The number of column tiles, spelled one of three ways, used as a store index.
enum class CeilDiv { rounding_up, add_then_divide, index_space_shape };

Module column_tiles(CeilDiv form) {
  Module m;
  Function& f = m.add_function("tiles", {pointer_type(ElementType::f32), scalar_type(ElementType::i32)});
  Builder b(f.entry_block());
  const Type tv = Type::tensor_view(Type::element(ElementType::f32), {kDynamic}, {1});
  Value* cols = f.parameter(1);
  Value* view = b.make_partition_view(b.make_tensor_view(f.parameter(0), tv, {cols}, {}), {64});
  Value* tile = b.constant_int(ElementType::i32, 64);
  const NamedAttribute sign{"signedness", Attribute::enum_of(EnumKind::signedness, Signedness::signed_)};
  Value* n = nullptr;
  switch (form) {
    case CeilDiv::rounding_up:
      n = b.binary(Opcode::divi, cols, tile,
                   {sign, {"rounding", Attribute::enum_of(EnumKind::rounding, RoundingMode::positive_inf)}});
      break;
    case CeilDiv::add_then_divide:
      n = b.binary(Opcode::divi, b.binary(Opcode::addi, cols, b.constant_int(ElementType::i32, 63)), tile, {sign});
      break;
    case CeilDiv::index_space_shape:
      n = b.create(Opcode::get_index_space_shape, {scalar_type(ElementType::i32)}, {{view}}).result(0);
      break;
  }
  Value* last = b.binary(Opcode::subi, n, b.constant_int(ElementType::i32, 1));
  b.store_view(b.constant_float(ElementType::f32, 0.0, {64}), view, {last});
  b.return_();
  return m;
}

TEST(IrDiff, CeilDivFormsAreEquivalent) {
  const CeilDiv forms[] = {CeilDiv::rounding_up, CeilDiv::add_then_divide, CeilDiv::index_space_shape};
  for (CeilDiv ref : forms)
    for (CeilDiv gen : forms) {
      const DiffReport report = diff(column_tiles(ref), column_tiles(gen));
      EXPECT_EQ(report.verdict, Verdict::pass) << differences(report);
      expect_row(report, "index ceil_div", ref == gen ? DiffStatus::match : DiffStatus::semantic_equiv, Severity::info);
      for (const DiffRow& row : report.rows) EXPECT_NE(row.status, DiffStatus::differs) << row.feature;
    }
}

// bid % 3 as a column index, plain or with the sign fix-up of a floor modulo.
Module remainder(bool fix_up) {
  Module m;
  Function& f = m.add_function("rem", {pointer_type(ElementType::f32), scalar_type(ElementType::i32)});
  Builder b(f.entry_block());
  const Type tv = Type::tensor_view(Type::element(ElementType::f32), {kDynamic}, {1});
  Value* view = b.make_partition_view(b.make_tensor_view(f.parameter(0), tv, {f.parameter(1)}, {}), {64});
  Value* k = b.constant_int(ElementType::i32, 3);
  Value* r = b.binary(Opcode::remi, b.tile_block_id()[0], k,
                      {{"signedness", Attribute::enum_of(EnumKind::signedness, Signedness::signed_)}});
  if (fix_up)
    r = b.select(b.cmpi(ComparisonPredicate::less_than, r, b.constant_int(ElementType::i32, 0)),
                 b.binary(Opcode::addi, r, k), r);
  b.store_view(b.constant_float(ElementType::f32, 0.0, {64}), view, {r});
  b.return_();
  return m;
}

TEST(IrDiff, RemainderSignFixUpIsEquivalent) {
  const DiffReport report = diff(remainder(false), remainder(true));
  EXPECT_EQ(report.verdict, Verdict::pass) << differences(report);
  expect_row(report, "index remainder", DiffStatus::semantic_equiv, Severity::info);
}

TEST(IrDiff, SmallFloatArithmeticDifferenceIsAWarning) {
  const DiffReport report = diff(softmax({}), softmax({.extra_scale = true}));
  expect_row(report, "count mulf", DiffStatus::extra, Severity::warn);
  EXPECT_EQ(report.verdict, Verdict::pass_with_notes) << differences(report);
}

TEST(IrDiff, KernelSelection) {
  Module m;
  m.add_function("a", {});
  m.add_function("b", {});
  EXPECT_EQ(select_kernel(m, "b", "reference").name(), "b");
  EXPECT_EQ(test_support::error_of([&] { select_kernel(m, "c", "reference"); }),
            "the reference module has no kernel @c (it has: @a, @b)");
  EXPECT_EQ(test_support::error_of([&] { select_kernel(m, std::nullopt, "generated"); }),
            "the generated module has 2 kernels (@a, @b): choose one with --kernel, --ref-kernel or --gen-kernel");
  Module empty;
  EXPECT_EQ(test_support::error_of([&] { select_kernel(empty, std::nullopt, "reference"); }),
            "the reference module has no kernels");
}

TEST(IrDiff, TableAndJsonCarryRowsAndVerdict) {
  const DiffReport report = diff(softmax({}), softmax({.max_axis = 0}));
  const std::string table = format_diff_table(report);
  EXPECT_TRUE(table.ends_with("verdict: FAIL\n")) << table;
  EXPECT_NE(table.find("reduce #0 axis"), std::string::npos);
  const std::string json = format_diff_json(report);
  EXPECT_NE(json.find("{\"feature\": \"reduce #0 axis\", \"rule\": \"reduction\", \"reference\": \"1\", "
                      "\"generated\": \"0\", \"status\": \"DIFFERS\", \"severity\": \"CRITICAL\"}"),
            std::string::npos)
      << json;
  EXPECT_NE(json.find("\"verdict\": \"FAIL\""), std::string::npos);
}

Explanation axis_explanation(const DiffReport& report, std::string generated) {
  return {report.reference_kernel, "reduce #0 axis", "1", std::move(generated), "a transposed layout"};
}

TEST(IrDiff, AnExplainedCriticalRowIsANote) {
  DiffReport report = diff(softmax({}), softmax({.max_axis = 0}));
  ASSERT_EQ(report.verdict, Verdict::fail);
  // Reducing the other axis also changes the tile shapes: both rows need their explanation.
  const Explanation shapes{report.reference_kernel, "tile shapes", "1, 1x1, 1x256", "1, 1x1, 1x256, 256",
                           "a column"};
  EXPECT_TRUE(explain(report, {axis_explanation(report, "0")}).empty());
  EXPECT_EQ(report.verdict, Verdict::fail) << "the tile shapes are not explained";
  EXPECT_TRUE(explain(report, {axis_explanation(report, "0"), shapes}).empty());
  EXPECT_EQ(report.verdict, Verdict::pass_with_notes) << differences(report);
  expect_row(report, "reduce #0 axis", DiffStatus::differs, Severity::critical);
  EXPECT_EQ(find_row(report, "reduce #0 axis")->why, "a transposed layout");
  const std::string table = format_diff_table(report);
  EXPECT_NE(table.find("DIFFERS  CRITICAL, explained"), std::string::npos) << table;
  EXPECT_NE(table.find("explained:\n  reduce #0 axis: a transposed layout\n  tile shapes: a column\n"),
            std::string::npos)
      << table;
  EXPECT_TRUE(table.ends_with("2 critical (2 explained), 0 warnings\nverdict: PASS_WITH_NOTES\n")) << table;
  EXPECT_NE(format_diff_json(report).find("\"severity\": \"CRITICAL\", \"why\": \"a transposed layout\"}"),
            std::string::npos);
}

TEST(IrDiff, AnExplanationPinsBothValuesAndTheKernel) {
  DiffReport report = diff(softmax({}), softmax({.max_axis = 0}));
  Explanation other_kernel = axis_explanation(report, "0");
  other_kernel.reference_kernel = "another_kernel";
  const auto stale = explain(report, {axis_explanation(report, "2"), other_kernel});
  ASSERT_EQ(stale.size(), 1u) << "an explanation of another kernel is not stale here";
  EXPECT_EQ(stale[0].generated, "2");
  EXPECT_EQ(report.verdict, Verdict::fail);
  EXPECT_TRUE(find_row(report, "reduce #0 axis")->why.empty());
}

TEST(IrDiff, ExplanationsFile) {
  const auto parsed = parse_explanations(
      "# comment\n\nkernel: k\nfeature: tile shapes\nreference: 1x1\ngenerated: 1\nwhy: scalars\n\n"
      "kernel: k\nfeature: count exp\nreference: 2\ngenerated: 3\nwhy: one more\n",
      "x.explained");
  ASSERT_EQ(parsed.size(), 2u);
  EXPECT_EQ(parsed[0].reference_kernel, "k");
  EXPECT_EQ(parsed[0].feature, "tile shapes");
  EXPECT_EQ(parsed[0].reference, "1x1");
  EXPECT_EQ(parsed[0].generated, "1");
  EXPECT_EQ(parsed[1].why, "one more");
  EXPECT_EQ(test_support::error_of([] { parse_explanations("kernel: k\nfeature: f\n", "x.explained"); }),
            "x.explained:1: the explanation has no 'reference:' line");
  EXPECT_EQ(test_support::error_of([] { parse_explanations("\nkernel: k\nkernel: j\n", "x.explained"); }),
            "x.explained:3: 'kernel:' given twice in one explanation");
  EXPECT_EQ(
      test_support::error_of([] { parse_explanations("kernal: k\n", "x.explained"); }),
      "x.explained:1: expected 'kernel:', 'feature:', 'reference:', 'generated:' or 'why:', not 'kernal: k'");
}

// The committed reports (scripts/ir_diff_op.sh) fail no variant, and each pinned row of an op's
// explanations file is explained in its report: a stale file or report shows here.
TEST(IrDiff, CommittedReportsHaveNoUnexplainedCriticalRow) {
  const std::filesystem::path dir = std::filesystem::path(CUTILE_SOURCE_DIR) / "docs/ir-diff";
  int reports = 0, explanations = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const std::filesystem::path& path = entry.path();
    if (path.extension() == ".md" && !path.stem().string().ends_with(".notes")) {
      ++reports;
      EXPECT_EQ(test_support::read_text(path).find("\nverdict: FAIL\n"), std::string::npos) << path;
    }
    if (path.extension() != ".explained") continue;
    std::filesystem::path report = path;
    const std::string text = test_support::read_text(report.replace_extension(".md"));
    for (const Explanation& e : parse_explanations(test_support::read_text(path), path.string())) {
      ++explanations;
      EXPECT_NE(text.find("\n  " + e.feature + ": " + e.why + "\n"), std::string::npos)
          << path << ": '" << e.feature << "' of @" << e.reference_kernel << " is not explained in "
          << report;
    }
  }
  EXPECT_GT(reports, 0);
  EXPECT_GT(explanations, 0);
}

}  // namespace
}  // namespace cutile::ir
