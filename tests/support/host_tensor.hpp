// Host tensors for the interpreter tier: element bit patterns in plain host memory with an initialised
// map, packed as kernel parameters the way the launch path packs device tensors.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cutile/interp/run.hpp"
#include "cutile/ir/float_format.hpp"
#include "cutile/params/base.hpp"

namespace cutile::test_support {

class HostTensor {
 public:
  /// A row-major tensor of a type with host storage (not tf32); `initialised` false leaves every byte marked uninitialised until stored.
  HostTensor(ir::ElementType element, std::vector<int64_t> shape, bool initialised = true)
      : element_(element), shape_(std::move(shape)), strides_(shape_.size(), 1) {
    for (size_t d = shape_.size(); d-- > 1;) strides_[d - 1] = strides_[d] * shape_[d];
    int64_t n = 1;
    for (int64_t v : shape_) n *= v;
    size_ = static_cast<size_t>(n);
    width_ = static_cast<size_t>(element == ir::ElementType::i1 ? 1 : (ir::element_bits(element) + 7) / 8);
    bytes_.assign(std::max<size_t>(size_ * width_, 1), 0);
    init_.assign(bytes_.size(), initialised ? 1 : 0);
  }

  size_t size() const { return size_; }
  const std::vector<int64_t>& shape() const { return shape_; }
  ir::ElementType element() const { return element_; }
  uint64_t address() const { return reinterpret_cast<uint64_t>(bytes_.data()); }

  uint64_t bits(size_t k) const {
    uint64_t v = 0;
    std::memcpy(&v, bytes_.data() + k * width_, width_);
    return v;
  }
  void set_bits(size_t k, uint64_t v) {
    std::memcpy(bytes_.data() + k * width_, &v, width_);
    std::fill_n(init_.begin() + static_cast<std::ptrdiff_t>(k * width_), width_, 1);
  }
  /// Stores `v` rounded to nearest even in the element type (integers: the value's two's complement bits).
  void set(size_t k, double v) {
    if (ir::is_float(element_))
      set_bits(k, ir::float_to_bits(element_, v));
    else
      set_bits(k, static_cast<uint64_t>(static_cast<int64_t>(v)));
  }
  /// The element's value (integers read as signed).
  double get(size_t k) const {
    if (ir::is_float(element_)) return ir::bits_to_float(element_, bits(k));
    const int w = static_cast<int>(width_ * 8);
    const uint64_t b = bits(k);
    return static_cast<double>(w >= 64 ? static_cast<int64_t>(b) : static_cast<int64_t>(b << (64 - w)) >> (64 - w));
  }
  std::vector<double> values() const {
    std::vector<double> out(size_);
    for (size_t k = 0; k < size_; ++k) out[k] = get(k);
    return out;
  }

  /// Uniform values in [lo, hi) away from zero (|v| ≥ 1/16 of the range), rounded into the element type.
  void fill_random(std::mt19937& rng, double lo, double hi) {
    std::uniform_real_distribution<double> dist(lo, hi);
    for (size_t k = 0; k < size_; ++k) {
      double v = dist(rng);
      if (std::fabs(v) < (hi - lo) / 16) v = v < 0 ? v - (hi - lo) / 16 : v + (hi - lo) / 16;
      set(k, v);
    }
  }
  void fill(double v) {
    for (size_t k = 0; k < size_; ++k) set(k, v);
  }

  interp::MemoryRegion region(std::string name, bool writable = true) {
    return {address(), static_cast<int64_t>(size_ * width_), std::move(name), writable, init_};
  }
  /// The launch path's packing: base address, then each extent, then each stride, as i32 bits.
  void append_params(std::vector<uint64_t>& params) const {
    params.push_back(address());
    for (int64_t v : shape_) params.push_back(static_cast<uint32_t>(static_cast<int32_t>(v)));
    for (int64_t v : strides_) params.push_back(static_cast<uint32_t>(static_cast<int32_t>(v)));
  }
  /// The specialisation facts the launch path computes for this tensor.
  detail::ArrayFacts facts() const {
    detail::ArrayFacts f;
    for (size_t d = 0; d < shape_.size(); ++d) {
      if (strides_[d] == 1) f.unit_stride |= 1u << d;
      if (shape_[d] == 1) f.unit_extent |= 1u << d;
      if (shape_[d] % 16 == 0) f.extent_div16 |= 1u << d;
      if ((strides_[d] * static_cast<int64_t>(width_)) % 16 == 0) f.stride_div16 |= 1u << d;
    }
    f.base_aligned_16 = address() % 16 == 0;
    return f;
  }

 private:
  ir::ElementType element_;
  std::vector<int64_t> shape_, strides_;
  size_t size_ = 0, width_ = 1;
  std::vector<uint8_t> bytes_, init_;
};

/// Checks |actual - expected| ≤ abs + rel·|expected| for every element; reports the first few misses.
inline void expect_close(const std::vector<double>& actual, const std::vector<double>& expected, double rel, double abs,
                         const std::string& what) {
  ASSERT_EQ(actual.size(), expected.size()) << what;
  int reported = 0;
  size_t misses = 0;
  for (size_t k = 0; k < actual.size(); ++k) {
    const bool both_nan = std::isnan(actual[k]) && std::isnan(expected[k]);
    const bool same_inf = std::isinf(expected[k]) && actual[k] == expected[k];
    if (both_nan || same_inf || std::fabs(actual[k] - expected[k]) <= abs + rel * std::fabs(expected[k])) continue;
    ++misses;
    if (reported++ < 5) ADD_FAILURE() << what << ": element " << k << " is " << actual[k] << ", expected " << expected[k];
  }
  EXPECT_EQ(misses, 0u) << what << ": " << misses << " of " << actual.size() << " elements differ";
}

/// expect_close with the bounds of storing an f32 result in E: rel = abs = 1e-5 (f32), 2e-3 (f16), 1.6e-2 (bf16).
template <Element E>
void expect_close_stored_in(const std::vector<double>& actual, const std::vector<double>& expected,
                            const std::string& what) {
  const double bound = std::is_same_v<E, float> ? 1e-5 : std::is_same_v<E, f16> ? 2e-3 : 1.6e-2;
  expect_close(actual, expected, bound, bound, what);
}

}  // namespace cutile::test_support
