#include "cutile/compile/tileiras.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <iterator>
#include <mutex>

#include "compile/subprocess.hpp"
#include "compile/unique_fd.hpp"
#include "cutile/compile/cache_dir.hpp"
#include "cutile/compile/cubin_check.hpp"
#include "cutile/error.hpp"

namespace cutile::compile {
namespace fs = std::filesystem;

namespace {

// As listed by `tileiras --help` (13.4 and 13.5 list the same); which of them a bytecode version may target is tileiras' call.
constexpr std::array<std::string_view, 12> kGpuNames{"sm_80",  "sm_86",  "sm_87",  "sm_88",
                                                     "sm_89",  "sm_90",  "sm_100", "sm_103",
                                                     "sm_107", "sm_110", "sm_120", "sm_121"};
// How much of tileiras' stderr a message quotes.
constexpr size_t kDiagnosticLines = 4;
constexpr size_t kDiagnosticChars = 600;

// Scratch directories: <temp>/cutile-tileiras-XXXXXX (mkdtemp's six characters).
constexpr std::string_view kScratchPrefix = "cutile-tileiras-";
// A scratch directory untouched this long and locked by no process was left by one that died. Younger ones
// are left alone: between mkdtemp and its lock, or of a cutile that took no lock, one may still be in use.
constexpr std::time_t kStaleScratchSeconds = 3600;

fs::path scratch_base() {
  std::error_code ec;
  fs::path base = fs::temp_directory_path(ec);
  return ec ? fs::path("/tmp") : base;
}

// Removes the scratch directories that processes killed mid-compilation left in `base`: only ours (this
// user's, named so, a directory and not a link to one), only stale ones (old, and not locked by the live
// compilation that owns it).
void sweep_scratch(const fs::path& base) {
  std::error_code ec;
  for (fs::directory_iterator it(base, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (!name.starts_with(kScratchPrefix) || name.size() != kScratchPrefix.size() + 6) continue;
    UniqueFd dir(::open(it->path().c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    struct stat info {};
    if (!dir || ::fstat(dir.get(), &info) != 0 || info.st_uid != ::geteuid()) continue;
    if (std::time(nullptr) - info.st_mtime < kStaleScratchSeconds) continue;
    if (::flock(dir.get(), LOCK_EX | LOCK_NB) != 0) continue;
    std::error_code remove_ec;
    fs::remove_all(it->path(), remove_ec);
  }
}

// A private mkdtemp directory, removed with everything in it however the compilation ends, and locked
// while it exists so that no sweep takes it for stale. The first one of a process sweeps stale ones.
class TempDir {
 public:
  TempDir() {
    const fs::path base = scratch_base();
    static std::once_flag swept;
    std::call_once(swept, [&] { sweep_scratch(base); });
    std::string pattern = (base / (std::string(kScratchPrefix) + "XXXXXX")).string();
    if (::mkdtemp(pattern.data()) == nullptr)
      throw RuntimeError("cannot create a temporary directory in " + base.string() + ": " +
                         std::strerror(errno));
    path_ = pattern;
    lock_.reset(::open(path_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (lock_) ::flock(lock_.get(), LOCK_EX);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
  UniqueFd lock_;
};

void write_file(const fs::path& path, std::string_view bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  out.close();
  if (!out) throw RuntimeError("cannot write " + path.string() + ": " + std::strerror(errno));
}

std::string_view as_chars(std::span<const uint8_t> bytes) {
  return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

std::vector<uint8_t> read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::string command_line(const std::vector<std::string>& argv, const Toolchain& toolchain) {
  std::string line = "CUDA_HOME=" + shell_quote(toolchain.cuda_home.string());
  for (const auto& word : argv) line += " " + shell_quote(word);
  return line;
}

// What is wrong with the cubin of a tileiras run that exited 0, or nullopt when nothing is.
std::optional<std::string> output_problem(std::span<const uint8_t> cubin, std::span<const uint8_t> bytecode) {
  if (cubin.empty()) return "no cubin written";
  std::vector<std::string> entries;
  try {
    entries = entry_names(bytecode);
  } catch (const UserError& error) {
    return "the cubin cannot be checked, the bytecode's entries are unreadable: " + error.message();
  }
  if (auto problem = cubin_problem(cubin, entries)) return "the cubin is invalid: " + *problem;
  return std::nullopt;
}

std::string failure_status(const SubprocessResult& result, const CompileOptions& options,
                           const std::optional<std::string>& defect) {
  if (result.timed_out) return "timed out after " + std::to_string(options.timeout.count()) + " ms";
  if (result.signal != 0) return "killed by signal " + std::to_string(result.signal);
  if (result.exit_code != 0) return "exit " + std::to_string(result.exit_code);
  return "exit 0 but " + *defect;  // a clean exit fails only for what output_problem() found
}

// `line` as printable ASCII: tabs become spaces, other bytes \xNN, so that a NUL cannot cut a C string
// (what(), the C ABI's last error) short and escape sequences do not reach a terminal.
std::string printable(std::string_view line) {
  std::string text;
  for (char c : line) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte == '\t') {
      text += ' ';
    } else if (byte >= 0x20 && byte < 0x7f) {
      text += c;
    } else {
      char escaped[5];
      std::snprintf(escaped, sizeof escaped, "\\x%02x", byte);
      text += escaped;
    }
  }
  return text;
}

// tileiras' first non-blank lines, printable and at most kDiagnosticChars long; stderr.txt has them all.
std::string first_lines(const std::string& text) {
  std::string lines;
  size_t count = 0;
  for (size_t begin = 0; begin < text.size() && count < kDiagnosticLines;) {
    size_t end = std::min(text.find('\n', begin), text.size());
    // More of a line than the message can quote need not be made printable.
    std::string_view line = std::string_view(text).substr(begin, std::min(end - begin, kDiagnosticChars + 1));
    if (line.find_first_not_of(" \t\r") != std::string_view::npos)
      lines += (count++ ? " | " : "") + printable(line);
    begin = end + 1;
  }
  if (lines.size() > kDiagnosticChars) lines = lines.substr(0, kDiagnosticChars) + "...";
  return lines.empty() ? "(no diagnostics on stderr)" : lines;
}

// Kernel names may carry template arguments; a directory name may not carry '/'.
std::string file_name_part(std::string_view kernel_name) {
  std::string name;
  for (char c : kernel_name.substr(0, 80))
    name += std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.' ? c : '_';
  return name.empty() ? "kernel" : name;
}

fs::path make_bundle_dir(const fs::path& root, std::string_view kernel_name) {
  std::time_t now = std::time(nullptr);
  std::tm utc{};
  ::gmtime_r(&now, &utc);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%SZ", &utc);
  if (auto ec = create_private_directories(root, *CacheIo::system()))
    throw fs::filesystem_error("cannot create", root, ec);
  std::string base = file_name_part(kernel_name) + "-" + stamp + "-" + std::to_string(::getpid());
  for (int attempt = 0;; ++attempt) {  // two failures of one kernel within a second
    fs::path dir = root / (attempt ? base + "-" + std::to_string(attempt) : base);
    if (::mkdir(dir.c_str(), 0700) == 0) return dir;
    if (errno != EEXIST)
      throw fs::filesystem_error("cannot create", dir, std::error_code(errno, std::generic_category()));
  }
}

// Writes the bundle and returns its directory, or says why it could not.
std::string write_reproducer(const fs::path& root, std::string_view kernel_name,
                             std::span<const uint8_t> bytecode, const Toolchain& toolchain,
                             const std::vector<std::string>& argv, const std::vector<std::string>& local_argv,
                             const SubprocessResult& result, std::span<const uint8_t> cubin) {
  try {
    fs::path dir = make_bundle_dir(root, kernel_name);
    write_file(dir / "input.tileirbc", as_chars(bytecode));
    write_file(dir / "command.txt",
               "# tileiras as run for kernel '" + std::string(kernel_name) +
                   "' (its temporary input is input.tileirbc here)\n" + command_line(argv, toolchain) +
                   "\n# to reproduce, from this directory:\n" + command_line(local_argv, toolchain) + "\n");
    std::string versions = toolchain.version_text;
    versions += "tileiras: " + toolchain.tileiras.string() + "\nptxas: " + toolchain.ptxas.string() +
                "\nlibnvvm: " + toolchain.libnvvm.string() + "\n";
    write_file(dir / "versions.txt", versions);
    write_file(dir / "stderr.txt", result.stderr_text);
    if (!result.stdout_text.empty()) write_file(dir / "stdout.txt", result.stdout_text);
    if (!cubin.empty()) write_file(dir / "output.cubin", as_chars(cubin));
    return "reproducer bundle: " + dir.string();
  } catch (const std::exception& error) {
    return std::string("reproducer bundle not written: ") + error.what();
  }
}

std::vector<std::string> tileiras_argv(const Toolchain& toolchain, const std::string& input,
                                       const std::string& output, const CompileOptions& options) {
  std::vector<std::string> argv{
      toolchain.tileiras.string(), input, "-o", output, "--gpu-name", options.gpu_name};
  argv.push_back("-O" + std::to_string(options.opt_level));
  if (options.lineinfo) argv.push_back("--lineinfo");
  return argv;
}

void validate(const CompileOptions& options, std::string_view kernel_name) {
  if (std::find(kGpuNames.begin(), kGpuNames.end(), options.gpu_name) == kGpuNames.end()) {
    std::string names;
    for (auto name : kGpuNames) names += (names.empty() ? "" : ", ") + std::string(name);
    throw UserError("cannot compile kernel '" + std::string(kernel_name) + "' for gpu_name '" +
                    options.gpu_name + "': tileiras targets " + names);
  }
  if (options.opt_level < 0 || options.opt_level > 3)
    throw UserError("cannot compile kernel '" + std::string(kernel_name) + "' with opt_level " +
                    std::to_string(options.opt_level) + ": tileiras takes 0 to 3");
}

}  // namespace

std::span<const std::string_view> supported_gpu_names() {
  return kGpuNames;
}

CompileResult compile_to_cubin(const Toolchain& toolchain, std::span<const uint8_t> bytecode,
                               const CompileOptions& options, std::string_view kernel_name) {
  validate(options, kernel_name);

  TempDir temp;
  const fs::path input = temp.path() / "input.tileirbc";
  const fs::path output = temp.path() / "output.cubin";
  write_file(input, as_chars(bytecode));
  const auto argv = tileiras_argv(toolchain, input.string(), output.string(), options);

  SubprocessOptions run_options;
  // tileiras finds libNVVM only through CUDA_HOME; a CUDA_PATH of another release must not interfere.
  run_options.environment = {{"CUDA_HOME", toolchain.cuda_home.string()}, {"CUDA_PATH", std::nullopt}};
  run_options.timeout = options.timeout;
  SubprocessResult result = run_subprocess(argv, run_options);

  CompileResult compiled;
  compiled.seconds = result.seconds;
  std::optional<std::string> defect;
  if (result.succeeded()) {
    compiled.cubin = read_file(output);
    defect = output_problem(compiled.cubin, bytecode);
    if (!defect) return compiled;
  }

  fs::path root = options.reproducer_root;
  std::string bundle;
  try {
    if (root.empty()) root = cache_dir() / "reproducers";
    bundle = write_reproducer(root, kernel_name, bytecode, toolchain, argv,
                              tileiras_argv(toolchain, "input.tileirbc", "output.cubin", options), result,
                              compiled.cubin);
  } catch (const RuntimeError& error) {
    bundle = "reproducer bundle not written: " + error.message();
  }
  throw RuntimeError("tileiras failed for kernel '" + std::string(kernel_name) + "' (" +
                     failure_status(result, options, defect) + ") on " + options.gpu_name + "; " + bundle +
                     "; stderr: " + first_lines(result.stderr_text));
}

}  // namespace cutile::compile
