// The tracing context: while a kernel body runs on symbolic tiles, every DSL call appends Tile IR ops to
// the entry function being built here. One context per thread, active only inside a trace.
#pragma once

#include <array>
#include <deque>
#include <optional>
#include <source_location>
#include <string_view>
#include <string>

#include "cutile/ir/builder.hpp"
#include "cutile/ir/module.hpp"

namespace cutile::detail {

class TraceContext {
 public:
  TraceContext(ir::Module& module, ir::Function& function);
  ~TraceContext();
  TraceContext(const TraceContext&) = delete;
  TraceContext& operator=(const TraceContext&) = delete;

  /// The active context; a cutile::UserError when a DSL call happens outside a kernel trace.
  static TraceContext& current(const std::source_location& where);

  ir::Module& module() { return module_; }
  ir::Function& function() { return function_; }
  /// The builder, with `where` stamped on the ops it creates from now on.
  ir::Builder& at(const std::source_location& where);
  /// The builder at the location of the last DSL call (for operators, which cannot take a location).
  ir::Builder& builder() { return builder_; }
  /// The function in which the kernel body runs, from the first located DSL call (for the entry name).
  const std::string& kernel_function() const { return kernel_function_; }

  /// This block's grid coordinates; emitted once when first asked for at the top level of the kernel
  /// (values there dominate the whole body), else where asked.
  std::array<ir::Value*, 3> block_ids(const std::source_location& where);

  /// Bodies of loops and branches: while one is traced, outputs cannot be accessed (their token chains
  /// would continue from values of the nested region; threading tokens through regions comes with the
  /// full tile language).
  class NestedRegion {
   public:
    explicit NestedRegion(TraceContext& ctx) : ctx_(ctx) { ++ctx_.nested_regions_; }
    ~NestedRegion() { --ctx_.nested_regions_; }
    NestedRegion(const NestedRegion&) = delete;
    NestedRegion& operator=(const NestedRegion&) = delete;

   private:
    TraceContext& ctx_;
  };
  /// A cutile::UserError at `where` when called inside a loop or branch body.
  void require_top_level(const std::source_location& where, std::string_view what) const;

  /// A new token chain for one alias set (one tensor parameter); lives as long as the trace.
  struct TokenChain {
    ir::Value* last_store = nullptr;  ///< loads wait for it (read after write)
    ir::Value* last_access = nullptr; ///< stores wait for it (write after read or write)
  };
  TokenChain& new_token_chain() { return token_chains_.emplace_back(); }

 private:
  ir::Module& module_;
  ir::Function& function_;
  ir::Builder builder_;
  TraceContext* previous_;
  std::string kernel_function_;
  std::deque<TokenChain> token_chains_;
  std::optional<std::array<ir::Value*, 3>> block_ids_;
  int nested_regions_ = 0;
};

/// Shorthand used by every DSL function: the builder positioned at the caller's location.
inline ir::Builder& trace_at(const std::source_location& where) { return TraceContext::current(where).at(where); }

}  // namespace cutile::detail
