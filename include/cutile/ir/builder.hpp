// Builds Tile IR ops into a block. `create` makes any op of the table; the named helpers cover the
// ops kernels use most and fill in result types and defaults.
#pragma once

#include <array>
#include <functional>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "cutile/ir/module.hpp"

namespace cutile::ir {

class Builder {
 public:
  using BodyFn = std::function<std::vector<Value*>(Builder&, std::span<Value* const> block_args)>;

  explicit Builder(Block& block) : block_(&block) {}
  Block& block() const { return *block_; }
  void set_block(Block& block) { block_ = &block; }
  /// Location stamped on every op created from now on.
  void set_location(Location location) { location_ = std::move(location); }
  const Location& location() const { return location_; }

  /// Any op: result types, operand groups in table order (empty group = absent optional operand),
  /// attributes by table name, and `num_regions` empty regions.
  Operation& create(Opcode opcode, std::vector<Type> result_types, std::vector<std::vector<Value*>> operand_groups,
                    std::vector<NamedAttribute> attrs = {}, int num_regions = 0);
  /// Single-result ops whose operands are all single groups.
  Value* create_value(Opcode opcode, Type result_type, std::vector<Value*> operands,
                      std::vector<NamedAttribute> attrs = {});

  // Constants. `shape` empty = scalar tile.
  Value* constant(Attribute dense_value);
  Value* constant_int(ElementType e, int64_t value, std::vector<int64_t> shape = {});
  Value* constant_float(ElementType e, double value, std::vector<int64_t> shape = {});

  // Grid.
  std::array<Value*, 3> tile_block_id();
  std::array<Value*, 3> num_tile_blocks();

  // Elementwise; the result has the type of the first operand (comparisons: i1 tiles).
  Value* unary(Opcode opcode, Value* x, std::vector<NamedAttribute> attrs = {});
  Value* binary(Opcode opcode, Value* lhs, Value* rhs, std::vector<NamedAttribute> attrs = {});
  Value* cmpf(ComparisonPredicate predicate, Value* lhs, Value* rhs,
              ComparisonOrdering ordering = ComparisonOrdering::ordered);
  Value* cmpi(ComparisonPredicate predicate, Value* lhs, Value* rhs, Signedness signedness = Signedness::signed_);
  Value* select(Value* condition, Value* if_true, Value* if_false);
  Value* fma(Value* a, Value* b, Value* c);

  // Conversions and shapes.
  Value* ftof(Value* x, ElementType to);
  Value* itof(Value* x, ElementType to, Signedness signedness = Signedness::signed_);
  Value* ftoi(Value* x, ElementType to, Signedness signedness = Signedness::signed_);
  Value* exti(Value* x, ElementType to, Signedness signedness = Signedness::signed_);
  Value* trunci(Value* x, ElementType to);
  Value* reshape(Value* x, std::vector<int64_t> shape);
  Value* broadcast(Value* x, std::vector<int64_t> shape);
  Value* permute(Value* x, std::vector<int64_t> permutation);
  Value* iota(int64_t length, ElementType e = ElementType::i32);

  // Memory.
  Value* make_token();
  Value* join_tokens(std::vector<Value*> tokens);
  Value* assume(Value* x, Attribute predicate);
  /// `view_type` is the tensor_view type; one dynamic operand per `?` in its shape and strides.
  Value* make_tensor_view(Value* base, Type view_type, std::vector<Value*> dynamic_shape,
                          std::vector<Value*> dynamic_strides);
  Value* make_partition_view(Value* tensor_view, std::vector<int32_t> tile_shape,
                             std::optional<PaddingValue> padding = std::nullopt, std::vector<int32_t> dim_map = {});
  /// Returns (tile, token).
  std::pair<Value*, Value*> load_view(Value* view, std::vector<Value*> index, Value* token = nullptr,
                                      MemoryOrdering ordering = MemoryOrdering::weak,
                                      std::optional<MemoryScope> scope = std::nullopt,
                                      std::optional<Attribute> hints = std::nullopt);
  /// Returns the token.
  Value* store_view(Value* tile, Value* view, std::vector<Value*> index, Value* token = nullptr,
                    MemoryOrdering ordering = MemoryOrdering::weak, std::optional<MemoryScope> scope = std::nullopt,
                    std::optional<Attribute> hints = std::nullopt);
  Value* offset(Value* pointers, Value* offsets);
  /// Returns (tile, token).
  std::pair<Value*, Value*> load_ptr(Value* pointers, Value* mask = nullptr, Value* padding = nullptr,
                                     Value* token = nullptr);
  Value* store_ptr(Value* pointers, Value* value, Value* mask = nullptr, Value* token = nullptr);

  // Matrix multiply: result has the accumulator's type.
  Value* mmaf(Value* lhs, Value* rhs, Value* acc);

  // Regions. Bodies receive the block arguments and return the values their terminator carries.
  /// reduce / scan over `dim`; identities one per operand; body args (cur0, acc0, cur1, acc1, ...).
  std::vector<Value*> reduce(std::vector<Value*> operands, int64_t dim, std::vector<Attribute> identities,
                             const BodyFn& body);
  std::vector<Value*> scan(std::vector<Value*> operands, int64_t dim, bool reverse,
                           std::vector<Attribute> identities, const BodyFn& body);
  /// for iv in [lb, ub) step: body args (iv, iter...) -> next iter values (ends in `continue`).
  std::vector<Value*> for_loop(Value* lower, Value* upper, Value* step, std::vector<Value*> init, const BodyFn& body);
  /// loop: body args (iter...) -> next iter values (ends in `continue`); it ends through `break`, whose
  /// values (of `result_types`) are the results.
  std::vector<Value*> loop(std::vector<Value*> init, std::vector<Type> result_types, const BodyFn& body);
  /// `if %condition { break values }`: leaves the enclosing `loop` when the condition holds.
  void break_if(Value* condition, std::vector<Value*> values);
  /// if/else with results; `else_body` may be empty only when there are no results.
  std::vector<Value*> if_else(Value* condition, std::vector<Type> result_types, const BodyFn& then_body,
                              const BodyFn& else_body = nullptr);
  void yield(std::vector<Value*> values = {});
  void continue_(std::vector<Value*> values = {});
  void return_();

 private:
  std::vector<Value*> with_region(Operation& op, Opcode terminator, std::vector<Type> arg_types, const BodyFn& body,
                                  size_t region = 0);
  Block* block_;
  Location location_;
};

/// Rank-0 tile of `e`.
inline Type scalar_type(ElementType e) { return Type::scalar(e); }
/// tile<shape x e>.
inline Type tile_type(std::vector<int64_t> shape, ElementType e) { return Type::tile(std::move(shape), Type::element(e)); }
/// tile<ptr<e>> (a kernel pointer parameter).
inline Type pointer_type(ElementType e) { return Type::scalar_tile_of_pointer(e); }

}  // namespace cutile::ir
