#include "cutile/compile/cache_io.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>

namespace cutile::compile {

int CacheIo::mkdir(const char* path, mode_t mode) {
  return ::mkdir(path, mode);
}
int CacheIo::open(const char* path, int flags, mode_t mode) {
  return ::open(path, flags, mode);
}
ssize_t CacheIo::write(int fd, const void* data, size_t size) {
  return ::write(fd, data, size);
}
int CacheIo::fsync(int fd) {
  return ::fsync(fd);
}
int CacheIo::close(int fd) {
  return ::close(fd);
}
int CacheIo::rename(const char* from, const char* to) {
  return ::rename(from, to);
}

std::shared_ptr<CacheIo> CacheIo::system() {
  static const auto io = std::make_shared<CacheIo>();
  return io;
}

}  // namespace cutile::compile
