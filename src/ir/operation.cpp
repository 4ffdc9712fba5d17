#include "cutile/ir/operation.hpp"

#include <algorithm>

#include "cutile/error.hpp"

namespace cutile::ir {

Value* Operation::add_result(Type type) {
  results_.push_back(std::make_unique<Value>(std::move(type), this, nullptr, static_cast<unsigned>(results_.size())));
  return results_.back().get();
}

void Value::erase_at(std::vector<std::unique_ptr<Value>>& values, size_t i) {
  if (i >= values.size()) throw InternalError("no value " + std::to_string(i) + " to erase");
  values.erase(values.begin() + static_cast<std::ptrdiff_t>(i));
  for (size_t k = i; k < values.size(); ++k) values[k]->index_ = static_cast<unsigned>(k);
}

void Operation::erase_result(size_t i) { Value::erase_at(results_, i); }

void Block::erase_argument(size_t i) { Value::erase_at(arguments_, i); }

void Block::erase(const Operation& op) {
  const auto it = std::find_if(operations_.begin(), operations_.end(), [&](const auto& o) { return o.get() == &op; });
  if (it == operations_.end()) throw InternalError("op " + std::string(op.spec().mnemonic) + " is not in this block");
  operations_.erase(it);
}

std::vector<Value*> Operation::operands() const {
  std::vector<Value*> out;
  for (const auto& group : operand_groups_) out.insert(out.end(), group.begin(), group.end());
  return out;
}

size_t Operation::num_operands() const {
  size_t n = 0;
  for (const auto& group : operand_groups_) n += group.size();
  return n;
}

void Operation::set_attr(std::string name, Attribute value) {
  for (NamedAttribute& a : attrs_)
    if (a.name == name) {
      a.value = std::move(value);
      return;
    }
  attrs_.push_back({std::move(name), std::move(value)});
}

const Attribute* Operation::attr(std::string_view name) const {
  for (const NamedAttribute& a : attrs_)
    if (a.name == name) return &a.value;
  return nullptr;
}

void Operation::remove_attr(std::string_view name) {
  std::erase_if(attrs_, [&](const NamedAttribute& a) { return a.name == name; });
}

int64_t Operation::enum_attr_or_default(std::string_view name) const {
  if (const Attribute* a = attr(name)) return a->int_value;
  const AttrSpec* s = spec().find_attr(name);
  if (s == nullptr) throw InternalError("op " + std::string(spec().mnemonic) + " has no attribute " + std::string(name));
  return s->default_value;
}

Region& Operation::add_region() {
  regions_.push_back(std::make_unique<Region>(this));
  return *regions_.back();
}

Value* Block::add_argument(Type type) {
  arguments_.push_back(std::make_unique<Value>(std::move(type), nullptr, this, static_cast<unsigned>(arguments_.size())));
  return arguments_.back().get();
}

Operation& Block::append(std::unique_ptr<Operation> op) {
  op->parent_ = this;
  operations_.push_back(std::move(op));
  return *operations_.back();
}

Block& Region::add_block() {
  blocks_.push_back(std::make_unique<Block>(this));
  return *blocks_.back();
}

std::vector<Type> Operation::result_types() const {
  std::vector<Type> out;
  for (const auto& r : results_) out.push_back(r->type());
  return out;
}

std::vector<Type> Block::argument_types() const {
  std::vector<Type> out;
  for (const auto& a : arguments_) out.push_back(a->type());
  return out;
}

std::vector<Type> types_of(const std::vector<Value*>& values) {
  std::vector<Type> out;
  for (const Value* v : values) out.push_back(v->type());
  return out;
}

}  // namespace cutile::ir
