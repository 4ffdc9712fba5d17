// Lists of tensors as kernel parameters (group GEMM's As, Bs and Cs):
//
//   InList<E, Shape<dyn, dyn>>   read-only tensors of one element type and rank; `as.member(g)` is the In
//                                of member g (g a runtime index below `as.size()`)
//   OutTilesList<E, Shape<BM, BN>>  output partitions, every member cut into BM×BN tiles; reachable only
//                                through for_each_tile, which hands each tile of each member to one block
//
// At launch an InList takes a TensorList<E>, an OutTilesList a PartitionList<E> (host/tensor_list.hpp).
// Each list becomes two entry parameters, as in cuTile Python: a pointer to its descriptor rows — per
// member 1 + 2·rank i64 words: the base address, the extents, the strides in elements — and the i32
// member count. A member is read by loading its row through a partition view of (1, pow2(1 + 2·rank))
// tiles, then extract, trunci and int_to_ptr, then the prologue of a tensor parameter with the facts all
// the members share. for_each_tile over an OutTilesList is in schedule.hpp.
#pragma once

#include <array>
#include <source_location>
#include <string>
#include <utility>

#include "cutile/error.hpp"
#include "cutile/params/base.hpp"
#include "cutile/params/in.hpp"
#include "cutile/params/out_tiles.hpp"

namespace cutile {

namespace detail {

/// A list parameter after its prologue: the descriptor rows as a partition view, the member count and
/// the facts every member shares.
struct ListValues {
  ir::Value* rows = nullptr;    // partition_view<tile=(1 x pow2(W)), tensor_view<? x W x i64>>
  ir::Value* length = nullptr;  // tile<i32>
  ArrayFacts member_facts;
};

/// Words per descriptor row of a rank-`rank` member.
constexpr size_t list_row_words(size_t rank) {
  return 1 + 2 * rank;
}

/// The entry parameters of a list: the descriptor rows' address and the member count.
std::vector<ir::Type> list_param_types();

/// Consumes the two list parameters starting at `first_param`: the rows' tensor and partition views.
ListValues trace_list(TraceContext& ctx, size_t first_param, size_t rank, const ArrayFacts& member_facts);

/// Member `index` of a list of `element` tensors whose static extents are `static_dims` (dyn = runtime):
/// its row loaded (no token: the rows are never written), split into words, and the tensor prologue.
ArrayValues list_member(ir::Builder& b, const ListValues& list, ir::Value* index, ir::ElementType element,
                        std::span<const int64_t> static_dims);

}  // namespace detail

/// A list of read-only tensors shared by all tile blocks.
template <Element E, ShapeType S>
class InList {
 public:
  static constexpr size_t rank = S::rank;
  using element_type = E;
  using shape_type = S;

  explicit InList(detail::ListValues values) : values_(std::move(values)) {}

  /// The number of members.
  Int size() const { return Int(values_.length); }

  /// Member `g` (0 ≤ g < size(); a g outside reads past the descriptor rows, as an index past a tensor
  /// would). Each call loads the member's descriptor row: take it once per member, outside tile loops.
  In<E, S> member(const Int& g, std::source_location where = std::source_location::current()) const {
    return In<E, S>(detail::list_member(detail::trace_at(where), values_, g.value(), ir_element<E>, S::dims));
  }

 private:
  detail::ListValues values_;
};

template <Element E, ShapeType S>
class OutTilesList;
template <Element E, TileShape S>
class ListTileIndex;

namespace detail {

// The one place ListTileIndex values are made, and OutTilesList members reached.
struct list_tile_access {
  template <Element E, TileShape S>
  static OutTiles<E, S> member_tiles(const OutTilesList<E, S>& out, const Int& g,
                                     const std::source_location& where) {
    return OutTiles<E, S>(
        list_member(trace_at(where), out.values_, g.value(), ir_element<E>, all_dynamic<S::rank>),
        *out.tokens_);
  }
  template <Element E, TileShape S>
  static ListTileIndex<E, S> make(const Int& g, const OutTiles<E, S>& tiles,
                                  std::array<Int, S::rank> coords) {
    return ListTileIndex<E, S>(g, tiles, std::move(coords));
  }
  template <Element E, TileShape S>
  static TraceContext::TokenChain& chain(const OutTilesList<E, S>& out) {
    return *out.tokens_;
  }
};

}  // namespace detail

/// A tile of one member of an OutTilesList: the member's number and the tile's coordinates in tile
/// units; made only by for_each_tile.
template <Element E, TileShape S>
class ListTileIndex {
 public:
  static constexpr size_t rank = S::rank;
  const Int& member() const { return member_; }
  const std::array<Int, rank>& coords() const { return index_.coords(); }

 private:
  friend class OutTilesList<E, S>;
  friend struct detail::list_tile_access;
  ListTileIndex(Int member, OutTiles<E, S> tiles, std::array<Int, rank> coords)
      : member_(std::move(member)),
        tiles_(std::move(tiles)),
        index_(detail::tile_index_access::make(std::move(coords), tiles_)) {}
  Int member_;
  OutTiles<E, S> tiles_;  // the member's tiles, sharing the list's token chain
  TileIndex<E, S> index_;
};

/// Every tile of every member of a list of output partitions, for grouped kernels whose blocks walk the
/// tiles of all members in one persistent loop; accessed only through for_each_tile's ListTileIndex.
/// The launch checks that the members overlap neither each other nor any other argument.
template <Element E, ShapeType S>
class OutTilesList {
  static_assert(TileShape<S>,
                "an output's tile shape is static, every dimension a power of two, at most 2^24 elements");

 public:
  static constexpr size_t rank = S::rank;
  static_assert(rank >= 1 && rank <= 3, "an output tile has rank 1, 2 or 3");
  using element_type = E;
  using shape_type = S;

  OutTilesList(detail::ListValues values, detail::TraceContext::TokenChain& tokens)
      : values_(std::move(values)), tokens_(&tokens) {}

  /// The number of members.
  Int size() const { return Int(values_.length); }

  /// Writes tile `t`; elements past its member's edge are not written.
  void store(const ListTileIndex<E, S>& t, const Tile<E, S>& value, AccessHints hints = {},
             std::source_location where = std::source_location::current()) const {
    check_owner(t, where);
    t.tiles_.store(t.index_, value, hints, where);
  }

 private:
  friend struct detail::list_tile_access;
  void check_owner(const ListTileIndex<E, S>& t, const std::source_location& where) const {
    if (t.tiles_.identity() != tokens_)
      throw UserError(std::string(where.file_name()) + ":" + std::to_string(where.line()) +
                      ": a ListTileIndex made by for_each_tile for one output list was used with another");
  }

  detail::ListValues values_;
  detail::TraceContext::TokenChain* tokens_;
};

}  // namespace cutile
