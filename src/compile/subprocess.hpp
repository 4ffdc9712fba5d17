// Runs a program without a shell, with pipes for its output, an environment override and a timeout.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cutile::compile {

struct SubprocessOptions {
  /// Changes to the inherited environment: a value sets the variable, nullopt removes it.
  std::vector<std::pair<std::string, std::optional<std::string>>> environment;
  /// Zero means no limit. The limit covers the child's whole life, whether or not its output is still
  /// open. On expiry the child's whole process group gets SIGKILL, so helpers it started (tileiras runs
  /// ptxas) die with it and cannot keep the pipes open; whatever the child leaves running in its group
  /// when it exits gets SIGKILL then.
  std::chrono::milliseconds timeout{0};
};

struct SubprocessResult {
  int exit_code = -1;  ///< -1 when the child did not exit normally
  int signal = 0;      ///< the signal that ended the child, 0 when it exited
  bool timed_out = false;
  std::string stdout_text;
  std::string stderr_text;
  double seconds = 0;  ///< wall time from start to reaping

  bool succeeded() const { return exit_code == 0 && !timed_out; }
};

/// argv[0] is a path or a name looked up on PATH. Throws cutile::RuntimeError when the program
/// cannot be started; any exit status, signal or timeout is reported in the result instead. The child
/// gets SIGKILL if the host dies first (PR_SET_PDEATHSIG), so that a killed host leaves no tileiras behind.
SubprocessResult run_subprocess(const std::vector<std::string>& argv, const SubprocessOptions& options = {});

/// Quotes one word for a POSIX shell, for command lines written into logs and reproducers.
std::string shell_quote(const std::string& word);

}  // namespace cutile::compile
