// Runs part of a test in a forked child, so that a crash, an abort or state left behind (a failed driver
// start, a half-built cache) stays there: the child runs `body`, which returns a trivially copyable
// outcome, sends it back through a pipe and exits; the parent fails the test, naming `what`, unless the
// child exited normally with its outcome whole.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>
#include <type_traits>

namespace cutile::test_support {

template <class Body>
auto in_forked_child(const std::string& what, Body&& body) {
  using Outcome = decltype(body());
  static_assert(std::is_trivially_copyable_v<Outcome>, "an outcome crosses a pipe as bytes");
  int channel[2];
  EXPECT_EQ(pipe(channel), 0);
  const pid_t pid = fork();
  if (pid == 0) {
    close(channel[0]);
    const Outcome o = body();
    const bool written = write(channel[1], &o, sizeof o) == static_cast<ssize_t>(sizeof o);
    _exit(written ? 0 : 4);
  }
  close(channel[1]);
  Outcome o{};
  const bool read_whole = read(channel[0], &o, sizeof o) == static_cast<ssize_t>(sizeof o);
  close(channel[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0 && read_whole)
      << what << ": the child "
      << (WIFSIGNALED(status) ? "died of signal " + std::to_string(WTERMSIG(status))
                              : "exited " + std::to_string(WEXITSTATUS(status)));
  return o;
}

}  // namespace cutile::test_support
