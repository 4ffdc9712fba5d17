// The cuda_tile opcode table: one record per op, stating how the op is encoded in each bytecode
// version. The writer, reader, printer and verifier all read this table; nothing else restates it.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "cutile/ir/attribute.hpp"
#include "cutile/ir/version.hpp"

namespace cutile::ir {

enum class Opcode : uint8_t {
  absf = 0x00, absi = 0x01, addf = 0x02, addi = 0x03, andi = 0x04, assert_ = 0x05, assume = 0x06,
  atomic_cas_tko = 0x07, atomic_rmw_tko = 0x08, bitcast = 0x09, break_ = 0x0A, broadcast = 0x0B,
  cat = 0x0C, ceil = 0x0D, cmpf = 0x0E, cmpi = 0x0F, constant = 0x10, continue_ = 0x11, cos = 0x12,
  cosh = 0x13, divf = 0x14, divi = 0x15, entry = 0x16, exp = 0x17, exp2 = 0x18,
  exti = 0x25, extract = 0x26, floor = 0x27, fma = 0x28, for_ = 0x29, ftof = 0x2A, ftoi = 0x2B,
  get_global = 0x2C, get_index_space_shape = 0x2D, get_num_tile_blocks = 0x2E, get_tensor_shape = 0x2F,
  get_tile_block_id = 0x30, global = 0x31, if_ = 0x32, int_to_ptr = 0x33,
  iota = 0x3A, itof = 0x3B, join_tokens = 0x3C, load_ptr_tko = 0x3D, load_view_tko = 0x3E, log = 0x3F,
  log2 = 0x40, loop = 0x41, make_partition_view = 0x42, make_tensor_view = 0x43, make_token = 0x44,
  maxf = 0x45, maxi = 0x46, minf = 0x47, mini = 0x48, mmaf = 0x49, mmai = 0x4A, module = 0x4B,
  mulf = 0x4C, mulhii = 0x4D, muli = 0x4E, negf = 0x4F, negi = 0x50, offset = 0x51, ori = 0x52,
  permute = 0x53, pow = 0x54, print_tko = 0x55, ptr_to_int = 0x56, ptr_to_ptr = 0x57, reduce = 0x58,
  remf = 0x59, remi = 0x5A, reshape = 0x5B, return_ = 0x5C, rsqrt = 0x5D, scan = 0x5E, select = 0x5F,
  shli = 0x60, shri = 0x61, sin = 0x62, sinh = 0x63, sqrt = 0x64, store_ptr_tko = 0x65,
  store_view_tko = 0x66, subf = 0x67, subi = 0x68, tan = 0x69, tanh = 0x6A, trunci = 0x6B, xori = 0x6C,
  yield = 0x6D, atan2 = 0x6E, pack = 0x6F, unpack = 0x70, alloca = 0x71, mmaf_scaled = 0x72,
  make_gather_scatter_view = 0x73, make_strided_view = 0x74, atomic_red_view_tko = 0x75, insert = 0x76,
  gdc_launch_dependents_tko = 0x77, gdc_wait_tko = 0x78, fpowi = 0x79, memory_fence_alias_tko = 0x7A,
  multimem_load_reduce_view_tko = 0x7B, multimem_reduce_view_tko = 0x7C, multimem_store_view_tko = 0x7D,
};

/// How an attribute is written inline in an op record (bytecode §3.2).
enum class AttrEncoding : uint8_t {
  enum_value,      ///< varint enum value
  integer,         ///< varint (I32Attr / I64Attr)
  boolean,         ///< one byte 0/1
  string,          ///< string index
  i32_array,       ///< varint count + 4-byte LE
  i64_array,       ///< varint count + 8-byte LE
  bool_array,      ///< varint count + one byte each (13.4 inbounds)
  constant,        ///< constant-pool index; the type is the op's result type
  attribute_array, ///< varint count + self-contained typed attributes
  self_contained,  ///< tag + payload (assume predicate)
  hints,           ///< optimization-hints body without its tag
  unit,            ///< no bytes; presence is a flags bit
};

struct AttrSpec {
  std::string_view name;       ///< MLIR attribute name, e.g. "rounding_mode"
  AttrEncoding encoding;
  EnumKind enum_kind = EnumKind::signedness;  ///< for enum_value
  bool optional = false;       ///< OptionalAttr / UnitAttr: present only if its flags bit is set
  Version since = v13_1;       ///< attributes newer than the op carry a default (below)
  int64_t default_value = 0;   ///< enum/integer default, used when absent and for older versions
  bool has_default = false;    ///< DefaultValuedAttr: the printer omits it when equal to the default
};

enum class Arity : uint8_t { single, optional, variadic };

struct OperandSpec {
  std::string_view name;
  Arity arity = Arity::single;
  Version since = v13_1;
};

struct OpSpec {
  Opcode opcode;
  std::string_view mnemonic;          ///< "addf", "load_view_tko", ... ("print_tko" is "print" in 13.1 text)
  Version since = v13_1;
  bool variadic_results = false;      ///< a result count precedes the result types
  int num_results = 1;                ///< fixed count; -1 when the op decides (variadic)
  Version results_since = v13_1;      ///< before this version the op has no results (13.1 print)
  std::span<const AttrSpec> attrs;    ///< in write order
  std::span<const OperandSpec> operands;  ///< operand groups in declaration order
  bool attr_sized_operands = false;   ///< AttrSizedOperandSegments: per-group encoding, optional operands in flags
  int num_regions = 0;
  bool terminator = false;
  bool pure = false;                  ///< may appear in reduce / scan bodies
  /// The flags bits of optional operands come before those of optional attributes (13.5
  /// multimem_reduce_view_tko: token bit 0, memory_scope bit 1).
  bool operand_flags_first = false;
  /// True when the op record has a flags varint at `version`.
  bool has_flags(Version version) const;
  /// Bit of the flags varint for an optional attribute (by name) or, for attr-sized ops, an optional
  /// operand group (by group index); nullopt if that item has no bit at `version`.
  std::optional<int> flag_bit_of_attr(std::string_view attr_name, Version version) const;
  std::optional<int> flag_bit_of_operand(size_t group, Version version) const;
  const AttrSpec* find_attr(std::string_view name) const;
  /// True when the op record writes a total operand count (non attr-sized op with a variadic or
  /// optional group).
  bool writes_operand_count() const;
};

/// The record of an opcode, or nullptr for unassigned numbers.
const OpSpec* find_op(uint8_t opcode);
const OpSpec& op_spec(Opcode opcode);
const OpSpec* find_op(std::string_view mnemonic);
/// Every assigned opcode, in numeric order (entry, global and module included).
std::span<const OpSpec> all_ops();

}  // namespace cutile::ir
