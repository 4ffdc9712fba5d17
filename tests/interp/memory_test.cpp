// Views (dynamic and static shapes, dim_map, padding, dropped out-of-bounds stores, strided and gather
// views), masked pointer loads and stores, atomics that stay atomic across parallel tile blocks, and memory
// regions that nest.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "interp/fault.hpp"
#include "interp/memory.hpp"
#include "support/pointer_io.hpp"

namespace {

using namespace cutile;
using test_support::HostTensor;
using E = ir::ElementType;
using O = ir::Opcode;
using Values = std::vector<double>;

ir::NamedAttribute attr(std::string name, ir::Attribute value) { return {std::move(name), std::move(value)}; }

// copy(src, dst: ptr<f32>, rows, cols: i32): dst = tiles of `view_of(src)` stored through the same kind of view.
struct ViewCopy {
  ir::Module module;
  ViewCopy(const std::vector<int32_t>& tile, std::optional<ir::PaddingValue> padding, std::vector<int32_t> dim_map = {}) {
    ir::Function& f = module.add_function(
        "copy", {ir::pointer_type(E::f32), ir::pointer_type(E::f32), ir::scalar_type(E::i32), ir::scalar_type(E::i32)});
    ir::Builder b(f.entry_block());
    const ir::Type tv = ir::Type::tensor_view(ir::Type::element(E::f32), {ir::kDynamic, ir::kDynamic}, {ir::kDynamic, 1});
    ir::Value* src = b.make_tensor_view(f.parameter(0), tv, {f.parameter(2), f.parameter(3)}, {f.parameter(3)});
    ir::Value* dst = b.make_tensor_view(f.parameter(1), tv, {f.parameter(2), f.parameter(3)}, {f.parameter(3)});
    ir::Value* in = b.make_partition_view(src, tile, padding, dim_map);
    ir::Value* out = b.make_partition_view(dst, tile, std::nullopt, dim_map);
    auto id = b.tile_block_id();
    auto [t, token] = b.load_view(in, {id[0], id[1]});
    b.store_view(t, out, {id[0], id[1]}, token);
    b.return_();
  }
};

TEST(Views, PartitionCopyWithRaggedEdges) {
  const int64_t rows = 37, cols = 100;
  HostTensor src(E::f32, {rows, cols}), dst(E::f32, {rows, cols}, false);
  std::mt19937 rng(51);
  src.fill_random(rng, -1, 1);
  ViewCopy copy({16, 32}, ir::PaddingValue::zero);
  interp::run(copy.module, "copy", std::vector<uint64_t>{src.address(), dst.address(), 37, 100}, {3, 4, 1},
              std::vector<interp::MemoryRegion>{src.region("src", false), dst.region("dst")}, {.threads = 3});
  EXPECT_EQ(dst.values(), src.values());  // out-of-bounds parts of edge tiles are dropped, never reach memory
}

TEST(Views, DimMapTransposesTiles) {
  const int64_t rows = 8, cols = 4;
  HostTensor src(E::f32, {rows, cols});
  for (size_t k = 0; k < src.size(); ++k) src.set(k, static_cast<double>(k));
  // dim_map [1, 0]: tile dim 0 walks tensor dim 1. Loading (i, j) and storing through a plain view of
  // the transposed shape writes the transpose.
  ir::Module m;
  ir::Function& f = m.add_function("t", {ir::pointer_type(E::f32), ir::pointer_type(E::f32)});
  ir::Builder b(f.entry_block());
  ir::Value* in_tv = b.make_tensor_view(f.parameter(0), ir::Type::tensor_view(ir::Type::element(E::f32), {8, 4}, {4, 1}), {}, {});
  ir::Value* out_tv = b.make_tensor_view(f.parameter(1), ir::Type::tensor_view(ir::Type::element(E::f32), {4, 8}, {8, 1}), {}, {});
  ir::Value* in = b.make_partition_view(in_tv, {2, 4}, std::nullopt, {1, 0});
  ir::Value* out = b.make_partition_view(out_tv, {2, 4});
  auto id = b.tile_block_id();
  b.store_view(b.load_view(in, {id[0], id[1]}).first, out, {id[0], id[1]});
  b.return_();
  HostTensor dst(E::f32, {cols, rows}, false);
  interp::run(m, "t", std::vector<uint64_t>{src.address(), dst.address()}, {2, 2, 1},
              std::vector<interp::MemoryRegion>{src.region("src", false), dst.region("dst")});
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c) EXPECT_EQ(dst.get(static_cast<size_t>(c * rows + r)), src.get(static_cast<size_t>(r * cols + c)));
}

TEST(Views, PaddingValuesAndIndexSpace) {
  HostTensor src(E::f32, {3, 5});
  src.fill(2.0);
  const double inf = std::numeric_limits<double>::infinity();
  for (auto [pad, want] : {std::pair{ir::PaddingValue::neg_inf, -inf}, std::pair{ir::PaddingValue::neg_zero, -0.0},
                           std::pair{ir::PaddingValue::pos_inf, inf}}) {
    ir::Module m;
    ir::Function& f = m.add_function("k", {ir::pointer_type(E::f32), ir::pointer_type(E::f32), ir::pointer_type(E::i32)});
    ir::Builder b(f.entry_block());
    ir::Value* tv = b.make_tensor_view(f.parameter(0), ir::Type::tensor_view(ir::Type::element(E::f32), {3, 5}, {5, 1}), {}, {});
    ir::Value* pv = b.make_partition_view(tv, {4, 8}, pad);
    ir::Value* zero = b.constant_int(E::i32, 0);
    b.store_ptr(test_support::consecutive_pointers(b, f.parameter(1), {4, 8}), b.load_view(pv, {zero, zero}).first);
    ir::Operation& space = b.create(O::get_index_space_shape, {ir::scalar_type(E::i32), ir::scalar_type(E::i32)}, {{pv}});
    ir::Operation& shape = b.create(O::get_tensor_shape, {ir::scalar_type(E::i32), ir::scalar_type(E::i32)}, {{tv}});
    ir::Value* dims = b.create_value(O::cat, ir::tile_type({4}, E::i32),
                                     {b.create_value(O::cat, ir::tile_type({2}, E::i32), {b.reshape(space.result(0), {1}), b.reshape(space.result(1), {1})}, {attr("dim", ir::Attribute::i64(0))}),
                                      b.create_value(O::cat, ir::tile_type({2}, E::i32), {b.reshape(shape.result(0), {1}), b.reshape(shape.result(1), {1})}, {attr("dim", ir::Attribute::i64(0))})},
                                     {attr("dim", ir::Attribute::i64(0))});
    b.store_ptr(test_support::consecutive_pointers(b, f.parameter(2), {4}), dims);
    b.return_();
    HostTensor out(E::f32, {4, 8}, false), meta(E::i32, {4}, false);
    interp::run(m, "k", std::vector<uint64_t>{src.address(), out.address(), meta.address()}, {1, 1, 1},
                std::vector<interp::MemoryRegion>{src.region("src", false), out.region("out"), meta.region("meta")});
    for (int64_t r = 0; r < 4; ++r)
      for (int64_t c = 0; c < 8; ++c) {
        const double got = out.get(static_cast<size_t>(r * 8 + c));
        if (r < 3 && c < 5)
          EXPECT_EQ(got, 2.0);
        else
          EXPECT_TRUE(got == want && std::signbit(got) == std::signbit(want)) << got;
      }
    EXPECT_EQ(meta.values(), (Values{1, 1, 3, 5}));
  }
}

TEST(Views, StridedAndGatherScatter) {
  HostTensor src(E::f32, {8, 4});
  for (size_t k = 0; k < src.size(); ++k) src.set(k, static_cast<double>(k));
  ir::Module m;
  ir::Function& f = m.add_function("k", {ir::pointer_type(E::f32), ir::pointer_type(E::f32), ir::pointer_type(E::f32)});
  ir::Builder b(f.entry_block());
  const ir::Type tv_type = ir::Type::tensor_view(ir::Type::element(E::f32), {8, 4}, {4, 1});
  ir::Value* tv = b.make_tensor_view(f.parameter(0), tv_type, {}, {});
  // Strided: tiles of 2x4 every 3 rows; tile 2 covers rows 6 and 7.
  ir::Value* sv = b.create_value(O::make_strided_view, ir::Type::strided_view({2, 4}, {3, 4}, tv_type, {0, 1}, ir::PaddingValue::zero), {tv});
  ir::Value* zero = b.constant_int(E::i32, 0);
  b.store_ptr(test_support::consecutive_pointers(b, f.parameter(1), {2, 4}), b.load_view(sv, {b.constant_int(E::i32, 2), zero}).first);
  // Gather rows 5, 0, 9 (out of bounds: padding) and 2.
  ir::Value* gv = b.create_value(O::make_gather_scatter_view, ir::Type::gather_scatter_view({4, 4}, tv_type, 0, ir::PaddingValue::nan), {tv});
  ir::Value* rows = b.constant(ir::Attribute::dense(ir::tile_type({4}, E::i32), {5, 0, 0, 0, 0, 0, 0, 0, 9, 0, 0, 0, 2, 0, 0, 0}));
  b.store_ptr(test_support::consecutive_pointers(b, f.parameter(2), {4, 4}), b.load_view(gv, {rows, zero}).first);
  b.return_();
  HostTensor strided(E::f32, {2, 4}, false), gathered(E::f32, {4, 4}, false);
  interp::run(m, "k", std::vector<uint64_t>{src.address(), strided.address(), gathered.address()}, {1, 1, 1},
              std::vector<interp::MemoryRegion>{src.region("src", false), strided.region("s"), gathered.region("g")});
  EXPECT_EQ(strided.values(), (Values{24, 25, 26, 27, 28, 29, 30, 31}));
  const Values g = gathered.values();
  EXPECT_EQ(Values(g.begin(), g.begin() + 8), (Values{20, 21, 22, 23, 0, 1, 2, 3}));
  for (size_t k = 8; k < 12; ++k) EXPECT_TRUE(std::isnan(g[k]));
  EXPECT_EQ(Values(g.begin() + 12, g.end()), (Values{8, 9, 10, 11}));
}

TEST(Pointers, MaskedLoadsAndStores) {
  HostTensor src(E::i16, {8}), dst(E::i16, {8});
  for (size_t k = 0; k < 8; ++k) {
    src.set(k, static_cast<double>(k) + 1);
    dst.set(k, -1);
  }
  ir::Module m;
  ir::Function& f = m.add_function("k", {ir::pointer_type(E::i16), ir::pointer_type(E::i16)});
  ir::Builder b(f.entry_block());
  ir::Value* lanes = b.iota(8);
  ir::Value* low = b.cmpi(ir::ComparisonPredicate::less_than, lanes, b.constant_int(E::i32, 5, {8}));
  ir::Value* even = b.cmpi(ir::ComparisonPredicate::equal, b.binary(O::andi, lanes, b.constant_int(E::i32, 1, {8})), b.constant_int(E::i32, 0, {8}));
  auto [x, token] = b.load_ptr(test_support::consecutive_pointers(b, f.parameter(0), {8}), low, b.constant_int(E::i16, 100, {8}));
  b.store_ptr(test_support::consecutive_pointers(b, f.parameter(1), {8}), x, even, token);
  b.return_();
  interp::run(m, "k", std::vector<uint64_t>{src.address(), dst.address()}, {1, 1, 1},
              std::vector<interp::MemoryRegion>{src.region("src", false), dst.region("dst")});
  EXPECT_EQ(dst.values(), (Values{1, -1, 3, -1, 5, -1, 100, -1}));
}

// Every block adds its id to 8 counters (atomic_rmw add) and keeps the max (maxi), then CAS-swaps slot 0
// of a second buffer from its id to id+1 in a chain; parallel blocks must not lose updates.
TEST(Atomics, RmwAndCasAcrossParallelBlocks) {
  const int64_t blocks = 64;
  HostTensor counters(E::i32, {8}), maxima(E::i32, {8}), floats(E::f32, {8});
  counters.fill(0);
  maxima.fill(-5);
  floats.fill(0);
  ir::Module m;
  ir::Function& f = m.add_function("k", {ir::pointer_type(E::i32), ir::pointer_type(E::i32), ir::pointer_type(E::f32)});
  ir::Builder b(f.entry_block());
  ir::Value* id = b.broadcast(b.reshape(b.tile_block_id()[0], {1}), {8});
  auto rmw = [&](ir::Value* pointers, ir::Value* arg, ir::AtomicRmwMode mode) {
    b.create(O::atomic_rmw_tko, {arg->type(), ir::Type::token()}, {{pointers}, {arg}, {}, {}},
                    {attr("memory_ordering_semantics", ir::Attribute::enum_of(ir::EnumKind::memory_ordering, ir::MemoryOrdering::relaxed)),
                     attr("memory_scope", ir::Attribute::enum_of(ir::EnumKind::memory_scope, ir::MemoryScope::device)),
                     attr("mode", ir::Attribute::enum_of(ir::EnumKind::atomic_mode, mode))});
  };
  rmw(test_support::consecutive_pointers(b, f.parameter(0), {8}), id, ir::AtomicRmwMode::add);
  rmw(test_support::consecutive_pointers(b, f.parameter(1), {8}), id, ir::AtomicRmwMode::max);
  rmw(test_support::consecutive_pointers(b, f.parameter(2), {8}), b.constant_float(E::f32, 0.5, {8}), ir::AtomicRmwMode::addf);
  b.return_();
  interp::run(m, "k", std::vector<uint64_t>{counters.address(), maxima.address(), floats.address()}, {blocks, 1, 1},
              std::vector<interp::MemoryRegion>{counters.region("counters"), maxima.region("maxima"), floats.region("floats")},
              {.threads = 4});
  EXPECT_EQ(counters.values(), Values(8, blocks * (blocks - 1) / 2));
  EXPECT_EQ(maxima.values(), Values(8, blocks - 1));
  EXPECT_EQ(floats.values(), Values(8, blocks * 0.5));

  // Compare-and-swap: block i waits for nothing; only the block whose id equals the slot's value moves it on,
  // so after all blocks ran every slot holds a value that some block's CAS produced.
  HostTensor slot(E::i32, {1}), seen(E::i32, {blocks}, false);
  slot.fill(0);
  ir::Module cas;
  ir::Function& g = cas.add_function("cas", {ir::pointer_type(E::i32), ir::pointer_type(E::i32)});
  ir::Builder c(g.entry_block());
  ir::Value* me = c.tile_block_id()[0];
  ir::Operation& op = c.create(O::atomic_cas_tko, {ir::scalar_type(E::i32), ir::Type::token()},
                               {{g.parameter(0)}, {me}, {c.binary(O::addi, me, c.constant_int(E::i32, 1))}, {}, {}},
                               {attr("memory_ordering_semantics", ir::Attribute::enum_of(ir::EnumKind::memory_ordering, ir::MemoryOrdering::acq_rel)),
                                attr("memory_scope", ir::Attribute::enum_of(ir::EnumKind::memory_scope, ir::MemoryScope::device))});
  c.store_ptr(c.offset(g.parameter(1), me), op.result(0));
  c.return_();
  interp::run(cas, "cas", std::vector<uint64_t>{slot.address(), seen.address()}, {blocks, 1, 1},
              std::vector<interp::MemoryRegion>{slot.region("slot"), seen.region("seen")}, {.threads = 1});
  EXPECT_EQ(slot.get(0), static_cast<double>(blocks)) << "in block order every CAS succeeds";
  for (int64_t i = 0; i < blocks; ++i) EXPECT_EQ(seen.get(static_cast<size_t>(i)), static_cast<double>(i));
}

TEST(Globals, ReadAndWrite) {
  ir::Module m;
  m.add_global({"table", ir::Attribute::dense(ir::tile_type({4}, E::i32), {1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4, 0, 0, 0}), 0});
  ir::Function& f = m.add_function("k", {ir::pointer_type(E::i32)});
  ir::Builder b(f.entry_block());
  ir::Value* g = b.create(O::get_global, {ir::pointer_type(E::i32)}, {}, {attr("name", ir::Attribute::string("table"))}).result(0);
  ir::Value* x = b.load_ptr(test_support::consecutive_pointers(b, g, {4})).first;
  b.store_ptr(test_support::consecutive_pointers(b, f.parameter(0), {4}), b.binary(O::muli, x, x));
  b.return_();
  HostTensor out(E::i32, {4}, false);
  interp::run(m, "k", std::vector<uint64_t>{out.address()}, {1, 1, 1}, std::vector<interp::MemoryRegion>{out.region("out")});
  EXPECT_EQ(out.values(), (Values{1, 4, 9, 16}));
}

// Read-only regions may nest (a list member and a view into it, or two inputs sharing memory): a load in
// the outer region past the inner one's end finds the outer region, not a bounds error.
TEST(Regions, NestedReadOnlyRegionsBothServe) {
  std::vector<uint8_t> bytes(256, 7), written(256, 1);
  const uint64_t base = reinterpret_cast<uint64_t>(bytes.data());
  const std::vector<interp::MemoryRegion> regions = {
      {.address = base, .bytes = 256, .name = "outer", .writable = false, .initialised = written},
      {.address = base + 64, .bytes = 32, .name = "inner", .writable = false,
       .initialised = std::span<uint8_t>(written).subspan(64, 32)}};
  const interp::Memory memory(regions);
  EXPECT_EQ(memory.load(base + 200, 1, 0), 7u);  // past inner's end, inside outer
  EXPECT_EQ(memory.load(base + 70, 1, 0), 7u);
  EXPECT_THROW(memory.load(base + 256, 1, 0), interp::Fault);
}

}  // namespace
