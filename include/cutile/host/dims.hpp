// Dims: a short list of extents, strides or dimension indices held inline. Launch arguments are built on
// every launch; a heap allocation per list would cost more than all of their checks.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <vector>

namespace cutile {

class Dims {
 public:
  /// Tensors and partitions of higher rank cannot be launch arguments.
  static constexpr size_t kCapacity = 8;

  Dims() = default;
  Dims(std::span<const int64_t> values);  // NOLINT: a list of dims is what it holds
  Dims(const std::vector<int64_t>& values) : Dims(std::span<const int64_t>(values)) {}  // NOLINT
  Dims(std::initializer_list<int64_t> values) : Dims(std::span<const int64_t>(values.begin(), values.size())) {}
  template <class I, size_t N>
  Dims(const std::array<I, N>& values) {  // NOLINT: compile-time shapes and orders
    static_assert(N <= kCapacity, "a launch argument holds at most 8 dims");
    std::copy(values.begin(), values.end(), values_.begin());
    size_ = N;
  }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const int64_t* begin() const { return values_.data(); }
  const int64_t* end() const { return values_.data() + size_; }
  const int64_t* data() const { return values_.data(); }
  int64_t operator[](size_t i) const { return values_[i]; }
  operator std::span<const int64_t>() const { return {values_.data(), size_}; }  // NOLINT

  friend bool operator==(const Dims& a, const Dims& b) { return std::ranges::equal(a, b); }

 private:
  std::array<int64_t, kCapacity> values_{};
  size_t size_ = 0;
};

}  // namespace cutile
