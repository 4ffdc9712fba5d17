// Making and reshaping tiles: constants, iota, the grid queries, reshape, broadcast, permute, cat,
// extract, insert, pack and unpack.
#include "ir/verifier/rules.hpp"

namespace cutile::ir::verifier {

void check_constant(const Operation& op, Version version) {
  const Attribute& v = *op.attr("value");
  if (auto p = dense_problem(v, version)) fail(*p);
  expect_same(v.type, out(op), "value type must equal the result type");
}

void check_iota(const Operation& op) {
  const Type& t = out(op);
  expect_tile(t, "result", is_op_int, kInts);
  if (t.rank() != 1) fail("iota result must be a 1-d tile, got " + t.str());
  const int bits = element_bits(*scalar_element(t));
  if (bits < 63 && t.shape()[0] > (int64_t{1} << bits))
    fail("iota length " + std::to_string(t.shape()[0]) + " exceeds the range of " + t.element().str());
}

void check_grid_query(const Operation& op) {
  for (size_t i = 0; i < 3; ++i) expect_same(out(op, i), Type::scalar(E::i32), "results must be tile<i32>");
}

void check_shape_op(const Operation& op) {
  const Type& src = in(op, 0);
  const Type& res = out(op);
  if (!src.is(TypeKind::tile)) fail("source must be a tile, got " + src.str());
  if (!res.is(TypeKind::tile)) fail("result must be a tile, got " + res.str());
  if (src.element() != res.element())
    fail("source and result element types must match: " + src.str() + " vs " + res.str());
  switch (op.opcode()) {
    case Opcode::reshape:
      if (src.num_elements() != res.num_elements())
        fail("reshape must keep the element count: " + src.str() + " -> " + res.str());
      return;
    case Opcode::broadcast:
      if (src.rank() != res.rank()) fail("broadcast must keep the rank: " + src.str() + " -> " + res.str());
      for (size_t i = 0; i < src.shape().size(); ++i)
        if (src.shape()[i] != 1 && src.shape()[i] != res.shape()[i])
          fail("broadcast source dimension " + std::to_string(i) +
               " must be 1 or equal the result's: " + src.str() + " -> " + res.str());
      return;
    case Opcode::permute: {
      const std::vector<int64_t>& p = op.attr("permutation")->ints;
      const size_t rank = src.shape().size();
      if (rank < 2) fail("permute needs rank >= 2, got " + src.str());
      std::vector<bool> used(rank, false);
      if (p.size() != rank)
        fail("permutation " + shape_text(p) + " must have one entry per source dimension (" +
             std::to_string(rank) + ")");
      for (int64_t d : p) {
        if (d < 0 || static_cast<size_t>(d) >= rank || used[static_cast<size_t>(d)])
          fail("permutation " + shape_text(p) + " is not a permutation of [0, " + std::to_string(rank) + ")");
        used[static_cast<size_t>(d)] = true;
      }
      for (size_t i = 0; i < rank; ++i)
        if (res.rank() != static_cast<int64_t>(rank) ||
            res.shape()[i] != src.shape()[static_cast<size_t>(p[i])])
          fail("result " + res.str() + " does not match " + src.str() + " permuted by " + shape_text(p));
      return;
    }
    case Opcode::cat: {
      const Type& rhs = in(op, 1);
      if (!rhs.is(TypeKind::tile) || rhs.element() != src.element())
        fail("cat operands must be tiles of one element type: " + src.str() + " vs " + rhs.str());
      if (src.rank() != rhs.rank() || src.rank() != res.rank())
        fail("cat operands and result must have one rank: " + src.str() + ", " + rhs.str() + " -> " +
             res.str());
      const int64_t dim = op.attr("dim")->int_value;
      if (dim < 0 || dim >= src.rank())
        fail("cat dim " + std::to_string(dim) + " must be in [0, " + std::to_string(src.rank()) + ")");
      for (int64_t i = 0; i < src.rank(); ++i) {
        const size_t k = static_cast<size_t>(i);
        const int64_t want = i == dim ? src.shape()[k] + rhs.shape()[k] : src.shape()[k];
        if ((i != dim && rhs.shape()[k] != src.shape()[k]) || res.shape()[k] != want)
          fail("cat of " + src.str() + " and " + rhs.str() + " along dim " + std::to_string(dim) +
               " cannot give " + res.str());
      }
      return;
    }
    default: {  // extract (source -> part), insert (part into destination)
      const bool insert = op.opcode() == Opcode::insert;
      const Type& whole = insert ? in(op, 1) : src;
      const Type& part = insert ? src : res;
      if (insert) expect_same(whole, res, "result type must equal the destination type");
      if (whole.rank() != part.rank())
        fail("source and result must have the same rank: " + whole.str() + " vs " + part.str());
      for (size_t i = 0; i < whole.shape().size(); ++i)
        if (part.shape()[i] <= 0 || whole.shape()[i] % part.shape()[i] != 0)
          fail("dimension " + std::to_string(i) + " of " + whole.str() + " must be a multiple of that of " +
               part.str());
      const auto& idx = group(op, insert ? 2 : 1);
      if (static_cast<int64_t>(idx.size()) != whole.rank())
        fail("expected " + std::to_string(whole.rank()) + " indices, got " + std::to_string(idx.size()));
      for (size_t i = 0; i < idx.size(); ++i)
        if (idx[i]->type() != Type::scalar(E::i32))
          fail("index " + std::to_string(i) + " must be tile<i32>, got " + idx[i]->type().str());
    }
  }
}

void check_pack(const Operation& op) {
  const bool pack = op.opcode() == Opcode::pack;
  const Type& src = in(op, 0);
  const Type& res = out(op);
  const Type& bytes = pack ? res : src;
  const Type& other = pack ? src : res;
  expect_tile(
      bytes, pack ? "result" : "source", [](E e) { return e == E::i8; }, "i8");
  if (!tile_of(other, [](E) { return true; })) fail("operand must be a tile of numbers, got " + other.str());
  if (src.rank() != 1 || res.rank() != 1)
    fail("source and result must be rank-1 tiles: " + src.str() + " -> " + res.str());
  auto width = [](E e) { return e == E::tf32 ? 32 : element_bits(e); };
  const int64_t a = width(*scalar_element(src)) * src.num_elements();
  const int64_t b = width(*scalar_element(res)) * res.num_elements();
  if (element_bits(*scalar_element(src)) == element_bits(*scalar_element(res)))
    fail("source and result must have different element widths: " + src.str() + " -> " + res.str());
  if (a % 8 != 0 || a != b)
    fail("source and result must have the same byte size: " + src.str() + " -> " + res.str());
}

}  // namespace cutile::ir::verifier
