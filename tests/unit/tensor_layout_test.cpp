// Shapes, strides and the metadata of tensors, checked on meta tensors (no GPU, no driver).
#include <gtest/gtest.h>

#include "cutile/error.hpp"
#include "cutile/host/layout.hpp"
#include "cutile/host/tensor.hpp"

namespace cutile {
namespace {

using Extents = std::vector<int64_t>;

TEST(Layout, RowMajorStrides) {
  EXPECT_EQ(row_major_strides(Extents{}), Extents{});
  EXPECT_EQ(row_major_strides(Extents{7}), Extents{1});
  EXPECT_EQ(row_major_strides(Extents{2, 3, 4}), (Extents{12, 4, 1}));
  EXPECT_EQ(row_major_strides(Extents{4, 1, 5}), (Extents{5, 5, 1}));
  // A zero extent must not zero the strides of the axes before it.
  EXPECT_EQ(row_major_strides(Extents{3, 0, 2}), (Extents{2, 2, 1}));
}

TEST(Layout, Numel) {
  EXPECT_EQ(numel(Extents{}), 1);
  EXPECT_EQ(numel(Extents{4096, 4096}), 4096 * 4096);
  EXPECT_EQ(numel(Extents{3, 0, 2}), 0);
}

TEST(Layout, Contiguity) {
  EXPECT_TRUE(is_contiguous(Extents{2, 3}, Extents{3, 1}));
  EXPECT_FALSE(is_contiguous(Extents{2, 3}, Extents{1, 2}));        // transposed
  EXPECT_FALSE(is_contiguous(Extents{2, 3}, Extents{6, 2}));        // every other element
  EXPECT_TRUE(is_contiguous(Extents{2, 1, 3}, Extents{3, 99, 1}));  // size-1 axes may have any stride
  EXPECT_TRUE(is_contiguous(Extents{0, 3}, Extents{7, 5}));         // no elements
  EXPECT_TRUE(is_contiguous(Extents{}, Extents{}));
  EXPECT_FALSE(is_contiguous(Extents{4}, Extents{0}));  // broadcast
}

TEST(Layout, AddressableElements) {
  EXPECT_EQ(addressable_elements(Extents{}, Extents{}), 1);
  EXPECT_EQ(addressable_elements(Extents{2, 3}, Extents{3, 1}), 6);
  EXPECT_EQ(addressable_elements(Extents{2, 3}, Extents{1, 2}), 6);   // transposed view of [3, 2]
  EXPECT_EQ(addressable_elements(Extents{4, 2}, Extents{8, 2}), 27);  // 1 + 3·8 + 1·2
  EXPECT_EQ(addressable_elements(Extents{5}, Extents{0}), 1);
  EXPECT_EQ(addressable_elements(Extents{5, 0}, Extents{1, 1}), 0);
}

TEST(Layout, CheckLayoutAcceptsRanksZeroToFive) {
  EXPECT_NO_THROW(check_layout(Extents{}, Extents{}, 4, "t"));
  EXPECT_NO_THROW(check_layout(Extents{1, 2, 3, 4, 5}, row_major_strides(Extents{1, 2, 3, 4, 5}), 4, "t"));
  EXPECT_THROW(check_layout(Extents{1, 1, 1, 1, 1, 1}, Extents{1, 1, 1, 1, 1, 1}, 4, "t"), UserError);
  EXPECT_THROW(
      check_layout(Extents{int64_t{1} << 40, int64_t{1} << 40}, Extents{int64_t{1} << 40, 1}, 4, "t"),
      UserError);
}

TEST(Layout, FormatExtents) {
  EXPECT_EQ(format_extents(Extents{}), "[]");
  EXPECT_EQ(format_extents(Extents{4, 8}), "[4, 8]");
}

TEST(MetaTensor, DefaultLayoutIsRowMajor) {
  auto t = Tensor<f32>::meta({4, 8, 16});
  EXPECT_EQ(t.shape(), (Extents{4, 8, 16}));
  EXPECT_EQ(t.strides(), (Extents{128, 16, 1}));
  EXPECT_EQ(t.rank(), 3);
  EXPECT_EQ(t.numel(), 512);
  EXPECT_TRUE(t.is_contiguous());
  EXPECT_TRUE(t.is_meta());
  EXPECT_FALSE(t.is_borrowed());
  EXPECT_EQ(t.element_type(), ir::ElementType::f32);
  EXPECT_EQ(t.element_size(), 4);
  EXPECT_EQ(t.address(), 0u);
  EXPECT_EQ(t.describe(), "f32[4, 8, 16] on no device (meta)");
}

TEST(MetaTensor, ElementTypesAndSizes) {
  EXPECT_EQ(Tensor<bf16>::meta({2}).element_type(), ir::ElementType::bf16);
  EXPECT_EQ(Tensor<bf16>::meta({2}).element_size(), 2);
  EXPECT_EQ(Tensor<f16>::meta({2}).element_size(), 2);
  EXPECT_EQ(Tensor<f8e4m3fn>::meta({2}).element_size(), 1);
  EXPECT_EQ(Tensor<i64>::meta({2}).element_size(), 8);
  EXPECT_EQ(Tensor<bool>::meta({2}).element_type(), ir::ElementType::i1);
}

TEST(MetaTensor, ScalarAndEmpty) {
  auto scalar = Tensor<f32>::meta({});
  EXPECT_EQ(scalar.rank(), 0);
  EXPECT_EQ(scalar.numel(), 1);
  EXPECT_TRUE(scalar.is_contiguous());
  auto empty = Tensor<f32>::meta({0, 5});
  EXPECT_EQ(empty.numel(), 0);
  EXPECT_EQ(empty.arg_view().byte_extent(), 0);
}

TEST(MetaTensor, StridedViewsShareTheBorrowState) {
  auto t = Tensor<f32>::meta({4, 6});
  auto transposed = t.as_strided({6, 4}, {1, 6});
  EXPECT_FALSE(transposed.is_contiguous());
  EXPECT_EQ(&transposed.borrow_state(), &t.borrow_state());
  auto copy = t;
  EXPECT_EQ(&copy.borrow_state(), &t.borrow_state());
  EXPECT_NE(&Tensor<f32>::meta({4, 6}).borrow_state(), &t.borrow_state());
  // The last row, from an element offset.
  auto row = t.as_strided({6}, {1}, 18);
  EXPECT_EQ(row.numel(), 6);
}

TEST(MetaTensor, ArgViewDescribesTheTensor) {
  auto t = Tensor<bf16>::meta({8, 32}, {64, 2});
  TensorArgView view = t.arg_view();
  EXPECT_EQ(view.element, ir::ElementType::bf16);
  EXPECT_EQ(view.element_size, 2);
  EXPECT_EQ(view.shape, (Extents{8, 32}));
  EXPECT_EQ(view.strides, (Extents{64, 2}));
  EXPECT_EQ(view.device, -1);
  EXPECT_EQ(view.state.get(), &t.borrow_state());
  EXPECT_FALSE(view.is_partition());
  EXPECT_EQ(view.byte_extent(), (1 + 7 * 64 + 31 * 2) * 2);
}

TEST(MetaTensor, TypedFaceChecksTheElementType) {
  AnyTensor any = AnyTensor::meta(ir::ElementType::f16, 2, {3}, {1});
  EXPECT_NO_THROW(Tensor<f16>{any});
  EXPECT_THROW(Tensor<bf16>{any}, UserError);
}

}  // namespace
}  // namespace cutile
