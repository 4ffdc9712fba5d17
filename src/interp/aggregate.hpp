// Pieces of reduce and scan: slices along the reduced dimension, identities, and the direct fold used when
// the body is a single combining op.
#pragma once

#include "cutile/ir/op_table.hpp"
#include "interp/value.hpp"

namespace cutile::interp {

/// The elements of `x` at position k of dimension `dim` (shape: x's shape without `dim`).
Array slice(const Array& x, size_t dim, int64_t k);
/// Writes `part` (shape of `dst` without `dim`; one element stands for all) at position k of `dim`.
void put_slice(Array& dst, size_t dim, int64_t k, const Array& part);
/// The one-element array of an identity attribute, in element type `like.element`.
Array identity_of(const ir::Attribute& identity, const Array& like);
/// `value` (one element or `shape`-many) spread to `shape`.
Array spread(const Array& value, const std::vector<int64_t>& shape);

/// reduce (or inclusive scan, in reverse when asked) of `x` along `dim` with the combining op `combine`
/// (addf, mulf, maxf, minf, addi, muli, maxi, mini, andi, ori, xori; signed maxi/mini unless `unsigned_`).
/// Elements are folded in index order, acc = combine(element, acc), each result rounded to the element type.
Array fold(ir::Opcode combine, bool unsigned_, const Array& x, size_t dim, const Array& identity, bool scan, bool reverse);

}  // namespace cutile::interp
