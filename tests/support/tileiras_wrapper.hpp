// A toolchain whose tileiras is a shell script around the real one, for tests of a tileiras that
// misbehaves: exits 0 with a bad cubin, hangs after closing its output, prints control bytes.
#pragma once

#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "compile/subprocess.hpp"
#include "cutile/compile/toolchain.hpp"
#include "support/temp_dir.hpp"

namespace cutile::test_support {

class TileirasWrapper {
 public:
  /// `body` is the script's compile branch, a POSIX shell fragment: it sees tileiras' arguments ("$1" the
  /// input, "$3" the output) and $REAL, the real tileiras. --version and --list-versions go to the real
  /// one, so that find_toolchain() accepts the script (ptxas and libNVVM are linked in beside it).
  TileirasWrapper(const compile::Toolchain& real, const std::string& body) : toolchain_(real) {
    namespace fs = std::filesystem;
    const fs::path bin = dir_.path() / "bin";
    const fs::path nvvm = dir_.path() / real.libnvvm.lexically_relative(real.cuda_home);
    fs::create_directories(bin);
    fs::create_directories(nvvm.parent_path());
    fs::create_symlink(real.ptxas, bin / "ptxas");
    fs::create_symlink(real.libnvvm, nvvm);
    toolchain_.tileiras = bin / "tileiras";
    std::ofstream(toolchain_.tileiras)
        << "#!/bin/sh\nREAL=" << compile::shell_quote(real.tileiras.string())
        << "\nexport CUDA_HOME=" << compile::shell_quote(real.cuda_home.string())
        << "\ncase \"$1\" in --version|--list-versions) exec \"$REAL\" \"$@\";; esac\n"
        << body << "\n";
    ::chmod(toolchain_.tileiras.c_str(), 0755);
  }

  /// The real toolchain with the script as its tileiras, for compile_to_cubin().
  const compile::Toolchain& toolchain() const { return toolchain_; }
  /// The script, for CUTILE_TILEIRAS.
  const std::filesystem::path& path() const { return toolchain_.tileiras; }
  /// A scratch directory beside the script, for files the body writes (pid files, logs).
  std::filesystem::path scratch() const { return dir_.path(); }

 private:
  TempDir dir_{"cutile-wrapped-tileiras"};
  compile::Toolchain toolchain_;
};

}  // namespace cutile::test_support
