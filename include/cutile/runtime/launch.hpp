// Launching tile kernels: one block of one thread per tile, the grid counts tiles.
#pragma once

#include <array>
#include <span>

#include "cutile/runtime/driver_api.hpp"
#include "cutile/runtime/module.hpp"

namespace cutile::runtime {

/// Launches `function` on `stream` (null: the current context's default stream) with block (1,1,1) and
/// no dynamic shared memory, as tileiras-built kernels expect. `args` points at each parameter's value.
/// The one place a kernel is launched on the driver: cutile::launch comes through here too.
void launch(const KernelFunction& function, std::array<unsigned, 3> grid, std::span<void*> args,
            CUstream stream = nullptr);

/// Waits for all work on the current context.
void synchronize();

struct LaunchTiming {
  double median_ms = 0;
  double min_ms = 0;
  int runs = 0;
};

/// Device time of one launch, measured with CUDA events around each of `runs` launches after
/// `warmup` untimed ones. For benchmarks; tests never assert on it.
LaunchTiming time_launch(const KernelFunction& function, std::array<unsigned, 3> grid, std::span<void*> args,
                         int warmup = 3, int runs = 20);

}  // namespace cutile::runtime
