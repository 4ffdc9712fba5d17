// libFuzzer target for what the cubin cache reads from disk: an entry file, decoded against the key its
// own header names (so that the search gets past the key check), and the cubin it holds, checked as an
// ELF file before it would be loaded. Any input must be refused with a reason or decode; what decodes must
// encode back to the same bytes, and the cubin check must answer for any bytes.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <string>
#include <vector>

#include "cutile/compile/cubin_cache.hpp"
#include "cutile/compile/cubin_check.hpp"

namespace {

constexpr size_t kDigestOffset = 8 + 4;  // after the magic and the format version

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::span<const uint8_t> bytes(data, size);
  cutile::compile::CacheKey key;
  if (size >= kDigestOffset + key.digest.size())
    std::copy_n(data + kDigestOffset, key.digest.size(), key.digest.begin());
  std::string why;
  const auto entry = cutile::compile::decode_cache_entry(bytes, key, &why);
  if (!entry) {
    if (why.empty()) {
      std::fprintf(stderr, "an entry was refused without a reason\n");
      std::abort();
    }
  } else if (cutile::compile::encode_cache_entry(*entry) != std::vector<uint8_t>(bytes.begin(), bytes.end())) {
    std::fprintf(stderr, "a decoded entry does not encode back to its bytes\n");
    std::abort();
  }
  const std::string entries[] = {"kernel"};
  (void)cutile::compile::cubin_problem(entry ? std::span<const uint8_t>(entry->cubin) : bytes, entries);
  return 0;
}
