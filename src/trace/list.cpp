#include "cutile/params/list.hpp"

#include <bit>

namespace cutile::detail {

std::vector<ir::Type> list_param_types() {
  return {ir::Type::scalar_tile_of_pointer(ir::ElementType::i64), ir::Type::scalar(ir::ElementType::i32)};
}

ListValues trace_list(TraceContext& ctx, size_t first_param, size_t rank, const ArrayFacts& member_facts) {
  ir::Builder& b = ctx.builder();
  ir::Function& f = ctx.function();
  const auto words = static_cast<int64_t>(list_row_words(rank));
  // No assume on the rows (cuTile Python states none): the length is their view's one runtime value.
  ir::Value* view = b.make_tensor_view(
      f.parameter(first_param),
      ir::Type::tensor_view(ir::Type::element(ir::ElementType::i64), {ir::kDynamic, words}, {words, 1}),
      {f.parameter(first_param + 1)}, {});
  ListValues list;
  list.rows = b.make_partition_view(view, {1, static_cast<int32_t>(std::bit_ceil(static_cast<uint64_t>(words)))});
  list.length = f.parameter(first_param + 1);
  list.member_facts = member_facts;
  return list;
}

ArrayValues list_member(ir::Builder& b, const ListValues& list, ir::Value* index, ir::ElementType element,
                        std::span<const int64_t> static_dims) {
  const size_t rank = static_dims.size();
  ir::Value* zero = b.constant_int(ir::ElementType::i32, 0);
  ir::Value* row = b.load_view(list.rows, {index, zero}).first;  // (1, pow2(W)) i64
  std::vector<ir::Value*> words;
  for (size_t w = 0; w < list_row_words(rank); ++w) {
    ir::Value* column = b.constant_int(ir::ElementType::i32, static_cast<int64_t>(w));
    ir::Value* word = b.create(ir::Opcode::extract, {ir::Type::tile({1, 1}, ir::Type::element(ir::ElementType::i64))},
                               {{row}, {zero, column}})
                          .result(0);
    words.push_back(b.reshape(word, {}));
  }
  std::vector<ir::Value*> layout;
  for (size_t w = 1; w < words.size(); ++w) layout.push_back(b.trunci(words[w], ir::ElementType::i32));
  ir::Value* base = b.create_value(ir::Opcode::int_to_ptr, ir::Type::scalar_tile_of_pointer(element), {words[0]});
  return array_prologue(b, base, layout, element, static_dims, list.member_facts);
}

}  // namespace cutile::detail
