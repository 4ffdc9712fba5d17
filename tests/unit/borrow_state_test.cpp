// The borrow-state machine and partitions, on meta tensors: no GPU, no driver.
#include <gtest/gtest.h>

#include <functional>
#include <optional>
#include <string>

#include "cutile/error.hpp"
#include "cutile/host/borrow_state.hpp"
#include "cutile/host/partition.hpp"
#include "cutile/host/tensor.hpp"
#include "support/error_of.hpp"

namespace cutile {
namespace {

using Extents = std::vector<int64_t>;

// The tensor description partition_grid asks for when it has an error to report.
std::function<std::string()> named(const char* tensor) {
  return [tensor] { return std::string(tensor); };
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// A contiguous f32 view of `count` elements starting `first` elements into a storage at address 0.
struct Span1d {
  Extents shape, strides{1};
  uint64_t address;
  Span1d(int64_t first, int64_t count) : shape{count}, address(static_cast<uint64_t>(first) * 4) {}
  operator StridedBytes() const { return {address, shape, strides, 4}; }  // NOLINT: a region is what it is
};

StridedBytes region_of(const TensorArgView& view) {
  return {view.address, view.shape, view.strides, view.element_size};
}

TEST(BorrowState, ExclusiveBorrowBlocksEveryoneButItsHolder) {
  BorrowState state;
  const Span1d whole(0, 512);
  EXPECT_FALSE(state.exclusively_borrowed());
  EXPECT_NO_THROW(state.check_not_borrowed(whole, [] { return std::string("read tensor t"); }));
  uint64_t id = state.begin_exclusive(whole, Extents{16, 32}, [] { return std::string("partition tensor t"); });
  EXPECT_NE(id, 0u);
  EXPECT_TRUE(state.exclusively_borrowed());
  EXPECT_NO_THROW(state.check_not_borrowed(whole, [] { return std::string("write tensor t"); }, id));
  std::string message = test_support::error_of<UserError>([&] { state.check_not_borrowed(whole, [] { return std::string("read tensor t"); }); });
  EXPECT_TRUE(contains(message, "cannot read tensor t: a partition of it (tile [16, 32]) is live"))
      << message;
  EXPECT_TRUE(contains(message, "unpartition()")) << message;
  EXPECT_THROW(state.begin_exclusive(Span1d(100, 8), Extents{8}, [] { return std::string("partition tensor t"); }),
               UserError);
  state.end_exclusive(id + 1000);  // not the holder: ignored
  EXPECT_TRUE(state.exclusively_borrowed());
  state.end_exclusive(id);
  EXPECT_FALSE(state.exclusively_borrowed());
  EXPECT_NO_THROW(state.check_not_borrowed(whole, [] { return std::string("read tensor t"); }));
  // A stale id from an ended borrow does not end a newer one.
  uint64_t second = state.begin_exclusive(whole, Extents{4}, [] { return std::string("partition tensor t"); });
  EXPECT_NE(second, id);
  state.end_exclusive(id);
  EXPECT_TRUE(state.exclusively_borrowed());
  state.end_exclusive(second);
}

TEST(BorrowState, BorrowIdsAreUniqueAcrossStates) {
  BorrowState a, b;
  const Span1d one(0, 1);
  uint64_t id_a = a.begin_exclusive(one, Extents{1}, [] { return std::string("a"); });
  uint64_t id_b = b.begin_exclusive(one, Extents{1}, [] { return std::string("b"); });
  EXPECT_NE(id_a, id_b);
  EXPECT_THROW(a.check_not_borrowed(one, [] { return std::string("read a"); }, id_b), UserError);  // b's id does not unlock a
}

TEST(BorrowState, BorrowsHoldTheirElementsNotTheStorage) {
  BorrowState state;
  const Span1d low(0, 256), high(256, 256), whole(0, 512), straddling(200, 100);
  const uint64_t low_id = state.begin_exclusive(low, Extents{64}, [] { return std::string("partition low"); });
  EXPECT_NO_THROW(state.check_not_borrowed(high, [] { return std::string("read high"); }));
  EXPECT_THROW(state.check_not_borrowed(whole, [] { return std::string("read whole"); }), UserError);
  EXPECT_THROW(state.check_not_borrowed(straddling, [] { return std::string("read straddling"); }), UserError);
  // A second partition of the other half lives beside the first; each holder passes only its own half.
  const uint64_t high_id = state.begin_exclusive(high, Extents{32}, [] { return std::string("partition high"); });
  EXPECT_NO_THROW(state.check_not_borrowed(high, [] { return std::string("write high"); }, high_id));
  const std::string message = test_support::error_of<UserError>(
      [&] { state.check_not_borrowed(whole, [] { return std::string("write whole"); }, low_id); });
  EXPECT_TRUE(contains(message, "cannot write whole: a partition of it (tile [32]) is live")) << message;
  state.end_exclusive(low_id);
  EXPECT_NO_THROW(state.check_not_borrowed(low, [] { return std::string("read low"); }));
  EXPECT_THROW(state.check_not_borrowed(straddling, [] { return std::string("read straddling"); }), UserError);
  state.end_exclusive(high_id);
  EXPECT_FALSE(state.exclusively_borrowed());
  // Views without elements touch nothing a borrow holds.
  const uint64_t id = state.begin_exclusive(whole, Extents{512}, [] { return std::string("partition whole"); });
  EXPECT_NO_THROW(state.check_not_borrowed(Span1d(0, 0), [] { return std::string("read nothing"); }));
  state.end_exclusive(id);
}

TEST(BorrowState, InterleavedColumnsAreBorrowedApart) {
  BorrowState state;
  // Even and odd columns of a row-major f32 (8, 16): shape (8, 8), strides (16, 2), one element apart.
  const Extents shape{8, 8}, strides{16, 2};
  const StridedBytes even{0, shape, strides, 4}, odd{4, shape, strides, 4};
  const uint64_t id = state.begin_exclusive(even, Extents{8, 8}, [] { return std::string("partition even"); });
  EXPECT_NO_THROW(state.check_not_borrowed(odd, [] { return std::string("read odd"); }));
  EXPECT_NO_THROW(state.end_exclusive(state.begin_exclusive(odd, Extents{4, 4}, [] { return std::string("odd"); })));
  EXPECT_THROW(state.check_not_borrowed(even, [] { return std::string("read even"); }), UserError);
  state.end_exclusive(id);
}

TEST(BorrowState, NothingPendingWithoutGpuWork) {
  BorrowState state;
  EXPECT_TRUE(state.pending().empty());
  state.record_read(Completion{});  // work that already finished
  EXPECT_NO_THROW(state.wait_for_host(Access::write, Span1d(0, 8), [] { return std::string("write t"); }));
  state.record_write(Completion{});
  EXPECT_TRUE(state.pending().empty());  // the write superseded the read; it has no event itself
}

TEST(Partition, GridIsCeilOfExtentOverTile) {
  EXPECT_EQ(partition_grid(Extents{4096, 4096}, Extents{1, 4096}, named("t")), (std::array<int64_t, 3>{4096, 1, 1}));
  EXPECT_EQ(partition_grid(Extents{1000}, Extents{128}, named("t")), (std::array<int64_t, 3>{8, 1, 1}));
  EXPECT_EQ(partition_grid(Extents{100, 30, 7}, Extents{64, 16, 8}, named("t")), (std::array<int64_t, 3>{2, 2, 1}));
  EXPECT_EQ(partition_grid(Extents{0, 64}, Extents{16, 16}, named("t")), (std::array<int64_t, 3>{0, 4, 1}));
  EXPECT_EQ(partition_grid(Extents{3}, Extents{1024}, named("t")), (std::array<int64_t, 3>{1, 1, 1}));
}

TEST(Partition, RejectsBadTiles) {
  std::string message = test_support::error_of<UserError>([] {
    partition_grid(Extents{64, 64}, Extents{12, 16}, named("f32[64, 64]"));
  });
  EXPECT_EQ(message,
            "cannot partition tensor f32[64, 64] into tiles [12, 16]: tile dim 0 is 12, which is not a power "
            "of two "
            "(Tile IR tile dims are)");
  message = test_support::error_of<UserError>([] { partition_grid(Extents{64, 64}, Extents{16}, named("f32[64, 64]")); });
  EXPECT_EQ(
      message,
      "cannot partition tensor f32[64, 64] into tiles [16]: the tile has rank 1 but the tensor has rank 2");
  message = test_support::error_of<UserError>([] { partition_grid(Extents{64, 64}, Extents{16, 0}, named("f32[64, 64]")); });
  EXPECT_EQ(
      message,
      "cannot partition tensor f32[64, 64] into tiles [16, 0]: tile dim 1 is 0; every tile dim must be at "
      "least 1");
  message = test_support::error_of<UserError>([] { partition_grid(Extents{2, 2, 2, 2}, Extents{1, 1, 1, 1}, named("t")); });
  EXPECT_TRUE(contains(message, "partitions need rank 1 to 3")) << message;
  EXPECT_THROW(partition_grid(Extents{}, Extents{}, named("t")), UserError);
  EXPECT_THROW(partition_grid(Extents{8}, Extents{-4}, named("t")), UserError);
}

TEST(Partition, LiveBorrowRejectsReadsThenUnpartitionAllowsThem) {
  auto y = Tensor<f32>::meta({64, 128});
  auto alias = y;  // another handle on the same storage
  {
    auto p = y.partition({16, 32});
    EXPECT_TRUE(p.holds_borrow());
    EXPECT_EQ(p.grid(), (std::array<int64_t, 3>{4, 4, 1}));
    EXPECT_EQ(p.tile_shape(), (Extents{16, 32}));
    EXPECT_EQ(p.tensor().shape(), (Extents{64, 128}));

    std::string message = test_support::error_of<UserError>([&] { alias.to_host(); });
    EXPECT_EQ(
        message,
        "cannot read tensor f32[64, 128] on no device (meta) with to_host(): a partition of it (tile [16, "
        "32]) "
        "is live and holds it exclusively; call unpartition() on the partition or let it go out of scope "
        "first");
    message = test_support::error_of<UserError>([&] { y.partition({8, 8}); });
    EXPECT_TRUE(
        contains(message, "cannot partition tensor f32[64, 128] on no device (meta): a partition of it"))
        << message;
    // Reading through the partition's own tensor() is a read like any other.
    EXPECT_THROW(p.tensor().to_host(), UserError);
    // As a launch argument, the tensor is refused and the partition itself accepted.
    message = test_support::error_of<UserError>([&] { const TensorArgView x = y.arg_view();
      x.state->check_not_borrowed(region_of(x), [] { return std::string("use argument 'x'"); }); });
    EXPECT_TRUE(contains(message, "cannot use argument 'x': a partition of it (tile [16, 32]) is live"))
        << message;
    TensorArgView out = p.arg_view();
    EXPECT_TRUE(out.is_partition());
    EXPECT_EQ(out.tile_shape, (Extents{16, 32}));
    EXPECT_NO_THROW(out.state->check_not_borrowed(region_of(out), [] { return std::string("use argument 'y'"); }, out.borrow));

    Tensor<f32> back = std::move(p).unpartition();
    EXPECT_FALSE(p.holds_borrow());
    EXPECT_THROW(p.arg_view(), UserError);
    EXPECT_FALSE(back.borrow_state().exclusively_borrowed());
    EXPECT_NO_THROW(back.partition({16, 16}));  // and that one ends at once
  }
  // Reads are past the borrow check now; a meta tensor then fails for having no memory.
  std::string message = test_support::error_of<UserError>([&] { alias.to_host(); });
  EXPECT_TRUE(contains(message, "cannot read meta tensor f32[64, 128]")) << message;
  EXPECT_TRUE(contains(message, "it has no memory")) << message;
}

TEST(Partition, DestructionEndsTheBorrowAndMovesTransferIt) {
  auto y = Tensor<bf16>::meta({1000});
  {
    auto p = y.partition({128});
    EXPECT_EQ(p.grid()[0], 8);
    auto q = std::move(p);
    EXPECT_FALSE(p.holds_borrow());
    EXPECT_TRUE(q.holds_borrow());
    EXPECT_TRUE(y.borrow_state().exclusively_borrowed());
    auto other = Tensor<bf16>::meta({64});
    auto r = other.partition({64});
    r = std::move(q);  // r's own borrow of `other` ends, q's of `y` moves over
    EXPECT_FALSE(other.borrow_state().exclusively_borrowed());
    EXPECT_TRUE(r.holds_borrow());
    EXPECT_EQ(r.tensor().numel(), 1000);
  }
  EXPECT_FALSE(y.borrow_state().exclusively_borrowed());
}

TEST(Partition, ViewsOfTheSameStorageShareOneBorrow) {
  auto y = Tensor<f32>::meta({8, 8});
  auto p = y.partition({4, 4});
  EXPECT_THROW(y.as_strided({8, 8}, {1, 8}).partition({4, 4}), UserError);
  EXPECT_NO_THROW(Tensor<f32>::meta({8, 8}).partition({4, 4}));  // another storage
}

TEST(Partition, PartitionsOfDisjointViewsLiveSideBySide) {
  auto buffer = empty<f32>({2, 64}, Device::cpu());
  auto top = buffer.as_strided({64}, {1}, 0).partition({16});
  auto bottom = buffer.as_strided({64}, {1}, 64).partition({32});
  // Odd elements of the top row are top's; every column of both rows is both's.
  EXPECT_THROW(buffer.as_strided({32}, {2}, 1).partition({32}), UserError);
  EXPECT_THROW(buffer.as_strided({64, 2}, {1, 64}).partition({8, 2}), UserError);
  Tensor<f32> top_again = std::move(top).unpartition();
  EXPECT_NO_THROW(buffer.as_strided({32}, {2}, 1).partition({32}));
  EXPECT_TRUE(buffer.borrow_state().exclusively_borrowed());  // bottom still
}
TEST(Partition, PartitionKeepsStorageAlive) {
  std::optional<Partition<f32>> p;
  {
    auto y = Tensor<f32>::meta({32});
    p.emplace(y.partition({8}));
  }
  EXPECT_EQ(p->tensor().numel(), 32);
  EXPECT_TRUE(p->tensor().borrow_state().exclusively_borrowed());
}

}  // namespace
}  // namespace cutile
