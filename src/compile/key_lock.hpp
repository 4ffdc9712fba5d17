// One cache key locked across processes, so that processes sharing a cache directory compile a kernel
// once: an exclusive flock on <entry>.lock, which the kernel drops when its holder dies. The holder
// removes the file before it lets go; a waiter that then holds the lock of a removed file opens the path
// again, so that two holders never hold two files of one path.
#pragma once

#include <chrono>
#include <filesystem>

#include "compile/unique_fd.hpp"
#include "cutile/compile/cache_io.hpp"

namespace cutile::compile {

class KeyLock {
 public:
  using Clock = std::chrono::steady_clock;

  /// Not held.
  KeyLock() = default;
  /// Takes the lock at `path`, creating the file through `io`, waiting for another holder until
  /// `deadline` (Clock::time_point::max(): no limit; now: one try).
  KeyLock(std::filesystem::path path, CacheIo& io, Clock::time_point deadline);
  KeyLock(KeyLock&&) = default;
  KeyLock& operator=(KeyLock&&) = delete;
  ~KeyLock();

  bool held() const { return static_cast<bool>(fd_); }
  /// Whether another process held it first: its entry may be there now.
  bool waited() const { return waited_; }
  /// When not held: the errno of the failure, EWOULDBLOCK when the deadline passed.
  int error() const { return error_; }

 private:
  std::filesystem::path path_;
  UniqueFd fd_;
  bool waited_ = false;
  int error_ = 0;
};

}  // namespace cutile::compile
