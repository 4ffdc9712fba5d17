// Bytecode round trips: every op of the table at every version it exists in, the golden vectors of the
// bytecode reference (official 13.1 fixtures, cuTile Python's 13.3 vector add, the regions example),
// cuTile Python exports (softmax, GEMM), debug locations, globals, producer and hints.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>

#include "bytecode/encoding.hpp"
#include "cutile/bytecode/reader.hpp"
#include "cutile/bytecode/writer.hpp"
#include "cutile/error.hpp"
#include "cutile/ir_diff/equivalence.hpp"
#include "support/op_modules.hpp"

namespace cutile {
namespace {

using namespace ir;
using bytecode::read_bytecode;
using bytecode::write_bytecode;
using test_support::OpModule;

const std::vector<Version> kVersions = {v13_1, v13_2, v13_3, v13_4, v13_5};

std::filesystem::path reference_dir() { return std::filesystem::path(CUTILE_SOURCE_DIR) / "tests/data/reference"; }

std::vector<uint8_t> read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  EXPECT_TRUE(in.good()) << "missing " << p;
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

NamedAttribute named(std::string name, Attribute value) { return {std::move(name), std::move(value)}; }

// Modules for the versions before the shared op modules' oldest: the same ops without later features.
std::vector<OpModule> older_version_modules() {
  using test_support::op_modules_detail::kernel;
  std::vector<OpModule> out;
  out.push_back(kernel("negi_13_1", v13_1, {}, [](Builder& b, Function&) {
    b.unary(Opcode::negi, b.constant_int(ElementType::i32, 3, {4}));
  }));
  out.push_back(kernel("print_13_1", v13_1, {scalar_type(ElementType::i32)}, [](Builder& b, Function& f) {
    b.create(Opcode::print_tko, {Type::token()}, {{f.parameter(0)}, {}}, {named("str", Attribute::string("n=%d"))});
  }));
  out.push_back(kernel("for_13_1", v13_1, {scalar_type(ElementType::i32)}, [](Builder& b, Function& f) {
    Value* lb = b.constant_int(ElementType::i32, 0);
    Value* step = b.constant_int(ElementType::i32, 1);
    b.for_loop(lb, f.parameter(0), step, {b.constant_float(ElementType::f32, 1.0, {4})},
               [](Builder& in, std::span<Value* const> a) {
                 return std::vector<Value*>{in.binary(Opcode::addf, a[1], a[1])};
               });
  }));
  out.push_back(kernel("mmaf_13_1", v13_1, {}, [](Builder& b, Function&) {
    Value* a = b.constant_float(ElementType::f16, 1.0, {16, 16});
    b.mmaf(a, a, b.constant_float(ElementType::f32, 0.0, {16, 16}));
  }));
  out.push_back(kernel("assert_13_1", v13_1, {scalar_type(ElementType::i32)}, [](Builder& b, Function& f) {
    Value* c = b.cmpi(ComparisonPredicate::greater_than, f.parameter(0), b.constant_int(ElementType::i32, 0));
    b.create(Opcode::assert_, {}, {{c}}, {named("message", Attribute::string("n must be > 0"))});
  }));
  out.push_back({"public_global_13_1", v13_1, [](Module& m) {
                   m.add_global({"table", Attribute::dense(tile_type({4}, ElementType::i32), {7, 0, 0, 0}), 64});
                   Function& f = m.add_function("k", {});
                   Builder b(f.entry_block());
                   b.create(Opcode::get_global, {pointer_type(ElementType::i32)}, {},
                            {named("name", Attribute::string("table"))});
                   b.return_();
                 }});
  return out;
}

struct Case {
  const OpModule* module;
  Version version;
};

const std::vector<OpModule>& all_modules() {
  static const std::vector<OpModule> modules = [] {
    std::vector<OpModule> m = test_support::op_modules();
    for (OpModule& extra : older_version_modules()) m.push_back(std::move(extra));
    return m;
  }();
  return modules;
}

std::vector<Case> all_cases() {
  std::vector<Case> cases;
  for (const OpModule& m : all_modules())
    for (Version v : kVersions)
      if (v >= m.version) cases.push_back({&m, v});
  return cases;
}

void collect_opcodes(const Region& region, std::set<Opcode>& out) {
  for (const auto& block : region.blocks())
    for (const auto& op : block->operations()) {
      out.insert(op->opcode());
      for (const auto& r : op->regions()) collect_opcodes(*r, out);
    }
}

TEST(BytecodeRoundTrip, EveryOpIsCoveredAtEveryVersionItExistsIn) {
  std::map<Version, std::set<Opcode>> covered;
  for (const OpModule& m : all_modules()) {
    Module module = test_support::build_module(m);
    std::set<Opcode> ops;
    for (const auto& f : module.functions()) collect_opcodes(f->body(), ops);
    for (Version v : kVersions)
      if (v >= m.version) covered[v].insert(ops.begin(), ops.end());
  }
  for (const OpSpec& spec : all_ops()) {
    if (spec.opcode == Opcode::entry || spec.opcode == Opcode::global || spec.opcode == Opcode::module) continue;
    for (Version v : kVersions) {
      if (v < spec.since) continue;
      EXPECT_TRUE(covered[v].contains(spec.opcode)) << spec.mnemonic << " has no round-trip module at " << v.str();
    }
  }
}

class BytecodeOpRoundTrip : public ::testing::TestWithParam<Case> {};

TEST_P(BytecodeOpRoundTrip, WriteReadIsEquivalentAndStable) {
  const Case& c = GetParam();
  Module original = test_support::build_module(*c.module);
  const std::vector<uint8_t> bytes = write_bytecode(original, {c.version});
  EXPECT_EQ(bytes, write_bytecode(original, {c.version})) << "writer is not deterministic";
  bytecode::ReadResult read = read_bytecode(bytes);
  EXPECT_EQ(read.version, c.version);
  std::string diff;
  EXPECT_TRUE(modules_equivalent(original, *read.module, &diff)) << diff;
  // What we read, written again, gives the same bytes.
  EXPECT_EQ(write_bytecode(*read.module, {c.version}), bytes);
}

INSTANTIATE_TEST_SUITE_P(AllOps, BytecodeOpRoundTrip, ::testing::ValuesIn(all_cases()),
                         [](const ::testing::TestParamInfo<Case>& param) {
                           return param.param.module->name + "_v13_" + std::to_string(param.param.version.minor);
                         });

// ------------------------------------------------------------------------------- golden vectors

TEST(BytecodeGolden, OfficialNegiFixtureDecodesAndReencodesByteForByte) {
  const std::vector<uint8_t> bytes = read_file(reference_dir() / "negi-op-13.1.tileirbc");
  ASSERT_EQ(bytes.size(), 126u);
  bytecode::ReadResult read = read_bytecode(bytes);
  EXPECT_EQ(read.version, v13_1);

  Module expected;
  Function& f = expected.add_function("basic", {});
  Builder b(f.entry_block());
  Value* c = b.constant(Attribute::dense(tile_type({2}, ElementType::i32), {1, 0, 0, 0, 2, 0, 0, 0}));
  b.unary(Opcode::negi, c);
  b.unary(Opcode::negi, c);
  b.return_();
  std::string diff;
  EXPECT_TRUE(modules_equivalent(expected, *read.module, &diff)) << diff;

  EXPECT_EQ(write_bytecode(expected, {v13_1}), bytes);
  EXPECT_EQ(write_bytecode(*read.module, {v13_1}), bytes);
}

TEST(BytecodeGolden, OfficialPrintFixtureReencodesByteForByte) {
  const std::vector<uint8_t> bytes = read_file(reference_dir() / "print-op-13.1.tileirbc");
  bytecode::ReadResult read = read_bytecode(bytes);
  EXPECT_EQ(read.version, v13_1);
  ASSERT_EQ(read.module->functions().size(), 1u);
  EXPECT_EQ(read.module->functions()[0]->name(), "mutated_kernel");
  EXPECT_EQ(write_bytecode(*read.module, {v13_1}), bytes);
}

TEST(BytecodeGolden, OfficialF4In13_1FixtureIsRejected) {
  const std::vector<uint8_t> bytes = read_file(reference_dir() / "f4e2m1fn-in-13.1.tileirbc");
  try {
    read_bytecode(bytes);
    FAIL() << "expected UserError";
  } catch (const UserError& e) {
    EXPECT_NE(e.message().find("element type f4E2M1FN requires bytecode version 13.3, the file is 13.1"),
              std::string::npos)
        << e.message();
  }
}

void expect_reencodes_equivalently(const std::vector<uint8_t>& bytes, Version version) {
  bytecode::ReadResult first = read_bytecode(bytes);
  EXPECT_EQ(first.version, version);
  const std::vector<uint8_t> again = write_bytecode(*first.module, {version});
  bytecode::ReadResult second = read_bytecode(again);
  std::string diff;
  EXPECT_TRUE(modules_equivalent(*first.module, *second.module, &diff)) << diff;
}

TEST(BytecodeGolden, CuTilePythonVectorAdd) {
  const std::vector<uint8_t> bytes = read_file(reference_dir() / "vadd_cutile_python_13_3.tileirbc");
  bytecode::ReadResult read = read_bytecode(bytes);
  ASSERT_EQ(read.module->functions().size(), 1u);
  const Function& f = *read.module->functions()[0];
  EXPECT_EQ(f.name(), "vadd");
  EXPECT_EQ(f.num_parameters(), 9u);
  EXPECT_EQ(f.parameter(0)->type(), pointer_type(ElementType::f32));
  ASSERT_TRUE(f.hints().has_value());
  ASSERT_NE(f.hints()->find("default"), nullptr);
  EXPECT_TRUE(f.hints()->find("default")->entries.empty());
  // cuTile Python writes debug info: the function and its ops point into the kernel's source.
  EXPECT_EQ(f.location().file, "/tmp/ref/vadd.py");
  std::map<Opcode, int> counts;
  for (const auto& op : f.entry_block().operations()) ++counts[op->opcode()];
  EXPECT_EQ(counts[Opcode::load_view_tko], 2);
  EXPECT_EQ(counts[Opcode::store_view_tko], 1);
  EXPECT_EQ(counts[Opcode::addf], 1);
  EXPECT_EQ(counts[Opcode::make_tensor_view], 3);
  EXPECT_EQ(f.entry_block().back().opcode(), Opcode::return_);
  const Operation* load = nullptr;
  for (const auto& op : f.entry_block().operations())
    if (op->opcode() == Opcode::load_view_tko && !load) load = op.get();
  ASSERT_NE(load, nullptr);
  EXPECT_EQ(load->result(0)->type(), tile_type({128}, ElementType::f32));
  EXPECT_EQ(load->operand_groups()[2].size(), 1u);  // token
  expect_reencodes_equivalently(bytes, v13_3);
}

// Writes the reference's regions example (§1.12 c): cuTile Python's type numbering, its function body
// bytes verbatim, and the other sections around them.
std::vector<uint8_t> regions_example(Version version) {
  using bytecode::ByteWriter;
  auto table = [](const std::vector<std::vector<uint8_t>>& entries, size_t width) {
    ByteWriter w;
    w.varint(entries.size());
    w.pad_to(width);
    uint64_t offset = 0;
    for (const auto& e : entries) {
      if (width == 4) w.le<uint32_t>(static_cast<uint32_t>(offset));
      else w.le<uint64_t>(offset);
      offset += e.size();
    }
    for (const auto& e : entries) w.append(e);
    return w;
  };
  auto section = [](ByteWriter& out, uint8_t id, const ByteWriter& payload, size_t align) {
    out.byte(static_cast<uint8_t>(id | 0x80));
    out.varint(payload.size());
    out.varint(align);
    out.pad_to(align);
    out.append(payload.bytes());
  };
  std::vector<uint8_t> body = {0x10, 0x03, 0x00, 0x10, 0x03, 0x01, 0x10, 0x03, 0x02,
                               0x58, 0x01, 0x04, 0x00, 0x01, 0x02, 0x02, 0x00, 0x01, 0x00,
                               0x01, 0x01, 0x02, 0x04, 0x04, 0x02,
                               0x02, 0x04, 0x00, 0x00, 0x04, 0x05,
                               0x6D, 0x00, 0x01, 0x06,
                               0x29, 0x01, 0x04, 0x00, 0x04, 0x01, 0x02, 0x03, 0x04,
                               0x01, 0x01, 0x02, 0x03, 0x04, 0x02,
                               0x02, 0x04, 0x00, 0x00, 0x06, 0x06,
                               0x11, 0x00, 0x01, 0x07,
                               0x5C, 0x00, 0x00};
  if (version < v13_2) body.erase(body.begin() + 38);  // no `for` flags before 13.2
  ByteWriter funcs;
  funcs.varint(1);
  funcs.varint(0);  // name "k"
  funcs.varint(6);  // signature
  funcs.byte(0x02);
  funcs.varint(0);
  funcs.varint(body.size());
  funcs.append(body);
  // Types: i1, i32, f32, tile<i32>, tile<f32>, tile<8xf32>, (tile<8xf32>) -> ().
  std::vector<std::vector<uint8_t>> types = {{0x00}, {0x03}, {0x07}, {0x0D, 0x01, 0x00}, {0x0D, 0x02, 0x00},
                                             {0x0D, 0x02, 0x01, 8, 0, 0, 0, 0, 0, 0, 0}, {0x10, 0x01, 0x05, 0x00}};
  std::vector<std::vector<uint8_t>> constants = {{4, 0, 0, 0, 0}, {4, 4, 0, 0, 0}, {4, 1, 0, 0, 0}};
  ByteWriter out;
  out.append(std::vector<uint8_t>{0x7F, 'T', 'i', 'l', 'e', 'I', 'R', 0x00, 13, version.minor, 0, 0});
  section(out, 0x02, funcs, 8);
  section(out, 0x04, table(constants, 8), 8);
  section(out, 0x05, table(types, 4), 4);
  section(out, 0x01, table({{'k'}}, 4), 4);
  out.byte(0x00);
  return out.bytes();
}

TEST(BytecodeGolden, RegionsExampleDecodes) {
  for (Version v : {v13_1, v13_2}) {
    SCOPED_TRACE(v.str());
    const std::vector<uint8_t> bytes = regions_example(v);
    bytecode::ReadResult read = read_bytecode(bytes);

    Module expected;
    Function& f = expected.add_function("k", {tile_type({8}, ElementType::f32)});
    Builder b(f.entry_block());
    Value* lb = b.constant_int(ElementType::i32, 0);
    Value* ub = b.constant_int(ElementType::i32, 4);
    Value* step = b.constant_int(ElementType::i32, 1);
    Value* sum = b.reduce({f.parameter(0)}, 0, {Attribute::floating(Type::element(ElementType::f32), 0.0)},
                          [](Builder& in, std::span<Value* const> a) {
                            return std::vector<Value*>{in.binary(Opcode::addf, a[0], a[1])};
                          })[0];
    b.for_loop(lb, ub, step, {sum}, [](Builder& in, std::span<Value* const> a) {
      return std::vector<Value*>{in.binary(Opcode::addf, a[1], a[1])};
    });
    b.return_();
    std::string diff;
    EXPECT_TRUE(modules_equivalent(expected, *read.module, &diff)) << diff;
    expect_reencodes_equivalently(bytes, v);
  }
}

TEST(BytecodeGolden, CuTilePythonExportsDecode) {
  // Exported by tests/data/reference/export_reference.py.
  for (const char* name : {"softmax_cutile_python_13_3.tileirbc", "gemm_cutile_python_13_3.tileirbc"}) {
    SCOPED_TRACE(name);
    const std::vector<uint8_t> bytes = read_file(reference_dir() / name);
    bytecode::ReadResult read = read_bytecode(bytes);
    ASSERT_EQ(read.module->functions().size(), 1u);
    std::set<Opcode> ops;
    collect_opcodes(read.module->functions()[0]->body(), ops);
    if (std::string(name).starts_with("softmax")) {
      EXPECT_TRUE(ops.contains(Opcode::reduce));
      EXPECT_TRUE(ops.contains(Opcode::exp) || ops.contains(Opcode::exp2));
    } else {
      EXPECT_TRUE(ops.contains(Opcode::for_));
      EXPECT_TRUE(ops.contains(Opcode::mmaf));
      EXPECT_TRUE(ops.contains(Opcode::continue_));
    }
    expect_reencodes_equivalently(bytes, v13_3);
  }
}

// ------------------------------------------------------------------------- module-level features

Module located_module() {
  Module m;
  Function& f = m.add_function("located", {scalar_type(ElementType::i32)}, {"/src/kernels/add.cpp", 10, 3});
  Builder b(f.entry_block());
  b.set_location({"/src/kernels/add.cpp", 11, 5});
  Value* x = b.constant_float(ElementType::f32, 1.0, {4});
  b.set_location({});
  Value* y = b.unary(Opcode::negf, x);
  b.set_location({"/src/kernels/other.hpp", 7, 9});
  b.binary(Opcode::addf, x, y);
  b.return_();
  return m;
}

TEST(BytecodeModule, DebugLocationsRoundTrip) {
  Module m = located_module();
  for (Version v : kVersions) {
    const std::vector<uint8_t> bytes = write_bytecode(m, {v});
    bytecode::ReadResult read = read_bytecode(bytes);
    std::string diff;
    EXPECT_TRUE(modules_equivalent(m, *read.module, &diff)) << v.str() << ": " << diff;
    const Function& f = *read.module->functions()[0];
    EXPECT_EQ(f.location(), (Location{"/src/kernels/add.cpp", 10, 3}));
    EXPECT_EQ(f.entry_block().operations()[0]->location(), (Location{"/src/kernels/add.cpp", 11, 5}));
    EXPECT_FALSE(f.entry_block().operations()[1]->location().known());
    EXPECT_EQ(f.entry_block().operations()[2]->location(), (Location{"/src/kernels/other.hpp", 7, 9}));
  }
}

TEST(BytecodeModule, DebugInfoCanBeLeftOut) {
  Module m = located_module();
  const std::vector<uint8_t> with = write_bytecode(m, {v13_3, true});
  const std::vector<uint8_t> without = write_bytecode(m, {v13_3, false});
  EXPECT_LT(without.size(), with.size());
  bytecode::ReadResult read = read_bytecode(without);
  const Function& f = *read.module->functions()[0];
  EXPECT_FALSE(f.location().known());
  for (const auto& op : f.entry_block().operations()) EXPECT_FALSE(op->location().known());
}

TEST(BytecodeModule, ModulesWithoutLocationsHaveNoDebugSection) {
  Module m = test_support::build_module(test_support::op_modules()[0]);
  const std::vector<uint8_t> bytes = write_bytecode(m, {v13_3});
  // Sections after the header: Func (0x82), Constant (0x84), Type (0x85), String (0x81); never Debug (0x83).
  size_t pos = 12;
  std::vector<uint8_t> ids;
  while (bytes[pos] != 0) {
    ids.push_back(bytes[pos]);
    bytecode::ByteReader r(std::span<const uint8_t>(bytes).subspan(pos + 1), pos + 1);
    const uint64_t len = r.varint("len");
    size_t p = r.offset();
    if (bytes[pos] & 0x80) {
      const uint64_t align = r.varint("align");
      p = r.offset();
      while (p % align) ++p;
    }
    pos = p + len;
  }
  EXPECT_EQ(ids, (std::vector<uint8_t>{0x82, 0x84, 0x85, 0x81}));
}

// 13.5 kernel entries: flags 0x02 only, then after the location index the hints (possibly empty) and the
// argument attributes (an empty array), each a self-contained attribute; hints survive the round trip.
TEST(BytecodeModule, KernelEntryLayoutOf13_5) {
  Module m;
  Function& f = m.add_function("k", {});
  Builder(f.entry_block()).return_();
  const std::vector<uint8_t> b = write_bytecode(m, {v13_5});
  // Header (12 bytes), Func section: id|align, length, alignment 8, padding to offset 16.
  ASSERT_GT(b.size(), 28u);
  EXPECT_EQ(b[9], 5);
  const std::vector<uint8_t> entry(b.begin() + 16, b.begin() + 16 + 12);
  EXPECT_EQ(entry, (std::vector<uint8_t>{0x01, 0x00, 0x00, 0x02, 0x00, 0x0B, 0x00, 0x06, 0x00, 0x03, 0x5C, 0x00}));
  EXPECT_FALSE(read_bytecode(b).module->functions()[0]->hints().has_value());

  Function& g = m.add_function("hinted", {});
  g.set_hints(Attribute::optimization_hints({{"sm_90", Attribute::dictionary({{"occupancy", Attribute::i32(2)}})}}));
  Builder(g.entry_block()).return_();
  const auto read = read_bytecode(write_bytecode(m, {v13_5}));
  ASSERT_TRUE(read.module->functions()[1]->hints().has_value());
  EXPECT_EQ(read.module->functions()[1]->hints()->entries.size(), 1u);
}

TEST(BytecodeModule, PtrAttrRoundTrips) {
  for (PtrAttr a : {PtrAttr::none, PtrAttr::unicast, PtrAttr::multicast}) {
    Module m;
    const Type p = Type::tile({}, Type::pointer(Type::element(ElementType::f32), a));
    Function& f = m.add_function("k", {p});
    Builder b(f.entry_block());
    b.make_tensor_view(f.parameter(0), Type::tensor_view(Type::element(ElementType::f32), {8}, {1}, a), {}, {});
    b.return_();
    const auto read = read_bytecode(write_bytecode(m, {v13_5}));
    EXPECT_EQ(read.module->functions()[0]->signature(), f.signature()) << ptr_attr_name(a);
  }
}

TEST(BytecodeModule, ProducerIsWrittenFrom13_3) {
  Module m = test_support::build_module(test_support::op_modules()[0]);
  m.set_producer("cutile-cpp test");
  EXPECT_EQ(read_bytecode(write_bytecode(m, {v13_3})).module->producer(), "cutile-cpp test");
  EXPECT_EQ(read_bytecode(write_bytecode(m, {v13_4})).module->producer(), "cutile-cpp test");
  // Older readers reject the Producer section, so it is left out.
  EXPECT_FALSE(read_bytecode(write_bytecode(m, {v13_2})).module->producer().has_value());
}

TEST(BytecodeModule, EmptyModuleRoundTrips) {
  Module m;
  for (Version v : kVersions) {
    const std::vector<uint8_t> bytes = write_bytecode(m, {v});
    EXPECT_TRUE(read_bytecode(bytes).module->functions().empty());
  }
}

TEST(BytecodeModule, SeveralFunctionsShareTables) {
  Module m;
  for (const char* name : {"a", "b", "c"}) {
    Function& f = m.add_function(name, {pointer_type(ElementType::f32)});
    Builder b(f.entry_block());
    b.unary(Opcode::negf, b.constant_float(ElementType::f32, 2.0, {4}));
    b.return_();
  }
  bytecode::ReadResult read = read_bytecode(write_bytecode(m));
  std::string diff;
  EXPECT_TRUE(modules_equivalent(m, *read.module, &diff)) << diff;
}

TEST(BytecodeModule, DefaultsAndCanonicalFormsCompareEqual) {
  // Written explicitly or left to the default, an attribute reads back the same.
  Module a, b;
  for (Module* m : {&a, &b}) {
    Function& f = m->add_function("k", {});
    Builder bld(f.entry_block());
    Value* x = bld.constant_float(ElementType::f32, 1.0, {4});
    if (m == &a)
      bld.binary(Opcode::addf, x, x);
    else
      bld.binary(Opcode::addf, x, x,
                 {named("rounding_mode", Attribute::enum_of(EnumKind::rounding, RoundingMode::nearest_even))});
    bld.return_();
  }
  std::string diff;
  EXPECT_TRUE(modules_equivalent(a, b, &diff)) << diff;
  EXPECT_EQ(write_bytecode(a), write_bytecode(b));
}

TEST(BytecodeModule, EquivalenceNamesFunctionAndOp) {
  Module a, b;
  for (Module* m : {&a, &b}) {
    Function& f = m->add_function("kern", {});
    Builder bld(f.entry_block());
    Value* x = bld.constant_float(ElementType::f32, 1.0, {4});
    bld.binary(m == &a ? Opcode::addf : Opcode::subf, x, x);
    bld.return_();
  }
  std::string diff;
  EXPECT_FALSE(modules_equivalent(a, b, &diff));
  EXPECT_EQ(diff, "function 'kern', op #1 (addf): opcode differs from subf");
}

TEST(BytecodeModule, HintBooleansFromTheOfficialWriterReadAsBools) {
  // The C++ writer spells a dictionary bool as Integer-tag i1; ours uses the Bool tag. Both read as bools.
  Module m;
  Function& f = m.add_function("k", {});
  f.set_hints(Attribute::optimization_hints(
      {{"sm_100", Attribute::dictionary({{"allow_tma", Attribute::integer(Type::element(ElementType::i1), 1)}})}}));
  Builder(f.entry_block()).return_();
  bytecode::ReadResult read = read_bytecode(write_bytecode(m));
  const Attribute* v = read.module->functions()[0]->hints()->find("sm_100")->find("allow_tma");
  ASSERT_NE(v, nullptr);
  EXPECT_EQ(v->kind, AttrKind::boolean);
  EXPECT_EQ(v->int_value, 1);
  std::string diff;
  EXPECT_TRUE(modules_equivalent(m, *read.module, &diff)) << diff;
}

}  // namespace
}  // namespace cutile
