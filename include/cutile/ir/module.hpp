// A Tile IR module: entry functions (kernels) and globals.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cutile/ir/operation.hpp"

namespace cutile::ir {

/// An entry function: a kernel whose parameters are rank-0 tiles (scalars or pointers).
class Function {
 public:
  Function(std::string name, std::vector<Type> parameter_types, Location location = {});
  Function(const Function&) = delete;
  Function& operator=(const Function&) = delete;

  const std::string& name() const { return name_; }
  /// Renames the function (a traced kernel learns its name from its body).
  void set_name(std::string name) { name_ = std::move(name); }
  const Location& location() const { return location_; }
  void set_location(Location location) { location_ = std::move(location); }
  /// function type: parameters -> () (entries return nothing)
  Type signature() const;
  Region& body() { return body_; }
  const Region& body() const { return body_; }
  Block& entry_block() const { return body_.block(0); }
  Value* parameter(size_t i) const { return entry_block().argument(i); }
  size_t num_parameters() const { return entry_block().num_arguments(); }

  /// Optimization hints: an optimization_hints attribute ({arch: {hint: value}}), or nullopt.
  const std::optional<Attribute>& hints() const { return hints_; }
  void set_hints(std::optional<Attribute> hints) { hints_ = std::move(hints); }

 private:
  std::string name_;
  Location location_;
  Region body_;
  std::optional<Attribute> hints_;
};

struct Global {
  std::string name;
  Attribute value;          ///< dense_elements of a rank-1 tile type
  uint64_t alignment = 0;   ///< bytes; 0 = default
  bool is_private = false;  ///< 13.3+
  bool is_constant = false; ///< 13.3+
  Type type() const { return value.type; }
};

class Module {
 public:
  explicit Module(std::string name = "kernels") : name_(std::move(name)) {}
  Module(const Module&) = delete;
  Module& operator=(const Module&) = delete;
  Module(Module&&) = default;
  Module& operator=(Module&&) = default;

  const std::string& name() const { return name_; }
  Function& add_function(std::string name, std::vector<Type> parameter_types, Location location = {});
  const std::vector<std::unique_ptr<Function>>& functions() const { return functions_; }
  Function* find_function(std::string_view name) const;

  void add_global(Global global) { globals_.push_back(std::move(global)); }
  const std::vector<Global>& globals() const { return globals_; }

  const std::optional<std::string>& producer() const { return producer_; }
  void set_producer(std::optional<std::string> producer) { producer_ = std::move(producer); }

 private:
  std::string name_;
  std::vector<std::unique_ptr<Function>> functions_;
  std::vector<Global> globals_;
  std::optional<std::string> producer_;
};

}  // namespace cutile::ir
