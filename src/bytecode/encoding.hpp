// Primitive encodings of the Tile IR bytecode (reference §1.1): LEB128 varints, zig-zag signed varints,
// little-endian fixed-width integers, and a bounds-checked cursor that reads them from untrusted input.
#pragma once

#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include "cutile/error.hpp"

namespace cutile::bytecode {

inline uint64_t zigzag_encode(int64_t v) {
  return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63);
}
inline int64_t zigzag_decode(uint64_t u) { return static_cast<int64_t>(u >> 1) ^ -static_cast<int64_t>(u & 1); }

/// Append-only byte buffer with the bytecode's primitive writers.
class ByteWriter {
 public:
  void byte(uint8_t b) { bytes_.push_back(b); }
  void varint(uint64_t v) {
    while (v >= 0x80) {
      bytes_.push_back(static_cast<uint8_t>(v | 0x80));
      v >>= 7;
    }
    bytes_.push_back(static_cast<uint8_t>(v));
  }
  void svarint(int64_t v) { varint(zigzag_encode(v)); }
  template <class T>
  void le(T v) {
    static_assert(std::is_integral_v<T>);
    const auto u = static_cast<std::make_unsigned_t<T>>(v);
    for (size_t i = 0; i < sizeof(T); ++i) bytes_.push_back(static_cast<uint8_t>(u >> (8 * i)));
  }
  void append(std::span<const uint8_t> data) { bytes_.insert(bytes_.end(), data.begin(), data.end()); }
  /// Pads with 0xCB until the size is a multiple of `alignment` counted from `origin`.
  void pad_to(size_t alignment, size_t origin = 0) {
    while ((origin + bytes_.size()) % alignment != 0) bytes_.push_back(0xCB);
  }
  size_t size() const { return bytes_.size(); }
  const std::vector<uint8_t>& bytes() const { return bytes_; }
  std::vector<uint8_t>& bytes() { return bytes_; }

 private:
  std::vector<uint8_t> bytes_;
};

/// Bounds-checked cursor over a slice of the input. Every failure throws UserError naming the absolute
/// byte offset in the file and what was being read.
class ByteReader {
 public:
  ByteReader(std::span<const uint8_t> data, size_t file_offset) : data_(data), base_(file_offset) {}

  size_t offset() const { return base_ + pos_; }  ///< absolute offset of the next byte
  size_t remaining() const { return data_.size() - pos_; }
  bool at_end() const { return pos_ == data_.size(); }

  [[noreturn]] void fail(const std::string& what) const { fail_at(offset(), what); }
  [[noreturn]] static void fail_at(size_t offset, const std::string& what) {
    throw UserError("malformed bytecode at byte offset " + std::to_string(offset) + ": " + what);
  }

  uint8_t byte(const char* what) {
    if (remaining() < 1) fail("truncated input while reading " + std::string(what));
    return data_[pos_++];
  }
  uint64_t varint(const char* what) {
    const size_t start = offset();
    uint64_t value = 0;
    for (int i = 0; i < 10; ++i) {
      if (remaining() < 1) fail("truncated input while reading " + std::string(what));
      const uint8_t b = data_[pos_++];
      if (i == 9 && b > 1) fail_at(start, "varint overflows 64 bits while reading " + std::string(what));
      value |= static_cast<uint64_t>(b & 0x7F) << (7 * i);
      if ((b & 0x80) == 0) return value;
    }
    fail_at(start, "varint longer than 10 bytes while reading " + std::string(what));
  }
  int64_t svarint(const char* what) { return zigzag_decode(varint(what)); }
  /// A varint that must be at most `max`.
  uint64_t varint_max(const char* what, uint64_t max) {
    const size_t start = offset();
    const uint64_t v = varint(what);
    if (v > max) fail_at(start, std::string(what) + " " + std::to_string(v) + " exceeds the limit " + std::to_string(max));
    return v;
  }
  /// An element count whose elements take at least `min_element_bytes` each: a count that cannot fit in the
  /// remaining input is rejected before anything is allocated.
  uint64_t count(const char* what, size_t min_element_bytes) {
    const size_t start = offset();
    const uint64_t n = varint(what);
    if (min_element_bytes > 0 && n > remaining() / min_element_bytes)
      fail_at(start, std::string(what) + " " + std::to_string(n) + " exceeds what the remaining " +
                         std::to_string(remaining()) + " bytes can hold");
    return n;
  }
  template <class T>
  T le(const char* what) {
    static_assert(std::is_integral_v<T>);
    if (remaining() < sizeof(T)) fail("truncated input while reading " + std::string(what));
    std::make_unsigned_t<T> u = 0;
    for (size_t i = 0; i < sizeof(T); ++i) u |= static_cast<std::make_unsigned_t<T>>(data_[pos_ + i]) << (8 * i);
    pos_ += sizeof(T);
    return static_cast<T>(u);
  }
  std::span<const uint8_t> bytes(size_t n, const char* what) {
    if (remaining() < n) fail("truncated input while reading " + std::string(what));
    auto out = data_.subspan(pos_, n);
    pos_ += n;
    return out;
  }
  /// Skips padding so that the next byte sits at a multiple of `alignment` from `origin` (an absolute offset).
  void skip_padding(size_t alignment, size_t origin, const char* what) {
    while ((offset() - origin) % alignment != 0) byte(what);
  }
  /// A sub-reader over the next `n` bytes.
  ByteReader sub(size_t n, const char* what) {
    const size_t start = offset();
    return ByteReader(bytes(n, what), start);
  }

 private:
  std::span<const uint8_t> data_;
  size_t base_;
  size_t pos_ = 0;
};

}  // namespace cutile::bytecode
