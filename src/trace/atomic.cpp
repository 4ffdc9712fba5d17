// The atomic ops of Tile IR: element-wise read-modify-write and compare-and-swap through pointer tiles,
// and whole-tile atomic reductions through a partition view.
#include "cutile/atomic.hpp"

#include "cutile/error.hpp"

namespace cutile::detail {
namespace {

ir::MemoryOrdering ordering_of(memory_order o) {
  switch (o) {
    case memory_order::relaxed: return ir::MemoryOrdering::relaxed;
    case memory_order::acquire: return ir::MemoryOrdering::acquire;
    case memory_order::release: return ir::MemoryOrdering::release;
    case memory_order::acq_rel: return ir::MemoryOrdering::acq_rel;
  }
  return ir::MemoryOrdering::acq_rel;
}

std::vector<ir::NamedAttribute> ordering_and_scope(ir::MemoryOrdering ordering, memory_scope scope) {
  return {{"memory_ordering_semantics", ir::Attribute::enum_of(ir::EnumKind::memory_ordering, ordering)},
          {"memory_scope", ir::Attribute::enum_of(ir::EnumKind::memory_scope, ir_scope(scope))}};
}

std::vector<ir::Value*> optional_group(ir::Value* v) { return v ? std::vector<ir::Value*>{v} : std::vector<ir::Value*>{}; }

}  // namespace

std::pair<ir::Value*, ir::Value*> atomic_rmw(ir::Builder& b, const PointerTile& p, ir::AtomicRmwMode mode,
                                             ir::Value* arg, const AtomicOptions& options, ir::Value* token) {
  std::vector<ir::NamedAttribute> attrs = ordering_and_scope(ordering_of(options.order), options.scope);
  attrs.push_back({"mode", ir::Attribute::enum_of(ir::EnumKind::atomic_mode, mode)});
  ir::Operation& op = b.create(ir::Opcode::atomic_rmw_tko, {arg->type(), ir::Type::token()},
                               {{p.pointers}, {arg}, optional_group(p.mask), optional_group(token)}, std::move(attrs));
  return {op.result(0), op.result(1)};
}

std::pair<ir::Value*, ir::Value*> atomic_cas(ir::Builder& b, const PointerTile& p, ir::Value* expected,
                                             ir::Value* desired, const AtomicOptions& options, ir::Value* token) {
  ir::Operation& op =
      b.create(ir::Opcode::atomic_cas_tko, {desired->type(), ir::Type::token()},
               {{p.pointers}, {expected}, {desired}, optional_group(p.mask), optional_group(token)},
               ordering_and_scope(ordering_of(options.order), options.scope));
  return {op.result(0), op.result(1)};
}

ir::Value* atomic_tile(ir::Builder& b, ir::Value* view, std::vector<ir::Value*> index, ir::Value* value,
                       ir::AtomicRmwMode mode, memory_scope scope, ir::Value* token, const std::source_location& where) {
  if (scope == memory_scope::system)
    throw UserError(std::string(where.file_name()) + ":" + std::to_string(where.line()) +
                    ": a tile-wide atomic reduction has block or device scope, not system scope");
  std::vector<ir::NamedAttribute> attrs = ordering_and_scope(ir::MemoryOrdering::relaxed, scope);
  attrs.push_back({"mode", ir::Attribute::enum_of(ir::EnumKind::atomic_mode, mode)});
  return b
      .create(ir::Opcode::atomic_red_view_tko, {ir::Type::token()},
              {{view}, std::move(index), {value}, optional_group(token)}, std::move(attrs))
      .result(0);
}

}  // namespace cutile::detail
