// Compiled kernels, cached in memory and on disk, keyed by cubin_cache_key() (cache_key.hpp).
//
// get() looks in the in-memory map, then on disk, then compiles with tileiras and stores the cubin in
// both. Concurrent callers for one key wait on a single compilation (single flight); other keys compile
// in parallel. So do processes that share the disk cache: the one holding the key's lock file (an flock,
// which dies with its holder) compiles and writes the entry, the others wait for it, for up to their compile
// timeout, and then read it. A failed compilation reaches every caller waiting on it and is not cached. The
// in-memory map keeps every cubin the process has used (like the modules loaded from them); it is never
// evicted.
//
// Disk layout: <dir>/<hex[0:2]>/<hex>.cubin, one file per key, in the format of encode_cache_entry().
// Writes go to a unique temporary file in the same directory, are fsync'ed and renamed into place, so
// concurrent processes only ever see whole entries. Every read is verified, the cubin too
// (cubin_check.hpp); an entry that fails is reported once on stderr, deleted and recompiled. A read goes no
// further than the entry header's stated size and max_bytes: a larger file is corrupt. After each write,
// least-recently-used entries (by mtime; a hit touches it) are evicted until the directory, temporary files
// included, is under max_bytes; an entry larger than max_bytes is not written.
//
// Toolchain rule: an entry records the tileiras release that compiled it. With tileiras installed, an
// entry of another release is recompiled; without tileiras it is used as is. "No toolchain" is a normal
// state: the cache only fails when it has to compile. That is what makes ahead-of-time compilation work: a
// cache directory filled on a CPU machine is copied to a GPU machine without tileiras and used there
// (set CUTILE_CACHE_DIR to the copy).
//
// Environment (CacheConfig::from_env, used by CubinCache::global()):
//   CUTILE_CACHE_DIR        the cache root; entries go to <root>/cubins (default ~/.cache/cutile/cubins)
//   CUTILE_CACHE=off|0      no disk cache (the in-memory cache stays); on|1 is the default
//   CUTILE_CACHE_MAX_BYTES  size cap of the disk cache, in bytes or with a K/M/G suffix (default 1G)
#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cutile/compile/cache_io.hpp"
#include "cutile/compile/cache_key.hpp"
#include "cutile/compile/tileiras.hpp"
#include "cutile/compile/toolchain.hpp"

namespace cutile::compile {

class KeyLock;

struct CachedCubin {
  enum class Origin { compiled, memory, disk };

  std::vector<uint8_t> cubin;
  CacheKey key;
  std::string toolchain_release;  ///< the tileiras release that compiled it
  /// How it was first obtained in this process; a later memory hit returns the same object.
  Origin origin = Origin::compiled;
  double compile_seconds = 0;  ///< tileiras wall time; 0 when read from disk
};

struct CacheConfig {
  std::filesystem::path dir;  ///< where the entries live (the "cubins" directory itself)
  bool disk_enabled = true;
  uint64_t max_bytes = uint64_t{1} << 30;
  /// The system calls of disk writes (cache_io.hpp), which tests replace to inject faults.
  std::shared_ptr<CacheIo> io = CacheIo::system();

  /// From the environment variables above. A malformed CUTILE_CACHE or CUTILE_CACHE_MAX_BYTES is a
  /// cutile::UserError; an unknown home directory turns the disk cache off with a warning.
  static CacheConfig from_env();
};

struct CacheStats {
  uint64_t memory_hits = 0;  ///< includes callers that waited on another thread's compilation
  uint64_t disk_hits = 0;
  uint64_t compiles = 0;         ///< successful tileiras runs
  uint64_t corrupt_entries = 0;  ///< disk entries that failed verification and were deleted
  uint64_t stale_entries = 0;    ///< disk entries of another tileiras release, recompiled
  uint64_t evictions = 0;        ///< disk entries removed by the size cap
  uint64_t disk_errors = 0;      ///< failed disk reads and writes (never fatal)
};

/// One disk entry. Layout, integers little-endian:
///   magic "CUTILECB" (8) | kCacheFormatVersion u32 | key digest (32) | release length u32 | release
///   | payload length u64 | SHA-256 of payload (32) | payload (the cubin)
struct CacheEntry {
  CacheKey key;
  std::string toolchain_release;
  std::vector<uint8_t> cubin;
};

std::vector<uint8_t> encode_cache_entry(const CacheEntry& entry);

/// The entry in `bytes` when it is whole, consistent and for `expected`; otherwise nullopt and *why says
/// what is wrong.
std::optional<CacheEntry> decode_cache_entry(std::span<const uint8_t> bytes, const CacheKey& expected,
                                             std::string* why);

class CubinCache {
 public:
  explicit CubinCache(CacheConfig config);
  CubinCache(const CubinCache&) = delete;
  CubinCache& operator=(const CubinCache&) = delete;

  /// The process-wide cache, configured by CacheConfig::from_env() on first use.
  static CubinCache& global();

  /// The toolchain this cache compiles with: find_toolchain(), resolved once per cache on first need
  /// (nullopt when there is none).
  const std::optional<Toolchain>& toolchain();

  /// The cubin for `bytecode` compiled with `options`: from memory, from disk, or compiled now.
  /// Without tileiras and without an entry, a cutile::RuntimeError names the kernel, the key, the cache
  /// directory and how to get a toolchain or a cache filled elsewhere. tileiras failures propagate as
  /// compile_to_cubin() reports them. `identity`, when given, stands for `bytecode` in the key: the same
  /// module written without source locations, so that checkouts and compilers that locate the same
  /// kernel differently (paths, columns) share entries.
  std::shared_ptr<const CachedCubin> get(std::span<const uint8_t> bytecode, const CompileOptions& options,
                                         std::string_view kernel_name,
                                         std::span<const uint8_t> identity = {});

  /// Ahead-of-time compilation: get() for its side effect of filling the caches. Needs tileiras unless the
  /// entry is already there.
  std::shared_ptr<const CachedCubin> compile_ahead(std::span<const uint8_t> bytecode,
                                                   const CompileOptions& options,
                                                   std::string_view kernel_name) {
    return get(bytecode, options, kernel_name);
  }

  /// Compiles with tileiras without reading either cache (for kernels being dumped, so that a dump never
  /// goes missing), then stores the result in both like get() does.
  std::shared_ptr<const CachedCubin> compile_fresh(std::span<const uint8_t> bytecode,
                                                   const CompileOptions& options,
                                                   std::string_view kernel_name,
                                                   std::span<const uint8_t> identity = {});

  /// Where the disk entry of `key` lives (whether or not it exists).
  std::filesystem::path entry_path(const CacheKey& key) const;
  /// The entry's lock file, <hex>.lock beside it, which exists while a process compiles the key.
  std::filesystem::path lock_path(const CacheKey& key) const;

  const CacheConfig& config() const { return config_; }
  /// False when the disk cache is off, or once its directory could not be created or an entry could not be
  /// written (reported once on stderr). Entries already there are still read; new ones stay in memory.
  bool disk_writable() const { return writable_.load(); }
  CacheStats stats() const;

 private:
  using Result = std::shared_ptr<const CachedCubin>;
  struct Slot {
    std::shared_future<Result> future;
    uint64_t id = 0;  ///< tells a failed compilation's own slot from one that replaced it
  };
  struct Counters {
    std::atomic<uint64_t> memory_hits{0}, disk_hits{0}, compiles{0}, corrupt_entries{0}, stale_entries{0},
        evictions{0}, disk_errors{0};
  };

  Result load_or_compile(const CacheKey& key, std::span<const uint8_t> bytecode,
                         const CompileOptions& options, std::string_view kernel_name);
  /// The disk entry of `key` when it can be served, else null.
  Result load(const CacheKey& key, std::span<const uint8_t> bytecode);
  /// The key's lock across processes, waited for up to the compile timeout; not held when the disk cache
  /// is not written to, when the lock cannot be taken (reported) or when waiting for it ran out.
  KeyLock lock_key(const CacheKey& key, const CompileOptions& options, std::string_view kernel_name);
  /// Compiles with tileiras; `store`: and writes the entry, which only the key's lock holder does.
  Result compile(const CacheKey& key, std::span<const uint8_t> bytecode, const CompileOptions& options,
                 std::string_view kernel_name, bool store);
  std::optional<CacheEntry> read_entry(const CacheKey& key);
  /// Reports a corrupt or untrusted entry (`kind`) once on stderr and deletes it.
  void discard(const std::filesystem::path& path, std::string_view kind, const std::string& why);
  void write_entry(const CacheEntry& entry);
  void evict(const std::filesystem::path& keep);
  void disable_writes(const std::string& reason);

  CacheConfig config_;
  std::atomic<bool> writable_;
  std::mutex mutex_;
  std::map<CacheKey, Slot> memory_;
  uint64_t next_slot_id_ = 0;
  std::once_flag toolchain_once_;
  std::optional<Toolchain> toolchain_;
  std::string toolchain_missing_;
  Counters counters_;
};

}  // namespace cutile::compile
