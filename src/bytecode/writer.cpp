// Bytecode writer. Function bodies are encoded first into side buffers while strings, types, constants
// and debug attributes are interned; the sections are then emitted in the official C++ writer's order:
// Global?, Func, Constant?, Debug?, Type, Producer? (13.3+), String, End.
#include "cutile/bytecode/writer.hpp"

#include <algorithm>
#include <map>
#include <unordered_map>
#include <unordered_set>

#include "bytecode/encoding.hpp"
#include "bytecode/format.hpp"
#include "cutile/error.hpp"

namespace cutile::bytecode {
namespace {

using ir::Attribute;
using ir::AttrKind;
using ir::Type;
using ir::TypeKind;
using ir::Version;

std::string quoted(std::string_view s) { return "'" + std::string(s) + "'"; }

/// Interns byte strings in first-use order.
class Interner {
 public:
  uint64_t intern(std::vector<uint8_t> entry) {
    auto [it, inserted] = index_.try_emplace(entry, entries_.size());
    if (inserted) entries_.push_back(std::move(entry));
    return it->second;
  }
  const std::vector<std::vector<uint8_t>>& entries() const { return entries_; }

 private:
  std::map<std::vector<uint8_t>, uint64_t> index_;
  std::vector<std::vector<uint8_t>> entries_;
};

/// Offset-table layout (§1.4): count, padding, fixed-width offsets, concatenated entries. Padding is
/// relative to the start of `w`, which is always the start of a section payload.
template <class Offset>
void append_offset_table(ByteWriter& w, const std::vector<std::vector<uint8_t>>& entries) {
  w.varint(entries.size());
  w.pad_to(sizeof(Offset));
  Offset offset = 0;
  for (const auto& e : entries) {
    w.le<Offset>(offset);
    offset += static_cast<Offset>(e.size());
  }
  for (const auto& e : entries) w.append(e);
}

template <class Offset>
ByteWriter offset_table(const std::vector<std::vector<uint8_t>>& entries) {
  ByteWriter w;
  append_offset_table<Offset>(w, entries);
  return w;
}

void write_section(ByteWriter& out, SectionId id, const ByteWriter& payload, size_t alignment) {
  out.byte(static_cast<uint8_t>(id) | (alignment ? kSectionAlignFlag : 0));
  out.varint(payload.size());
  if (alignment) {
    out.varint(alignment);
    out.pad_to(alignment);
  }
  out.append(payload.bytes());
}

std::pair<std::string, std::string> split_path(const std::string& path) {
  const size_t slash = path.rfind('/');
  if (slash == std::string::npos) return {path, ""};
  return {path.substr(slash + 1), path.substr(0, slash)};
}

class Encoder {
 public:
  explicit Encoder(const WriteOptions& options) : version_(options.version), debug_info_(options.debug_info) {}

  std::vector<uint8_t> encode(const ir::Module& module);

 private:
  // Tables.
  uint64_t string_index(const std::string& s) {
    auto [it, inserted] = strings_.try_emplace(s, string_list_.size());
    if (inserted) string_list_.push_back(s);
    return it->second;
  }
  uint64_t type_index(const Type& t);
  std::vector<uint8_t> type_entry(const Type& t);
  uint64_t constant_index(const Attribute& dense, const Type& expected_type);
  uint64_t debug_index(std::vector<uint8_t> entry) { return debug_attrs_.intern(std::move(entry)) + 1; }

  // Attributes.
  void write_self_contained(ByteWriter& w, const Attribute& a);
  void write_array_body(ByteWriter& w, const Attribute& a);
  void write_hints_body(ByteWriter& w, const Attribute& hints, bool on_entry);
  void write_ptr_attr_flags(ByteWriter& w, const Type& t);
  void write_ptr_attr_value(ByteWriter& w, const Type& t);
  void write_inline_attr(ByteWriter& w, const ir::Operation& op, const ir::AttrSpec& spec, const Attribute& a);

  // Bodies.
  void encode_function(ByteWriter& out, const ir::Function& f);
  void encode_block(ByteWriter& w, const ir::Block& block, bool count_header);
  void encode_op(ByteWriter& w, const ir::Operation& op);
  uint64_t value_index(const ir::Value* v, const ir::Operation& user);
  void define(const ir::Value* v) {
    values_[v] = next_value_++;
    defined_.push_back(v);
  }

  // Debug info.
  uint64_t location_index(const ir::Location& loc);
  uint64_t subprogram_for(const ir::Function& f, const ir::Location& loc);

  [[noreturn]] void fail(const std::string& what) const {
    throw UserError("cannot write bytecode " + version_.str() + context_ + ": " + what);
  }
  void require_version(Version since, const std::string& what) const {
    if (since > version_) fail(what + " requires bytecode version " + since.str());
  }

  Version version_;
  bool debug_info_;
  std::unordered_map<std::string, uint64_t> strings_;
  std::vector<std::string> string_list_;
  std::unordered_map<Type, uint64_t, ir::TypeHash> type_ids_;
  std::vector<std::vector<uint8_t>> type_list_;
  Interner constants_;
  Interner debug_attrs_;
  std::vector<std::vector<uint64_t>> debug_lists_;

  // State of the function being encoded.
  std::string context_;
  std::vector<uint64_t>* debug_list_ = nullptr;
  uint64_t subprogram_ = 0;
  std::unordered_map<const ir::Value*, uint64_t> values_;
  std::vector<const ir::Value*> defined_;
  uint64_t next_value_ = 0;
  std::unordered_set<const ir::Value*> used_;
  size_t op_counter_ = 0;
};

// ---------------------------------------------------------------------------------------------- types

uint64_t Encoder::type_index(const Type& t) {
  if (t.is_null()) fail("null type");
  if (auto it = type_ids_.find(t); it != type_ids_.end()) return it->second;
  std::vector<uint8_t> entry = type_entry(t);  // interns dependencies first
  const uint64_t id = type_list_.size();
  type_list_.push_back(std::move(entry));
  type_ids_.emplace(t, id);
  return id;
}

// 13.4+: pointer and tensor_view types lead with a flags varint (bit 0: a ptr_attr follows the payload).
void Encoder::write_ptr_attr_flags(ByteWriter& w, const Type& t) {
  const std::optional<ir::PtrAttr> a = t.ptr_attr();
  if (a) require_version(*a == ir::PtrAttr::none ? ir::v13_4 : ir::v13_5, "type " + t.str());
  if (version_ >= ir::v13_4) w.varint(a ? 1 : 0);
}

void Encoder::write_ptr_attr_value(ByteWriter& w, const Type& t) {
  if (const std::optional<ir::PtrAttr> a = t.ptr_attr()) w.varint(static_cast<uint64_t>(*a));
}

std::vector<uint8_t> Encoder::type_entry(const Type& t) {
  ByteWriter w;
  auto tag = [&](TypeTag tg) { w.varint(static_cast<uint64_t>(tg)); };
  auto i32s = [&](const std::vector<int32_t>& v) {
    w.varint(v.size());
    for (int32_t x : v) w.le<int32_t>(x);
  };
  auto i64s = [&](const std::vector<int64_t>& v) {
    w.varint(v.size());
    for (int64_t x : v) w.le<int64_t>(x);
  };
  auto view_flags = [&] {
    require_version(ir::v13_3, "type " + t.str());
    w.varint(t.padding() ? 1 : 0);
  };
  switch (t.kind()) {
    case TypeKind::element: {
      const ir::ElementType e = t.element_type();
      require_version(ir::element_type_since(e), "element type " + std::string(ir::element_type_name(e)));
      tag(element_tag(e));
      break;
    }
    case TypeKind::pointer: {
      const uint64_t pointee = type_index(t.element());
      tag(TypeTag::pointer);
      write_ptr_attr_flags(w, t);
      w.varint(pointee);
      write_ptr_attr_value(w, t);
      break;
    }
    case TypeKind::tile: {
      const uint64_t elem = type_index(t.element());
      tag(TypeTag::tile);
      w.varint(elem);
      i64s(t.shape());
      break;
    }
    case TypeKind::tensor_view: {
      const uint64_t elem = type_index(t.element());
      if (t.shape().size() != t.strides().size())
        fail("tensor_view " + t.str() + " has " + std::to_string(t.shape().size()) + " dims but " +
             std::to_string(t.strides().size()) + " strides");
      tag(TypeTag::tensor_view);
      write_ptr_attr_flags(w, t);
      w.varint(elem);
      i64s(t.shape());
      i64s(t.strides());
      write_ptr_attr_value(w, t);
      break;
    }
    case TypeKind::partition_view: {
      const uint64_t tv = type_index(t.tensor_view());
      tag(TypeTag::partition_view);
      if (version_ >= ir::v13_3) w.varint(t.padding() ? 1 : 0);
      i32s(t.tile_shape());
      w.varint(tv);
      i32s(t.dim_map());
      if (version_ < ir::v13_3) w.byte(t.padding() ? 1 : 0);
      if (t.padding()) w.varint(static_cast<uint64_t>(*t.padding()));
      break;
    }
    case TypeKind::gather_scatter_view: {
      require_version(ir::v13_3, "type " + t.str());
      const uint64_t tv = type_index(t.tensor_view());
      tag(TypeTag::gather_scatter_view);
      view_flags();
      i32s(t.tile_shape());
      w.varint(tv);
      if (t.sparse_dim() < 0) fail("negative sparse_dim in " + t.str());
      w.varint(static_cast<uint64_t>(t.sparse_dim()));
      if (t.padding()) w.varint(static_cast<uint64_t>(*t.padding()));
      break;
    }
    case TypeKind::strided_view: {
      require_version(ir::v13_3, "type " + t.str());
      const uint64_t tv = type_index(t.tensor_view());
      tag(TypeTag::strided_view);
      view_flags();
      i32s(t.tile_shape());
      i32s(t.traversal_strides());
      w.varint(tv);
      i32s(t.dim_map());
      if (t.padding()) w.varint(static_cast<uint64_t>(*t.padding()));
      break;
    }
    case TypeKind::function: {
      std::vector<uint64_t> in, out;
      for (const Type& x : t.inputs()) in.push_back(type_index(x));
      for (const Type& x : t.results()) out.push_back(type_index(x));
      tag(TypeTag::function);
      w.varint(in.size());
      for (uint64_t x : in) w.varint(x);
      w.varint(out.size());
      for (uint64_t x : out) w.varint(x);
      break;
    }
    case TypeKind::token: tag(TypeTag::token); break;
  }
  return std::move(w.bytes());
}

uint64_t Encoder::constant_index(const Attribute& dense, const Type& expected_type) {
  if (dense.kind != AttrKind::dense_elements) fail("expected a dense constant");
  if (dense.type != expected_type)
    fail("dense constant of type " + dense.type.str() + " where " + expected_type.str() + " is expected");
  if (std::string problem = dense_storage_problem(dense.type, dense.raw); !problem.empty()) fail(problem);
  type_index(dense.type);  // the type must exist in the target version even though the entry omits it
  ByteWriter w;
  w.varint(dense.raw.size());
  w.append(dense.raw);
  return constants_.intern(std::move(w.bytes()));
}

// ----------------------------------------------------------------------------------------- attributes

void Encoder::write_self_contained(ByteWriter& w, const Attribute& a) {
  auto tag = [&](AttrTag t) { w.varint(static_cast<uint64_t>(t)); };
  switch (a.kind) {
    case AttrKind::integer: {
      if (!a.type.is(TypeKind::element) || !ir::is_integer(a.type.element_type()))
        fail("integer attribute needs an integer element type, got " + a.type.str());
      const int bits = ir::element_bits(a.type.element_type());
      const int64_t high = bits >= 64 ? 0 : (a.int_value >> bits);
      if (high != 0 && high != -1)
        fail("integer attribute value " + std::to_string(a.int_value) + " does not fit in " + a.type.str());
      tag(AttrTag::integer);
      w.varint(type_index(a.type));
      const uint64_t masked =
          bits >= 64 ? static_cast<uint64_t>(a.int_value) : static_cast<uint64_t>(a.int_value) & ((uint64_t{1} << bits) - 1);
      if (bits == 1)
        w.byte(static_cast<uint8_t>(masked));
      else
        w.varint(masked);
      break;
    }
    case AttrKind::floating: {
      if (!a.type.is(TypeKind::element) || !ir::is_float(a.type.element_type()))
        fail("float attribute needs a float element type, got " + a.type.str());
      tag(AttrTag::floating);
      w.varint(type_index(a.type));
      if (ir::element_bits(a.type.element_type()) <= 8)
        w.byte(static_cast<uint8_t>(a.float_bits));
      else
        w.svarint(static_cast<int64_t>(a.float_bits));
      break;
    }
    case AttrKind::boolean:
      tag(AttrTag::boolean);
      w.byte(a.int_value ? 1 : 0);
      break;
    case AttrKind::type:
      tag(AttrTag::type);
      w.varint(type_index(a.type));
      break;
    case AttrKind::string:
      tag(AttrTag::string);
      w.varint(string_index(a.str));
      break;
    case AttrKind::array:
      tag(AttrTag::array);
      write_array_body(w, a);
      break;
    case AttrKind::dense_elements: {
      const uint64_t t = type_index(a.type);
      const uint64_t c = constant_index(a, a.type);
      tag(AttrTag::dense_elements);
      w.varint(t);
      w.varint(c);
      break;
    }
    case AttrKind::div_by: {
      if (a.int_value <= 0) fail("div_by divisor must be positive, got " + std::to_string(a.int_value));
      if (a.every.has_value() != a.along.has_value()) fail("div_by needs both `every` and `along`, or neither");
      tag(AttrTag::div_by);
      w.varint(static_cast<uint64_t>(a.int_value));
      w.byte(static_cast<uint8_t>((a.every ? 1 : 0) | (a.along ? 2 : 0)));
      if (a.every) w.svarint(*a.every);
      if (a.along) w.svarint(*a.along);
      break;
    }
    case AttrKind::same_elements:
      tag(AttrTag::same_elements);
      w.varint(a.ints.size());
      for (int64_t x : a.ints) w.le<int64_t>(x);
      break;
    case AttrKind::dictionary:
      tag(AttrTag::dictionary);
      w.varint(a.entries.size());
      for (const auto& [key, value] : a.entries) {
        if (key.empty()) fail("dictionary attribute with an empty key");
        w.varint(string_index(key));
        write_self_contained(w, value);
      }
      break;
    case AttrKind::optimization_hints:
      tag(AttrTag::optimization_hints);
      write_hints_body(w, a, false);
      break;
    case AttrKind::bounded:
      tag(AttrTag::bounded);
      w.byte(static_cast<uint8_t>((a.lower ? 1 : 0) | (a.upper ? 2 : 0)));
      if (a.lower) w.svarint(*a.lower);
      if (a.upper) w.svarint(*a.upper);
      break;
    case AttrKind::enum_value:
    case AttrKind::i32_array:
    case AttrKind::i64_array:
    case AttrKind::bool_array:
    case AttrKind::unit: fail("this attribute kind has no self-contained bytecode form");
  }
}

void Encoder::write_array_body(ByteWriter& w, const Attribute& a) {
  w.varint(a.elements.size());
  for (const Attribute& e : a.elements) {
    if (e.kind != AttrKind::integer && e.kind != AttrKind::floating && e.kind != AttrKind::boolean)
      fail("array attribute elements must be integer, float or bool attributes");
    write_self_contained(w, e);
  }
}

void Encoder::write_hints_body(ByteWriter& w, const Attribute& hints, bool on_entry) {
  if (hints.kind != AttrKind::optimization_hints) fail("optimization hints must be an optimization_hints attribute");
  w.varint(hints.entries.size());
  for (const auto& [arch, dict] : hints.entries) {
    if (arch == "default") require_version(ir::v13_3, "the `default` optimization-hints key");
    if (dict.kind != AttrKind::dictionary) fail("optimization hints for " + quoted(arch) + " must be a dictionary");
    for (const auto& [name, value] : dict.entries)
      if (on_entry && name == "num_worker_warps_per_cta") require_version(ir::v13_3, "hint num_worker_warps_per_cta");
    w.varint(string_index(arch));
    write_self_contained(w, dict);
  }
}

void Encoder::write_inline_attr(ByteWriter& w, const ir::Operation& op, const ir::AttrSpec& spec, const Attribute& a) {
  using E = ir::AttrEncoding;
  const std::string name = quoted(spec.name);
  auto expect = [&](AttrKind kind, const char* what) {
    if (a.kind != kind) fail("attribute " + name + " must be " + what);
  };
  switch (spec.encoding) {
    case E::enum_value: {
      expect(AttrKind::enum_value, "an enum value");
      if (a.enum_kind != spec.enum_kind) fail("attribute " + name + " holds a value of the wrong enumeration");
      if (a.int_value < 0 || a.int_value >= ir::enum_size(spec.enum_kind, ir::kNewestVersion))
        fail("attribute " + name + " has out-of-range value " + std::to_string(a.int_value));
      if (a.int_value >= ir::enum_size(spec.enum_kind, version_))
        fail("value " + std::string(ir::enum_keyword(spec.enum_kind, a.int_value)) + " of attribute " + name +
             " requires a newer bytecode version");
      w.varint(static_cast<uint64_t>(a.int_value));
      break;
    }
    case E::integer:
      expect(AttrKind::integer, "an integer");
      if (a.int_value < 0) fail("attribute " + name + " must not be negative, got " + std::to_string(a.int_value));
      w.varint(static_cast<uint64_t>(a.int_value));
      break;
    case E::boolean:
      expect(AttrKind::boolean, "a bool");
      w.byte(a.int_value ? 1 : 0);
      break;
    case E::string:
      expect(AttrKind::string, "a string");
      w.varint(string_index(a.str));
      break;
    case E::i32_array:
      expect(AttrKind::i32_array, "an i32 array");
      w.varint(a.ints.size());
      for (int64_t x : a.ints) {
        if (x < INT32_MIN || x > INT32_MAX) fail("attribute " + name + " element " + std::to_string(x) + " exceeds i32");
        w.le<int32_t>(static_cast<int32_t>(x));
      }
      break;
    case E::i64_array:
      expect(AttrKind::i64_array, "an i64 array");
      w.varint(a.ints.size());
      for (int64_t x : a.ints) w.le<int64_t>(x);
      break;
    case E::bool_array:
      expect(AttrKind::bool_array, "a bool array");
      w.varint(a.bools.size());
      for (bool b : a.bools) w.byte(b ? 1 : 0);
      break;
    case E::constant:
      if (op.num_results() != 1) fail("constant attribute on an op without exactly one result");
      w.varint(constant_index(a, op.result(0)->type()));
      break;
    case E::attribute_array:
      expect(AttrKind::array, "an array");
      write_array_body(w, a);
      break;
    case E::self_contained:
      if (a.kind != AttrKind::div_by && a.kind != AttrKind::same_elements && a.kind != AttrKind::bounded)
        fail("attribute " + name + " must be an assume predicate (div_by, same_elements or bounded)");
      write_self_contained(w, a);
      break;
    case E::hints: write_hints_body(w, a, false); break;
    case E::unit: break;
  }
}

// ------------------------------------------------------------------------------------------ debug info

uint64_t Encoder::subprogram_for(const ir::Function& f, const ir::Location& loc) {
  const auto [name, dir] = split_path(loc.file);
  ByteWriter file;
  file.varint(static_cast<uint64_t>(DebugTag::file));
  file.varint(string_index(name));
  file.varint(string_index(dir));
  const uint64_t file_id = debug_index(std::move(file.bytes()));
  ByteWriter cu;
  cu.varint(static_cast<uint64_t>(DebugTag::compile_unit));
  cu.varint(file_id);
  const uint64_t cu_id = debug_index(std::move(cu.bytes()));
  ByteWriter sp;
  sp.varint(static_cast<uint64_t>(DebugTag::subprogram));
  sp.varint(file_id);
  sp.varint(loc.line);
  sp.varint(string_index(f.name()));
  sp.varint(string_index(f.name()));  // linkage name: tileiras requires it to equal the function name
  sp.varint(cu_id);
  sp.varint(loc.line);
  if (version_ >= ir::v13_5) sp.varint(0);  // 13.5: subprogram flags, none
  return debug_index(std::move(sp.bytes()));
}

uint64_t Encoder::location_index(const ir::Location& loc) {
  if (!loc.known()) return 0;
  ByteWriter w;
  w.varint(static_cast<uint64_t>(DebugTag::loc));
  w.varint(subprogram_);
  w.varint(string_index(loc.file));
  w.varint(loc.line);
  w.varint(loc.column);
  return debug_index(std::move(w.bytes()));
}

// ------------------------------------------------------------------------------------------- bodies

uint64_t Encoder::value_index(const ir::Value* v, const ir::Operation& user) {
  if (v == nullptr) fail("op " + std::string(user.spec().mnemonic) + " has a null operand");
  auto it = values_.find(v);
  if (it == values_.end())
    fail("op " + std::string(user.spec().mnemonic) + " uses a value that is not defined before it in an enclosing scope");
  return it->second;
}

void Encoder::encode_block(ByteWriter& w, const ir::Block& block, bool count_header) {
  const size_t mark = defined_.size();
  const uint64_t saved_next = next_value_;
  if (count_header) {
    w.varint(block.num_arguments());
    for (const auto& arg : block.arguments()) w.varint(type_index(arg->type()));
  }
  for (const auto& arg : block.arguments()) define(arg.get());
  if (count_header) w.varint(block.operations().size());
  for (const auto& op : block.operations()) encode_op(w, *op);
  // Values of a block are out of scope after it: sibling blocks reuse their numbers.
  while (defined_.size() > mark) {
    values_.erase(defined_.back());
    defined_.pop_back();
  }
  next_value_ = saved_next;
}

void Encoder::encode_op(ByteWriter& w, const ir::Operation& op) {
  const ir::OpSpec& spec = op.spec();
  const std::string saved_context = context_;
  const size_t index = op_counter_++;
  context_ = saved_context + ", op #" + std::to_string(index) + " (" + std::string(spec.mnemonic) + ")";
  if (spec.opcode == ir::Opcode::entry || spec.opcode == ir::Opcode::global || spec.opcode == ir::Opcode::module)
    fail("this op is not allowed inside a function body");
  require_version(spec.since, "op " + std::string(spec.mnemonic));
  if (debug_list_) debug_list_->push_back(location_index(op.location()));

  // Results.
  size_t serialized_results = op.num_results();
  if (version_ < spec.results_since) {
    for (const auto& r : op.results())
      if (used_.contains(r.get()))
        fail("the result of " + std::string(spec.mnemonic) + " is used, which requires bytecode version " +
             spec.results_since.str());
    serialized_results = 0;
  } else if (spec.num_results >= 0 && op.num_results() != static_cast<size_t>(spec.num_results)) {
    fail("expected " + std::to_string(spec.num_results) + " results, the op has " + std::to_string(op.num_results()));
  }
  w.varint(static_cast<uint64_t>(spec.opcode));
  if (spec.variadic_results) w.varint(serialized_results);
  for (size_t i = 0; i < serialized_results; ++i) w.varint(type_index(op.result(i)->type()));

  // Operand groups must match the table.
  const auto& groups = op.operand_groups();
  if (groups.size() != spec.operands.size())
    fail("expected " + std::to_string(spec.operands.size()) + " operand groups, the op has " +
         std::to_string(groups.size()));
  for (size_t g = 0; g < groups.size(); ++g) {
    const ir::OperandSpec& os = spec.operands[g];
    if (os.arity == ir::Arity::single && groups[g].size() != 1)
      fail("operand " + quoted(os.name) + " needs exactly one value, got " + std::to_string(groups[g].size()));
    if (os.arity == ir::Arity::optional && groups[g].size() > 1)
      fail("optional operand " + quoted(os.name) + " has " + std::to_string(groups[g].size()) + " values");
    if (!groups[g].empty()) require_version(os.since, "operand " + quoted(os.name));
  }
  for (const ir::NamedAttribute& a : op.attrs())
    if (spec.find_attr(a.name) == nullptr) fail("unknown attribute " + quoted(a.name));

  // Flags.
  if (spec.has_flags(version_)) {
    uint64_t flags = 0;
    for (const ir::AttrSpec& as : spec.attrs) {
      if (!as.optional || !op.has_attr(as.name)) continue;
      require_version(as.since, "attribute " + quoted(as.name));
      flags |= uint64_t{1} << *spec.flag_bit_of_attr(as.name, version_);
    }
    for (size_t g = 0; g < groups.size(); ++g)
      if (!groups[g].empty())
        if (auto bit = spec.flag_bit_of_operand(g, version_)) flags |= uint64_t{1} << *bit;
    w.varint(flags);
  } else {
    for (const ir::AttrSpec& as : spec.attrs)
      if (as.optional && op.has_attr(as.name)) require_version(as.since, "attribute " + quoted(as.name));
  }

  // Attributes, in table order.
  for (const ir::AttrSpec& as : spec.attrs) {
    const Attribute* a = op.attr(as.name);
    if (as.encoding == ir::AttrEncoding::unit) {
      if (a && a->kind != AttrKind::unit) fail("attribute " + quoted(as.name) + " must be a unit attribute");
      continue;
    }
    if (as.since > version_) {
      // A later attribute can only be absent or hold its default.
      const bool is_default =
          !a || (as.encoding == ir::AttrEncoding::bool_array
                     ? std::none_of(a->bools.begin(), a->bools.end(), [](bool b) { return b; })
                     : as.has_default && a->int_value == as.default_value);
      if (!is_default) fail("attribute " + quoted(as.name) + " with a non-default value requires bytecode version " +
                            as.since.str());
      continue;
    }
    if (a) {
      write_inline_attr(w, op, as, *a);
    } else if (as.optional) {
      continue;
    } else if (as.encoding == ir::AttrEncoding::bool_array) {
      // Absent inbounds = all false, one entry per index operand.
      size_t n = 0;
      for (size_t g = 0; g < spec.operands.size(); ++g)
        if (spec.operands[g].name == "index") n = groups[g].size();
      w.varint(n);
      for (size_t i = 0; i < n; ++i) w.byte(0);
    } else if (as.has_default) {
      w.varint(static_cast<uint64_t>(as.default_value));
    } else {
      fail("missing required attribute " + quoted(as.name));
    }
  }

  // Operands.
  if (spec.attr_sized_operands) {
    for (size_t g = 0; g < groups.size(); ++g) {
      if (spec.operands[g].arity == ir::Arity::variadic) w.varint(groups[g].size());
      for (const ir::Value* v : groups[g]) w.varint(value_index(v, op));
    }
  } else {
    if (spec.writes_operand_count()) w.varint(op.num_operands());
    for (const auto& group : groups)
      for (const ir::Value* v : group) w.varint(value_index(v, op));
  }

  // Regions.
  if (static_cast<int>(op.num_regions()) != spec.num_regions)
    fail("expected " + std::to_string(spec.num_regions) + " regions, the op has " + std::to_string(op.num_regions()));
  if (spec.num_regions > 0) {
    w.varint(op.num_regions());
    for (const auto& region : op.regions()) {
      w.varint(region->num_blocks());
      for (const auto& block : region->blocks()) encode_block(w, *block, true);
    }
  }
  context_ = saved_context;
  for (size_t i = 0; i < serialized_results; ++i) define(op.result(i));
}

void collect_uses(const ir::Region& region, std::unordered_set<const ir::Value*>& used) {
  for (const auto& block : region.blocks())
    for (const auto& op : block->operations()) {
      for (const ir::Value* v : op->operands()) used.insert(v);
      for (const auto& r : op->regions()) collect_uses(*r, used);
    }
}

bool any_known_location(const ir::Region& region) {
  for (const auto& block : region.blocks())
    for (const auto& op : block->operations()) {
      if (op->location().known()) return true;
      for (const auto& r : op->regions())
        if (any_known_location(*r)) return true;
    }
  return false;
}

const ir::Location* first_known_location(const ir::Region& region) {
  for (const auto& block : region.blocks())
    for (const auto& op : block->operations()) {
      if (op->location().known()) return &op->location();
      for (const auto& r : op->regions())
        if (const ir::Location* l = first_known_location(*r)) return l;
    }
  return nullptr;
}

void Encoder::encode_function(ByteWriter& out, const ir::Function& f) {
  context_ = " (function " + quoted(f.name()) + ")";
  if (f.name().empty()) fail("function with an empty name");
  if (f.body().num_blocks() != 1) fail("the function body must have exactly one block");
  const uint64_t name = string_index(f.name());
  const uint64_t signature = type_index(f.signature());
  for (const auto& arg : f.entry_block().arguments())
    if (!arg->type().is(TypeKind::tile)) fail("parameter of type " + arg->type().str() + " is not a tile");

  uint8_t flags = kFuncEntry;
  ByteWriter hints;
  const bool has_hints = f.hints() && !f.hints()->entries.empty();
  if (version_ >= ir::v13_5) {
    // 13.5: a kernel always carries its hints (possibly none) and its argument attributes (none: an
    // empty array), with no flags bit for either.
    hints.varint(static_cast<uint64_t>(AttrTag::optimization_hints));
    if (has_hints) write_hints_body(hints, *f.hints(), true);
    else hints.varint(0);
    hints.varint(static_cast<uint64_t>(AttrTag::array));
    hints.varint(0);
  } else if (has_hints) {
    flags |= kFuncHasHints;
    hints.varint(static_cast<uint64_t>(AttrTag::optimization_hints));
    write_hints_body(hints, *f.hints(), true);
  }

  // Debug list: the function's own location, then one entry per op in pre-order.
  uint64_t loc_idx = 0;
  debug_list_ = nullptr;
  if (debug_info_ && (f.location().known() || any_known_location(f.body()))) {
    const ir::Location& floc = f.location().known() ? f.location() : *first_known_location(f.body());
    subprogram_ = subprogram_for(f, floc);
    debug_lists_.emplace_back();
    loc_idx = debug_lists_.size();
    debug_lists_.back().push_back(location_index(floc));
  }

  used_.clear();
  collect_uses(f.body(), used_);
  values_.clear();
  defined_.clear();
  next_value_ = 0;
  op_counter_ = 0;
  if (loc_idx) debug_list_ = &debug_lists_.back();  // stable: no list is added while the body is encoded
  ByteWriter body;
  encode_block(body, f.entry_block(), false);
  debug_list_ = nullptr;

  out.varint(name);
  out.varint(signature);
  out.byte(flags);
  out.varint(loc_idx);
  out.append(hints.bytes());
  out.varint(body.size());
  out.append(body.bytes());
  context_.clear();
}

std::vector<uint8_t> Encoder::encode(const ir::Module& module) {
  if (version_ < ir::kOldestVersion || version_ > ir::kNewestVersion)
    throw UserError("cannot write bytecode version " + version_.str() + ": supported versions are " +
                    ir::kOldestVersion.str() + " to " + ir::kNewestVersion.str());

  ByteWriter globals;
  if (!module.globals().empty()) {
    globals.varint(module.globals().size());
    for (const ir::Global& g : module.globals()) {
      context_ = " (global " + quoted(g.name) + ")";
      if (g.name.empty()) fail("global with an empty name");
      if (!g.type().is(TypeKind::tile) || g.type().rank() != 1) fail("a global's value must be a rank-1 tile");
      if ((g.is_private || g.is_constant) && version_ < ir::v13_3) fail("private or constant globals require 13.3");
      globals.varint(string_index(g.name));
      globals.varint(type_index(g.type()));
      globals.varint(constant_index(g.value, g.type()));
      globals.varint(g.alignment);
      if (version_ >= ir::v13_3) {
        globals.varint(g.is_private ? 1 : 0);
        globals.varint(g.is_constant ? 1 : 0);
      }
    }
    context_.clear();
  }

  ByteWriter funcs;
  funcs.varint(module.functions().size());
  for (const auto& f : module.functions()) encode_function(funcs, *f);
  funcs.pad_to(8);

  std::optional<uint64_t> producer;
  if (module.producer() && version_ >= ir::v13_3) producer = string_index(*module.producer());

  ByteWriter out;
  out.append(kMagic);
  out.byte(version_.major);
  out.byte(version_.minor);
  out.le<uint16_t>(0);
  if (!module.globals().empty()) write_section(out, SectionId::global, globals, 0);
  write_section(out, SectionId::func, funcs, 8);
  if (!constants_.entries().empty())
    write_section(out, SectionId::constant, offset_table<uint64_t>(constants_.entries()), 8);
  if (!debug_lists_.empty()) {
    ByteWriter d;
    d.varint(debug_lists_.size());
    d.pad_to(4);
    uint32_t start = 0;
    for (const auto& list : debug_lists_) {
      d.le<uint32_t>(start);
      start += static_cast<uint32_t>(list.size());
    }
    d.varint(start);
    d.pad_to(8);
    for (const auto& list : debug_lists_)
      for (uint64_t idx : list) d.le<uint64_t>(idx);
    append_offset_table<uint32_t>(d, debug_attrs_.entries());
    write_section(out, SectionId::debug, d, 8);
  }
  std::vector<std::vector<uint8_t>> types = std::move(type_list_);
  write_section(out, SectionId::type, offset_table<uint32_t>(types), 4);
  if (producer) {
    ByteWriter p;
    p.varint(*producer);
    write_section(out, SectionId::producer, p, 0);
  }
  std::vector<std::vector<uint8_t>> strings;
  for (const std::string& s : string_list_) strings.emplace_back(s.begin(), s.end());
  write_section(out, SectionId::string, offset_table<uint32_t>(strings), 4);
  out.byte(static_cast<uint8_t>(SectionId::end));
  return std::move(out.bytes());
}

}  // namespace

std::vector<uint8_t> write_bytecode(const ir::Module& module, const WriteOptions& options) {
  return Encoder(options).encode(module);
}

}  // namespace cutile::bytecode
