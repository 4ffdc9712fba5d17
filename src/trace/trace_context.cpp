#include "cutile/detail/trace_context.hpp"

#include "cutile/error.hpp"

namespace cutile::detail {
namespace {
thread_local TraceContext* active = nullptr;
}  // namespace

TraceContext::TraceContext(ir::Module& module, ir::Function& function)
    : module_(module), function_(function), builder_(function.entry_block()), previous_(active) {
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

void TraceContext::require_top_level(const std::source_location& where, std::string_view what) const {
  if (nested_regions_ == 0) return;
  throw UserError(std::string(where.file_name()) + ":" + std::to_string(where.line()) + ": " + std::string(what) +
                  " inside a cutile::loop, cond or when body is not supported yet: access outputs outside the "
                  "body and carry values through it instead");
}

std::array<ir::Value*, 3> TraceContext::block_ids(const std::source_location& where) {
  if (block_ids_) return *block_ids_;
  ir::Builder& b = at(where);
  std::array<ir::Value*, 3> ids = b.tile_block_id();
  if (&b.block() == &function_.entry_block()) block_ids_ = ids;
  return ids;
}

}  // namespace cutile::detail
