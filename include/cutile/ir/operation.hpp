// SSA values, operations, blocks and regions of a Tile IR function body.
// Ownership is a tree: a Region owns Blocks, a Block owns its arguments and Operations, an Operation
// owns its results and Regions. Operands are non-owning pointers to values that dominate the use.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "cutile/ir/attribute.hpp"
#include "cutile/ir/location.hpp"
#include "cutile/ir/op_table.hpp"
#include "cutile/ir/type.hpp"

namespace cutile::ir {

class Operation;
class Block;
class Region;

class Value {
 public:
  Value(Type type, Operation* defining_op, Block* owner_block, unsigned index)
      : type_(std::move(type)), defining_op_(defining_op), owner_block_(owner_block), index_(index) {}
  const Type& type() const { return type_; }
  /// The op that produced this value; nullptr for block arguments.
  Operation* defining_op() const { return defining_op_; }
  /// The block whose argument this is; nullptr for op results.
  Block* owner_block() const { return owner_block_; }
  /// Result number or argument number.
  unsigned index() const { return index_; }

 private:
  friend class Operation;
  friend class Block;
  /// Erases `values[i]` and renumbers the values after it (an op's results, a block's arguments).
  static void erase_at(std::vector<std::unique_ptr<Value>>& values, size_t i);
  Type type_;
  Operation* defining_op_;
  Block* owner_block_;
  unsigned index_;
};

struct NamedAttribute {
  std::string name;
  Attribute value;
};

class Operation {
 public:
  Operation(Opcode opcode, Location location) : opcode_(opcode), location_(std::move(location)) {}
  Operation(const Operation&) = delete;
  Operation& operator=(const Operation&) = delete;

  Opcode opcode() const { return opcode_; }
  const OpSpec& spec() const { return op_spec(opcode_); }
  const Location& location() const { return location_; }
  void set_location(Location location) { location_ = std::move(location); }
  Block* parent_block() const { return parent_; }

  // Results.
  Value* add_result(Type type);
  size_t num_results() const { return results_.size(); }
  Value* result(size_t i) const { return results_.at(i).get(); }
  const std::vector<std::unique_ptr<Value>>& results() const { return results_; }
  std::vector<Type> result_types() const;
  /// Removes result `i` (which must have no uses); later results move down one place.
  void erase_result(size_t i);

  // Operands, grouped as the op table's operand groups (a single operand is a group of one,
  // an absent optional operand an empty group).
  void add_operand_group(std::vector<Value*> values) { operand_groups_.push_back(std::move(values)); }
  const std::vector<std::vector<Value*>>& operand_groups() const { return operand_groups_; }
  std::vector<std::vector<Value*>>& mutable_operand_groups() { return operand_groups_; }
  /// All operands flattened in group order.
  std::vector<Value*> operands() const;
  Value* operand(size_t i) const { return operands().at(i); }
  size_t num_operands() const;

  // Attributes by name (names as in the op table).
  void set_attr(std::string name, Attribute value);
  const Attribute* attr(std::string_view name) const;
  bool has_attr(std::string_view name) const { return attr(name) != nullptr; }
  void remove_attr(std::string_view name);
  const std::vector<NamedAttribute>& attrs() const { return attrs_; }
  /// An enum attribute's value, or the table's default when absent.
  int64_t enum_attr_or_default(std::string_view name) const;

  // Regions.
  Region& add_region();
  size_t num_regions() const { return regions_.size(); }
  Region& region(size_t i) const { return *regions_.at(i); }
  const std::vector<std::unique_ptr<Region>>& regions() const { return regions_; }

 private:
  friend class Block;
  Opcode opcode_;
  Location location_;
  Block* parent_ = nullptr;
  std::vector<std::unique_ptr<Value>> results_;
  std::vector<std::vector<Value*>> operand_groups_;
  std::vector<NamedAttribute> attrs_;
  std::vector<std::unique_ptr<Region>> regions_;
};

class Block {
 public:
  explicit Block(Region* parent) : parent_(parent) {}
  Block(const Block&) = delete;
  Block& operator=(const Block&) = delete;

  Region* parent_region() const { return parent_; }
  Value* add_argument(Type type);
  size_t num_arguments() const { return arguments_.size(); }
  Value* argument(size_t i) const { return arguments_.at(i).get(); }
  const std::vector<std::unique_ptr<Value>>& arguments() const { return arguments_; }
  std::vector<Type> argument_types() const;
  /// Removes argument `i` (which must have no uses); later arguments move down one place.
  void erase_argument(size_t i);

  /// Appends an op and takes ownership.
  Operation& append(std::unique_ptr<Operation> op);
  /// Removes `op` (whose results must have no uses) and destroys it.
  void erase(const Operation& op);
  const std::vector<std::unique_ptr<Operation>>& operations() const { return operations_; }
  bool empty() const { return operations_.empty(); }
  Operation& back() const { return *operations_.back(); }

 private:
  Region* parent_;
  std::vector<std::unique_ptr<Value>> arguments_;
  std::vector<std::unique_ptr<Operation>> operations_;
};

class Region {
 public:
  explicit Region(Operation* parent) : parent_(parent) {}
  Region(const Region&) = delete;
  Region& operator=(const Region&) = delete;

  /// The op owning this region; nullptr for a function body.
  Operation* parent_op() const { return parent_; }
  Block& add_block();
  size_t num_blocks() const { return blocks_.size(); }
  Block& block(size_t i) const { return *blocks_.at(i); }
  const std::vector<std::unique_ptr<Block>>& blocks() const { return blocks_; }

 private:
  Operation* parent_;
  std::vector<std::unique_ptr<Block>> blocks_;
};

/// The types of `values`, in order.
std::vector<Type> types_of(const std::vector<Value*>& values);

}  // namespace cutile::ir
