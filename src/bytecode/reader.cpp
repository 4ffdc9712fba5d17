// Bytecode reader. The container is parsed first (header, then every section's payload located and
// checked); tables are then decoded in dependency order (String, Producer, Type, Constant, Global, Debug,
// Func). Types and debug attributes are decoded lazily by index, with recursion guards. Every count read
// from the input is checked against the bytes that remain before anything is allocated for it.
#include "cutile/bytecode/reader.hpp"

#include <algorithm>
#include <array>
#include <fstream>
#include <iterator>
#include <optional>

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

constexpr int kMaxTypeDepth = 8;        // deepest legal type: function -> tile -> ptr -> element
constexpr int kMaxAttrDepth = 16;       // nested arrays / dictionaries
constexpr int kMaxRegionDepth = 256;    // nested region-bearing ops
constexpr int kMaxCallSiteDepth = 64;   // CallSite chains in debug locations
constexpr int64_t kMaxTileElements = int64_t{1} << 24;

std::string hex(uint64_t v) {
  static constexpr char digits[] = "0123456789ABCDEF";
  std::string out;
  do {
    out.insert(out.begin(), digits[v & 0xF]);
    v >>= 4;
  } while (v != 0);
  if (out.size() < 2) out.insert(out.begin(), '0');
  return "0x" + out;
}

const char* section_name(uint8_t id) {
  static constexpr std::array<const char*, kNumSectionIds> names = {"End", "String", "Func", "Debug",
                                                                    "Constant", "Type", "Global", "Producer"};
  return id < names.size() ? names[id] : "unknown";
}

struct Entry {
  size_t offset = 0;  // absolute file offset of the entry's first byte
  std::span<const uint8_t> data;
};

/// Offset-table layout (§1.4); `origin` is the absolute offset padding is relative to.
template <class Offset>
std::vector<Entry> read_offset_table(ByteReader& r, size_t origin, const char* what) {
  const size_t count_at = r.offset();
  const uint64_t n = r.count(what, sizeof(Offset));
  std::vector<Entry> entries;
  if (n == 0) return entries;
  r.skip_padding(sizeof(Offset), origin, "offset-table padding");
  if (n > r.remaining() / sizeof(Offset))
    ByteReader::fail_at(count_at, std::string(what) + " " + std::to_string(n) + " exceeds the section size");
  std::vector<uint64_t> offsets(n);
  for (uint64_t& o : offsets) o = static_cast<uint64_t>(r.le<Offset>("table offset"));
  const size_t data_at = r.offset();
  const std::span<const uint8_t> data = r.bytes(r.remaining(), "table data");
  entries.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    const uint64_t begin = offsets[i];
    const uint64_t end = i + 1 < n ? offsets[i + 1] : data.size();
    if (begin > end || end > data.size())
      ByteReader::fail_at(data_at, std::string(what) + ": entry " + std::to_string(i) + " spans [" +
                                       std::to_string(begin) + ", " + std::to_string(end) + ") outside the " +
                                       std::to_string(data.size()) + " data bytes");
    entries.push_back({data_at + begin, data.subspan(begin, end - begin)});
  }
  return entries;
}

struct DebugAttr {
  DebugTag tag = DebugTag::unknown;
  std::vector<uint64_t> fields;  // varints in payload order
};

class Decoder {
 public:
  explicit Decoder(std::span<const uint8_t> file) : file_(file) {}
  ReadResult decode();

 private:
  // Container.
  void read_header();
  void read_sections();
  bool has(SectionId id) const { return sections_[static_cast<size_t>(id)].has_value(); }
  ByteReader section(SectionId id) const {
    const Entry& e = *sections_[static_cast<size_t>(id)];
    return ByteReader(e.data, e.offset);
  }

  // Tables.
  const std::string& string_at(ByteReader& r, const char* what);
  Type type_at(ByteReader& r, const char* what, int depth = 0);
  Type type_by_index(uint64_t index, size_t at, int depth);
  Type parse_type(const Entry& entry, uint64_t index, int depth);
  std::span<const uint8_t> constant_at(ByteReader& r);
  Attribute dense_value(const Type& type, std::span<const uint8_t> raw, size_t at);

  // Attributes.
  Attribute read_self_contained(ByteReader& r, int depth, bool in_dictionary);
  Attribute read_array_body(ByteReader& r, int depth);
  Attribute read_hints_body(ByteReader& r, int depth);

  // Debug info.
  void read_debug_section();
  const DebugAttr& debug_attr(uint64_t index, size_t at);
  ir::Location location_of(uint64_t index, size_t at, int depth = 0);
  ir::Location next_location(size_t at);

  // Functions and bodies.
  void read_globals();
  void read_functions();
  void read_block_ops(ByteReader& r, ir::Block& block, std::vector<ir::Value*>& scope, uint64_t count, int depth);
  ir::Operation& read_op(ByteReader& r, ir::Block& block, std::vector<ir::Value*>& scope, int depth);
  Type value_type_at(ByteReader& r, const char* what);

  std::span<const uint8_t> file_;
  Version version_;
  std::array<std::optional<Entry>, kNumSectionIds> sections_;
  std::vector<std::string> strings_;
  std::vector<Entry> type_entries_;
  std::vector<std::optional<Type>> types_;
  std::vector<bool> type_in_progress_;
  std::vector<Entry> constants_;
  std::vector<uint32_t> debug_list_starts_;
  std::vector<uint64_t> debug_indices_;
  std::vector<Entry> debug_entries_;
  std::vector<std::optional<DebugAttr>> debug_attrs_;
  std::unique_ptr<ir::Module> module_;

  // Per function.
  std::string function_name_;
  size_t debug_pos_ = 0, debug_end_ = 0;
  bool debug_active_ = false;
  size_t op_counter_ = 0;
};

// ---------------------------------------------------------------------------------------- container

void Decoder::read_header() {
  if (file_.size() < kHeaderSize)
    ByteReader::fail_at(file_.size(), "truncated header: the file has " + std::to_string(file_.size()) +
                                          " bytes, a header needs " + std::to_string(kHeaderSize));
  for (size_t i = 0; i < kMagic.size(); ++i)
    if (file_[i] != kMagic[i])
      ByteReader::fail_at(i, "bad magic: this is not Tile IR bytecode (expected \\x7FTileIR\\0)");
  const Version v{file_[8], file_[9]};
  if (v.major != 13)
    ByteReader::fail_at(8, "unsupported bytecode major version " + std::to_string(v.major) + " (expected 13)");
  if (v > ir::kNewestVersion)
    throw UserError("bytecode version " + v.str() + " is newer than the newest this reader knows (" +
                    ir::kNewestVersion.str() + ")");
  if (v < ir::kOldestVersion)
    throw UserError("bytecode version " + v.str() + " is older than the oldest this reader knows (" +
                    ir::kOldestVersion.str() + ")");
  const uint16_t tag = static_cast<uint16_t>(file_[10] | (file_[11] << 8));
  if (v >= ir::v13_5 && (tag & 1))
    ByteReader::fail_at(10, "the header marks preview content (13.5 --preview features), which cannot be read");
  if (v >= ir::v13_5 && tag != 0)
    ByteReader::fail_at(10, "the header's tag has unknown bits (" + std::to_string(tag) + ")");
  version_ = v;
}

void Decoder::read_sections() {
  ByteReader r(file_.subspan(kHeaderSize), kHeaderSize);
  while (true) {
    const size_t at = r.offset();
    const uint8_t id_byte = r.byte("section id");
    const uint8_t id = id_byte & 0x7F;
    const bool aligned = (id_byte & kSectionAlignFlag) != 0;
    if (id == static_cast<uint8_t>(SectionId::end)) {
      if (aligned) ByteReader::fail_at(at, "end-of-bytecode marker has the alignment flag set");
      break;
    }
    if (id >= kNumSectionIds) ByteReader::fail_at(at, "unknown section id " + std::to_string(id));
    if (id == static_cast<uint8_t>(SectionId::producer) && version_ < ir::v13_3)
      ByteReader::fail_at(at, "Producer section (id 7) requires bytecode version 13.3, the file is " + version_.str());
    if (sections_[id]) ByteReader::fail_at(at, "duplicate " + std::string(section_name(id)) + " section");
    const uint64_t length = r.varint("section length");
    uint64_t alignment = 1;
    if (aligned) {
      const size_t align_at = r.offset();
      alignment = r.varint("section alignment");
      if (alignment == 0 || (alignment & (alignment - 1)) != 0)
        ByteReader::fail_at(align_at, std::string(section_name(id)) + " section alignment " +
                                          std::to_string(alignment) + " is not a power of two");
    }
    if (const size_t required = required_alignment(static_cast<SectionId>(id)); required != 0) {
      if (!aligned || alignment % required != 0)
        ByteReader::fail_at(at, std::string(section_name(id)) + " section must be aligned to a multiple of " +
                                    std::to_string(required) + " (alignment flag " + (aligned ? "set" : "clear") +
                                    ", alignment " + std::to_string(alignment) + ")");
    }
    if (alignment > 1) r.skip_padding(alignment, 0, "section padding");
    if (length > r.remaining())
      ByteReader::fail_at(at, std::string(section_name(id)) + " section length " + std::to_string(length) +
                                  " exceeds the remaining " + std::to_string(r.remaining()) + " bytes");
    const size_t payload_at = r.offset();
    sections_[id] = Entry{payload_at, r.bytes(length, "section payload")};
  }
  if (!r.at_end())
    r.fail(std::to_string(r.remaining()) + " trailing bytes after the end-of-bytecode marker");
  if (!has(SectionId::string)) throw UserError("malformed bytecode: missing String section");
  if (!has(SectionId::func)) throw UserError("malformed bytecode: missing Func section");
}

// ------------------------------------------------------------------------------------------ tables

const std::string& Decoder::string_at(ByteReader& r, const char* what) {
  const size_t at = r.offset();
  const uint64_t i = r.varint(what);
  if (i >= strings_.size())
    ByteReader::fail_at(at, std::string(what) + ": string index " + std::to_string(i) + " out of range (" +
                                std::to_string(strings_.size()) + " strings)");
  return strings_[i];
}

Type Decoder::type_at(ByteReader& r, const char* what, int depth) {
  const size_t at = r.offset();
  const uint64_t i = r.varint(what);
  return type_by_index(i, at, depth);
}

Type Decoder::type_by_index(uint64_t index, size_t at, int depth) {
  if (index >= types_.size())
    ByteReader::fail_at(at, "type index " + std::to_string(index) + " out of range (" + std::to_string(types_.size()) +
                                " types)");
  if (types_[index]) return *types_[index];
  if (type_in_progress_[index]) ByteReader::fail_at(at, "type " + std::to_string(index) + " refers to itself");
  if (depth > kMaxTypeDepth) ByteReader::fail_at(at, "types nested too deeply");
  type_in_progress_[index] = true;
  Type t = parse_type(type_entries_[index], index, depth + 1);
  type_in_progress_[index] = false;
  types_[index] = t;
  return t;
}

Type Decoder::parse_type(const Entry& entry, uint64_t index, int depth) {
  ByteReader r(entry.data, entry.offset);
  const size_t tag_at = r.offset();
  const uint64_t tag = r.varint("type tag");
  auto fail = [&](const std::string& what) { ByteReader::fail_at(tag_at, "type " + std::to_string(index) + ": " + what); };
  auto need_version = [&](Version since, const std::string& what) {
    if (since > version_) fail(what + " requires bytecode version " + since.str() + ", the file is " + version_.str());
  };
  auto i64s = [&](const char* what) {
    const uint64_t n = r.count(what, 8);
    std::vector<int64_t> v(n);
    for (int64_t& x : v) x = r.le<int64_t>(what);
    return v;
  };
  auto i32s = [&](const char* what) {
    const uint64_t n = r.count(what, 4);
    std::vector<int32_t> v(n);
    for (int32_t& x : v) x = r.le<int32_t>(what);
    return v;
  };
  auto sub_type = [&](const char* what, TypeKind expected) {
    Type t = type_at(r, what, depth);
    if (!t.is(expected)) fail(std::string(what) + " must be a " + (expected == TypeKind::element ? "scalar element" : "tensor_view") + " type, got " + t.str());
    return t;
  };
  auto padding = [&]() -> ir::PaddingValue {
    const size_t at = r.offset();
    const uint64_t p = r.varint("padding value");
    if (p > static_cast<uint64_t>(ir::PaddingValue::neg_inf))
      ByteReader::fail_at(at, "unknown padding value " + std::to_string(p));
    return static_cast<ir::PaddingValue>(p);
  };
  auto flags = [&](uint64_t allowed) {
    const uint64_t f = r.varint("type flags");
    if (f & ~allowed) fail("unknown type flags " + hex(f));
    return f;
  };
  auto ptr_attr = [&]() -> ir::PtrAttr {
    const size_t at = r.offset();
    const uint64_t a = r.varint("ptr_attr");
    if (a > static_cast<uint64_t>(ir::PtrAttr::multicast))
      ByteReader::fail_at(at, "unknown ptr_attr value " + std::to_string(a));
    if (a != 0) need_version(ir::v13_5, "ptr_attr " + std::string(ir::ptr_attr_name(static_cast<ir::PtrAttr>(a))));
    return static_cast<ir::PtrAttr>(a);
  };
  auto check_tile_shape = [&](const std::vector<int32_t>& shape, const Type& tv) {
    if (shape.empty() || static_cast<int64_t>(shape.size()) != tv.rank())
      fail("view tile rank " + std::to_string(shape.size()) + " must be at least 1 and equal the tensor_view rank " +
           std::to_string(tv.rank()));
    for (int32_t d : shape)
      if (d <= 0) fail("view tile dimension " + std::to_string(d) + " is not positive");
  };
  auto check_dim_map = [&](const std::vector<int32_t>& dim_map, size_t rank) {
    std::vector<bool> seen(rank, false);
    if (dim_map.size() != rank) fail("dim_map has " + std::to_string(dim_map.size()) + " entries, expected " + std::to_string(rank));
    for (int32_t d : dim_map) {
      if (d < 0 || static_cast<size_t>(d) >= rank || seen[static_cast<size_t>(d)])
        fail("dim_map is not a permutation of the tensor dimensions");
      seen[static_cast<size_t>(d)] = true;
    }
  };

  Type result;
  if (auto e = element_of_tag(tag)) {
    need_version(ir::element_type_since(*e), "element type " + std::string(ir::element_type_name(*e)));
    result = Type::element(*e);
  } else {
    switch (static_cast<TypeTag>(tag)) {
      case TypeTag::pointer: {
        const uint64_t f = version_ >= ir::v13_4 ? flags(1) : 0;
        Type pointee = sub_type("pointee", TypeKind::element);
        result = Type::pointer(std::move(pointee), f ? std::optional(ptr_attr()) : std::nullopt);
        break;
      }
      case TypeTag::tile: {
        Type elem = type_at(r, "tile element type", depth);
        if (!elem.is(TypeKind::element) && !elem.is(TypeKind::pointer))
          fail("tile element type must be a scalar or pointer type, got " + elem.str());
        std::vector<int64_t> shape = i64s("tile rank");
        int64_t n = 1;
        for (int64_t d : shape) {
          if (d <= 0 || d > kMaxTileElements) fail("tile dimension " + std::to_string(d) + " out of range");
          n *= d;
          if (n > kMaxTileElements) fail("tile has more than 2^24 elements");
        }
        result = Type::tile(std::move(shape), std::move(elem));
        break;
      }
      case TypeTag::tensor_view: {
        const uint64_t f = version_ >= ir::v13_4 ? flags(1) : 0;
        Type elem = sub_type("tensor_view element type", TypeKind::element);
        std::vector<int64_t> shape = i64s("tensor_view rank");
        std::vector<int64_t> strides = i64s("tensor_view stride count");
        if (shape.size() != strides.size()) fail("tensor_view has " + std::to_string(shape.size()) + " dims but " + std::to_string(strides.size()) + " strides");
        for (int64_t d : shape)
          if (d <= 0 && d != ir::kDynamic) fail("tensor_view extent " + std::to_string(d) + " is not positive");
        for (int64_t s : strides)
          if (s <= 0 && s != ir::kDynamic) fail("tensor_view stride " + std::to_string(s) + " is not positive");
        const std::optional<ir::PtrAttr> attr = f ? std::optional(ptr_attr()) : std::nullopt;
        result = Type::tensor_view(std::move(elem), std::move(shape), std::move(strides), attr);
        break;
      }
      case TypeTag::partition_view: {
        const bool unified = version_ >= ir::v13_3;
        const uint64_t f = unified ? flags(1) : 0;
        std::vector<int32_t> tile = i32s("partition_view tile rank");
        Type tv = sub_type("partition_view tensor_view", TypeKind::tensor_view);
        std::vector<int32_t> dim_map = i32s("partition_view dim_map size");
        bool has_padding = (f & 1) != 0;
        if (!unified) {
          const size_t at = r.offset();
          const uint8_t b = r.byte("partition_view padding flag");
          if (b > 1) ByteReader::fail_at(at, "partition_view padding flag must be 0 or 1, got " + std::to_string(b));
          has_padding = b == 1;
        }
        std::optional<ir::PaddingValue> pad;
        if (has_padding) pad = padding();
        check_tile_shape(tile, tv);
        check_dim_map(dim_map, tile.size());
        result = Type::partition_view(std::move(tile), std::move(tv), std::move(dim_map), pad);
        break;
      }
      case TypeTag::gather_scatter_view: {
        need_version(ir::v13_3, "gather_scatter_view");
        const uint64_t f = flags(1);
        std::vector<int32_t> tile = i32s("gather_scatter_view tile rank");
        Type tv = sub_type("gather_scatter_view tensor_view", TypeKind::tensor_view);
        const uint64_t sparse = r.varint("sparse_dim");
        std::optional<ir::PaddingValue> pad;
        if (f & 1) pad = padding();
        check_tile_shape(tile, tv);
        if (sparse >= tile.size()) fail("sparse_dim " + std::to_string(sparse) + " out of range");
        result = Type::gather_scatter_view(std::move(tile), std::move(tv), static_cast<int32_t>(sparse), pad);
        break;
      }
      case TypeTag::strided_view: {
        need_version(ir::v13_3, "strided_view");
        const uint64_t f = flags(1);
        std::vector<int32_t> tile = i32s("strided_view tile rank");
        std::vector<int32_t> strides = i32s("strided_view traversal stride count");
        Type tv = sub_type("strided_view tensor_view", TypeKind::tensor_view);
        std::vector<int32_t> dim_map = i32s("strided_view dim_map size");
        std::optional<ir::PaddingValue> pad;
        if (f & 1) pad = padding();
        check_tile_shape(tile, tv);
        check_dim_map(dim_map, tile.size());
        if (strides.size() != tile.size()) fail("strided_view needs one traversal stride per tile dimension");
        result = Type::strided_view(std::move(tile), std::move(strides), std::move(tv), std::move(dim_map), pad);
        break;
      }
      case TypeTag::function: {
        std::vector<Type> in, out;
        const uint64_t n_in = r.count("function input count", 1);
        for (uint64_t i = 0; i < n_in; ++i) in.push_back(type_at(r, "function input type", depth));
        const uint64_t n_out = r.count("function result count", 1);
        for (uint64_t i = 0; i < n_out; ++i) out.push_back(type_at(r, "function result type", depth));
        result = Type::function(std::move(in), std::move(out));
        break;
      }
      case TypeTag::token: result = Type::token(); break;
      default: fail("unknown type tag " + std::to_string(tag));
    }
  }
  if (!r.at_end()) r.fail("type " + std::to_string(index) + " has " + std::to_string(r.remaining()) + " trailing bytes");
  return result;
}

std::span<const uint8_t> Decoder::constant_at(ByteReader& r) {
  const size_t at = r.offset();
  const uint64_t i = r.varint("constant index");
  if (i >= constants_.size())
    ByteReader::fail_at(at, "constant index " + std::to_string(i) + " out of range (" +
                                std::to_string(constants_.size()) + " constants)");
  ByteReader c(constants_[i].data, constants_[i].offset);
  const uint64_t size = c.varint("constant size");
  if (size != c.remaining())
    c.fail("constant " + std::to_string(i) + " declares " + std::to_string(size) + " bytes but holds " +
           std::to_string(c.remaining()));
  return c.bytes(size, "constant data");
}

Attribute Decoder::dense_value(const Type& type, std::span<const uint8_t> raw, size_t at) {
  if (std::string problem = dense_storage_problem(type, raw); !problem.empty()) ByteReader::fail_at(at, problem);
  return Attribute::dense(type, std::vector<uint8_t>(raw.begin(), raw.end()));
}

// -------------------------------------------------------------------------------------- attributes

Attribute Decoder::read_array_body(ByteReader& r, int depth) {
  const uint64_t n = r.count("array size", 2);
  std::vector<Attribute> elements;
  elements.reserve(n);
  for (uint64_t i = 0; i < n; ++i) {
    const size_t at = r.offset();
    Attribute e = read_self_contained(r, depth + 1, false);
    if (e.kind != AttrKind::integer && e.kind != AttrKind::floating && e.kind != AttrKind::boolean)
      ByteReader::fail_at(at, "array elements must be integer, float or bool attributes");
    elements.push_back(std::move(e));
  }
  return Attribute::array(std::move(elements));
}

Attribute Decoder::read_hints_body(ByteReader& r, int depth) {
  const uint64_t n = r.count("optimization hints size", 2);
  std::vector<std::pair<std::string, Attribute>> per_arch;
  for (uint64_t i = 0; i < n; ++i) {
    std::string arch = string_at(r, "optimization hints architecture key");
    const size_t at = r.offset();
    Attribute dict = read_self_contained(r, depth + 1, false);
    if (dict.kind != AttrKind::dictionary)
      ByteReader::fail_at(at, "optimization hints for '" + arch + "' must be a dictionary");
    per_arch.emplace_back(std::move(arch), std::move(dict));
  }
  return Attribute::optimization_hints(std::move(per_arch));
}

Attribute Decoder::read_self_contained(ByteReader& r, int depth, bool in_dictionary) {
  const size_t at = r.offset();
  if (depth > kMaxAttrDepth) ByteReader::fail_at(at, "attributes nested too deeply");
  const uint64_t tag = r.varint("attribute tag");
  switch (static_cast<AttrTag>(tag)) {
    case AttrTag::integer: {
      const size_t type_at_offset = r.offset();
      Type t = type_at(r, "integer attribute type");
      if (!t.is(TypeKind::element) || !ir::is_integer(t.element_type()))
        ByteReader::fail_at(type_at_offset, "integer attribute type must be an integer type, got " + t.str());
      const int bits = ir::element_bits(t.element_type());
      const size_t value_at = r.offset();
      const uint64_t u = bits == 1 ? r.byte("i1 attribute value") : r.varint("integer attribute value");
      if (bits < 64 && (u >> bits) != 0)
        ByteReader::fail_at(value_at, "integer value " + std::to_string(u) + " does not fit in " + t.str());
      // The C++ writer encodes a dictionary's BoolAttr as an i1 integer.
      if (bits == 1 && in_dictionary) return Attribute::boolean(u != 0);
      // Values are held sign-extended from their width (an i32 -1 reads back as -1); i1 stays 0/1.
      const int64_t v = bits > 1 && bits < 64 && (u >> (bits - 1)) ? static_cast<int64_t>(u | (~uint64_t{0} << bits))
                                                                   : static_cast<int64_t>(u);
      return Attribute::integer(std::move(t), v);
    }
    case AttrTag::floating: {
      const size_t type_at_offset = r.offset();
      Type t = type_at(r, "float attribute type");
      if (!t.is(TypeKind::element) || !ir::is_float(t.element_type()))
        ByteReader::fail_at(type_at_offset, "float attribute type must be a float type, got " + t.str());
      const int bits = ir::element_bits(t.element_type());
      const size_t value_at = r.offset();
      const uint64_t u = bits <= 8 ? r.byte("float attribute value")
                                   : static_cast<uint64_t>(r.svarint("float attribute value"));
      if (bits < 64 && (u >> bits) != 0)
        ByteReader::fail_at(value_at, "float bit pattern does not fit in " + t.str());
      return Attribute::floating_bits(std::move(t), u);
    }
    case AttrTag::boolean: {
      const uint8_t b = r.byte("bool attribute");
      if (b > 1) ByteReader::fail_at(at + 1, "bool attribute must be 0 or 1, got " + std::to_string(b));
      return Attribute::boolean(b == 1);
    }
    case AttrTag::type: return Attribute::type_attr(type_at(r, "type attribute"));
    case AttrTag::string: return Attribute::string(string_at(r, "string attribute"));
    case AttrTag::array: return read_array_body(r, depth);
    case AttrTag::dense_elements: {
      Type t = type_at(r, "dense attribute type");
      const size_t c_at = r.offset();
      return dense_value(t, constant_at(r), c_at);
    }
    case AttrTag::div_by: {
      const uint64_t divisor = r.varint_max("div_by divisor", INT64_MAX);
      if (divisor == 0) ByteReader::fail_at(at, "div_by divisor must be positive");
      const size_t f_at = r.offset();
      const uint8_t f = r.byte("div_by flags");
      if (f > 3) ByteReader::fail_at(f_at, "unknown div_by flags " + std::to_string(f));
      std::optional<int64_t> every, along;
      if (f & 1) every = r.svarint("div_by every");
      if (f & 2) along = r.svarint("div_by along");
      return Attribute::div_by(static_cast<int64_t>(divisor), every, along);
    }
    case AttrTag::same_elements: {
      const uint64_t n = r.count("same_elements size", 8);
      std::vector<int64_t> v(n);
      for (int64_t& x : v) x = r.le<int64_t>("same_elements value");
      return Attribute::same_elements(std::move(v));
    }
    case AttrTag::dictionary: {
      const uint64_t n = r.count("dictionary size", 2);
      std::vector<std::pair<std::string, Attribute>> entries;
      for (uint64_t i = 0; i < n; ++i) {
        const size_t key_at = r.offset();
        std::string key = string_at(r, "dictionary key");
        if (key.empty()) ByteReader::fail_at(key_at, "dictionary key is empty");
        for (const auto& [k, v] : entries)
          if (k == key) ByteReader::fail_at(key_at, "duplicate dictionary key '" + key + "'");
        entries.emplace_back(std::move(key), read_self_contained(r, depth + 1, true));
      }
      return Attribute::dictionary(std::move(entries));
    }
    case AttrTag::optimization_hints: return read_hints_body(r, depth);
    case AttrTag::bounded: {
      const size_t f_at = r.offset();
      const uint8_t f = r.byte("bounded flags");
      if (f > 3) ByteReader::fail_at(f_at, "unknown bounded flags " + std::to_string(f));
      std::optional<int64_t> lower, upper;
      if (f & 1) lower = r.svarint("bounded lower bound");
      if (f & 2) upper = r.svarint("bounded upper bound");
      return Attribute::bounded(lower, upper);
    }
  }
  ByteReader::fail_at(at, "unknown attribute tag " + std::to_string(tag));
}

// -------------------------------------------------------------------------------------- debug info

void Decoder::read_debug_section() {
  if (!has(SectionId::debug)) return;
  ByteReader r = section(SectionId::debug);
  const size_t origin = r.offset();
  const uint64_t lists = r.count("debug list count", 4);
  r.skip_padding(4, origin, "debug padding");
  if (lists > r.remaining() / 4) r.fail("debug list count exceeds the section");
  debug_list_starts_.resize(lists);
  for (uint32_t& s : debug_list_starts_) s = r.le<uint32_t>("debug list start");
  const size_t total_at = r.offset();
  const uint64_t total = r.count("debug index count", 8);
  r.skip_padding(8, origin, "debug padding");
  if (total > r.remaining() / 8) ByteReader::fail_at(total_at, "debug index count exceeds the section");
  debug_indices_.resize(total);
  for (uint64_t& i : debug_indices_) i = r.le<uint64_t>("debug index");
  for (size_t i = 0; i < lists; ++i)
    if (debug_list_starts_[i] > total || (i > 0 && debug_list_starts_[i] < debug_list_starts_[i - 1]))
      ByteReader::fail_at(origin, "debug list " + std::to_string(i) + " starts at " +
                                      std::to_string(debug_list_starts_[i]) + ", outside the " + std::to_string(total) +
                                      " indices or before the previous list");
  debug_entries_ = read_offset_table<uint32_t>(r, origin, "debug attribute count");
  debug_attrs_.resize(debug_entries_.size());
}

const DebugAttr& Decoder::debug_attr(uint64_t index, size_t at) {
  // `index` is 1-based (0 = unknown location), as everywhere in the Debug section.
  if (index == 0 || index > debug_entries_.size())
    ByteReader::fail_at(at, "debug attribute index " + std::to_string(index) + " out of range (" +
                                std::to_string(debug_entries_.size()) + " attributes)");
  std::optional<DebugAttr>& slot = debug_attrs_[index - 1];
  if (slot) return *slot;
  const Entry& e = debug_entries_[index - 1];
  ByteReader r(e.data, e.offset);
  DebugAttr a;
  const uint64_t tag = r.varint("debug attribute tag");
  size_t nfields = 0;
  switch (static_cast<DebugTag>(tag)) {
    case DebugTag::unknown: nfields = 0; break;
    case DebugTag::compile_unit: nfields = 1; break;
    case DebugTag::file: nfields = 2; break;
    case DebugTag::lexical_block: nfields = 4; break;
    case DebugTag::loc: nfields = 4; break;
    case DebugTag::subprogram: nfields = version_ >= ir::v13_5 ? 7 : 6; break;  // 13.5 adds a flags field
    case DebugTag::call_site: nfields = 2; break;
    default: ByteReader::fail_at(e.offset, "unknown debug attribute tag " + std::to_string(tag));
  }
  a.tag = static_cast<DebugTag>(tag);
  for (size_t i = 0; i < nfields; ++i) a.fields.push_back(r.varint("debug attribute field"));
  if (!r.at_end()) r.fail("debug attribute " + std::to_string(index) + " has trailing bytes");
  auto check_string = [&](size_t field) {
    if (a.fields[field] >= strings_.size())
      ByteReader::fail_at(e.offset, "debug attribute " + std::to_string(index) + " refers to string " +
                                        std::to_string(a.fields[field]) + " out of range");
  };
  auto check_u32 = [&](size_t field) {
    if (a.fields[field] > UINT32_MAX)
      ByteReader::fail_at(e.offset, "debug attribute " + std::to_string(index) + " line/column exceeds 32 bits");
  };
  switch (a.tag) {
    case DebugTag::file: check_string(0); check_string(1); break;
    case DebugTag::loc: check_string(1); check_u32(2); check_u32(3); break;
    case DebugTag::subprogram: check_string(2); check_string(3); check_u32(1); break;
    default: break;
  }
  slot = std::move(a);
  return *slot;
}

ir::Location Decoder::location_of(uint64_t index, size_t at, int depth) {
  if (index == 0) return {};
  if (depth > kMaxCallSiteDepth) ByteReader::fail_at(at, "debug call-site chain too deep");
  const DebugAttr& a = debug_attr(index, at);
  switch (a.tag) {
    case DebugTag::unknown: return {};
    case DebugTag::loc: {
      const DebugTag scope = a.fields[0] == 0 ? DebugTag::unknown : debug_attr(a.fields[0], at).tag;
      if (scope != DebugTag::subprogram && scope != DebugTag::lexical_block)
        ByteReader::fail_at(at, "DILoc " + std::to_string(index) + " needs a DISubprogram or DILexicalBlock scope");
      return {strings_[a.fields[1]], static_cast<uint32_t>(a.fields[2]), static_cast<uint32_t>(a.fields[3])};
    }
    case DebugTag::call_site: return location_of(a.fields[0], at, depth + 1);  // the callee's position
    default:
      ByteReader::fail_at(at, "debug attribute " + std::to_string(index) + " (tag " +
                                  std::to_string(static_cast<int>(a.tag)) + ") is not a location");
  }
}

ir::Location Decoder::next_location(size_t at) {
  if (!debug_active_) return {};
  if (debug_pos_ >= debug_end_)
    ByteReader::fail_at(at, "the debug list of function '" + function_name_ + "' has fewer entries than the function has ops");
  return location_of(debug_indices_[debug_pos_++], at);
}

// ------------------------------------------------------------------------------- globals, functions

void Decoder::read_globals() {
  if (!has(SectionId::global)) return;
  ByteReader r = section(SectionId::global);
  const uint64_t n = r.count("global count", 4);
  for (uint64_t i = 0; i < n; ++i) {
    ir::Global g;
    const size_t name_at = r.offset();
    g.name = string_at(r, "global name");
    if (g.name.empty()) ByteReader::fail_at(name_at, "global with an empty name");
    const size_t type_at_offset = r.offset();
    Type t = type_at(r, "global type");
    if (!t.is(TypeKind::tile) || t.rank() != 1)
      ByteReader::fail_at(type_at_offset, "global '" + g.name + "' must have a rank-1 tile type, got " + t.str());
    const size_t c_at = r.offset();
    g.value = dense_value(t, constant_at(r), c_at);
    g.alignment = r.varint("global alignment");
    if (version_ >= ir::v13_3) {
      const size_t v_at = r.offset();
      const uint64_t visibility = r.varint("global visibility");
      if (visibility > 1) ByteReader::fail_at(v_at, "unknown symbol visibility " + std::to_string(visibility));
      const size_t c2_at = r.offset();
      const uint64_t constant = r.varint("global constant flag");
      if (constant > 1) ByteReader::fail_at(c2_at, "global constant flag must be 0 or 1");
      g.is_private = visibility == 1;
      g.is_constant = constant == 1;
    }
    module_->add_global(std::move(g));
  }
  if (!r.at_end()) r.fail("trailing bytes in the Global section");
}

Type Decoder::value_type_at(ByteReader& r, const char* what) {
  const size_t at = r.offset();
  Type t = type_at(r, what);
  switch (t.kind()) {
    case TypeKind::tile:
    case TypeKind::token:
    case TypeKind::tensor_view:
    case TypeKind::partition_view:
    case TypeKind::gather_scatter_view:
    case TypeKind::strided_view: return t;
    default: ByteReader::fail_at(at, std::string(what) + " " + t.str() + " is not a value type");
  }
}

void Decoder::read_block_ops(ByteReader& r, ir::Block& block, std::vector<ir::Value*>& scope, uint64_t count,
                             int depth) {
  const size_t start = r.offset();
  const bool implicit = count == UINT64_MAX;  // function body: ops until the bytes run out
  for (uint64_t i = 0; implicit ? !r.at_end() : i < count; ++i) {
    if (!block.empty() && block.back().spec().terminator)
      r.fail("op after the terminator " + std::string(block.back().spec().mnemonic) + " of its block");
    read_op(r, block, scope, depth);
  }
  if (block.empty() || !block.back().spec().terminator)
    ByteReader::fail_at(start, "block does not end with a terminator (return, yield, continue or break)");
}

ir::Operation& Decoder::read_op(ByteReader& r, ir::Block& block, std::vector<ir::Value*>& scope, int depth) {
  const size_t at = r.offset();
  const size_t index = op_counter_++;
  const ir::Location loc = next_location(at);
  const uint64_t opcode = r.varint("opcode");
  const ir::OpSpec* spec = opcode <= 0xFF ? ir::find_op(static_cast<uint8_t>(opcode)) : nullptr;
  auto fail_op = [&](size_t where, const std::string& what) {
    ByteReader::fail_at(where, "function '" + function_name_ + "', op #" + std::to_string(index) +
                                   (spec ? " (" + std::string(spec->mnemonic) + ")" : std::string()) + ": " + what);
  };
  if (spec == nullptr) fail_op(at, "unknown opcode " + hex(opcode));
  if (spec->since > version_)
    fail_op(at, "opcode requires bytecode version " + spec->since.str() + ", the file is " + version_.str());
  if (spec->opcode == ir::Opcode::entry || spec->opcode == ir::Opcode::global || spec->opcode == ir::Opcode::module)
    fail_op(at, "this op cannot appear in a function body");

  auto op = std::make_unique<ir::Operation>(spec->opcode, loc);
  // Results.
  const bool has_results = version_ >= spec->results_since;
  uint64_t n_results = has_results && spec->num_results > 0 ? static_cast<uint64_t>(spec->num_results) : 0;
  if (spec->variadic_results) {
    const size_t n_at = r.offset();
    n_results = r.count("result count", 1);
    const uint64_t expected = has_results ? static_cast<uint64_t>(spec->num_results) : 0;
    if (spec->num_results >= 0 && n_results != expected)
      fail_op(n_at, "expected " + std::to_string(expected) + " results, found " + std::to_string(n_results));
  }
  for (uint64_t i = 0; i < n_results; ++i) op->add_result(value_type_at(r, "result type"));
  if (!has_results)  // 13.1 print: the token result exists in the model but has no value index
    for (int i = 0; i < spec->num_results; ++i) op->add_result(Type::token());

  // Flags.
  uint64_t flags = 0;
  if (spec->has_flags(version_)) {
    const size_t f_at = r.offset();
    flags = r.varint("op flags");
    uint64_t known = 0;
    for (const ir::AttrSpec& a : spec->attrs)
      if (auto bit = spec->flag_bit_of_attr(a.name, version_)) known |= uint64_t{1} << *bit;
    for (size_t g = 0; g < spec->operands.size(); ++g)
      if (auto bit = spec->flag_bit_of_operand(g, version_)) known |= uint64_t{1} << *bit;
    if (flags & ~known) fail_op(f_at, "unknown op flags " + hex(flags & ~known));
  }
  auto flag_set = [&](std::optional<int> bit) { return bit && (flags >> *bit) & 1; };

  // Attributes.
  for (const ir::AttrSpec& as : spec->attrs) {
    if (as.since > version_) continue;
    const std::string name(as.name);
    if (as.optional && !flag_set(spec->flag_bit_of_attr(as.name, version_))) continue;
    const size_t a_at = r.offset();
    using E = ir::AttrEncoding;
    switch (as.encoding) {
      case E::unit: op->set_attr(name, Attribute::unit()); break;
      case E::enum_value: {
        const uint64_t v = r.varint("enum attribute");
        if (v >= static_cast<uint64_t>(ir::enum_size(as.enum_kind, version_)))
          fail_op(a_at, "unknown value " + std::to_string(v) + " of enum attribute '" + name + "'");
        op->set_attr(name, Attribute::enum_attr(as.enum_kind, static_cast<int64_t>(v)));
        break;
      }
      case E::integer: {
        const int64_t v = static_cast<int64_t>(r.varint_max("integer attribute", INT64_MAX));
        const bool is_i32 = spec->opcode == ir::Opcode::reduce || spec->opcode == ir::Opcode::scan;
        if (is_i32 && v > INT32_MAX) fail_op(a_at, "attribute '" + name + "' exceeds i32");
        op->set_attr(name, is_i32 ? Attribute::i32(v) : Attribute::i64(v));
        break;
      }
      case E::boolean: {
        const uint8_t b = r.byte("bool attribute");
        if (b > 1) fail_op(a_at, "bool attribute '" + name + "' must be 0 or 1, got " + std::to_string(b));
        op->set_attr(name, Attribute::boolean(b == 1));
        break;
      }
      case E::string: op->set_attr(name, Attribute::string(string_at(r, "string attribute"))); break;
      case E::i32_array: {
        const uint64_t n = r.count("i32 array size", 4);
        std::vector<int64_t> v(n);
        for (int64_t& x : v) x = r.le<int32_t>("i32 array element");
        op->set_attr(name, Attribute::i32_array(std::move(v)));
        break;
      }
      case E::i64_array: {
        const uint64_t n = r.count("i64 array size", 8);
        std::vector<int64_t> v(n);
        for (int64_t& x : v) x = r.le<int64_t>("i64 array element");
        op->set_attr(name, Attribute::i64_array(std::move(v)));
        break;
      }
      case E::bool_array: {
        const uint64_t n = r.count("bool array size", 1);
        std::vector<bool> v;
        v.reserve(n);
        for (uint64_t i = 0; i < n; ++i) {
          const size_t b_at = r.offset();
          const uint8_t b = r.byte("bool array element");
          if (b > 1) fail_op(b_at, "bool array element must be 0 or 1, got " + std::to_string(b));
          v.push_back(b == 1);
        }
        op->set_attr(name, Attribute::bool_array(std::move(v)));
        break;
      }
      case E::constant: {
        if (op->num_results() != 1) fail_op(a_at, "a constant attribute needs exactly one result");
        op->set_attr(name, dense_value(op->result(0)->type(), constant_at(r), a_at));
        break;
      }
      case E::attribute_array: op->set_attr(name, read_array_body(r, 0)); break;
      case E::self_contained: {
        Attribute a = read_self_contained(r, 0, false);
        if (a.kind != AttrKind::div_by && a.kind != AttrKind::same_elements && a.kind != AttrKind::bounded)
          fail_op(a_at, "attribute '" + name + "' must be an assume predicate (div_by, same_elements or bounded)");
        op->set_attr(name, std::move(a));
        break;
      }
      case E::hints: op->set_attr(name, read_hints_body(r, 0)); break;
    }
  }

  // Operands.
  auto operand = [&]() -> ir::Value* {
    const size_t o_at = r.offset();
    const uint64_t i = r.varint("operand index");
    if (i >= scope.size())
      fail_op(o_at, "operand index " + std::to_string(i) + " out of range (" + std::to_string(scope.size()) +
                        " values in scope)");
    return scope[i];
  };
  const auto& groups = spec->operands;
  if (spec->attr_sized_operands) {
    for (size_t g = 0; g < groups.size(); ++g) {
      std::vector<ir::Value*> values;
      switch (groups[g].arity) {
        case ir::Arity::single: values.push_back(operand()); break;
        case ir::Arity::variadic: {
          const uint64_t n = r.count("operand count", 1);
          for (uint64_t i = 0; i < n; ++i) values.push_back(operand());
          break;
        }
        case ir::Arity::optional:
          if (flag_set(spec->flag_bit_of_operand(g, version_))) values.push_back(operand());
          break;
      }
      op->add_operand_group(std::move(values));
    }
  } else if (spec->writes_operand_count()) {
    const size_t n_at = r.offset();
    const uint64_t total = r.count("operand count", 1);
    uint64_t singles = 0;
    for (const ir::OperandSpec& os : groups) singles += os.arity == ir::Arity::single ? 1 : 0;
    if (total < singles) fail_op(n_at, "expected at least " + std::to_string(singles) + " operands, found " + std::to_string(total));
    const uint64_t rest = total - singles;  // taken by the op's one variadic or optional group
    for (const ir::OperandSpec& os : groups) {
      if (os.arity == ir::Arity::optional && rest > 1)
        fail_op(n_at, "optional operand '" + std::string(os.name) + "' given " + std::to_string(rest) + " values");
      const uint64_t n = os.arity == ir::Arity::single ? 1 : rest;
      std::vector<ir::Value*> values;
      for (uint64_t i = 0; i < n; ++i) values.push_back(operand());
      op->add_operand_group(std::move(values));
    }
  } else {
    for (size_t g = 0; g < groups.size(); ++g) op->add_operand_group({operand()});
  }
  // inbounds: one entry per index; all false is the same as absent.
  if (const Attribute* ib = op->attr("inbounds")) {
    size_t n_index = 0;
    for (size_t g = 0; g < groups.size(); ++g)
      if (groups[g].name == "index") n_index = op->operand_groups()[g].size();
    if (ib->bools.size() != n_index)
      fail_op(at, "inbounds has " + std::to_string(ib->bools.size()) + " entries for " + std::to_string(n_index) +
                      " indices");
    if (std::none_of(ib->bools.begin(), ib->bools.end(), [](bool b) { return b; })) op->remove_attr("inbounds");
  }

  // Regions.
  if (spec->num_regions > 0) {
    if (depth >= kMaxRegionDepth) fail_op(at, "regions nested too deeply");
    const size_t n_at = r.offset();
    const uint64_t n_regions = r.varint("region count");
    if (n_regions != static_cast<uint64_t>(spec->num_regions))
      fail_op(n_at, "expected " + std::to_string(spec->num_regions) + " regions, found " + std::to_string(n_regions));
    for (uint64_t ri = 0; ri < n_regions; ++ri) {
      ir::Region& region = op->add_region();
      const uint64_t n_blocks = r.count("block count", 2);
      for (uint64_t bi = 0; bi < n_blocks; ++bi) {
        ir::Block& b = region.add_block();
        const size_t mark = scope.size();
        const uint64_t n_args = r.count("block argument count", 1);
        for (uint64_t i = 0; i < n_args; ++i) scope.push_back(b.add_argument(value_type_at(r, "block argument type")));
        const size_t ops_at = r.offset();
        const uint64_t n_ops = r.count("block op count", 2);
        if (n_ops == 0) fail_op(ops_at, "empty block: a block must end with a terminator");
        read_block_ops(r, b, scope, n_ops, depth + 1);
        scope.resize(mark);  // values of a block are out of scope after it
      }
    }
  }

  ir::Operation& placed = block.append(std::move(op));
  if (has_results)
    for (const auto& result : placed.results()) scope.push_back(result.get());
  return placed;
}

void Decoder::read_functions() {
  ByteReader r = section(SectionId::func);
  const uint64_t n = r.count("function count", 5);
  for (uint64_t fi = 0; fi < n; ++fi) {
    const size_t f_at = r.offset();
    function_name_ = string_at(r, "function name");
    if (function_name_.empty()) ByteReader::fail_at(f_at, "function with an empty name");
    const size_t sig_at = r.offset();
    const Type sig = type_at(r, "function signature");
    if (!sig.is(TypeKind::function) || !sig.results().empty())
      ByteReader::fail_at(sig_at, "function '" + function_name_ + "' needs a signature without results, got " + sig.str());
    for (const Type& p : sig.inputs())
      if (!p.is(TypeKind::tile))
        ByteReader::fail_at(sig_at, "function '" + function_name_ + "' has a non-tile parameter " + p.str());
    const size_t flags_at = r.offset();
    const uint8_t flags = r.byte("function flags");
    const bool form_13_5 = version_ >= ir::v13_5;
    if (form_13_5 && (flags & kFuncFormMask13_5) == kFuncExternImpl13_5)
      ByteReader::fail_at(flags_at, "function '" + function_name_ +
                                        "' is an extern implementation (13.5 SIMT preview), which cannot be read");
    if (!(flags & kFuncEntry))
      ByteReader::fail_at(flags_at, "function '" + function_name_ + "' is not an entry (flags " + std::to_string(flags) +
                                        "): only entry functions can be read");
    if (flags & ~(form_13_5 ? kFuncEntry : (kFuncEntry | kFuncHasHints)))
      ByteReader::fail_at(flags_at, "function '" + function_name_ + "' has unsupported flags " + std::to_string(flags));
    const size_t loc_at = r.offset();
    const uint64_t loc_idx = r.varint("function location index");
    std::optional<Attribute> hints;
    if (form_13_5 || (flags & kFuncHasHints)) {
      const size_t h_at = r.offset();
      Attribute h = read_self_contained(r, 0, false);
      if (h.kind != AttrKind::optimization_hints)
        ByteReader::fail_at(h_at, "function '" + function_name_ + "' hints must be an OptimizationHints attribute");
      if (!form_13_5 || !h.entries.empty()) hints = std::move(h);
    }
    if (form_13_5) {
      // Argument attributes: an array with one dictionary per parameter, or empty. cutile keeps none, so
      // only empty dictionaries are accepted.
      const size_t a_at = r.offset();
      const Attribute args = read_self_contained(r, 0, false);
      const bool empty_dicts =
          args.kind == AttrKind::array &&
          (args.elements.empty() || args.elements.size() == sig.inputs().size()) &&
          std::all_of(args.elements.begin(), args.elements.end(),
                      [](const Attribute& d) { return d.kind == AttrKind::dictionary && d.entries.empty(); });
      if (!empty_dicts)
        ByteReader::fail_at(a_at, "function '" + function_name_ +
                                      "' argument attributes must be an array of empty dictionaries, one per parameter");
    }
    const uint64_t body_len = r.varint("function body length");
    if (body_len > r.remaining())
      r.fail("function '" + function_name_ + "' body length " + std::to_string(body_len) + " exceeds the remaining " +
             std::to_string(r.remaining()) + " bytes");
    ByteReader body = r.sub(body_len, "function body");

    debug_active_ = loc_idx != 0;
    if (debug_active_) {
      if (loc_idx > debug_list_starts_.size())
        ByteReader::fail_at(loc_at, "function '" + function_name_ + "' location index " + std::to_string(loc_idx) +
                                        " out of range (" + std::to_string(debug_list_starts_.size()) + " debug lists)");
      debug_pos_ = debug_list_starts_[loc_idx - 1];
      debug_end_ = loc_idx < debug_list_starts_.size() ? debug_list_starts_[loc_idx] : debug_indices_.size();
    }
    op_counter_ = 0;
    ir::Location floc = next_location(loc_at);
    ir::Function& f = module_->add_function(function_name_, sig.inputs(), std::move(floc));
    f.set_hints(std::move(hints));
    std::vector<ir::Value*> scope;
    for (const auto& arg : f.entry_block().arguments()) scope.push_back(arg.get());
    if (body.at_end()) body.fail("function '" + function_name_ + "' has an empty body; it must end with return");
    read_block_ops(body, f.entry_block(), scope, UINT64_MAX, 0);
  }
  // The C++ writer pads the section to 8 bytes with 0xCB.
  while (!r.at_end()) {
    if (r.byte("Func section padding") != 0xCB) r.fail("unexpected bytes after the last function");
  }
}

ReadResult Decoder::decode() {
  read_header();
  read_sections();
  module_ = std::make_unique<ir::Module>();
  {
    ByteReader r = section(SectionId::string);
    for (const Entry& e : read_offset_table<uint32_t>(r, r.offset(), "string count"))
      strings_.emplace_back(e.data.begin(), e.data.end());
  }
  if (has(SectionId::producer)) {
    ByteReader r = section(SectionId::producer);
    module_->set_producer(string_at(r, "producer string"));
    if (!r.at_end()) r.fail("trailing bytes in the Producer section");
  }
  if (has(SectionId::type)) {
    ByteReader r = section(SectionId::type);
    type_entries_ = read_offset_table<uint32_t>(r, r.offset(), "type count");
    types_.resize(type_entries_.size());
    type_in_progress_.resize(type_entries_.size());
  }
  if (has(SectionId::constant)) {
    ByteReader r = section(SectionId::constant);
    constants_ = read_offset_table<uint64_t>(r, r.offset(), "constant count");
  }
  read_globals();
  read_debug_section();
  read_functions();
  return {std::move(module_), version_};
}

}  // namespace

ReadResult read_bytecode(std::span<const uint8_t> bytes) { return Decoder(bytes).decode(); }

ReadResult read_bytecode_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw RuntimeError("cannot open bytecode file " + path.string());
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) throw RuntimeError("cannot read bytecode file " + path.string());
  try {
    return read_bytecode(bytes);
  } catch (const UserError& e) {
    throw UserError(path.string() + ": " + e.message());
  }
}

}  // namespace cutile::bytecode
