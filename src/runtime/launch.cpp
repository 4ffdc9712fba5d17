#include "cutile/runtime/launch.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "cutile/error.hpp"

namespace cutile::runtime {
namespace {

class Event {
 public:
  Event() { check(driver_api().cuEventCreate(&handle_, 0), "cuEventCreate"); }
  ~Event() { driver_api().cuEventDestroy_v2(handle_); }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  void record() { check(driver_api().cuEventRecord(handle_, nullptr), "cuEventRecord"); }
  float milliseconds_since(const Event& start) const {
    check(driver_api().cuEventSynchronize(handle_), "cuEventSynchronize");
    float ms = 0;
    check(driver_api().cuEventElapsedTime(&ms, start.handle_, handle_), "cuEventElapsedTime");
    return ms;
  }

 private:
  CUevent handle_ = nullptr;
};

}  // namespace

void launch(const KernelFunction& function, std::array<unsigned, 3> grid, std::span<void*> args,
            CUstream stream) {
  if (!function.handle) throw UserError("cannot launch an empty KernelFunction");
  if (grid[0] == 0 || grid[1] == 0 || grid[2] == 0)
    throw UserError("cannot launch kernel '" + function.name + "' on grid (" + std::to_string(grid[0]) +
                    ", " + std::to_string(grid[1]) + ", " + std::to_string(grid[2]) +
                    "): every dimension must be >= 1");
  check(driver_api().cuLaunchKernel(function.handle, grid[0], grid[1], grid[2], 1, 1, 1, 0, stream,
                                    args.data(), nullptr),
        "cuLaunchKernel");
}

void synchronize() {
  check(driver_api().cuCtxSynchronize(), "cuCtxSynchronize");
}

LaunchTiming time_launch(const KernelFunction& function, std::array<unsigned, 3> grid, std::span<void*> args,
                         int warmup, int runs) {
  if (runs < 1) throw UserError("time_launch needs at least one timed run, got " + std::to_string(runs));
  for (int i = 0; i < warmup; ++i) launch(function, grid, args);
  Event start, stop;
  std::vector<double> times;
  for (int i = 0; i < runs; ++i) {
    start.record();
    launch(function, grid, args);
    stop.record();
    times.push_back(stop.milliseconds_since(start));
  }
  std::sort(times.begin(), times.end());
  size_t middle = times.size() / 2;
  double median = times.size() % 2 ? times[middle] : (times[middle - 1] + times[middle]) / 2;
  return {median, times.front(), runs};
}

}  // namespace cutile::runtime
