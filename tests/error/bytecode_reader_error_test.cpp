// Malformed bytecode: every kind of damage gives a UserError with a specific message (and never a
// crash), and the writer refuses what the target version cannot express.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <fstream>
#include <iterator>

#include "cutile/bytecode/reader.hpp"
#include "cutile/bytecode/writer.hpp"
#include "cutile/error.hpp"
#include "cutile/ir/builder.hpp"
#include "support/op_modules.hpp"

namespace cutile {
namespace {

using namespace ir;
using bytecode::read_bytecode;
using bytecode::write_bytecode;

std::vector<uint8_t> reference(const char* name) {
  std::ifstream in(std::filesystem::path(CUTILE_SOURCE_DIR) / "tests/data/reference" / name, std::ios::binary);
  EXPECT_TRUE(in.good()) << name;
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// The message of the UserError that reading `bytes` throws ("" if it reads fine).
std::string read_error(const std::vector<uint8_t>& bytes) {
  try {
    read_bytecode(bytes);
  } catch (const UserError& e) {
    return e.message();
  }
  return "";
}

#define EXPECT_READ_ERROR(bytes, text)                                                             \
  do {                                                                                             \
    const std::string message_ = read_error(bytes);                                                \
    EXPECT_NE(message_.find(text), std::string::npos) << "message: '" << message_ << "'";          \
  } while (0)

// negi-op-13.1 (reference §1.12 a): Func section at 0x0C, body at 0x16, Constant at 0x28, Type at 0x49,
// String at 0x6B, End at 0x7D.
std::vector<uint8_t> negi() { return reference("negi-op-13.1.tileirbc"); }

TEST(BytecodeReaderErrors, EveryTruncationIsAUserError) {
  for (const char* name : {"negi-op-13.1.tileirbc", "vadd_cutile_python_13_3.tileirbc"}) {
    const std::vector<uint8_t> full = reference(name);
    for (size_t n = 0; n < full.size(); ++n) {
      std::vector<uint8_t> prefix(full.begin(), full.begin() + static_cast<std::ptrdiff_t>(n));
      EXPECT_NE(read_error(prefix), "") << name << " truncated to " << n << " bytes was accepted";
    }
  }
  const std::vector<uint8_t> full = negi();
  EXPECT_READ_ERROR(std::vector<uint8_t>(full.begin(), full.begin() + 5), "truncated header");
  EXPECT_READ_ERROR(std::vector<uint8_t>(full.begin(), full.begin() + 125), "truncated input while reading section id");
}

TEST(BytecodeReaderErrors, BitFlipsNeverCrash) {
  for (const char* name : {"negi-op-13.1.tileirbc", "print-op-13.1.tileirbc", "vadd_cutile_python_13_3.tileirbc"}) {
    const std::vector<uint8_t> full = reference(name);
    for (size_t i = 0; i < full.size(); ++i)
      for (int bit = 0; bit < 8; ++bit) {
        std::vector<uint8_t> damaged = full;
        damaged[i] ^= static_cast<uint8_t>(1u << bit);
        try {
          read_bytecode(damaged);
        } catch (const UserError&) {
        }
      }
  }
}

TEST(BytecodeReaderErrors, BadMagic) {
  std::vector<uint8_t> b = negi();
  b[1] = 'X';
  EXPECT_READ_ERROR(b, "malformed bytecode at byte offset 1: bad magic");
}

TEST(BytecodeReaderErrors, NewerVersion) {
  std::vector<uint8_t> b = negi();
  b[9] = 9;
  EXPECT_EQ(read_error(b), "bytecode version 13.9 is newer than the newest this reader knows (13.5)");
  b[8] = 14;
  EXPECT_READ_ERROR(b, "unsupported bytecode major version 14");
}

TEST(BytecodeReaderErrors, UnknownOpcode) {
  std::vector<uint8_t> b = negi();
  ASSERT_EQ(b[0x19], 0x50);  // the first negi
  b[0x19] = 0x20;            // unassigned
  EXPECT_READ_ERROR(b, "byte offset 25: function 'basic', op #1: unknown opcode 0x20");
  b[0x19] = 0x6E;            // atan2 is 13.2
  EXPECT_READ_ERROR(b, "op #1 (atan2): opcode requires bytecode version 13.2, the file is 13.1");
}

TEST(BytecodeReaderErrors, UnknownSectionId) {
  std::vector<uint8_t> b = negi();
  b.insert(b.end() - 1, {0x09, 0x00});
  EXPECT_READ_ERROR(b, "byte offset 125: unknown section id 9");
  std::vector<uint8_t> p = negi();
  p.insert(p.end() - 1, {0x07, 0x01, 0x00});  // Producer in a 13.1 file
  EXPECT_READ_ERROR(p, "Producer section (id 7) requires bytecode version 13.3, the file is 13.1");
}

TEST(BytecodeReaderErrors, DuplicateSection) {
  std::vector<uint8_t> b = negi();
  const std::vector<uint8_t> string_section(b.begin() + 0x6B, b.end() - 1);
  b.insert(b.end() - 1, string_section.begin(), string_section.end());
  EXPECT_READ_ERROR(b, "byte offset 125: duplicate String section");
}

TEST(BytecodeReaderErrors, TrailingBytes) {
  std::vector<uint8_t> b = negi();
  b.push_back(0x00);
  b.push_back(0x42);
  EXPECT_READ_ERROR(b, "byte offset 126: 2 trailing bytes after the end-of-bytecode marker");
}

TEST(BytecodeReaderErrors, SectionLengthPastTheEnd) {
  std::vector<uint8_t> b = negi();
  b[0x6C] = 0x7F;  // String section length
  EXPECT_READ_ERROR(b, "String section length 127 exceeds the remaining");
}

TEST(BytecodeReaderErrors, MissingAlignmentFlag) {
  std::vector<uint8_t> b = negi();
  b[0x0C] = 0x02;  // Func without its alignment flag
  EXPECT_READ_ERROR(b, "byte offset 12: Func section must be aligned to a multiple of 8");
  std::vector<uint8_t> c = negi();
  c[0x0E] = 0x03;  // alignment 3
  EXPECT_READ_ERROR(c, "Func section alignment 3 is not a power of two");
}

TEST(BytecodeReaderErrors, OutOfRangeIndices) {
  std::vector<uint8_t> b = negi();
  b[0x1B] = 0x05;  // negi operand
  EXPECT_READ_ERROR(b, "op #1 (negi): operand index 5 out of range (1 values in scope)");
  std::vector<uint8_t> t = negi();
  t[0x17] = 0x09;  // constant result type
  EXPECT_READ_ERROR(t, "type index 9 out of range (3 types)");
  std::vector<uint8_t> c = negi();
  c[0x18] = 0x04;  // constant pool index
  EXPECT_READ_ERROR(c, "constant index 4 out of range (1 constants)");
  std::vector<uint8_t> s = negi();
  s[0x11] = 0x02;  // function name
  EXPECT_READ_ERROR(s, "function name: string index 2 out of range (1 strings)");
}

TEST(BytecodeReaderErrors, VarintOverflow) {
  std::vector<uint8_t> b = negi();
  // Section length as an 11-byte varint.
  std::vector<uint8_t> bad = {b.begin(), b.begin() + 0x0D};
  for (int i = 0; i < 10; ++i) bad.push_back(0xFF);
  bad.push_back(0x01);
  EXPECT_READ_ERROR(bad, "byte offset 13: varint overflows 64 bits while reading section length");
}

TEST(BytecodeReaderErrors, BrokenRegionStructure) {
  // Body ends without its `return`: replace the return record by a third negi.
  std::vector<uint8_t> b = negi();
  b[0x1F] = 0x50;
  b[0x20] = 0x02;
  b[0x21] = 0x00;
  EXPECT_READ_ERROR(b, "block does not end with a terminator");
  // An op after the terminator: return, then negi (body length grows by 3, padding shrinks).
  std::vector<uint8_t> c = negi();
  c[0x15] = 0x0F;
  c[0x22] = 0x50;
  c[0x23] = 0x02;
  c[0x24] = 0x00;
  EXPECT_READ_ERROR(c, "op after the terminator return of its block");
}

TEST(BytecodeReaderErrors, UnknownTypeTagAndEnumValue) {
  std::vector<uint8_t> b = negi();
  b[0x5F] = 0x63;  // type1 (i32) tag -> 99
  EXPECT_READ_ERROR(b, "unknown type tag 99");

  // negi with an overflow value of 9 at 13.2.
  Module m;
  Function& f = m.add_function("k", {});
  Builder bld(f.entry_block());
  bld.unary(Opcode::negi, bld.constant_int(ElementType::i32, 1, {2}));
  bld.return_();
  std::vector<uint8_t> e = write_bytecode(m, {v13_2});
  // Body: constant (10 T c), negi (50 T overflow operand).
  auto it = std::find(e.begin(), e.end(), uint8_t{0x50});
  ASSERT_NE(it, e.end());
  *(it + 2) = 9;
  EXPECT_READ_ERROR(e, "unknown value 9 of enum attribute 'overflow'");
}

TEST(BytecodeReaderErrors, NonEntryFunction) {
  std::vector<uint8_t> b = negi();
  b[0x13] = 0x00;
  EXPECT_READ_ERROR(b, "function 'basic' is not an entry (flags 0): only entry functions can be read");
}

TEST(BytecodeReaderErrors, HostileCountsAreBounded) {
  std::vector<uint8_t> b = negi();
  b[0x10] = 0x7F;  // function count
  EXPECT_READ_ERROR(b, "function count 127 exceeds what the remaining");
}

// ----------------------------------------------------------------------------------- writer refusals

std::string write_error(const Module& m, Version v) {
  try {
    write_bytecode(m, {v});
  } catch (const UserError& e) {
    return e.message();
  }
  return "";
}

Module single_op_module(const std::function<void(Builder&, Function&)>& body, std::vector<Type> params = {}) {
  Module m;
  Function& f = m.add_function("k", std::move(params));
  Builder b(f.entry_block());
  body(b, f);
  b.return_();
  return m;
}

TEST(BytecodeWriterErrors, OpNewerThanTheVersion) {
  Module m = single_op_module([](Builder& b, Function&) {
    Value* x = b.constant_float(ElementType::f32, 1.0, {4});
    b.binary(Opcode::atan2, x, x);
  });
  EXPECT_EQ(write_error(m, v13_1), "cannot write bytecode 13.1 (function 'k'), op #1 (atan2): op atan2 requires bytecode version 13.2");
  EXPECT_EQ(write_error(m, v13_2), "");
}

TEST(BytecodeWriterErrors, TypeNewerThanTheVersion) {
  Module m = single_op_module([](Builder& b, Function&) { b.constant_int(ElementType::i4, 1, {4}); });
  EXPECT_NE(write_error(m, v13_2).find("element type i4 requires bytecode version 13.3"), std::string::npos);
}

TEST(BytecodeWriterErrors, EnumValueNewerThanTheVersion) {
  Module m = single_op_module([](Builder& b, Function&) {
    Value* x = b.constant_float(ElementType::f32, 1.0, {4});
    b.binary(Opcode::addf, x, x, {{"rounding_mode", Attribute::enum_of(EnumKind::rounding, RoundingMode::nearest_away)}});
  });
  EXPECT_NE(write_error(m, v13_3).find("value nearest_away of attribute 'rounding_mode' requires a newer bytecode version"),
            std::string::npos);
}

TEST(BytecodeWriterErrors, NonDefaultLaterAttribute) {
  Module m = single_op_module([](Builder& b, Function&) {
    b.unary(Opcode::negi, b.constant_int(ElementType::i32, 1, {4}),
            {{"overflow", Attribute::enum_of(EnumKind::overflow, IntegerOverflow::no_signed_wrap)}});
  });
  EXPECT_NE(write_error(m, v13_1).find("attribute 'overflow' with a non-default value requires bytecode version 13.2"),
            std::string::npos);
  Module unit = single_op_module([](Builder& b, Function&) {
    Value* a = b.constant_float(ElementType::f16, 1.0, {16, 16});
    b.create_value(Opcode::mmaf, tile_type({16, 16}, ElementType::f32),
                   {a, a, b.constant_float(ElementType::f32, 0.0, {16, 16})}, {{"fast_acc", Attribute::unit()}});
  });
  EXPECT_NE(write_error(unit, v13_2).find("attribute 'fast_acc' requires bytecode version 13.3"), std::string::npos);
}

TEST(BytecodeWriterErrors, PrintTokenUsedAt13_1) {
  Module m = single_op_module([](Builder& b, Function&) {
    Value* t = b.create(Opcode::print_tko, {Type::token()}, {{}, {}}, {{"str", Attribute::string("hi")}}).result(0);
    b.join_tokens({t, b.make_token()});
  });
  EXPECT_NE(write_error(m, v13_1).find("the result of print_tko is used, which requires bytecode version 13.2"),
            std::string::npos);
}

TEST(BytecodeWriterErrors, PrivateGlobalBefore13_3) {
  Module m;
  m.add_global({"g", Attribute::dense(tile_type({1}, ElementType::i32), {0, 0, 0, 0}), 0, true, false});
  EXPECT_NE(write_error(m, v13_2).find("private or constant globals require 13.3"), std::string::npos);
}

TEST(BytecodeWriterErrors, ValueOutOfScope) {
  Module m;
  Function& f = m.add_function("k", {scalar_type(ElementType::i32)});
  Builder b(f.entry_block());
  Value* inner = nullptr;
  Value* c = b.cmpi(ComparisonPredicate::equal, f.parameter(0), f.parameter(0));
  b.if_else(c, {}, [&](Builder& in, std::span<Value* const>) {
    inner = in.constant_int(ElementType::i32, 1);
    return std::vector<Value*>{};
  });
  b.binary(Opcode::addi, inner, inner);
  b.return_();
  EXPECT_NE(write_error(m, v13_3).find("uses a value that is not defined before it in an enclosing scope"),
            std::string::npos);
}

TEST(BytecodeWriterErrors, UnknownAttributeAndWrongGroups) {
  Module m = single_op_module([](Builder& b, Function&) {
    Value* x = b.constant_float(ElementType::f32, 1.0, {4});
    b.binary(Opcode::addf, x, x, {{"bogus", Attribute::unit()}});
  });
  EXPECT_NE(write_error(m, v13_3).find("unknown attribute 'bogus'"), std::string::npos);
  Module g = single_op_module([](Builder& b, Function&) {
    Value* x = b.constant_float(ElementType::f32, 1.0, {4});
    b.create(Opcode::addf, {x->type()}, {{x}});
  });
  EXPECT_NE(write_error(g, v13_3).find("expected 2 operand groups, the op has 1"), std::string::npos);
}

// 13.5: the header's tag marks preview content, and unicast/multicast pointers are new.
TEST(BytecodeReaderErrors, PreviewHeaderAt13_5) {
  Module m;
  Function& f = m.add_function("k", {});
  Builder(f.entry_block()).return_();
  std::vector<uint8_t> b = write_bytecode(m, {v13_5});
  EXPECT_EQ(read_error(b), "");
  b[10] = 1;
  EXPECT_READ_ERROR(b, "byte offset 10: the header marks preview content");
  b[10] = 2;
  EXPECT_READ_ERROR(b, "the header's tag has unknown bits (2)");
}

TEST(BytecodeWriterErrors, MulticastPointerNeeds13_5) {
  Module m;
  Function& f = m.add_function("k", {Type::tile({}, Type::pointer(Type::element(ElementType::f32), PtrAttr::multicast))});
  Builder(f.entry_block()).return_();
  EXPECT_NE(write_error(m, v13_4).find("ptr<f32, <multicast>>"), std::string::npos) << write_error(m, v13_4);
  EXPECT_EQ(write_error(m, v13_5), "");
  // A 13.4 file cannot name multicast either: patch the 13.5 file's version byte.
  std::vector<uint8_t> b = write_bytecode(m, {v13_5});
  b[9] = 4;
  EXPECT_READ_ERROR(b, "ptr_attr multicast");
}

TEST(BytecodeWriterErrors, UnsupportedVersion) {
  Module m;
  EXPECT_EQ(write_error(m, Version{13, 6}), "cannot write bytecode version 13.6: supported versions are 13.1 to 13.5");
}

}  // namespace
}  // namespace cutile
