#include "cutile/compile/toolchain.hpp"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <set>

#include "compile/subprocess.hpp"
#include "cutile/error.hpp"

namespace cutile::compile {
namespace fs = std::filesystem;

namespace {

constexpr std::chrono::milliseconds kProbeTimeout{30000};

std::string env_or_empty(const char* name) {
  const char* value = std::getenv(name);
  return value ? value : "";
}

bool is_executable_file(const fs::path& path) {
  std::error_code ec;
  return fs::is_regular_file(path, ec) && ::access(path.c_str(), X_OK) == 0;
}

// "13.4" of "13.4.92": releases of one toolchain must agree on major.minor.
std::string major_minor(const std::string& release) {
  auto first = release.find('.');
  if (first == std::string::npos) return release;
  return release.substr(0, release.find('.', first + 1));
}

std::string first_line(const std::string& text) {
  auto line = text.substr(0, text.find('\n'));
  return line.empty() ? "(no output)" : line;
}

std::string join(const std::vector<ir::Version>& versions) {
  std::string text;
  for (const auto& version : versions) text += (text.empty() ? "" : ", ") + version.str();
  return text;
}

SubprocessResult run_probe(const fs::path& program, const std::string& flag, const fs::path& cuda_home) {
  SubprocessOptions options;
  options.environment = {{"CUDA_HOME", cuda_home.string()}};
  options.timeout = kProbeTimeout;
  return run_subprocess({program.string(), flag}, options);
}

// The pip wheels record their versions in dist-info directories beside the nvidia/ package.
std::optional<std::string> wheel_version(const fs::path& site_packages, const std::string& distribution) {
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(site_packages, ec)) {
    std::string name = entry.path().filename().string();
    std::string prefix = distribution + "-";
    if (name.starts_with(prefix) && name.ends_with(".dist-info"))
      return name.substr(prefix.size(), name.size() - prefix.size() - std::string(".dist-info").size());
  }
  return std::nullopt;
}

std::optional<Toolchain> probe_unchecked(const fs::path& tileiras, std::string* problem) {
  auto fail = [&](std::string why) {
    *problem = std::move(why);
    return std::optional<Toolchain>();
  };
  std::error_code ec;
  if (!fs::exists(tileiras, ec)) return fail("no such file");
  if (!is_executable_file(tileiras)) return fail("not an executable file");

  Toolchain toolchain;
  toolchain.tileiras = fs::canonical(tileiras, ec);  // helpers live beside the real file, not a symlink
  if (ec) toolchain.tileiras = tileiras;
  const fs::path bin = toolchain.tileiras.parent_path();
  toolchain.cuda_home = bin.parent_path();

  toolchain.ptxas = bin / "ptxas";
  if (!is_executable_file(toolchain.ptxas))
    return fail("no executable ptxas beside it (expected " + toolchain.ptxas.string() +
                "; install nvidia-cuda-nvcc of the same release)");
  // The two places tileiras itself looks under CUDA_HOME: a CUDA toolkit, then the pip wheel layout.
  for (const char* relative : {"nvvm/lib64/libnvvm.so", "lib/libnvvm.so.4"})
    if (fs::is_regular_file(toolchain.cuda_home / relative, ec)) {
      toolchain.libnvvm = toolchain.cuda_home / relative;
      break;
    }
  if (toolchain.libnvvm.empty())
    return fail("no libNVVM under " + toolchain.cuda_home.string() +
                " (expected nvvm/lib64/libnvvm.so or lib/libnvvm.so.4; install nvidia-nvvm of the "
                "same release)");
  if (is_executable_file(bin / "tileirdisasm")) toolchain.tileirdisasm = bin / "tileirdisasm";

  auto version = run_probe(toolchain.tileiras, "--version", toolchain.cuda_home);
  if (!version.succeeded()) return fail("`tileiras --version` failed: " + first_line(version.stderr_text));
  auto release = parse_release(version.stdout_text);
  if (!release) return fail("unrecognized `tileiras --version` output: " + first_line(version.stdout_text));
  toolchain.release = *release;
  toolchain.version_text = version.stdout_text;

  // A libNVVM or ptxas of another release makes tileiras fail with no useful message, so check here.
  auto ptxas_version = run_probe(toolchain.ptxas, "--version", toolchain.cuda_home);
  auto ptxas_release = parse_release(ptxas_version.stdout_text);
  if (!ptxas_version.succeeded() || !ptxas_release)
    return fail("`" + toolchain.ptxas.string() + " --version` failed");
  if (major_minor(*ptxas_release) != major_minor(toolchain.release))
    return fail("ptxas is release " + *ptxas_release + " but tileiras is " + toolchain.release +
                "; they must be of the same release");
  const fs::path site_packages = toolchain.cuda_home.parent_path().parent_path();
  if (auto nvvm = wheel_version(site_packages, "nvidia_nvvm");
      nvvm && major_minor(*nvvm) != major_minor(toolchain.release))
    return fail("libNVVM is release " + *nvvm + " but tileiras is " + toolchain.release +
                "; they must be of the same release");

  auto list = run_probe(toolchain.tileiras, "--list-versions", toolchain.cuda_home);
  toolchain.bytecode_versions = parse_version_list(list.stdout_text);
  if (!list.succeeded() || toolchain.bytecode_versions.empty())
    return fail("`tileiras --list-versions` listed no bytecode versions");
  return toolchain;
}

// Checks one tileiras and its helpers; on failure returns nullopt and says why in *problem.
std::optional<Toolchain> probe(const fs::path& tileiras, std::string* problem) {
  try {
    return probe_unchecked(tileiras, problem);
  } catch (const RuntimeError& error) {  // a file that cannot be executed at all
    *problem = error.message();
    return std::nullopt;
  }
}

// Where a toolchain prefix keeps tileiras: the pip layout (our installer adds python/), or a CUDA toolkit.
std::vector<fs::path> bin_dirs_under(const fs::path& prefix) {
  std::vector<fs::path> dirs;
  for (const fs::path& nvidia : {prefix / "python" / "nvidia", prefix / "nvidia"}) {
    std::vector<fs::path> releases;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(nvidia, ec))
      if (entry.path().filename().string().starts_with("cu")) releases.push_back(entry.path() / "bin");
    std::sort(releases.rbegin(), releases.rend());  // cu14 before cu13
    dirs.insert(dirs.end(), releases.begin(), releases.end());
  }
  dirs.push_back(prefix / "bin");
  return dirs;
}

// /usr/local/cuda, then /usr/local/cuda-X.Y newest first.
std::vector<fs::path> system_cuda_bin_dirs() {
  std::vector<std::pair<std::pair<int, int>, fs::path>> versioned;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator("/usr/local", ec)) {
    std::string name = entry.path().filename().string();
    int major = 0, minor = 0;
    if (name.starts_with("cuda-") && std::sscanf(name.c_str(), "cuda-%d.%d", &major, &minor) == 2)
      versioned.push_back({{major, minor}, entry.path() / "bin"});
  }
  std::sort(versioned.rbegin(), versioned.rend());
  std::vector<fs::path> dirs{"/usr/local/cuda/bin"};
  for (const auto& [version, dir] : versioned) dirs.push_back(dir);
  return dirs;
}

std::vector<fs::path> path_dirs() {
  std::vector<fs::path> dirs;
  std::string path = env_or_empty("PATH");
  for (size_t begin = 0; begin <= path.size();) {
    size_t end = std::min(path.find(':', begin), path.size());
    if (end > begin) dirs.emplace_back(path.substr(begin, end - begin));
    begin = end + 1;
  }
  return dirs;
}

std::string describe(const std::vector<fs::path>& dirs) {
  std::string text;
  for (const auto& dir : dirs) text += (text.empty() ? "" : ", ") + dir.string();
  return text;
}

// find_toolchain() with the reason always collected.
std::optional<Toolchain> search(std::string& why) {
  if (std::string explicit_binary = env_or_empty("CUTILE_TILEIRAS"); !explicit_binary.empty()) {
    std::string problem;
    if (auto toolchain = probe(explicit_binary, &problem)) return toolchain;
    why = "CUTILE_TILEIRAS=" + explicit_binary + ": " + problem;
    return std::nullopt;
  }

  std::vector<fs::path> dirs;
  std::string explicit_dir = env_or_empty("CUTILE_TOOLCHAIN_DIR");
  if (!explicit_dir.empty()) {
    dirs = bin_dirs_under(explicit_dir);
  } else {
#ifdef CUTILE_TOOLCHAIN_PREFIX
    dirs = bin_dirs_under(CUTILE_TOOLCHAIN_PREFIX);
#endif
    for (auto& dir : path_dirs()) dirs.push_back(dir);
    if (std::string cuda_home = env_or_empty("CUDA_HOME"); !cuda_home.empty())
      dirs.push_back(fs::path(cuda_home) / "bin");
    for (auto& dir : system_cuda_bin_dirs()) dirs.push_back(dir);
  }

  std::set<fs::path> probed;
  std::string problems;
  for (const auto& dir : dirs) {
    fs::path candidate = dir / "tileiras";
    std::error_code ec;
    if (!fs::exists(candidate, ec)) continue;
    fs::path real = fs::canonical(candidate, ec);
    if (!probed.insert(ec ? candidate : real).second) continue;
    std::string problem;
    if (auto toolchain = probe(candidate, &problem)) return toolchain;
    problems += "; " + candidate.string() + ": " + problem;
  }
  why = explicit_dir.empty()
            ? "no usable tileiras in this project's .toolchain, on PATH, in $CUDA_HOME/bin or "
              "/usr/local/cuda*/bin"
            : "CUTILE_TOOLCHAIN_DIR=" + explicit_dir + ": no usable tileiras in " + describe(dirs);
  why += problems;
  return std::nullopt;
}

}  // namespace

std::optional<std::string> parse_release(std::string_view version_output) {
  constexpr std::string_view marker = ", V";
  auto line_start = version_output.find("release ");
  if (line_start == std::string_view::npos) return std::nullopt;
  auto at = version_output.find(marker, line_start);
  if (at == std::string_view::npos) return std::nullopt;
  auto begin = at + marker.size();
  auto end = version_output.find_first_not_of("0123456789.", begin);
  std::string release(version_output.substr(begin, end == std::string_view::npos ? end : end - begin));
  if (release.empty()) return std::nullopt;
  return release;
}

std::vector<ir::Version> parse_version_list(std::string_view list_output) {
  std::vector<ir::Version> versions;
  while (!list_output.empty()) {
    auto end = list_output.find('\n');
    std::string_view line = list_output.substr(0, end);
    while (!line.empty() && std::isspace(static_cast<unsigned char>(line.back()))) line.remove_suffix(1);
    while (!line.empty() && std::isspace(static_cast<unsigned char>(line.front()))) line.remove_prefix(1);
    if (auto version = ir::parse_version(line)) versions.push_back(*version);
    list_output.remove_prefix(end == std::string_view::npos ? list_output.size() : end + 1);
  }
  std::sort(versions.begin(), versions.end());
  versions.erase(std::unique(versions.begin(), versions.end()), versions.end());
  return versions;
}

std::optional<Toolchain> find_toolchain(std::string* why_not) {
  std::string why;
  auto found = search(why);
  if (!found && why_not) *why_not = why;
  return found;
}

Toolchain require_toolchain() {
  std::string why;
  if (auto toolchain = find_toolchain(&why)) return *toolchain;
  throw RuntimeError("the Tile IR compiler (tileiras) is missing: " + why +
                     ". Install tileiras with its ptxas and libNVVM by running scripts/install_toolchain.sh "
                     "(pip wheels nvidia-cuda-tileiras, nvidia-cuda-nvcc and nvidia-nvvm of one release), "
                     "or point CUTILE_TILEIRAS at a tileiras binary or CUTILE_TOOLCHAIN_DIR at its prefix");
}

std::vector<ir::Version> supported_bytecode_versions(const Toolchain& toolchain) {
  std::vector<ir::Version> supported;
  for (const auto& version : toolchain.bytecode_versions)
    if (version >= ir::kOldestVersion && version <= ir::kNewestVersion) supported.push_back(version);
  return supported;
}

namespace {

std::vector<ir::Version> require_supported_versions(const Toolchain& toolchain) {
  auto supported = supported_bytecode_versions(toolchain);
  if (supported.empty())
    throw RuntimeError("tileiras " + toolchain.release + " (" + toolchain.tileiras.string() +
                       ") reads none of the bytecode versions cutile writes (" + ir::kOldestVersion.str() +
                       " to " + ir::kNewestVersion.str() +
                       "); it lists: " + join(toolchain.bytecode_versions));
  return supported;
}

}  // namespace

ir::Version newest_bytecode_version(const Toolchain& toolchain) {
  return require_supported_versions(toolchain).back();
}

ir::Version select_bytecode_version(const Toolchain& toolchain, std::optional<ir::Version> requested) {
  const auto supported = require_supported_versions(toolchain);
  std::string source = "requested";
  if (!requested) {
    if (std::string text = env_or_empty("CUTILE_BYTECODE_VERSION"); !text.empty()) {
      requested = ir::parse_version(text);
      if (!requested)
        throw UserError("CUTILE_BYTECODE_VERSION='" + text +
                        "' is not a bytecode version; supported: " + join(supported));
      source = "requested by CUTILE_BYTECODE_VERSION";
    }
  }
  if (requested) {
    if (std::find(supported.begin(), supported.end(), *requested) != supported.end()) return *requested;
    throw UserError("bytecode version " + requested->str() + " (" + source +
                    ") is not supported with tileiras " + toolchain.release +
                    "; supported: " + join(supported));
  }
  // The newest supported version not past the default; a toolchain newer than all of those gets its oldest.
  for (auto it = supported.rbegin(); it != supported.rend(); ++it)
    if (*it <= ir::kDefaultVersion) return *it;
  return supported.front();
}

}  // namespace cutile::compile
