// Whether a process is still running, for tests of what the compile path leaves behind.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>

namespace cutile::test_support {

/// Whether `pid` runs: neither gone nor a zombie that its new parent has not reaped yet.
inline bool process_alive(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  const std::string text{std::istreambuf_iterator<char>(stat), std::istreambuf_iterator<char>()};
  const auto name_end = text.rfind(')');  // the state follows the parenthesised command name
  return name_end != std::string::npos && name_end + 2 < text.size() && text[name_end + 2] != 'Z' &&
         text[name_end + 2] != 'X';
}

/// Whether `pid` stops running within `limit`.
inline bool process_ends_within(pid_t pid, std::chrono::milliseconds limit) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (process_alive(pid)) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return true;
}

}  // namespace cutile::test_support
