// The `cutile` command. `cutile doctor` reports what this machine offers for compiling and running
// kernels, and what is missing; it always exits 0 so that it can be run anywhere for a diagnosis.
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <string>
#include <string_view>
#include <vector>

#include "cutile/compile/cache_dir.hpp"
#include "cutile/compile/toolchain.hpp"
#include "cutile/error.hpp"
#include "cutile/runtime/device.hpp"
#include "cutile/runtime/driver_api.hpp"

namespace {

namespace fs = std::filesystem;
using namespace cutile;

constexpr std::string_view kUsage =
    "usage: cutile <command>\n"
    "commands:\n"
    "  doctor     report the Tile IR toolchain, CUDA driver, GPUs and cache directory\n"
    "  version    print the cutile version\n"
    "  help       print this message\n";

// Said where there is no driver or no GPU: what runs kernels then.
constexpr std::string_view kInterpreterWithoutGpu =
    "the CPU interpreter runs kernels without a CUDA driver or GPU: Device::cpu(), "
    "or CUTILE_BACKEND=interpret";

// Collects problems while the report is printed, to list them together at the end.
struct Report {
  std::ostream& out;
  std::vector<std::string> missing;

  void heading(std::string_view title) { out << "\n" << title << "\n"; }
  void row(std::string_view key, const std::string& value) {
    out << "  " << std::left << std::setw(14) << key << value << "\n";
  }
};

std::string join(const std::vector<ir::Version>& versions) {
  std::string text;
  for (const auto& version : versions) text += (text.empty() ? "" : " ") + version.str();
  return text;
}

void report_toolchain(Report& report) {
  report.heading("toolchain");
  std::string why;
  auto toolchain = compile::find_toolchain(&why);
  if (!toolchain) {
    report.row("tileiras", "not found");
    report.missing.push_back("tileiras: " + why + " (install with scripts/install_toolchain.sh)");
    return;
  }
  report.row("tileiras", toolchain->tileiras.string());
  report.row("release", toolchain->release);
  std::string bytecode = join(toolchain->bytecode_versions);
  try {
    bytecode += " (writes " + compile::select_bytecode_version(*toolchain).str() + ", newest usable " +
                compile::newest_bytecode_version(*toolchain).str() + ")";
  } catch (const Error& error) {
    report.missing.push_back("a usable bytecode version: " + error.message());
  }
  report.row("bytecode", bytecode);
  report.row("tileirdisasm",
             toolchain->tileirdisasm.empty() ? "(not installed)" : toolchain->tileirdisasm.string());
  report.row("ptxas", toolchain->ptxas.string());
  report.row("libnvvm", toolchain->libnvvm.string());
  report.row("CUDA_HOME", toolchain->cuda_home.string() + " (set for tileiras)");
}

void report_driver(Report& report) {
  report.heading("cuda driver");
  std::string why;
  if (!runtime::driver_available(&why)) {
    report.row("driver", "not available");
    report.row("interpreter", std::string(kInterpreterWithoutGpu));
    report.missing.push_back("CUDA driver: " + why);
    return;
  }
  try {
    int version = runtime::driver_version();
    report.row("version", std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10) + " (" +
                              std::to_string(version) + ")");
    int count = runtime::device_count();
    if (count == 0) {
      report.row("interpreter", std::string(kInterpreterWithoutGpu));
      report.missing.push_back("GPU: the driver sees none");
    }
    for (int i = 0; i < count; ++i) {
      auto info = runtime::device_info(i);
      report.row("gpu " + std::to_string(i),
                 info.name + ", " + info.arch + ", " + std::to_string(info.sm_count) + " SMs");
    }
  } catch (const Error& error) {
    report.missing.push_back("GPU: " + error.message());
  }
}

// Whether the cache directory can be used, without creating it.
void report_cache(Report& report) {
  report.heading("cache");
  fs::path dir;
  try {
    dir = compile::cache_dir();
  } catch (const Error& error) {
    report.row("directory", "unknown");
    report.missing.push_back("cache directory: " + error.message());
    return;
  }
  std::error_code ec;
  fs::path existing = dir;
  while (!fs::exists(existing, ec) && existing.has_relative_path()) existing = existing.parent_path();
  bool writable = ::access(existing.c_str(), W_OK) == 0;
  std::string state = existing == dir
                          ? (writable ? "writable" : "not writable")
                          : (writable ? "does not exist yet; will be created"
                                      : "cannot be created: " + existing.string() + " is not writable");
  const char* source = std::getenv("CUTILE_CACHE_DIR") ? "CUTILE_CACHE_DIR" : "default";
  report.row("directory", dir.string() + " (" + source + ", " + state + ")");
  if (!writable) report.missing.push_back("a writable cache directory: " + dir.string() + " " + state);
}

int doctor() {
  Report report{std::cout, {}};
  report.out << "cutile " << CUTILE_VERSION << "\n";
  report_toolchain(report);
  report_driver(report);
  report_cache(report);
  report.out << "\n";
  for (const auto& line : report.missing) report.out << "missing: " << line << "\n";
  if (report.missing.empty()) report.out << "everything needed is present\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string_view> args(argv + 1, argv + argc);
  std::string_view command = args.empty() ? "help" : args[0];
  if (args.size() > 1) {
    std::cerr << "cutile " << command << " takes no arguments\n" << kUsage;
    return 2;
  }
  if (command == "doctor") return doctor();
  if (command == "version" || command == "--version") {
    std::cout << "cutile " << CUTILE_VERSION << "\n";
    return 0;
  }
  if (command == "help" || command == "--help" || command == "-h") {
    std::cout << kUsage;
    return 0;
  }
  std::cerr << "cutile: unknown command '" << command << "'\n" << kUsage;
  return 2;
}
