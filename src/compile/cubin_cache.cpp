#include "cutile/compile/cubin_cache.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "compile/key_lock.hpp"
#include "compile/unique_fd.hpp"
#include "cutile/compile/cache_dir.hpp"
#include "cutile/compile/cubin_check.hpp"
#include "cutile/error.hpp"

namespace cutile::compile {
namespace fs = std::filesystem;

namespace {

constexpr char kMagic[8] = {'C', 'U', 'T', 'I', 'L', 'E', 'C', 'B'};
constexpr size_t kMaxReleaseLength = 256;
// magic, format version, key digest, release length; then the release; then payload length and digest.
constexpr size_t kFixedPrefix = sizeof kMagic + 4 + 32 + 4;
constexpr size_t kFixedSuffix = 8 + 32;
// Temporary files older than this were left by a process that died mid-write.
constexpr auto kStaleTempAge = std::chrono::hours(1);

void put_le(std::vector<uint8_t>& out, uint64_t value, int bytes) {
  for (int i = 0; i < bytes; ++i) out.push_back(static_cast<uint8_t>(value >> (8 * i)));
}

uint64_t get_le(std::span<const uint8_t> bytes, size_t at, int size) {
  uint64_t value = 0;
  for (int i = 0; i < size; ++i) value |= uint64_t{bytes[at + i]} << (8 * i);
  return value;
}

std::string lower(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

uint64_t parse_byte_count(const std::string& text) {
  auto invalid = [&] {
    return UserError("CUTILE_CACHE_MAX_BYTES='" + text +
                     "' is not a byte count: expected digits with an optional K, M, G or T suffix (powers of "
                     "1024), e.g. 1073741824 or 1G");
  };
  size_t digits = 0;
  while (digits < text.size() && std::isdigit(static_cast<unsigned char>(text[digits]))) ++digits;
  if (digits == 0 || digits > 19) throw invalid();
  uint64_t value = std::stoull(text.substr(0, digits));
  const std::string suffix = lower(text.substr(digits));
  int shift = 0;
  if (!suffix.empty()) {
    const size_t unit =
        suffix.size() == 1 ? std::string_view("kmgt").find(suffix[0]) : std::string_view::npos;
    if (unit == std::string_view::npos) throw invalid();
    shift = static_cast<int>(10 * (unit + 1));
  }
  if (shift && value > (UINT64_MAX >> shift)) throw invalid();
  return value << shift;
}

std::string errno_text() {
  return std::strerror(errno);
}

// The fields before the payload.
struct EntryHeader {
  CacheEntry entry;  ///< its key and release; no cubin yet
  uint64_t payload_length = 0;
  Sha256Digest payload_digest{};
  size_t size = 0;  ///< bytes before the payload
};

// The header at the start of `bytes`, which may hold more than the header; nullopt and *why when it is
// damaged or for another key.
std::optional<EntryHeader> decode_header(std::span<const uint8_t> bytes, const CacheKey& expected,
                                         std::string* why) {
  auto fail = [&](std::string reason) {
    if (why) *why = std::move(reason);
    return std::optional<EntryHeader>();
  };
  if (bytes.size() < kFixedPrefix)
    return fail("truncated: " + std::to_string(bytes.size()) + " bytes, shorter than the header");
  if (!std::equal(std::begin(kMagic), std::end(kMagic), bytes.begin())) return fail("bad magic");
  size_t at = sizeof kMagic;
  if (auto version = get_le(bytes, at, 4); version != kCacheFormatVersion)
    return fail("format version " + std::to_string(version) + ", expected " +
                std::to_string(kCacheFormatVersion));
  at += 4;
  EntryHeader header;
  CacheKey& key = header.entry.key;
  std::copy_n(bytes.begin() + at, key.digest.size(), key.digest.begin());
  at += key.digest.size();
  if (key != expected) return fail("it holds key " + key.hex() + ", not " + expected.hex());
  const uint64_t release_length = get_le(bytes, at, 4);
  at += 4;
  if (release_length > kMaxReleaseLength)
    return fail("toolchain release length " + std::to_string(release_length) + " is implausible");
  if (bytes.size() < at + release_length + kFixedSuffix)
    return fail("truncated: " + std::to_string(bytes.size()) + " bytes, shorter than the header");
  header.entry.toolchain_release.assign(bytes.begin() + at, bytes.begin() + at + release_length);
  at += release_length;
  header.payload_length = get_le(bytes, at, 8);
  at += 8;
  std::copy_n(bytes.begin() + at, header.payload_digest.size(), header.payload_digest.begin());
  header.size = at + header.payload_digest.size();
  return header;
}

std::string promise_broken(uint64_t payload_length, uint64_t following) {
  return "the header promises a " + std::to_string(payload_length) + "-byte cubin but " +
         std::to_string(following) + " bytes follow";
}

// Reads into `bytes` from `offset` until it is full or the file ends, and shrinks it to what was read;
// false with errno set when a read fails.
bool read_into(int fd, uint64_t offset, std::vector<uint8_t>& bytes) {
  size_t got = offset;
  while (got < bytes.size()) {
    ssize_t n = ::read(fd, bytes.data() + got, bytes.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return false;
    if (n == 0) break;
    got += static_cast<size_t>(n);
  }
  bytes.resize(got);
  return true;
}

// A disk entry as read: the entry, or why it cannot be trusted, or what is wrong with it, or the errno of a
// failed open or read.
struct EntryFile {
  std::optional<CacheEntry> entry;
  std::string untrusted;
  std::string corrupt;
  int error = 0;
};

// Reads the entry of `key` at `path`, no further than its header's stated size and `cap`, so that a huge
// file costs one header read, not its size in memory.
EntryFile read_entry_file(const fs::path& path, const CacheKey& key, uint64_t cap) {
  EntryFile file;
  // Not through a link, and not waiting on a FIFO someone put there.
  UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK));
  struct stat info {};
  if (!fd && errno == ELOOP) {
    file.untrusted = "it is a symbolic link";
    return file;
  }
  if (!fd || ::fstat(fd.get(), &info) != 0) {
    file.error = errno;
    return file;
  }
  if (auto problem = trust_problem(info.st_uid, info.st_mode)) {
    file.untrusted = "it is " + *problem;
    return file;
  }
  if (!S_ISREG(info.st_mode)) {
    file.corrupt = "not a regular file";
    return file;
  }
  const auto size = static_cast<uint64_t>(info.st_size);
  if (size > cap) {
    file.corrupt = "the file has " + std::to_string(size) + " bytes, more than the cache's cap of " +
                   std::to_string(cap) + " bytes";
    return file;
  }
  std::vector<uint8_t> bytes(std::min<uint64_t>(size, kFixedPrefix + kMaxReleaseLength + kFixedSuffix));
  if (!read_into(fd.get(), 0, bytes)) {
    file.error = errno;
    return file;
  }
  auto header = decode_header(bytes, key, &file.corrupt);
  if (!header) return file;
  if (header->payload_length != size - header->size) {
    file.corrupt = promise_broken(header->payload_length, size - header->size);
    return file;
  }
  const size_t head = bytes.size();
  bytes.resize(size);
  if (!read_into(fd.get(), head, bytes)) {
    file.error = errno;
    return file;
  }
  file.entry = decode_cache_entry(bytes, key, &file.corrupt);
  return file;
}

bool write_all(CacheIo& io, int fd, std::span<const uint8_t> bytes) {
  while (!bytes.empty()) {
    ssize_t wrote = io.write(fd, bytes.data(), bytes.size());
    if (wrote < 0 && errno == EINTR) continue;
    if (wrote <= 0) return false;
    bytes = bytes.subspan(static_cast<size_t>(wrote));
  }
  return true;
}

std::shared_ptr<const CachedCubin> memory_twin(const CachedCubin& first) {
  auto twin = std::make_shared<CachedCubin>(first);
  twin->origin = CachedCubin::Origin::memory;
  return twin;
}

}  // namespace

std::vector<uint8_t> encode_cache_entry(const CacheEntry& entry) {
  if (entry.toolchain_release.size() > kMaxReleaseLength)
    throw InternalError("toolchain release string of " + std::to_string(entry.toolchain_release.size()) +
                        " bytes is too long for a cache entry");
  std::vector<uint8_t> bytes(std::begin(kMagic), std::end(kMagic));
  bytes.reserve(kFixedPrefix + entry.toolchain_release.size() + kFixedSuffix + entry.cubin.size());
  put_le(bytes, kCacheFormatVersion, 4);
  bytes.insert(bytes.end(), entry.key.digest.begin(), entry.key.digest.end());
  put_le(bytes, entry.toolchain_release.size(), 4);
  bytes.insert(bytes.end(), entry.toolchain_release.begin(), entry.toolchain_release.end());
  put_le(bytes, entry.cubin.size(), 8);
  const auto payload_digest = sha256(entry.cubin);
  bytes.insert(bytes.end(), payload_digest.begin(), payload_digest.end());
  bytes.insert(bytes.end(), entry.cubin.begin(), entry.cubin.end());
  return bytes;
}

std::optional<CacheEntry> decode_cache_entry(std::span<const uint8_t> bytes, const CacheKey& expected,
                                             std::string* why) {
  auto fail = [&](std::string reason) {
    if (why) *why = std::move(reason);
    return std::optional<CacheEntry>();
  };
  auto header = decode_header(bytes, expected, why);
  if (!header) return std::nullopt;
  if (header->payload_length != bytes.size() - header->size)
    return fail(promise_broken(header->payload_length, bytes.size() - header->size));
  if (header->payload_length == 0) return fail("empty cubin");
  auto payload = bytes.subspan(header->size);
  if (sha256(payload) != header->payload_digest) return fail("the cubin's SHA-256 does not match the header");
  header->entry.cubin.assign(payload.begin(), payload.end());
  return std::move(header->entry);
}

CacheConfig CacheConfig::from_env() {
  CacheConfig config;
  if (const char* value = std::getenv("CUTILE_CACHE")) {
    std::string word = lower(value);
    if (word == "off" || word == "0")
      config.disk_enabled = false;
    else if (!(word.empty() || word == "on" || word == "1"))
      throw UserError(std::string("CUTILE_CACHE='") + value + "' is not one of on, off, 1, 0");
  }
  if (const char* value = std::getenv("CUTILE_CACHE_MAX_BYTES"); value && *value)
    config.max_bytes = parse_byte_count(value);
  if (config.disk_enabled) {
    try {
      config.dir = cache_dir() / "cubins";
    } catch (const RuntimeError& error) {
      std::fprintf(stderr, "cutile: cubin disk cache disabled: %s\n", error.message().c_str());
      config.disk_enabled = false;
    }
  }
  return config;
}

CubinCache::CubinCache(CacheConfig config) : config_(std::move(config)), writable_(config_.disk_enabled) {
  if (!config_.disk_enabled) return;
  if (auto ec = create_private_directories(config_.dir, *config_.io))
    disable_writes("cannot create " + config_.dir.string() + ": " + ec.message());
  // Entries already there are still read when writes fail (a copied cache), but only from directories that
  // no one else can write.
  for (const fs::path& dir : {config_.dir.parent_path(), config_.dir}) {
    struct stat info {};
    if (dir.empty() || ::stat(dir.c_str(), &info) != 0) continue;
    if (auto problem = trust_problem(info.st_uid, info.st_mode)) {
      std::fprintf(stderr,
                   "cutile: cubin disk cache disabled, compiled kernels are kept in memory only: %s is %s; "
                   "point CUTILE_CACHE_DIR at a directory only this user can write\n",
                   dir.c_str(), problem->c_str());
      config_.disk_enabled = false;
      writable_ = false;
      return;
    }
  }
}

CubinCache& CubinCache::global() {
  static CubinCache cache(CacheConfig::from_env());
  return cache;
}

fs::path CubinCache::entry_path(const CacheKey& key) const {
  const std::string hex = key.hex();
  return config_.dir / hex.substr(0, 2) / (hex + ".cubin");
}

fs::path CubinCache::lock_path(const CacheKey& key) const {
  return fs::path(entry_path(key)).replace_extension(".lock");
}

CacheStats CubinCache::stats() const {
  CacheStats stats;
  stats.memory_hits = counters_.memory_hits;
  stats.disk_hits = counters_.disk_hits;
  stats.compiles = counters_.compiles;
  stats.corrupt_entries = counters_.corrupt_entries;
  stats.stale_entries = counters_.stale_entries;
  stats.evictions = counters_.evictions;
  stats.disk_errors = counters_.disk_errors;
  return stats;
}

std::shared_ptr<const CachedCubin> CubinCache::get(std::span<const uint8_t> bytecode,
                                                   const CompileOptions& options,
                                                   std::string_view kernel_name,
                                                   std::span<const uint8_t> identity) {
  const CacheKey key = cubin_cache_key(identity.empty() ? bytecode : identity, options);
  std::promise<Result> promise;
  std::shared_future<Result> in_memory;
  uint64_t slot_id = 0;
  {
    std::lock_guard lock(mutex_);
    if (auto found = memory_.find(key); found != memory_.end()) {
      in_memory = found->second.future;
    } else {
      slot_id = ++next_slot_id_;
      memory_.emplace(key, Slot{promise.get_future().share(), slot_id});
    }
  }
  if (in_memory.valid()) {
    ++counters_.memory_hits;
    return in_memory.get();  // waits for a compilation in flight; rethrows its failure
  }

  try {
    Result first = load_or_compile(key, bytecode, options, kernel_name);
    promise.set_value(memory_twin(*first));
    return first;
  } catch (...) {
    {
      // Forget the failure before waking the waiters, so that a later call tries again.
      std::lock_guard lock(mutex_);
      if (auto found = memory_.find(key); found != memory_.end() && found->second.id == slot_id)
        memory_.erase(found);
    }
    promise.set_exception(std::current_exception());
    throw;
  }
}

std::shared_ptr<const CachedCubin> CubinCache::compile_fresh(std::span<const uint8_t> bytecode,
                                                             const CompileOptions& options,
                                                             std::string_view kernel_name,
                                                             std::span<const uint8_t> identity) {
  const CacheKey key = cubin_cache_key(identity.empty() ? bytecode : identity, options);
  const KeyLock lock = lock_key(key, options, kernel_name);
  Result first = compile(key, bytecode, options, kernel_name, lock.held());
  std::promise<Result> ready;
  ready.set_value(memory_twin(*first));
  std::lock_guard guard(mutex_);
  memory_[key] = Slot{ready.get_future().share(), ++next_slot_id_};
  return first;
}

CubinCache::Result CubinCache::load_or_compile(const CacheKey& key, std::span<const uint8_t> bytecode,
                                               const CompileOptions& options, std::string_view kernel_name) {
  if (!config_.disk_enabled) return compile(key, bytecode, options, kernel_name, false);
  if (Result cached = load(key, bytecode)) return cached;
  // Another process may be compiling this key: wait for its entry rather than compile the kernel again.
  // It may also have written the entry since the miss, just before letting go of the lock.
  std::error_code ec;
  const bool absent = !fs::exists(entry_path(key), ec);
  const KeyLock lock = lock_key(key, options, kernel_name);
  if (lock.waited() || (lock.held() && absent))
    if (Result cached = load(key, bytecode)) return cached;
  return compile(key, bytecode, options, kernel_name, lock.held());
}

CubinCache::Result CubinCache::load(const CacheKey& key, std::span<const uint8_t> bytecode) {
  auto entry = read_entry(key);
  if (!entry) return nullptr;
  const auto& installed = toolchain();
  if (installed && installed->release != entry->toolchain_release) {
    ++counters_.stale_entries;
    return nullptr;
  }
  if (auto defect = cubin_problem(entry->cubin, entry_names(bytecode))) {
    discard(entry_path(key), "corrupt", "not a valid cubin: " + *defect);
    return nullptr;
  }
  ::utimensat(AT_FDCWD, entry_path(key).c_str(), nullptr, 0);  // recently used, for eviction
  ++counters_.disk_hits;
  auto cached = std::make_shared<CachedCubin>();
  cached->cubin = std::move(entry->cubin);
  cached->key = key;
  cached->toolchain_release = std::move(entry->toolchain_release);
  cached->origin = CachedCubin::Origin::disk;
  return cached;
}

KeyLock CubinCache::lock_key(const CacheKey& key, const CompileOptions& options,
                             std::string_view kernel_name) {
  // Without tileiras there is nothing to compile, and so nothing to wait for or to write.
  if (!config_.disk_enabled || !writable_ || !toolchain()) return KeyLock();
  const fs::path path = lock_path(key);
  if (auto ec = create_private_directories(path.parent_path(), *config_.io)) {
    ++counters_.disk_errors;
    disable_writes("cannot create " + path.parent_path().string() + ": " + ec.message());
    return KeyLock();
  }
  // A holder's compilation ends within its time limit, or with the holder; ours is the longest we wait.
  const auto deadline = options.timeout.count() > 0 ? KeyLock::Clock::now() + options.timeout
                                                    : KeyLock::Clock::time_point::max();
  KeyLock lock(path, *config_.io, deadline);
  if (lock.error() == EWOULDBLOCK) {
    std::fprintf(stderr,
                 "cutile: waited %lld ms for another process compiling kernel '%.*s' (%s); compiling it here "
                 "without caching it\n",
                 static_cast<long long>(options.timeout.count()), static_cast<int>(kernel_name.size()),
                 kernel_name.data(), path.c_str());
  } else if (!lock.held()) {
    ++counters_.disk_errors;
    disable_writes("cannot lock " + path.string() + ": " + std::strerror(lock.error()));
  }
  return lock;
}

CubinCache::Result CubinCache::compile(const CacheKey& key, std::span<const uint8_t> bytecode,
                                       const CompileOptions& options, std::string_view kernel_name,
                                       bool store) {
  const auto& installed = toolchain();
  if (!installed) {
    std::string cache = config_.disk_enabled
                            ? "the cubin cache " + config_.dir.string() + " has no entry for it"
                            : "the disk cache is disabled";
    throw RuntimeError("cannot compile kernel '" + std::string(kernel_name) + "' for " + options.gpu_name +
                       " (cache key " + key.hex() + "): the Tile IR compiler (tileiras) is missing (" +
                       toolchain_missing_ + ") and " + cache +
                       ". Install tileiras with scripts/install_toolchain.sh (or point CUTILE_TILEIRAS at a "
                       "tileiras binary), or compile the kernel ahead of time on a machine with tileiras and "
                       "copy its cache directory (CUTILE_CACHE_DIR there, default ~/.cache/cutile) here, "
                       "setting CUTILE_CACHE_DIR to the copy");
  }
  CompileResult compiled = compile_to_cubin(*installed, bytecode, options, kernel_name);
  ++counters_.compiles;
  auto cached = std::make_shared<CachedCubin>();
  cached->cubin = std::move(compiled.cubin);
  cached->key = key;
  cached->toolchain_release = installed->release;
  cached->origin = CachedCubin::Origin::compiled;
  cached->compile_seconds = compiled.seconds;
  if (store && writable_) write_entry(CacheEntry{key, cached->toolchain_release, cached->cubin});
  return cached;
}

std::optional<CacheEntry> CubinCache::read_entry(const CacheKey& key) {
  const fs::path path = entry_path(key);
  EntryFile file = read_entry_file(path, key, config_.max_bytes);
  if (file.error != 0 && file.error != ENOENT && file.error != ENOTDIR) ++counters_.disk_errors;
  if (!file.untrusted.empty()) discard(path, "untrusted", file.untrusted);
  if (!file.corrupt.empty()) discard(path, "corrupt", file.corrupt);
  return std::move(file.entry);
}

void CubinCache::discard(const fs::path& path, std::string_view kind, const std::string& why) {
  std::fprintf(stderr, "cutile: discarding %.*s cache entry %s: %s\n", static_cast<int>(kind.size()),
               kind.data(), path.c_str(), why.c_str());
  ++counters_.corrupt_entries;
  std::error_code ec;
  fs::remove(path, ec);
}

void CubinCache::write_entry(const CacheEntry& entry) {
  static std::atomic<uint64_t> temp_counter{0};
  const auto bytes = encode_cache_entry(entry);
  if (bytes.size() > config_.max_bytes) return;  // readers refuse it: it stays in memory only
  const fs::path path = entry_path(entry.key);
  const fs::path dir = path.parent_path();
  CacheIo& io = *config_.io;
  if (auto ec = create_private_directories(dir, io)) {
    ++counters_.disk_errors;
    disable_writes("cannot create " + dir.string() + ": " + ec.message());
    return;
  }
  const fs::path temp = dir / (path.stem().string() + ".tmp." + std::to_string(::getpid()) + "." +
                               std::to_string(temp_counter++));
  int fd = io.open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  bool written = fd >= 0 && write_all(io, fd, bytes) && io.fsync(fd) == 0;
  std::string why = written ? "" : errno_text();
  if (fd >= 0 && io.close(fd) != 0 && written) {
    written = false;
    why = errno_text();
  }
  // rename() replaces an entry another process wrote meanwhile with an equal one, atomically.
  if (written && io.rename(temp.c_str(), path.c_str()) != 0) {
    written = false;
    why = errno_text();
  }
  if (!written) {
    ::unlink(temp.c_str());
    ++counters_.disk_errors;
    disable_writes("cannot write " + path.string() + ": " + why);
    return;
  }
  if (int dir_fd = io.open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0); dir_fd >= 0) {
    io.fsync(dir_fd);  // makes the rename itself durable
    io.close(dir_fd);
  }
  evict(path);
}

void CubinCache::evict(const fs::path& keep) {
  struct File {
    fs::path path;
    uint64_t size;
    fs::file_time_type used;
  };
  std::vector<File> entries;
  uint64_t total = 0;
  const auto now = fs::file_time_type::clock::now();
  std::error_code ec;
  // Entries may appear and vanish under us (other processes): every error just skips a file.
  for (fs::recursive_directory_iterator it(config_.dir, fs::directory_options::skip_permission_denied, ec),
       end;
       !ec && it != end; it.increment(ec)) {
    std::error_code file_ec;
    if (!it->is_regular_file(file_ec)) continue;
    const std::string name = it->path().filename().string();
    auto used = it->last_write_time(file_ec);
    if (file_ec) continue;
    if (name.ends_with(".lock")) {
      // Left by a holder that died: removed when no one holds it (the lock removes its file on release).
      if (now - used > kStaleTempAge) KeyLock(it->path(), *config_.io, KeyLock::Clock::now());
      continue;
    }
    const bool temporary = name.find(".tmp.") != std::string::npos;
    if (!temporary && !name.ends_with(".cubin")) continue;
    if (temporary && now - used > kStaleTempAge) {
      fs::remove(it->path(), file_ec);
      continue;
    }
    uint64_t size = it->file_size(file_ec);
    if (file_ec) continue;
    total += size;  // a temporary file in flight takes room too; only entries are evicted
    if (!temporary) entries.push_back({it->path(), size, used});
  }
  if (total <= config_.max_bytes) return;
  std::sort(entries.begin(), entries.end(), [](const File& a, const File& b) { return a.used < b.used; });
  for (const auto& file : entries) {
    if (total <= config_.max_bytes) break;
    if (file.path == keep) continue;
    std::error_code remove_ec;
    if (fs::remove(file.path, remove_ec)) ++counters_.evictions;
    if (!remove_ec) total -= file.size;  // also when another process removed it first
  }
}

void CubinCache::disable_writes(const std::string& reason) {
  if (writable_.exchange(false))
    std::fprintf(stderr,
                 "cutile: cubin disk cache not writable, compiled kernels are kept in memory only: %s\n",
                 reason.c_str());
}

const std::optional<Toolchain>& CubinCache::toolchain() {
  std::call_once(toolchain_once_, [this] { toolchain_ = find_toolchain(&toolchain_missing_); });
  return toolchain_;
}

}  // namespace cutile::compile
