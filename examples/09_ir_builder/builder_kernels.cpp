#include "09_ir_builder/builder_kernels.hpp"

#include <limits>
#include <string>

#include "cutile/ir/builder.hpp"

namespace examples {
namespace {

using namespace cutile::ir;

constexpr ElementType kIndex = ElementType::i32;

// Pointer parameters get the facts cuTile Python states for torch allocations: 16-byte aligned.
Value* aligned_pointer(Builder& b, Value* pointer) { return b.assume(pointer, Attribute::div_by(16)); }

// Extents are never negative; saying so lets tileiras drop sign handling in index math.
Value* non_negative(Builder& b, Value* extent) { return b.assume(extent, Attribute::bounded(0, std::nullopt)); }

// A row-major 2-D view: shape (rows, cols), strides (row_stride, 1).
Value* row_major_view(Builder& b, ElementType e, Value* base, Value* rows, Value* cols, Value* row_stride) {
  Type view = Type::tensor_view(Type::element(e), {kDynamic, kDynamic}, {kDynamic, 1});
  return b.make_tensor_view(base, view, {rows, cols}, {row_stride});
}

Value* to_element(Builder& b, Value* x, ElementType e) { return e == ElementType::f32 ? x : b.ftof(x, e); }
Value* to_f32(Builder& b, Value* x) {
  return x->type().element().element_type() == ElementType::f32 ? x : b.ftof(x, ElementType::f32);
}

// reduce over dim 1 of a (1, N) f32 tile, kept as (1, N) by reshape + broadcast.
Value* row_reduce_broadcast(Builder& b, Value* x, Opcode combine, double identity) {
  const std::vector<int64_t> shape = x->type().shape();
  Value* reduced = b.reduce({x}, 1, {Attribute::floating(Type::element(ElementType::f32), identity)},
                            [combine](Builder& body, std::span<Value* const> args) {
                              return std::vector<Value*>{body.binary(combine, args[0], args[1])};
                            })[0];
  return b.broadcast(b.reshape(reduced, {shape[0], 1}), shape);
}

}  // namespace

std::unique_ptr<ir::Module> vector_add_module(ElementType element, int tile) {
  auto module = std::make_unique<Module>();
  const Type ptr = pointer_type(element);
  const Type index = scalar_type(kIndex);
  Function& f = module->add_function("vector_add", {ptr, ptr, ptr, index});
  Builder b(f.entry_block());
  Value* n = non_negative(b, f.parameter(3));
  const Type view = Type::tensor_view(Type::element(element), {kDynamic}, {1});
  auto partition = [&](size_t param) {
    Value* tv = b.make_tensor_view(aligned_pointer(b, f.parameter(param)), view, {n}, {});
    return b.make_partition_view(tv, {tile});
  };
  Value* a = partition(0);
  Value* bv = partition(1);
  Value* c = partition(2);
  Value* block = b.tile_block_id()[0];
  Value* sum = b.binary(Opcode::addf, b.load_view(a, {block}).first, b.load_view(bv, {block}).first);  // (TILE)
  b.store_view(sum, c, {block});
  b.return_();
  return module;
}

std::unique_ptr<ir::Module> row_softmax_module(ElementType element, int tile_n) {
  auto module = std::make_unique<Module>();
  const Type ptr = pointer_type(element);
  const Type index = scalar_type(kIndex);
  Function& f = module->add_function("row_softmax", {ptr, ptr, index, index, index, index});
  Builder b(f.entry_block());
  Value* rows = non_negative(b, f.parameter(2));
  Value* cols = non_negative(b, f.parameter(3));
  Value* x_view = row_major_view(b, element, aligned_pointer(b, f.parameter(0)), rows, cols, f.parameter(4));
  Value* y_view = row_major_view(b, element, aligned_pointer(b, f.parameter(1)), rows, cols, f.parameter(5));
  Value* x_tiles = b.make_partition_view(x_view, {1, tile_n}, PaddingValue::neg_inf);
  Value* y_tiles = b.make_partition_view(y_view, {1, tile_n});
  Value* row = b.tile_block_id()[0];
  Value* zero = b.constant_int(kIndex, 0);
  Value* x = to_f32(b, b.load_view(x_tiles, {row, zero}).first);                        // (1, TILE_N)
  const double neg_inf = -std::numeric_limits<double>::infinity();
  Value* shifted = b.binary(Opcode::subf, x, row_reduce_broadcast(b, x, Opcode::maxf, neg_inf));  // (1, TILE_N)
  Value* e = b.unary(Opcode::exp, shifted);                                            // (1, TILE_N)
  Value* y = b.binary(Opcode::divf, e, row_reduce_broadcast(b, e, Opcode::addf, 0.0));  // (1, TILE_N)
  b.store_view(to_element(b, y, element), y_tiles, {row, zero});
  b.return_();
  return module;
}

std::unique_ptr<ir::Module> tiled_gemm_module(ElementType element, int bm, int bn, int bk) {
  auto module = std::make_unique<Module>();
  const Type ptr = pointer_type(element);
  const Type index = scalar_type(kIndex);
  Function& f =
      module->add_function("tiled_gemm", {ptr, ptr, ptr, index, index, index, index, index, index});
  Builder b(f.entry_block());
  Value* m = non_negative(b, f.parameter(3));
  Value* n = non_negative(b, f.parameter(4));
  Value* k = non_negative(b, f.parameter(5));
  Value* a_view = row_major_view(b, element, aligned_pointer(b, f.parameter(0)), m, k, f.parameter(6));
  Value* b_view = row_major_view(b, element, aligned_pointer(b, f.parameter(1)), k, n, f.parameter(7));
  Value* c_view = row_major_view(b, element, aligned_pointer(b, f.parameter(2)), m, n, f.parameter(8));
  Value* a_tiles = b.make_partition_view(a_view, {bm, bk}, PaddingValue::zero);
  Value* b_tiles = b.make_partition_view(b_view, {bk, bn}, PaddingValue::zero);
  Value* c_tiles = b.make_partition_view(c_view, {bm, bn});
  auto [i, j, unused_z] = b.tile_block_id();
  (void)unused_z;
  // Number of K tiles = the partition's index-space extent along K.
  Operation& space = b.create(Opcode::get_index_space_shape, {index, index}, {{a_tiles}});
  Value* k_tiles = space.result(1);
  Value* acc0 = b.constant_float(ElementType::f32, 0.0, {bm, bn});  // (BM, BN)
  Value* acc = b.for_loop(b.constant_int(kIndex, 0), k_tiles, b.constant_int(kIndex, 1), {acc0},
                          [&](Builder& body, std::span<Value* const> args) {
                            Value* kk = args[0];
                            Value* a = body.load_view(a_tiles, {i, kk}).first;  // (BM, BK)
                            Value* bt = body.load_view(b_tiles, {kk, j}).first; // (BK, BN)
                            return std::vector<Value*>{body.mmaf(a, bt, args[1])};
                          })[0];
  b.store_view(to_element(b, acc, element), c_tiles, {i, j});
  b.return_();
  return module;
}

}  // namespace examples
