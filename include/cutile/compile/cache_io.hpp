// The system calls by which the cubin cache writes to disk, gathered in one seam. The cache makes them
// through the CacheIo of its CacheConfig; a test derives from CacheIo to make any of them fail (a failing
// write, fsync, rename or mkdir, ENOSPC, a full disk) and checks what the cache leaves behind, the way
// SQLite's tests inject I/O faults, without replacing libc. Reads need no seam: a damaged file is made
// on disk.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <memory>

namespace cutile::compile {

/// Each member behaves as the call it names: -1 (or, for write, a short count) with errno set on failure.
class CacheIo {
 public:
  virtual ~CacheIo() = default;

  virtual int mkdir(const char* path, mode_t mode);
  virtual int open(const char* path, int flags, mode_t mode);
  virtual ssize_t write(int fd, const void* data, size_t size);
  virtual int fsync(int fd);
  virtual int close(int fd);
  virtual int rename(const char* from, const char* to);

  /// The system calls themselves.
  static std::shared_ptr<CacheIo> system();
};

}  // namespace cutile::compile
