// The main() of the example, benchmark and tool programs: run, and turn a cutile error or a bad
// argument (std::stoll and friends) into its message on stderr and exit status 2 instead of a crash.
#pragma once

#include <cstdio>
#include <exception>

#include "cutile/error.hpp"

namespace program {

inline int run_guarded(int (*run)(int, char**), int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const cutile::Error& e) {
    std::fprintf(stderr, "%s\n", e.what());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: %s\n", argc > 0 ? argv[0] : "cutile", e.what());
  }
  return 2;
}

}  // namespace program
