// The tracing context: while a kernel body runs on symbolic tiles, every DSL call appends Tile IR ops to
// the entry function being built here. One context per thread, active only inside a trace.
#pragma once

#include <array>
#include <deque>
#include <functional>
#include <optional>
#include <source_location>
#include <span>
#include <string>
#include <string_view>

#include "cutile/ir/builder.hpp"
#include "cutile/ir/module.hpp"

namespace cutile::detail {

/// Bits of the grid axes with one block, which a trace may specialise on: y (1 << 1) and z (1 << 2). The x
/// axis never is, so that one kernel serves every grid width (a one-row problem is rare, and a persistent
/// kernel's grid follows the GPU's SM count).
uint32_t single_block_axes(const std::array<int64_t, 3>& grid);

class TraceContext {
 public:
  TraceContext(ir::Module& module, ir::Function& function, uint32_t single_block_axes = 0);
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
  /// (values there dominate the whole body), else where asked. The constant 0 along a single-block axis.
  std::array<ir::Value*, 3> block_ids(const std::source_location& where);

  /// Marks the tracing of a loop or branch body (values made there are local to its region).
  class NestedRegion {
   public:
    explicit NestedRegion(TraceContext& ctx) : ctx_(ctx) { ++ctx_.nested_regions_; }
    ~NestedRegion() { --ctx_.nested_regions_; }
    NestedRegion(const NestedRegion&) = delete;
    NestedRegion& operator=(const NestedRegion&) = delete;

   private:
    TraceContext& ctx_;
  };

  /// The memory-token chain of one alias set (one output tensor), as cuTile Python's token pass keeps it:
  /// loads wait for the last store, stores for the last access. Lives as long as the trace.
  struct TokenChain {
    ir::Value* last_store = nullptr;  ///< null: nothing to wait for yet
    ir::Value* last_access = nullptr;
    uint64_t loads = 0, stores = 0;  ///< accesses so far (how chains_used_by sees what a body touches)
    uint64_t tile_stores = 0;        ///< the stores among them through a for_each_tile TileIndex
    /// Set while a for_each_tile body whose only access to this output is one TileIndex store is traced:
    /// that store waits for `parallel_entry` (the accesses before the loop) instead of the chain.
    bool parallel_tile_store = false;
    ir::Value* parallel_entry = nullptr;
  };
  TokenChain& new_token_chain() { return token_chains_.emplace_back(); }

  /// A chain that a loop or branch body accesses. Its tokens cross the region boundary as loop-carried
  /// values or branch results: both tokens when the body loads, else one (last_access, which then
  /// stands for both — at worst a later load waits for a load as well).
  struct ChainUse {
    TokenChain* chain;
    bool loads;
  };
  /// The chains `trace_once` accesses: it runs with the builder in a scratch block that is thrown away
  /// afterwards, and the chains' tokens are restored.
  std::vector<ChainUse> chains_used_by(const std::function<void()>& trace_once);
  /// The chains' tokens in boundary order, made with make_token where a chain has none yet.
  std::vector<ir::Value*> tokens_of(std::span<const ChainUse> uses, ir::Builder& b);
  /// Sets the chains' tokens from boundary values (block arguments or region results).
  static void set_tokens(std::span<const ChainUse> uses, std::span<ir::Value* const> tokens);
  static size_t token_count(std::span<const ChainUse> uses);

 private:
  ir::Module& module_;
  ir::Function& function_;
  ir::Builder builder_;
  TraceContext* previous_;
  std::string kernel_function_;
  std::deque<TokenChain> token_chains_;
  std::optional<std::array<ir::Value*, 3>> block_ids_;
  uint32_t single_block_axes_;
  int nested_regions_ = 0;
};

/// Builds a loop or branch op whose body may access outputs. `build(uses, operands)` creates the op with
/// `operands` (the user's carried values, then the tokens of the chains in `uses`) and returns its
/// results (the user's `user_results` first, then the tokens). It runs twice: into a scratch block with no
/// chains, to find the chains the body touches, then for real; the chains continue from the op's token
/// results. Returns the user's results.
template <class Build>
std::vector<ir::Value*> with_output_tokens(TraceContext& ctx, ir::Builder& b,
                                           std::vector<ir::Value*> operands, size_t user_results,
                                           Build build) {
  const auto uses = ctx.chains_used_by([&] { build(std::span<const TraceContext::ChainUse>{}, operands); });
  for (ir::Value* token : ctx.tokens_of(uses, b)) operands.push_back(token);
  std::vector<ir::Value*> results = build(std::span<const TraceContext::ChainUse>(uses), std::move(operands));
  TraceContext::set_tokens(uses, std::span<ir::Value* const>(results).subspan(user_results));
  results.resize(user_results);
  return results;
}

/// Shorthand used by every DSL function: the builder positioned at the caller's location.
inline ir::Builder& trace_at(const std::source_location& where) {
  return TraceContext::current(where).at(where);
}

}  // namespace cutile::detail
