// The C ABI of an op whose arguments are lists, on libcutile_cpp_list_test.so and its generated header:
// scale_groups' own entry (each list an array of descriptors and its count) and the generic entries, on
// host memory (the CPU interpreter runs the call before it returns), and each bad list its status and
// message.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "cutile_cpp/kernels.h"

namespace {

// A host tensor of f32 and its descriptor.
struct Host {
  std::vector<float> values;
  cutile_cpp_tensor desc{};

  Host(int64_t rows, int64_t cols, float first = 0) : values(static_cast<size_t>(rows * cols)) {
    for (size_t i = 0; i < values.size(); ++i) values[i] = first + static_cast<float>(i) * 0.25f;
    desc.data = values.data();
    desc.ndim = 2;
    desc.shape[0] = rows;
    desc.shape[1] = cols;
    desc.strides[0] = cols;
    desc.strides[1] = 1;
    desc.dtype = CUTILE_CPP_F32;
    desc.device_type = CUTILE_CPP_DEVICE_CPU;
  }
};

// Ragged groups: xs[g] (M_g, N_g), ys[g] of the same shapes.
struct Groups {
  std::vector<Host> x, y;
  std::vector<cutile_cpp_tensor> xs, ys;

  explicit Groups(const std::vector<std::pair<int64_t, int64_t>>& shapes) {
    x.reserve(shapes.size());
    y.reserve(shapes.size());
    for (const auto& [m, n] : shapes) {
      x.emplace_back(m, n, static_cast<float>(x.size()));
      y.emplace_back(m, n, -1.0f);
    }
    refresh();
  }
  // The descriptor arrays, after a change to a Host's descriptor.
  void refresh() {
    xs.clear();
    ys.clear();
    for (const Host& h : x) xs.push_back(h.desc);
    for (const Host& h : y) ys.push_back(h.desc);
  }
  int64_t count() const { return static_cast<int64_t>(xs.size()); }
};

const std::vector<std::pair<int64_t, int64_t>> kRagged = {{3, 5}, {1, 64}, {7, 20}};

std::string status_and_message(int32_t status) {
  return std::string(cutile_cpp_status_name(status)) + ": " + cutile_cpp_last_error();
}

int32_t scale(Groups& g, double factor = 2.0) {
  return cutile_cpp_scale_groups(g.ys.data(), g.count(), g.xs.data(), g.count(), factor, 0, nullptr);
}

int32_t op_number() {
  return cutile_cpp_op_number("scale_groups");
}

TEST(ListAbi, TheOpsEntryTakesEachListAsDescriptorsAndACount) {
  Groups g(kRagged);
  ASSERT_EQ(scale(g, 3.0), CUTILE_CPP_OK) << cutile_cpp_last_error();
  for (size_t k = 0; k < kRagged.size(); ++k)
    for (size_t i = 0; i < g.x[k].values.size(); ++i)
      ASSERT_EQ(g.y[k].values[i], 3.0f * g.x[k].values[i]) << "element " << k << ", value " << i;
}

TEST(ListAbi, TheGenericEntryTakesTheCountsByTensor) {
  Groups g(kRagged);
  const cutile_cpp_tensor* const tensors[] = {g.ys.data(), g.xs.data()};
  const int64_t counts[] = {g.count(), g.count()};
  cutile_cpp_scalar factor;
  factor.real = -1.0;
  ASSERT_EQ(cutile_cpp_call(op_number(), tensors, counts, 2, &factor, 1, 0, nullptr), CUTILE_CPP_OK)
      << cutile_cpp_last_error();
  EXPECT_EQ(g.y[2].values.back(), -g.x[2].values.back());
  EXPECT_EQ(
      status_and_message(cutile_cpp_call(op_number(), tensors, nullptr, 2, &factor, 1, 0, nullptr)),
      "CUTILE_CPP_ERROR_INVALID_ARGUMENT: cutile_cpp_scale_groups: ys is a list, but no counts are given");
}

TEST(ListAbi, OutputShapesComeOnePerElement) {
  Groups g(kRagged);
  const cutile_cpp_tensor* const tensors[] = {nullptr, g.xs.data()};
  const int64_t counts[] = {0, g.count()};  // an output's count is not read
  cutile_cpp_scalar factor;
  factor.real = 2.0;
  cutile_cpp_tensor outputs[3];
  ASSERT_EQ(cutile_cpp_output_shapes(op_number(), tensors, counts, 2, &factor, 1, outputs, 3), CUTILE_CPP_OK)
      << cutile_cpp_last_error();
  for (size_t k = 0; k < 3; ++k) {
    EXPECT_EQ(outputs[k].ndim, 2);
    EXPECT_EQ(outputs[k].shape[0], kRagged[k].first);
    EXPECT_EQ(outputs[k].shape[1], kRagged[k].second);
    EXPECT_EQ(outputs[k].dtype, CUTILE_CPP_F32);
  }
  EXPECT_EQ(
      status_and_message(cutile_cpp_output_shapes(op_number(), tensors, counts, 2, &factor, 1, outputs, 2)),
      "CUTILE_CPP_ERROR_INVALID_ARGUMENT: cutile_cpp_scale_groups: has 3 outputs, got room for 2");
}

TEST(ListAbi, BadCountsAndNullArraysHaveTheirStatus) {
  Groups g(kRagged);
  auto call = [&](const cutile_cpp_tensor* ys, int64_t y_count, const cutile_cpp_tensor* xs,
                  int64_t x_count) {
    return status_and_message(cutile_cpp_scale_groups(ys, y_count, xs, x_count, 2.0, 0, nullptr));
  };
  EXPECT_EQ(call(g.ys.data(), 3, nullptr, 3),
            "CUTILE_CPP_ERROR_NULL_POINTER: cutile_cpp_scale_groups: xs: the array of 3 descriptors is null");
  EXPECT_EQ(
      call(g.ys.data(), 3, g.xs.data(), -1),
      "CUTILE_CPP_ERROR_INVALID_ARGUMENT: cutile_cpp_scale_groups: xs: the count -1 of the list is outside "
      "0..2147483647");
  EXPECT_EQ(call(g.ys.data(), 3, g.xs.data(), int64_t{1} << 40),
            "CUTILE_CPP_ERROR_INVALID_ARGUMENT: cutile_cpp_scale_groups: xs: the count 1099511627776 of the "
            "list is "
            "outside 0..2147483647");
  EXPECT_EQ(call(nullptr, 0, nullptr, 0),
            "CUTILE_CPP_ERROR_INVALID_ARGUMENT: cutile_cpp_scale_groups: xs is an empty list: a list holds "
            "at least "
            "one tensor");
  EXPECT_EQ(
      call(g.ys.data(), 2, g.xs.data(), 3),
      "CUTILE_CPP_ERROR_SHAPE_MISMATCH: cutile_cpp_scale_groups: ys has length 2, xs has length 3: the lists "
      "of length G have one length");
}

TEST(ListAbi, EachElementIsCheckedAndNamedByItsIndex) {
  {
    Groups g(kRagged);
    g.x[1].desc.ndim = 9;
    g.refresh();
    EXPECT_EQ(status_and_message(scale(g)),
              "CUTILE_CPP_ERROR_INVALID_DESCRIPTOR: cutile_cpp_scale_groups: xs[1]: ndim 9 is outside 0..5");
  }
  {
    Groups g(kRagged);
    g.x[2].desc.device_type = CUTILE_CPP_DEVICE_CUDA;
    g.refresh();
    EXPECT_EQ(
        status_and_message(scale(g)),
        "CUTILE_CPP_ERROR_DEVICE_MISMATCH: cutile_cpp_scale_groups: xs[2] (f32[7, 20] on cuda:0) and ys[0] "
        "(f32[3, 5] on cpu) are on different devices");
  }
  {
    Groups g(kRagged);
    g.x[1].desc.dtype = CUTILE_CPP_BF16;
    g.refresh();
    EXPECT_EQ(
        status_and_message(scale(g)),
        "CUTILE_CPP_ERROR_DTYPE_MISMATCH: cutile_cpp_scale_groups: xs[1] (bf16[1, 64] on cpu) and xs[0] "
        "(f32[3, 5] on cpu) must have the same dtype");
  }
  {
    Groups g(kRagged);
    g.y[1] = Host(2, 64);
    g.refresh();
    EXPECT_EQ(
        status_and_message(scale(g)),
        "CUTILE_CPP_ERROR_SHAPE_MISMATCH: cutile_cpp_scale_groups: ys[1] (f32[2, 64] on cpu): dim 0 must be "
        "M = 1 (M from xs[1]'s dim 0), got 2");
  }
  {
    Groups g({{3, 5}, {1, 64}, {7, 65}});
    EXPECT_EQ(
        status_and_message(scale(g)),
        "CUTILE_CPP_ERROR_UNSUPPORTED_SHAPE: cutile_cpp_scale_groups: requires N <= 64 (N = 65 from xs[2]'s "
        "dim 1): a row of an element is one (1, 64) tile");
  }
}

TEST(ListAbi, NoOutputElementMayOverlapAnotherElementOrArgument) {
  {
    Groups g({{4, 8}, {4, 8}});
    g.ys[1].data = g.ys[0].data;  // two outputs on one memory
    EXPECT_EQ(status_and_message(scale(g)).substr(0, 64),
              "CUTILE_CPP_ERROR_ALIASING: cutile_cpp_scale_groups: output ys[0]");
    EXPECT_NE(std::string(cutile_cpp_last_error()).find("overlaps ys[1] (f32[4, 8] on cpu)"),
              std::string::npos)
        << cutile_cpp_last_error();
  }
  {
    Groups g({{4, 8}, {4, 8}});
    g.ys[1].data = g.xs[0].data;  // an output on another element's input
    EXPECT_NE(
        std::string(status_and_message(scale(g))).find("output ys[1] (f32[4, 8] on cpu) overlaps xs[0]"),
        std::string::npos)
        << cutile_cpp_last_error();
  }
}

}  // namespace
