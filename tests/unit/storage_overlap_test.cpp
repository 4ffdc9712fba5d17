// The aliasing check the launch path applies to outputs: the bytes of the elements tensor arguments reach.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>

#include "cutile/host/layout.hpp"
#include "cutile/host/tensor_arg.hpp"

namespace cutile {
namespace {

using Extents = std::vector<int64_t>;

TensorArgView view(uint64_t address, Extents shape, Extents strides, int64_t element_size = 4,
                   int device = 0) {
  TensorArgView v;
  v.address = address;
  v.element = element_size == 2 ? ir::ElementType::bf16 : ir::ElementType::f32;
  v.element_size = element_size;
  v.shape = std::move(shape);
  v.strides = std::move(strides);
  v.device = device;
  return v;
}

TensorArgView dense(uint64_t address, Extents shape, int64_t element_size = 4, int device = 0) {
  auto strides = row_major_strides(shape);
  return view(address, std::move(shape), std::move(strides), element_size, device);
}

TEST(StorageOverlap, DisjointAndAdjacentRangesDoNotOverlap) {
  auto a = dense(0x1000, {16});  // [0x1000, 0x1040)
  auto b = dense(0x1040, {16});  // starts where a ends
  auto c = dense(0x2000, {4, 4});
  EXPECT_FALSE(storage_overlaps(a, b));
  EXPECT_FALSE(storage_overlaps(b, a));
  EXPECT_FALSE(storage_overlaps(a, c));
}

TEST(StorageOverlap, SharedBytesOverlapBothWays) {
  auto a = dense(0x1000, {16});
  auto tail = dense(0x103c, {1});  // a's last element
  auto inside = dense(0x1010, {2, 2});
  auto itself = dense(0x1000, {16});
  EXPECT_TRUE(storage_overlaps(a, tail));
  EXPECT_TRUE(storage_overlaps(tail, a));
  EXPECT_TRUE(storage_overlaps(a, inside));
  EXPECT_TRUE(storage_overlaps(inside, a));
  EXPECT_TRUE(storage_overlaps(a, itself));
  // Different element sizes: a bf16 view over the first f32 element's upper half.
  EXPECT_TRUE(storage_overlaps(a, dense(0x1002, {1}, 2)));
}

TEST(StorageOverlap, StridedViewsCoverTheirWholeSpan) {
  // A column of a [8, 8] f32 matrix reaches from its first to its last row.
  auto column = view(0x1000 + 3 * 4, {8}, {8});
  EXPECT_EQ(column.byte_extent(), (1 + 7 * 8) * 4);
  EXPECT_TRUE(storage_overlaps(column, dense(0x1000 + 7 * 32, {8})));   // the last row
  EXPECT_FALSE(storage_overlaps(column, dense(0x1000 + 8 * 32, {8})));  // the row after the matrix
  // A transposed view covers what the original covers.
  auto matrix = dense(0x1000, {8, 8});
  EXPECT_TRUE(storage_overlaps(view(0x1000, {8, 8}, {1, 8}), matrix));
}

TEST(StorageOverlap, InterleavedViewsOverlapOnlyWhereTheyShareAnElement) {
  // Even and odd elements: their byte ranges interleave, their elements do not.
  auto even = view(0x1000, {8}, {2});
  auto odd = view(0x1004, {8}, {2});
  EXPECT_FALSE(storage_overlaps(even, odd));
  EXPECT_TRUE(storage_overlaps(even, view(0x1008, {8}, {2})));  // even elements from the second on
  // The left and right halves of a [4, 16] f32 matrix's rows, and two heads of an (S 4, H 4, D 16) buffer.
  EXPECT_FALSE(storage_overlaps(view(0x1000, {4, 8}, {16, 1}), view(0x1000 + 8 * 4, {4, 8}, {16, 1})));
  EXPECT_TRUE(storage_overlaps(view(0x1000, {4, 9}, {16, 1}), view(0x1000 + 8 * 4, {4, 8}, {16, 1})));
  auto heads_01 = view(0x1000, {2, 4, 16}, {16, 64, 1}), heads_23 = view(0x1000 + 2 * 16 * 4, {2, 4, 16}, {16, 64, 1});
  EXPECT_FALSE(storage_overlaps(heads_01, heads_23));
  EXPECT_TRUE(storage_overlaps(heads_01, view(0x1000 + 16 * 4, {2, 4, 16}, {16, 64, 1})));  // heads 1 and 2
  // A column against a row of the same matrix share one element; the transpose shares all.
  EXPECT_TRUE(storage_overlaps(view(0x1000 + 3 * 4, {8}, {8}), dense(0x1000 + 5 * 32, {8})));
  EXPECT_TRUE(storage_overlaps(view(0x1000, {8, 8}, {1, 8}), view(0x1000 + 9 * 4, {2, 2}, {8, 1})));
  // Elements of different sizes: a bf16 view of the upper halves of odd f32 elements, against the even ones.
  EXPECT_FALSE(storage_overlaps(even, view(0x1006, {8}, {4}, 2)));
  EXPECT_TRUE(storage_overlaps(even, view(0x1002, {8}, {4}, 2)));
  // Misaligned: a view shifted by one byte shares bytes with both neighbours.
  EXPECT_TRUE(storage_overlaps(even, view(0x1005, {1}, {1})));
}

TEST(StorageOverlap, DifferentDevicesNeverOverlap) {
  EXPECT_FALSE(storage_overlaps(dense(0x1000, {16}, 4, 0), dense(0x1000, {16}, 4, 1)));
}

TEST(StorageOverlap, EmptyTensorsOverlapNothing) {
  EXPECT_FALSE(storage_overlaps(dense(0x1000, {0, 4}), dense(0x1000, {16})));
  EXPECT_FALSE(storage_overlaps(dense(0x1000, {16}), dense(0x1000, {16, 0})));
}

TEST(StorageOverlap, BroadcastViewsCoverOneElementPerStrideZeroAxis) {
  auto row = view(0x1000, {4, 8}, {0, 1});  // one row of 8 read 4 times
  EXPECT_EQ(row.byte_extent(), 8 * 4);
  EXPECT_FALSE(storage_overlaps(row, dense(0x1020, {8})));
  EXPECT_TRUE(storage_overlaps(row, dense(0x101c, {1})));
}

TEST(StorageOverlap, ReversedViewsReachBackwards) {
  // A row read backwards from its last element covers the same bytes as the row.
  auto reversed = view(0x1000 + 7 * 4, {8}, {-1});
  EXPECT_TRUE(storage_overlaps(reversed, dense(0x1000, {1})));
  EXPECT_FALSE(storage_overlaps(reversed, dense(0x1000 - 4, {1})));  // the element before the row
  EXPECT_FALSE(storage_overlaps(reversed, dense(0x1000 + 8 * 4, {1})));
}

// Every element's bytes of both views enumerated: the answer the range test and the search must give.
bool share_a_byte(const TensorArgView& a, const TensorArgView& b) {
  auto bytes = [](const TensorArgView& v) {
    std::set<int64_t> out;
    std::vector<int64_t> index(v.shape.size(), 0);
    if (std::ranges::find(v.shape, 0) != v.shape.end()) return out;
    while (true) {
      int64_t offset = 0;
      for (size_t d = 0; d < index.size(); ++d) offset += index[d] * v.strides[d];
      for (int64_t k = 0; k < v.element_size; ++k) out.insert(static_cast<int64_t>(v.address) + offset * v.element_size + k);
      size_t d = index.size();
      while (d > 0 && ++index[d - 1] == v.shape[d - 1]) index[--d] = 0;
      if (d == 0) return out;
    }
  };
  const auto x = bytes(a), y = bytes(b);
  return std::ranges::any_of(x, [&](int64_t byte) { return y.contains(byte); });
}

TEST(StorageOverlap, AgreesWithEnumeratingEveryElement) {
  std::mt19937 random(20261204);
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(random); };
  auto random_view = [&] {
    Extents shape(pick(1, 3)), strides(shape.size());
    for (size_t d = 0; d < shape.size(); ++d) shape[d] = pick(0, 4), strides[d] = pick(-6, 6);
    return view(0x1000 + 4 * pick(-12, 12) + pick(0, 1) * 2, shape, strides, pick(0, 1) ? 4 : 2);
  };
  for (int trial = 0; trial < 4000; ++trial) {
    const auto a = random_view(), b = random_view();
    ASSERT_EQ(storage_overlaps(a, b), share_a_byte(a, b)) << a.describe() << " strides " << ::testing::PrintToString(a.strides)
                                                         << " at " << a.address << " against " << b.describe() << " strides "
                                                         << ::testing::PrintToString(b.strides) << " at " << b.address;
  }
}

TEST(TensorArgView, DescribesWholeTensorsAndPartitions) {
  auto v = dense(0x1000, {64, 128});
  EXPECT_EQ(v.describe(), "f32[64, 128] on cuda:0");
  v.tile_shape = {16, 32};
  v.borrow = 7;
  EXPECT_TRUE(v.is_partition());
  EXPECT_EQ(v.describe(), "f32[64, 128] on cuda:0 partitioned by tiles [16, 32]");
}

}  // namespace
}  // namespace cutile
