// Device time on one stream: CUDA events around the timed work, and the median of many runs.
#pragma once

#include <algorithm>
#include <vector>

#include "cutile/host/stream.hpp"
#include "cutile/host/tensor.hpp"
#include "cutile/runtime/driver_api.hpp"

namespace cutile::runtime {

// A pair of timing events (Completion's events are created without timing, which makes them cheaper).
class EventTimer {
 public:
  EventTimer() {
    check(driver_api().cuEventCreate(&start_, 0), "cuEventCreate");
    check(driver_api().cuEventCreate(&stop_, 0), "cuEventCreate");
  }
  ~EventTimer() {
    driver_api().cuEventDestroy_v2(start_);
    driver_api().cuEventDestroy_v2(stop_);
  }
  EventTimer(const EventTimer&) = delete;
  EventTimer& operator=(const EventTimer&) = delete;
  void start(const Stream& s) { check(driver_api().cuEventRecord(start_, s.handle()), "cuEventRecord"); }
  double stop_ms(const Stream& s) {
    check(driver_api().cuEventRecord(stop_, s.handle()), "cuEventRecord");
    check(driver_api().cuEventSynchronize(stop_), "cuEventSynchronize");
    float ms = 0;
    check(driver_api().cuEventElapsedTime(&ms, start_, stop_), "cuEventElapsedTime");
    return ms;
  }

 private:
  CUevent start_ = nullptr, stop_ = nullptr;
};

/// The median of `v` (the upper one of an even count).
inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

/// The device times, in milliseconds, of `runs` calls of `work` on `stream`, each timed alone right after
/// `flush` (a buffer larger than L2) is zeroed: L2 starts empty, and the stream is busy while the host
/// queues the work, so the host's time is not counted.
template <class Work>
std::vector<double> times_ms_after_flush(const Stream& stream, AnyTensor& flush, int runs, Work&& work) {
  EventTimer timer;
  std::vector<double> ms;
  for (int i = 0; i < runs; ++i) {
    flush.zero(stream);
    timer.start(stream);
    work();
    ms.push_back(timer.stop_ms(stream));
  }
  return ms;
}

}  // namespace cutile::runtime
