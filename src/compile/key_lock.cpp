#include "compile/key_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <thread>

namespace cutile::compile {
namespace {

// How often a waiter tries again: soon at first, then at most this often.
constexpr auto kFirstRetry = std::chrono::milliseconds(1);
constexpr auto kLastRetry = std::chrono::milliseconds(50);

bool same_file(const struct stat& a, const struct stat& b) {
  return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

}  // namespace

KeyLock::KeyLock(std::filesystem::path path, CacheIo& io, Clock::time_point deadline)
    : path_(std::move(path)) {
  auto retry = kFirstRetry;
  for (;;) {
    UniqueFd file(io.open(path_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600));
    if (!file) {
      error_ = errno;
      return;
    }
    while (::flock(file.get(), LOCK_EX | LOCK_NB) != 0) {
      if (errno != EWOULDBLOCK && errno != EINTR) {
        error_ = errno;
        return;
      }
      const auto now = Clock::now();
      if (now >= deadline) {
        error_ = EWOULDBLOCK;
        return;
      }
      waited_ = true;
      std::this_thread::sleep_for(std::min<Clock::duration>(retry, deadline - now));
      retry = std::min(retry * 2, kLastRetry);
    }
    struct stat locked {};
    struct stat named {};
    if (::fstat(file.get(), &locked) == 0 && ::stat(path_.c_str(), &named) == 0 && same_file(locked, named)) {
      fd_.reset(file.release());
      return;
    }
  }
}

KeyLock::~KeyLock() {
  if (held()) ::unlink(path_.c_str());  // before the lock goes, with the descriptor
}

}  // namespace cutile::compile
