#include "cutile/compile/cache_key.hpp"

#include <openssl/evp.h>

#include <memory>
#include <string_view>

#include "cutile/error.hpp"

namespace cutile::compile {
namespace {

constexpr std::string_view kDomainTag{"cutile-cubin-cache\0", 19};

// Incremental SHA-256, so that the bytecode is hashed in place rather than copied into one buffer.
class Sha256 {
 public:
  Sha256() : context_(EVP_MD_CTX_new(), &EVP_MD_CTX_free) {
    if (!context_ || EVP_DigestInit_ex(context_.get(), EVP_sha256(), nullptr) != 1)
      throw InternalError("OpenSSL could not start a SHA-256 digest");
  }

  void update(const void* data, size_t size) {
    if (size && EVP_DigestUpdate(context_.get(), data, size) != 1)
      throw InternalError("OpenSSL SHA-256 update failed");
  }

  void little_endian(uint64_t value, int bytes) {
    uint8_t encoded[8];
    for (int i = 0; i < bytes; ++i) encoded[i] = static_cast<uint8_t>(value >> (8 * i));
    update(encoded, static_cast<size_t>(bytes));
  }

  void field(const void* data, size_t size) {
    little_endian(size, 8);
    update(data, size);
  }

  Sha256Digest finish() {
    Sha256Digest digest{};
    unsigned int length = 0;
    if (EVP_DigestFinal_ex(context_.get(), digest.data(), &length) != 1 || length != digest.size())
      throw InternalError("OpenSSL SHA-256 finalisation failed");
    return digest;
  }

 private:
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> context_;
};

}  // namespace

Sha256Digest sha256(std::span<const uint8_t> bytes) {
  Sha256 hash;
  hash.update(bytes.data(), bytes.size());
  return hash.finish();
}

std::string to_hex(const Sha256Digest& digest) {
  constexpr char kDigits[] = "0123456789abcdef";
  std::string hex;
  hex.reserve(digest.size() * 2);
  for (uint8_t byte : digest) {
    hex += kDigits[byte >> 4];
    hex += kDigits[byte & 0xf];
  }
  return hex;
}

CacheKey cubin_cache_key(std::span<const uint8_t> bytecode, const CompileOptions& options) {
  Sha256 hash;
  hash.update(kDomainTag.data(), kDomainTag.size());
  hash.little_endian(kCacheFormatVersion, 4);
  hash.field(bytecode.data(), bytecode.size());
  hash.field(options.gpu_name.data(), options.gpu_name.size());
  hash.little_endian(4, 8);
  hash.little_endian(static_cast<uint32_t>(options.opt_level), 4);
  const uint8_t lineinfo = options.lineinfo ? 1 : 0;
  hash.field(&lineinfo, 1);
  return CacheKey{hash.finish()};
}

}  // namespace cutile::compile
