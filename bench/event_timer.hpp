// Device time on one stream: CUDA events around the timed work, and the median of many runs.
#pragma once

#include <algorithm>
#include <vector>

#include "cutile/host/stream.hpp"
#include "cutile/runtime/driver_api.hpp"

namespace bench {

// A pair of timing events (Completion's events are created without timing, which makes them cheaper).
class EventTimer {
 public:
  EventTimer() {
    cutile::runtime::check(cutile::runtime::driver_api().cuEventCreate(&start_, 0), "cuEventCreate");
    cutile::runtime::check(cutile::runtime::driver_api().cuEventCreate(&stop_, 0), "cuEventCreate");
  }
  ~EventTimer() {
    cutile::runtime::driver_api().cuEventDestroy_v2(start_);
    cutile::runtime::driver_api().cuEventDestroy_v2(stop_);
  }
  EventTimer(const EventTimer&) = delete;
  EventTimer& operator=(const EventTimer&) = delete;
  void start(const cutile::Stream& s) { cutile::runtime::check(cutile::runtime::driver_api().cuEventRecord(start_, s.handle()), "cuEventRecord"); }
  double stop_ms(const cutile::Stream& s) {
    cutile::runtime::check(cutile::runtime::driver_api().cuEventRecord(stop_, s.handle()), "cuEventRecord");
    cutile::runtime::check(cutile::runtime::driver_api().cuEventSynchronize(stop_), "cuEventSynchronize");
    float ms = 0;
    cutile::runtime::check(cutile::runtime::driver_api().cuEventElapsedTime(&ms, start_, stop_), "cuEventElapsedTime");
    return ms;
  }

 private:
  cutile::runtime::CUevent start_ = nullptr, stop_ = nullptr;
};

inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace bench
