#include "cutile/compile/dump.hpp"

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>

#include "cutile/compile/cache_key.hpp"
#include "cutile/error.hpp"

namespace cutile::compile {
namespace fs = std::filesystem;

namespace {

constexpr size_t kMaxStem = 120;
constexpr size_t kKeptPrefix = 100;

void write_file(const fs::path& path, std::string_view bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  out.close();
  if (!out) throw RuntimeError("cannot write dump file " + path.string() + ": " + std::strerror(errno));
}

std::string trim(std::string_view word) {
  while (!word.empty() && std::isspace(static_cast<unsigned char>(word.front()))) word.remove_prefix(1);
  while (!word.empty() && std::isspace(static_cast<unsigned char>(word.back()))) word.remove_suffix(1);
  std::string lowered(word);
  for (char& c : lowered) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return lowered;
}

}  // namespace

DumpConfig DumpConfig::from_env() {
  DumpConfig config;
  if (const char* value = std::getenv("CUTILE_DUMP")) {
    std::string_view words = value;
    while (!words.empty()) {
      size_t comma = words.find(',');
      std::string word = trim(words.substr(0, comma));
      words.remove_prefix(comma == std::string_view::npos ? words.size() : comma + 1);
      if (word.empty()) continue;
      if (word == "ir") {
        config.ir = true;
      } else if (word == "bytecode") {
        config.bytecode = true;
      } else if (word == "all") {
        config.ir = config.bytecode = true;
      } else {
        throw UserError("CUTILE_DUMP='" + std::string(value) + "': unknown word '" + word +
                        "'; valid words are ir, bytecode and all, separated by commas");
      }
    }
  }
  if (const char* filter = std::getenv("CUTILE_DUMP_FILTER")) config.filter = filter;
  if (const char* dir = std::getenv("CUTILE_DUMP_DIR"); dir && *dir) config.dir = dir;
  return config;
}

bool DumpConfig::wants(std::string_view kernel) const {
  return (ir || bytecode) && kernel.find(filter) != std::string_view::npos;
}

std::string dump_file_stem(std::string_view kernel) {
  std::string stem;
  for (char c : kernel)
    stem += std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.' ? c : '_';
  if (stem.empty() || stem.find_first_not_of('.') == std::string::npos) stem = "kernel" + stem;
  if (stem.size() > kMaxStem) {
    auto digest = sha256({reinterpret_cast<const uint8_t*>(kernel.data()), kernel.size()});
    stem = stem.substr(0, kKeptPrefix) + "-" + to_hex(digest).substr(0, 16);
  }
  return stem;
}

void write_dump(const DumpConfig& config, std::string_view kernel, std::string_view ir_text,
                std::span<const uint8_t> bytecode) {
  if (!config.ir && !config.bytecode) return;
  std::error_code ec;
  fs::create_directories(config.dir, ec);
  if (ec) throw RuntimeError("cannot create dump directory " + config.dir.string() + ": " + ec.message());
  const std::string stem = dump_file_stem(kernel);
  if (config.ir) write_file(config.dir / (stem + ".mlir"), ir_text);
  if (config.bytecode)
    write_file(config.dir / (stem + ".tileirbc"),
               {reinterpret_cast<const char*>(bytecode.data()), bytecode.size()});
}

}  // namespace cutile::compile
