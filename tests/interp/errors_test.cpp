// Located faults (each naming the op, the C++ file:line and the tile block), unsupported ops, bad calls,
// deterministic printing, and every op module of the shared set running (or refused as unsupported).
#include <gtest/gtest.h>

#include <source_location>
#include <sstream>

#include "support/error_of.hpp"
#include "support/op_modules.hpp"
#include "support/pointer_io.hpp"

namespace {

using namespace cutile;
using test_support::HostTensor;
using E = ir::ElementType;
using O = ir::Opcode;

const ir::Location kHere = ir::Location::from(std::source_location::current());

std::string run_error(const ir::Module& m, std::vector<uint64_t> params, std::array<int64_t, 3> grid,
                      std::vector<interp::MemoryRegion> regions) {
  try {
    interp::run(m, m.functions().front()->name(), params, grid, regions, {.threads = 3});
  } catch (const UserError& e) {
    return e.what();
  }
  return "no error";
}

std::string here_line() { return kHere.file + ":" + std::to_string(kHere.line); }

void expect_located(const std::string& what, std::string_view op, std::string_view block, std::string_view detail) {
  EXPECT_NE(what.find(std::string(op) + " at " + here_line()), std::string::npos) << what;
  EXPECT_NE(what.find(block), std::string::npos) << what;
  EXPECT_NE(what.find(detail), std::string::npos) << what;
}

// k(p: ptr<f32>): blocks from `first_bad` on store 8 elements past the end of a 32-element buffer.
ir::Module out_of_bounds_store() {
  ir::Module m;
  ir::Function& f = m.add_function("k", {ir::pointer_type(E::f32)});
  ir::Builder b(f.entry_block());
  b.set_location(kHere);
  ir::Value* base = b.offset(f.parameter(0), b.binary(O::muli, b.tile_block_id()[0], b.constant_int(E::i32, 8)));
  b.store_ptr(test_support::consecutive_pointers(b, base, {8}), b.constant_float(E::f32, 1, {8}));
  b.return_();
  return m;
}

TEST(LocatedErrors, OutOfBoundsPointerStore) {
  ir::Module m = out_of_bounds_store();
  HostTensor buffer(E::f32, {32}, false);
  run_error(m, {buffer.address()}, {4, 1, 1}, {buffer.region("argument 0 (Out<f32>)")});  // in bounds: fine
  EXPECT_EQ(buffer.get(31), 1.0);
  // Blocks 4..7 all fault; the first in block order is reported.
  const std::string what = run_error(m, {buffer.address()}, {8, 1, 1}, {buffer.region("argument 0 (Out<f32>)")});
  expect_located(what, "store_ptr_tko", "tile block (4, 0, 0)", "out of bounds of region 'argument 0 (Out<f32>)'");
  EXPECT_NE(what.find("tile element 0"), std::string::npos) << what;
}

TEST(LocatedErrors, StoreToReadOnlyRegion) {
  ir::Module m = out_of_bounds_store();
  HostTensor buffer(E::f32, {32});
  const std::string what = run_error(m, {buffer.address()}, {1, 1, 1}, {buffer.region("argument 1 (In<f32>)", false)});
  expect_located(what, "store_ptr_tko", "tile block (0, 0, 0)", "writes read-only region 'argument 1 (In<f32>)'");
}

TEST(LocatedErrors, UninitialisedRead) {
  ir::Module m;
  ir::Function& f = m.add_function("k", {ir::pointer_type(E::f32), ir::pointer_type(E::f32)});
  ir::Builder b(f.entry_block());
  b.set_location(kHere);
  ir::Value* x = b.load_ptr(test_support::consecutive_pointers(b, f.parameter(0), {8})).first;
  b.store_ptr(test_support::consecutive_pointers(b, f.parameter(1), {8}), x);
  b.return_();
  HostTensor src(E::f32, {8}, false), dst(E::f32, {8}, false);
  for (size_t k = 0; k < 8; ++k)
    if (k != 5) src.set(k, 1.0);
  const std::string what = run_error(m, {src.address(), dst.address()}, {1, 1, 1}, {src.region("src"), dst.region("dst")});
  expect_located(what, "load_ptr_tko", "tile block (0, 0, 0)", "reads uninitialised memory of region 'src' at byte offset 20");
  EXPECT_NE(what.find("tile element 5"), std::string::npos) << what;
}

TEST(LocatedErrors, FailedAssertAndDivisionByZero) {
  ir::Module m;
  ir::Function& f = m.add_function("k", {ir::scalar_type(E::i32)});
  ir::Builder b(f.entry_block());
  b.set_location(kHere);
  ir::Value* id = b.tile_block_id()[1];
  b.create(O::assert_, {}, {{b.cmpi(ir::ComparisonPredicate::less_than, id, f.parameter(0))}},
           {{"message", ir::Attribute::string("block y must stay below the limit")}});
  b.binary(O::divi, b.constant_int(E::i32, 7, {4}), b.broadcast(b.reshape(b.binary(O::subi, f.parameter(0), id), {1}), {4}),
           {{"signedness", ir::Attribute::enum_of(ir::EnumKind::signedness, ir::Signedness::signed_)}});
  b.return_();
  expect_located(run_error(m, {2}, {1, 3, 1}, {}), "assert", "tile block (0, 2, 0)",
                 "assertion failed: block y must stay below the limit");
  // With the limit at 0 every block fails its assert: block (0, 0, 0) is the one reported.
  expect_located(run_error(m, {0}, {2, 2, 2}, {}), "assert", "tile block (0, 0, 0)", "assertion failed");
  EXPECT_EQ(run_error(m, {3}, {1, 3, 1}, {}), "no error");
}

TEST(LocatedErrors, ViewIndexOutsideIndexSpace) {
  ir::Module m;
  ir::Function& f = m.add_function("k", {ir::pointer_type(E::f32), ir::scalar_type(E::i32)});
  ir::Builder b(f.entry_block());
  b.set_location(kHere);
  ir::Value* tv = b.make_tensor_view(f.parameter(0), ir::Type::tensor_view(ir::Type::element(E::f32), {ir::kDynamic}, {1}),
                                     {f.parameter(1)}, {});
  b.load_view(b.make_partition_view(tv, {16}), {b.tile_block_id()[0]});
  b.return_();
  HostTensor x(E::f32, {40});
  expect_located(run_error(m, {x.address(), 40}, {4, 1, 1}, {x.region("x")}), "load_view_tko", "tile block (3, 0, 0)",
                 "view index (3) is outside the view's index space (3)");
}

TEST(Unsupported, OpIsRefusedWithItsLocation) {
  ir::Module m;
  ir::Function& f = m.add_function("k", {});
  ir::Builder b(f.entry_block());
  b.set_location(kHere);
  b.create(O::alloca, {ir::pointer_type(E::f32)}, {}, {{"num_elem", ir::Attribute::i64(64)}, {"alignment", ir::Attribute::i64(16)}});
  b.return_();
  const std::string what = run_error(m, {}, {1, 1, 1}, {});
  EXPECT_NE(what.find("the CPU interpreter does not support alloca (at " + here_line()), std::string::npos) << what;
}

TEST(BadCalls, ClearErrors) {
  ir::Module m = out_of_bounds_store();
  HostTensor buffer(E::f32, {32}, false);
  EXPECT_NE(test_support::error_of([&] { interp::run(m, "k", std::vector<uint64_t>{}, {1, 1, 1}, {}); })
                .find("kernel 'k' takes 1 parameters, got 0"),
            std::string::npos);
  EXPECT_NE(test_support::error_of([&] { interp::run(m, "nope", std::vector<uint64_t>{1}, {1, 1, 1}, {}); })
                .find("the module has no entry 'nope' (entries: k)"),
            std::string::npos);
  EXPECT_NE(test_support::error_of([&] { interp::run(m, "k", std::vector<uint64_t>{buffer.address()}, {0, 1, 1}, {}); })
                .find("grid dimensions must be in 1..2^31-1"),
            std::string::npos);
  // An unverified module: an addf of two different types.
  ir::Module bad;
  ir::Function& f = bad.add_function("k", {});
  ir::Builder b(f.entry_block());
  b.binary(O::addf, b.constant_float(E::f32, 1, {4}), b.constant_float(E::f16, 1, {4}));
  b.return_();
  const std::string what = test_support::error_of([&] { interp::run(bad, "k", std::vector<uint64_t>{}, {1, 1, 1}, {}); });
  EXPECT_NE(what.find("the CPU interpreter needs a valid module"), std::string::npos) << what;
  EXPECT_NE(what.find("addf"), std::string::npos) << what;
}

TEST(Printing, BufferedPerBlockAndFlushedInBlockOrder) {
  ir::Module m;
  ir::Function& f = m.add_function("k", {});
  ir::Builder b(f.entry_block());
  auto id = b.tile_block_id();
  ir::Value* x = b.itof(b.binary(O::addi, b.iota(4), b.broadcast(b.reshape(id[0], {1}), {4})), E::f32);
  b.create(O::print_tko, {ir::Type::token()}, {{id[0], id[1], x}, {}},
           {{"str", ir::Attribute::string("(%d,%d) %5.1f 100%%\n")}});
  b.return_();
  std::ostringstream out;
  interp::run(m, "k", std::vector<uint64_t>{}, {3, 2, 1}, {}, {.threads = 4, .out = &out});
  std::string want;
  for (int y = 0; y < 2; ++y)
    for (int xb = 0; xb < 3; ++xb) {
      char line[128];
      std::snprintf(line, sizeof line, "(%d,%d) [%5.1f, %5.1f, %5.1f, %5.1f] 100%%\n", xb, y, xb + 0.0, xb + 1.0, xb + 2.0, xb + 3.0);
      want += line;
    }
  EXPECT_EQ(out.str(), want);
}

// Every shared op module runs on the interpreter (pointer parameters get 64 KiB of initialised memory,
// scalars 5), or is refused as unsupported for the ops the interpreter leaves out.
class OpModules : public ::testing::TestWithParam<test_support::OpModule> {};

TEST_P(OpModules, RunOrRefuse) {
  const test_support::OpModule& op_module = GetParam();
  ir::Module m = test_support::build_module(op_module);
  const ir::Function& f = *m.functions().front();
  std::vector<std::vector<uint8_t>> buffers;
  std::vector<interp::MemoryRegion> regions;
  std::vector<uint64_t> params;
  for (size_t i = 0; i < f.num_parameters(); ++i) {
    if (f.parameter(i)->type().element().is(ir::TypeKind::pointer)) {
      std::vector<uint8_t>& buffer = buffers.emplace_back(65536, 0);
      params.push_back(reinterpret_cast<uint64_t>(buffer.data()));
      regions.push_back({params.back(), 65536, "parameter " + std::to_string(i), true, {}});
    } else {
      params.push_back(5);
    }
  }
  std::ostringstream out;
  // Multimem ops reach other GPUs' memory (sm_100 and later): the interpreter refuses them.
  const bool unsupported =
      op_module.name == "alloca" || op_module.name == "mmaf_scaled" || op_module.name == "multimem_13_5";
  try {
    interp::run(m, f.name(), params, {1, 1, 1}, regions, {.threads = 1, .out = &out});
    EXPECT_FALSE(unsupported) << op_module.name << " ran";
  } catch (const UserError& e) {
    EXPECT_TRUE(unsupported) << e.what();
    EXPECT_NE(std::string(e.what()).find("the CPU interpreter does not support"), std::string::npos) << e.what();
  }
  if (op_module.name == "print_assert") {
    EXPECT_EQ(out.str(), "n=5 x=[1.500000, 1.500000, 1.500000, 1.500000] \"q\" 100% \\ tab\t\nno args");
  }
}

INSTANTIATE_TEST_SUITE_P(Shared, OpModules, ::testing::ValuesIn(test_support::op_modules()),
                         [](const auto& test) { return test.param.name; });

}  // namespace
