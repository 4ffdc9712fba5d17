// The grid driver: checks the call, prepares the function once, then runs tile blocks on a pool of
// threads. Blocks are claimed in block order (x fastest, then y, then z); after a fault no later block
// starts, and the fault reported is the first in block order. Output printed by blocks is flushed in
// block order once all blocks are done.
#include "cutile/interp/run.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <iostream>
#include <limits>
#include <map>
#include <mutex>
#include <thread>

#include "cutile/error.hpp"
#include "cutile/ir/verifier.hpp"
#include "interp/executor.hpp"
#include "interp/numeric.hpp"
#include "interp/plan.hpp"

namespace cutile::interp {
namespace {

const ir::Function& find_entry(const ir::Module& module, std::string_view entry) {
  if (const ir::Function* f = module.find_function(entry)) return *f;
  std::string names;
  for (const auto& f : module.functions()) names += (names.empty() ? "" : ", ") + f->name();
  throw UserError("the module has no entry '" + std::string(entry) + "' (entries: " + (names.empty() ? "none" : names) + ")");
}

// A module verifies when some bytecode version accepts it (ops and attributes differ between versions).
void verify(const ir::Module& module) {
  std::vector<ir::Diagnostic> newest;
  for (ir::Version v : {ir::kNewestVersion, ir::v13_3, ir::v13_2, ir::kOldestVersion}) {
    std::vector<ir::Diagnostic> problems = ir::check_module(module, v);
    if (problems.empty()) return;
    if (newest.empty()) newest = std::move(problems);
  }
  std::string text = "the CPU interpreter needs a valid module:";
  for (const ir::Diagnostic& d : newest) text += "\n  " + d.str();
  throw UserError(text);
}

RtValue parameter_value(const ir::Type& type, uint64_t bits) {
  Array a = make_array(type);
  if (a.pointer)
    a.i[0] = bits;
  else if (a.is_float())
    a.f[0] = float_value(a.element, bits & bit_mask(8 * storage_bytes(a.element)));
  else
    a.i[0] = bits & bit_mask(ir::element_bits(a.element));
  return a;
}

// Globals live in buffers of their own for the duration of a run.
struct Globals {
  std::vector<std::vector<uint8_t>> buffers;
  std::vector<MemoryRegion> regions;
  std::map<std::string, uint64_t, std::less<>> addresses;
};

Globals make_globals(const ir::Module& module) {
  Globals g;
  for (const ir::Global& global : module.globals()) {
    const ir::Type& t = global.type();
    const ir::ElementType e = t.element().element_type();
    const size_t n = static_cast<size_t>(t.num_elements());
    const size_t width = static_cast<size_t>(storage_bytes(e));
    std::vector<uint8_t>& buffer = g.buffers.emplace_back(n * width + 1);
    const std::vector<uint8_t>& raw = global.value.raw;
    const size_t stored = e == ir::ElementType::i1 ? 0 : raw.size() / width;
    for (size_t k = 0; k < n; ++k) {
      if (e == ir::ElementType::i1)
        buffer[k] = raw.size() == 1 ? (raw[0] & 1) : (raw[k / 8] >> (k % 8)) & 1;
      else
        std::copy_n(raw.begin() + static_cast<std::ptrdiff_t>((stored == 1 ? 0 : k) * width), width,
                    buffer.begin() + static_cast<std::ptrdiff_t>(k * width));
    }
    const uint64_t address = reinterpret_cast<uint64_t>(buffer.data());
    g.regions.push_back({address, static_cast<int64_t>(n * width), "global @" + global.name, !global.is_constant, {}});
    g.addresses.emplace(global.name, address);
  }
  return g;
}

}  // namespace

void run(const ir::Module& module, std::string_view entry, std::span<const uint64_t> params,
         std::array<int64_t, 3> grid, std::span<const MemoryRegion> memory, const RunOptions& options) {
  const ir::Function& function = find_entry(module, entry);
  verify(module);
  if (params.size() != function.num_parameters())
    throw UserError("kernel '" + function.name() + "' takes " + std::to_string(function.num_parameters()) +
                    " parameters, got " + std::to_string(params.size()));
  for (int64_t g : grid)
    if (g < 1 || g > std::numeric_limits<int32_t>::max())
      throw UserError("grid dimensions must be in 1..2^31-1, got (" + std::to_string(grid[0]) + ", " +
                      std::to_string(grid[1]) + ", " + std::to_string(grid[2]) + ")");
  const Plan plan = make_plan(function);

  std::vector<RtValue> parameters;
  for (size_t i = 0; i < params.size(); ++i) parameters.push_back(parameter_value(function.parameter(i)->type(), params[i]));

  const Globals globals = make_globals(module);
  std::vector<MemoryRegion> regions(memory.begin(), memory.end());
  regions.insert(regions.end(), globals.regions.begin(), globals.regions.end());
  const Memory mem(regions);

  const int64_t total = grid[0] * grid[1] * grid[2];
  std::map<int64_t, std::string> printed;  // by block, only blocks that printed
  std::mutex printed_mutex;
  std::atomic<int64_t> next{0};
  std::atomic<int64_t> first_fault{total};
  std::exception_ptr fault;
  std::mutex fault_mutex;

  auto worker = [&] {
    for (;;) {
      const int64_t b = next.fetch_add(1);
      if (b >= total || b > first_fault.load()) return;
      BlockContext ctx;
      ctx.memory = &mem;
      ctx.globals = &globals.addresses;
      ctx.grid = grid;
      ctx.block_id = {b % grid[0], (b / grid[0]) % grid[1], b / (grid[0] * grid[1])};
      try {
        run_block(plan, parameters, ctx);
      } catch (...) {
        std::lock_guard lock(fault_mutex);
        if (b < first_fault.load()) {
          first_fault.store(b);
          fault = std::current_exception();
        }
      }
      if (!ctx.printed.empty()) {
        std::lock_guard lock(printed_mutex);
        printed.emplace(b, std::move(ctx.printed));
      }
    }
  };
  const unsigned hardware = std::max(1u, std::thread::hardware_concurrency());
  const int64_t wanted = options.threads > 0 ? options.threads : static_cast<int64_t>(hardware);
  const int64_t workers = std::min<int64_t>(wanted, total);
  std::vector<std::thread> pool;
  for (int64_t t = 1; t < workers; ++t) pool.emplace_back(worker);
  worker();
  for (std::thread& t : pool) t.join();

  std::ostream& out = options.out ? *options.out : std::cout;
  const int64_t last = fault ? first_fault.load() : total - 1;
  for (const auto& [block, text] : printed)
    if (block <= last) out << text;
  out.flush();
  if (fault) std::rethrow_exception(fault);
}

}  // namespace cutile::interp
