// Primitive encodings of the bytecode: LEB128 varints, zig-zag svarints, little-endian integers, the
// bounds-checked reader and the dense-constant size rules.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <vector>

#include "bytecode/encoding.hpp"
#include "bytecode/format.hpp"
#include "cutile/error.hpp"
#include "cutile/ir/builder.hpp"

namespace cutile::bytecode {
namespace {

std::vector<uint8_t> varint_bytes(uint64_t v) {
  ByteWriter w;
  w.varint(v);
  return w.bytes();
}

uint64_t read_varint(const std::vector<uint8_t>& bytes) {
  ByteReader r(bytes, 0);
  const uint64_t v = r.varint("test value");
  EXPECT_TRUE(r.at_end());
  return v;
}

TEST(BytecodeVarint, MinimalEncodingsMatchTheReference) {
  EXPECT_EQ(varint_bytes(0), (std::vector<uint8_t>{0x00}));
  EXPECT_EQ(varint_bytes(1), (std::vector<uint8_t>{0x01}));
  EXPECT_EQ(varint_bytes(127), (std::vector<uint8_t>{0x7F}));
  EXPECT_EQ(varint_bytes(128), (std::vector<uint8_t>{0x80, 0x01}));
  EXPECT_EQ(varint_bytes(300), (std::vector<uint8_t>{0xAC, 0x02}));
  EXPECT_EQ(varint_bytes(16383), (std::vector<uint8_t>{0xFF, 0x7F}));
  EXPECT_EQ(varint_bytes(16384), (std::vector<uint8_t>{0x80, 0x80, 0x01}));
  EXPECT_EQ(varint_bytes(UINT64_MAX),
            (std::vector<uint8_t>{0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01}));
}

TEST(BytecodeVarint, RoundTripsBoundaryValues) {
  for (uint64_t v : {uint64_t{0}, uint64_t{1}, uint64_t{127}, uint64_t{128}, uint64_t{255}, uint64_t{256},
                     uint64_t{1} << 31, (uint64_t{1} << 32) - 1, uint64_t{1} << 32, (uint64_t{1} << 63) - 1,
                     uint64_t{1} << 63, UINT64_MAX})
    EXPECT_EQ(read_varint(varint_bytes(v)), v) << v;
}

TEST(BytecodeVarint, ReaderAcceptsNonMinimalForms) {
  EXPECT_EQ(read_varint({0x80, 0x00}), 0u);
  EXPECT_EQ(read_varint({0x81, 0x80, 0x80, 0x00}), 1u);
}

TEST(BytecodeVarint, OverflowIsRejected) {
  // Ten bytes whose last one carries more than bit 63.
  std::vector<uint8_t> too_big(9, 0xFF);
  too_big.push_back(0x02);
  ByteReader r(too_big, 100);
  try {
    r.varint("length");
    FAIL() << "expected UserError";
  } catch (const UserError& e) {
    EXPECT_NE(e.message().find("byte offset 100"), std::string::npos) << e.message();
    EXPECT_NE(e.message().find("overflows 64 bits"), std::string::npos) << e.message();
  }
  std::vector<uint8_t> eleven(10, 0x80);
  eleven.push_back(0x01);
  ByteReader r2(eleven, 0);
  EXPECT_THROW(r2.varint("length"), UserError);
}

TEST(BytecodeVarint, TruncationIsRejectedWithOffset) {
  const std::vector<uint8_t> bytes = {0x80, 0x80};
  ByteReader r(bytes, 7);
  try {
    r.varint("operand index");
    FAIL() << "expected UserError";
  } catch (const UserError& e) {
    EXPECT_NE(e.message().find("byte offset 9"), std::string::npos) << e.message();
    EXPECT_NE(e.message().find("truncated input while reading operand index"), std::string::npos) << e.message();
  }
}

TEST(BytecodeSvarint, ZigZagMatchesTheReference) {
  EXPECT_EQ(zigzag_encode(0), 0u);
  EXPECT_EQ(zigzag_encode(-1), 1u);
  EXPECT_EQ(zigzag_encode(1), 2u);
  EXPECT_EQ(zigzag_encode(-2), 3u);
  EXPECT_EQ(zigzag_encode(std::numeric_limits<int64_t>::max()), UINT64_MAX - 1);
  EXPECT_EQ(zigzag_encode(std::numeric_limits<int64_t>::min()), UINT64_MAX);
  for (int64_t v : {int64_t{0}, int64_t{-1}, int64_t{1}, int64_t{-64}, int64_t{64}, int64_t{1} << 40,
                    std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max()}) {
    ByteWriter w;
    w.svarint(v);
    ByteReader r(w.bytes(), 0);
    EXPECT_EQ(r.svarint("value"), v);
  }
  // f32 1.0 as an APFloat payload: bits 0x3F800000 -> zig-zag 0x7F000000 -> 80 80 80 F8 07.
  ByteWriter w;
  w.svarint(0x3F800000);
  EXPECT_EQ(w.bytes(), (std::vector<uint8_t>{0x80, 0x80, 0x80, 0xF8, 0x07}));
}

TEST(BytecodeFixedWidth, LittleEndian) {
  ByteWriter w;
  w.le<uint32_t>(0x01020304);
  w.le<int64_t>(std::numeric_limits<int64_t>::min());
  EXPECT_EQ(w.bytes(), (std::vector<uint8_t>{4, 3, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0x80}));
  ByteReader r(w.bytes(), 0);
  EXPECT_EQ(r.le<uint32_t>("u32"), 0x01020304u);
  EXPECT_EQ(r.le<int64_t>("i64"), std::numeric_limits<int64_t>::min());
  EXPECT_THROW(r.le<uint16_t>("u16"), UserError);
}

TEST(BytecodeReader, CountsLargerThanTheInputAreRejectedBeforeAllocation) {
  ByteWriter w;
  w.varint(uint64_t{1} << 40);
  w.le<uint32_t>(0);
  ByteReader r(w.bytes(), 0);
  try {
    r.count("type count", 4);
    FAIL() << "expected UserError";
  } catch (const UserError& e) {
    EXPECT_NE(e.message().find("type count 1099511627776 exceeds what the remaining 4 bytes can hold"),
              std::string::npos)
        << e.message();
  }
}

TEST(BytecodeReader, PaddingIsRelativeToTheGivenOrigin) {
  std::vector<uint8_t> bytes = {0x01, 0xCB, 0xCB, 0xCB, 0x2A};
  ByteReader r(bytes, 16);
  r.byte("count");
  r.skip_padding(4, 16, "padding");
  EXPECT_EQ(r.offset(), 20u);
  EXPECT_EQ(r.byte("value"), 0x2A);
}

TEST(BytecodeWriter, PadToUsesCB) {
  ByteWriter w;
  w.byte(1);
  w.pad_to(8);
  EXPECT_EQ(w.bytes(), (std::vector<uint8_t>{1, 0xCB, 0xCB, 0xCB, 0xCB, 0xCB, 0xCB, 0xCB}));
  w.pad_to(8);
  EXPECT_EQ(w.size(), 8u);
}

using Bytes = std::vector<uint8_t>;

TEST(BytecodeDense, StorageSizeRules) {
  using ir::ElementType;
  using ir::tile_type;
  EXPECT_EQ(dense_storage_problem(tile_type({2}, ElementType::i32), std::vector<uint8_t>(8)), "");
  EXPECT_EQ(dense_storage_problem(tile_type({2}, ElementType::i32), std::vector<uint8_t>(4)), "");  // splat
  EXPECT_NE(dense_storage_problem(tile_type({2}, ElementType::i32), std::vector<uint8_t>(6)), "");
  EXPECT_NE(dense_storage_problem(tile_type({2}, ElementType::i32), {}), "");
  // tf32 takes 3 bytes per element, i4/f4 one byte.
  EXPECT_EQ(dense_storage_problem(tile_type({4}, ElementType::tf32), std::vector<uint8_t>(12)), "");
  EXPECT_EQ(dense_storage_problem(tile_type({4}, ElementType::i4), std::vector<uint8_t>(4)), "");
  // i1: bit-packed, or one 00/FF splat byte.
  EXPECT_EQ(dense_storage_problem(tile_type({16}, ElementType::i1), Bytes{0xFF}), "");
  EXPECT_EQ(dense_storage_problem(tile_type({16}, ElementType::i1), Bytes{0x00}), "");
  EXPECT_EQ(dense_storage_problem(tile_type({16}, ElementType::i1), Bytes{0x12, 0x34}), "");
  EXPECT_NE(dense_storage_problem(tile_type({16}, ElementType::i1), Bytes{0x01}), "");
  EXPECT_EQ(dense_storage_problem(tile_type({8}, ElementType::i1), Bytes{0x35}), "");
  EXPECT_NE(dense_storage_problem(ir::pointer_type(ElementType::f32), Bytes{0, 0, 0, 0, 0, 0, 0, 0}), "");
}

}  // namespace
}  // namespace cutile::bytecode
