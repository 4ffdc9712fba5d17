#include "cutile/ir/module.hpp"

namespace cutile::ir {

Function::Function(std::string name, std::vector<Type> parameter_types, Location location)
    : name_(std::move(name)), location_(std::move(location)), body_(nullptr) {
  Block& entry = body_.add_block();
  for (Type& t : parameter_types) entry.add_argument(std::move(t));
}

Type Function::signature() const {
  std::vector<Type> inputs;
  for (const auto& arg : entry_block().arguments()) inputs.push_back(arg->type());
  return Type::function(std::move(inputs), {});
}

Function& Module::add_function(std::string name, std::vector<Type> parameter_types, Location location) {
  functions_.push_back(std::make_unique<Function>(std::move(name), std::move(parameter_types), std::move(location)));
  return *functions_.back();
}

Function* Module::find_function(std::string_view name) const {
  for (const auto& f : functions_)
    if (f->name() == name) return f.get();
  return nullptr;
}

}  // namespace cutile::ir
