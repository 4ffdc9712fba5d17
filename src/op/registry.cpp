#include "cutile/op/registry.hpp"

#include <algorithm>
#include <mutex>

#include "compiled.hpp"

namespace cutile::op {
namespace {

struct Registry {
  std::mutex mutex;
  std::vector<const OpSpec*> ops;
  bool sorted = false;
};

// Constructed on first use: registrations run during static initialisation, in no fixed order.
Registry& registry() {
  static Registry r;
  return r;
}

}  // namespace

Registration::Registration(const OpSpec& spec) {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  r.ops.push_back(&spec);
  r.sorted = false;
}

std::span<const OpSpec* const> registered_ops() {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  if (!r.sorted) {
    std::sort(r.ops.begin(), r.ops.end(), [](const OpSpec* a, const OpSpec* b) { return a->name < b->name; });
    r.sorted = true;
  }
  return r.ops;
}

const OpSpec* find_op(std::string_view name) {
  const auto ops = registered_ops();
  const auto it = std::lower_bound(ops.begin(), ops.end(), name, [](const OpSpec* op, std::string_view n) { return op->name < n; });
  return it != ops.end() && (*it)->name == name ? *it : nullptr;
}

std::vector<std::string> problems(const OpSpec& spec) {
  std::vector<std::string> found = detail::compiled(spec).problems;
  const auto ops = registered_ops();
  if (std::count_if(ops.begin(), ops.end(), [&](const OpSpec* op) { return op->name == spec.name; }) > 1)
    found.push_back(std::string(spec.name) + ": two ops have this name");
  if (!spec.backward.empty() && !find_op(spec.backward))
    found.push_back(std::string(spec.name) + ": the backward " + std::string(spec.backward) + " is no registered op");
  return found;
}

ScalarSpec choice(std::string_view name, const ChoiceSet& set, std::string_view default_value) {
  const auto it = std::find(set.values.begin(), set.values.end(), default_value);
  ScalarSpec s{name, ScalarType::choice, std::nullopt};
  s.choices = &set;
  if (it != set.values.end()) s.default_value = static_cast<double>(it - set.values.begin());
  return s;
}

}  // namespace cutile::op
