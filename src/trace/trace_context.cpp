#include "cutile/detail/trace_context.hpp"

#include "cutile/error.hpp"

namespace cutile::detail {
namespace {
thread_local TraceContext* active = nullptr;
}  // namespace

uint32_t single_block_axes(const std::array<int64_t, 3>& grid) {
  return (grid[1] == 1 ? 1u << 1 : 0u) | (grid[2] == 1 ? 1u << 2 : 0u);
}

TraceContext::TraceContext(ir::Module& module, ir::Function& function, uint32_t single_block_axes)
    : module_(module),
      function_(function),
      builder_(function.entry_block()),
      previous_(active),
      single_block_axes_(single_block_axes) {
  active = this;
}

TraceContext::~TraceContext() { active = previous_; }

TraceContext& TraceContext::current(const std::source_location& where) {
  if (active == nullptr)
    throw UserError(std::string(where.file_name()) + ":" + std::to_string(where.line()) +
                    ": a cutile tile operation was called outside a kernel; tile operations only run while "
                    "cutile::launch traces a kernel body");
  return *active;
}

ir::Builder& TraceContext::at(const std::source_location& where) {
  if (kernel_function_.empty()) kernel_function_ = where.function_name();
  builder_.set_location(ir::Location::from(where));
  return builder_;
}

std::vector<TraceContext::ChainUse> TraceContext::chains_used_by(const std::function<void()>& trace_once) {
  struct Before {
    ir::Value *last_store, *last_access;
    uint64_t loads, stores;
  };
  std::vector<Before> before;
  for (const TokenChain& c : token_chains_) before.push_back({c.last_store, c.last_access, c.loads, c.stores});
  ir::Region scratch(nullptr);
  ir::Block& scratch_block = scratch.add_block();
  ir::Block& block = builder_.block();
  builder_.set_block(scratch_block);
  auto restore = [&] {
    builder_.set_block(block);
    for (size_t i = 0; i < before.size(); ++i) {
      token_chains_[i].last_store = before[i].last_store;
      token_chains_[i].last_access = before[i].last_access;
    }
  };
  try {
    trace_once();
  } catch (...) {
    restore();
    throw;
  }
  restore();
  std::vector<ChainUse> uses;
  for (size_t i = 0; i < before.size(); ++i) {
    TokenChain& c = token_chains_[i];
    if (c.loads != before[i].loads || c.stores != before[i].stores) uses.push_back({&c, c.loads != before[i].loads});
  }
  return uses;
}

std::vector<ir::Value*> TraceContext::tokens_of(std::span<const ChainUse> uses, ir::Builder& b) {
  std::vector<ir::Value*> tokens;
  for (const ChainUse& use : uses) {
    TokenChain& c = *use.chain;
    if (!c.last_access) c.last_access = c.last_store ? c.last_store : b.make_token();
    if (!c.last_store) c.last_store = c.last_access;
    if (use.loads) tokens.push_back(c.last_store);
    tokens.push_back(c.last_access);
  }
  return tokens;
}

void TraceContext::set_tokens(std::span<const ChainUse> uses, std::span<ir::Value* const> tokens) {
  size_t k = 0;
  for (const ChainUse& use : uses) {
    TokenChain& c = *use.chain;
    c.last_store = tokens[k];
    if (use.loads) ++k;
    c.last_access = tokens[k++];
  }
}

size_t TraceContext::token_count(std::span<const ChainUse> uses) {
  size_t n = 0;
  for (const ChainUse& use : uses) n += use.loads ? 2 : 1;
  return n;
}

std::array<ir::Value*, 3> TraceContext::block_ids(const std::source_location& where) {
  if (block_ids_) return *block_ids_;
  ir::Builder& b = at(where);
  std::array<ir::Value*, 3> ids = b.tile_block_id();
  for (size_t axis = 1; axis < 3; ++axis)
    if (single_block_axes_ & (1u << axis)) ids[axis] = b.constant_int(ir::ElementType::i32, 0);
  if (&b.block() == &function_.entry_block()) block_ids_ = ids;
  return ids;
}

}  // namespace cutile::detail
