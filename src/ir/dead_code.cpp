#include "cutile/ir/dead_code.hpp"

#include <algorithm>
#include <optional>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace cutile::ir {
namespace {

using Users = std::unordered_map<const Value*, std::vector<Operation*>>;  // one entry per operand slot

void collect_users(const Region& region, Users& users) {
  for (const auto& block : region.blocks())
    for (const auto& op : block->operations()) {
      for (Value* v : op->operands()) users[v].push_back(op.get());
      for (const auto& r : op->regions()) collect_users(*r, users);
    }
}

Users users_of(const Function& function) {
  Users users;
  collect_users(function.body(), users);
  return users;
}

bool unused(const Users& users, const Value* v) {
  const auto it = users.find(v);
  return it == users.end() || it->second.empty();
}

bool removable(const Operation& op) { return op.spec().pure && op.num_regions() == 0 && !op.spec().terminator; }

void collect_for_ops(const Region& region, std::vector<Operation*>& out) {
  for (const auto& block : region.blocks())
    for (const auto& op : block->operations()) {
      for (const auto& r : op->regions()) collect_for_ops(*r, out);
      if (op->opcode() == Opcode::for_) out.push_back(op.get());  // inner loops first
    }
}

// The ops of `body` that carry `argument` forward; nullopt when it reaches anything other than pure ops of
// the body's own block and operand `slot` of its continue.
std::optional<std::vector<Operation*>> dead_slice(const Users& users, Block& body, Value* argument, size_t slot) {
  Operation& cont = body.back();
  std::vector<Operation*> slice;
  std::unordered_set<const Operation*> seen;
  std::vector<Value*> work = {argument};
  while (!work.empty()) {
    Value* v = work.back();
    work.pop_back();
    const auto it = users.find(v);
    if (it == users.end()) continue;
    for (Operation* user : it->second) {
      if (user == &cont) {
        const auto& carried = cont.operand_groups().at(0);
        if (std::count(carried.begin(), carried.end(), v) != 1 || carried.at(slot) != v) return std::nullopt;
        continue;
      }
      if (user->parent_block() != &body || !removable(*user)) return std::nullopt;
      if (!seen.insert(user).second) continue;
      slice.push_back(user);
      for (const auto& r : user->results()) work.push_back(r.get());
    }
  }
  return slice;
}

// Removes one dead carry of `loop`; false when it has none.
bool remove_one_carry(const Users& users, Operation& loop) {
  Block& body = loop.region(0).block(0);
  for (size_t i = 0; i < loop.num_results(); ++i) {
    if (!unused(users, loop.result(i))) continue;
    Value* argument = body.argument(i + 1);  // argument 0 is the induction variable
    const auto slice = dead_slice(users, body, argument, i);
    if (!slice) continue;
    // Later ops first: an op of the slice is erased only after the ops that read it.
    for (auto it = body.operations().rbegin(); it != body.operations().rend();) {
      Operation* op = (it++)->get();
      if (std::find(slice->begin(), slice->end(), op) != slice->end()) body.erase(*op);
    }
    auto& carried = body.back().mutable_operand_groups().at(0);
    carried.erase(carried.begin() + static_cast<std::ptrdiff_t>(i));
    auto& init = loop.mutable_operand_groups().at(3);
    init.erase(init.begin() + static_cast<std::ptrdiff_t>(i));
    body.erase_argument(i + 1);
    loop.erase_result(i);
    return true;
  }
  return false;
}

// The pure ops of `region` whose results are all unused, with their blocks.
void collect_unused_ops(const Users& users, const Region& region, std::vector<std::pair<Block*, Operation*>>& out) {
  for (const auto& block : region.blocks())
    for (const auto& op : block->operations()) {
      for (const auto& r : op->regions()) collect_unused_ops(users, *r, out);
      if (removable(*op) && std::all_of(op->results().begin(), op->results().end(),
                                        [&](const auto& r) { return unused(users, r.get()); }))
        out.emplace_back(block.get(), op.get());
    }
}

}  // namespace

void remove_dead_code(Function& function) {
  for (bool changed = true; changed;) {
    changed = false;
    std::vector<Operation*> loops;
    collect_for_ops(function.body(), loops);
    Users users = users_of(function);
    for (Operation* loop : loops)
      while (remove_one_carry(users, *loop)) {
        changed = true;
        users = users_of(function);  // the removal erased ops and their uses
      }
  }
  // Each sweep erases what is unused now; the ops that fed only those are found by the next.
  for (std::vector<std::pair<Block*, Operation*>> dead;; dead.clear()) {
    collect_unused_ops(users_of(function), function.body(), dead);
    if (dead.empty()) break;
    for (const auto& [block, op] : dead) block->erase(*op);
  }
}

}  // namespace cutile::ir
