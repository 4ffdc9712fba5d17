#include "compile/subprocess.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <thread>

#include "compile/unique_fd.hpp"
#include "cutile/error.hpp"

extern char** environ;

namespace cutile::compile {
namespace {

using Clock = std::chrono::steady_clock;

// After SIGKILL the pipes close as soon as the group is gone; this bounds the wait if something escaped it.
constexpr auto kDrainAfterKill = std::chrono::milliseconds(1000);
// How often the child's exit is checked: soon at first, as most runs are short, then at most this often.
constexpr auto kFirstExitPoll = std::chrono::milliseconds(1);
constexpr auto kLastExitPoll = std::chrono::milliseconds(50);

// Both ends close on exec; the child gets its copies through dup2, which clears the flag.
struct Pipe {
  UniqueFd read_end, write_end;
  Pipe() {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0)
      throw RuntimeError(std::string("pipe2 failed: ") + std::strerror(errno));
    read_end.reset(fds[0]);
    write_end.reset(fds[1]);
  }
};

std::vector<std::string> child_environment(const SubprocessOptions& options) {
  std::vector<std::string> env;
  for (char** entry = environ; entry && *entry; ++entry) {
    std::string_view text(*entry);
    std::string_view key = text.substr(0, text.find('='));
    bool overridden = false;
    for (const auto& [name, value] : options.environment) overridden = overridden || name == key;
    if (!overridden) env.emplace_back(text);
  }
  for (const auto& [name, value] : options.environment)
    if (value) env.push_back(name + "=" + *value);
  return env;
}

std::vector<char*> c_strings(std::vector<std::string>& words) {
  std::vector<char*> pointers;
  for (auto& word : words) pointers.push_back(word.data());
  pointers.push_back(nullptr);
  return pointers;
}

// Owns the spawn attributes and file actions, which must be destroyed on every path.
struct SpawnSetup {
  posix_spawn_file_actions_t actions;
  posix_spawnattr_t attributes;
  SpawnSetup() {
    posix_spawn_file_actions_init(&actions);
    posix_spawnattr_init(&attributes);
  }
  ~SpawnSetup() {
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
  }
};

// Reads whatever is available; returns false at end of file.
bool drain(int fd, std::string& into) {
  char buffer[65536];
  for (;;) {
    ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n > 0) {
      into.append(buffer, static_cast<size_t>(n));
      return true;
    }
    if (n == 0) return false;
    if (errno == EINTR) continue;
    return false;
  }
}

// Whether the child has been reaped into `status`; `flags` as for waitpid.
bool reaped(pid_t pid, int& status, int flags) {
  for (;;) {
    const pid_t got = ::waitpid(pid, &status, flags);
    if (got == pid) return true;
    if (got < 0 && errno == EINTR) continue;
    // ECHILD: a host that ignores SIGCHLD has it reaped by the kernel, and its status is lost.
    return got < 0 && errno == ECHILD;
  }
}

}  // namespace

SubprocessResult run_subprocess(const std::vector<std::string>& argv, const SubprocessOptions& options) {
  if (argv.empty()) throw InternalError("run_subprocess called with an empty argv");

  std::vector<std::string> args = argv;
  std::vector<std::string> env = child_environment(options);
  std::vector<char*> c_args = c_strings(args);
  std::vector<char*> c_env = c_strings(env);

  Pipe out, err;

  // posix_spawn rather than fork: safe in multi-threaded hosts, and exec failures come back as its result.
  SpawnSetup setup;
  posix_spawn_file_actions_addopen(&setup.actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&setup.actions, out.write_end.get(), STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&setup.actions, err.write_end.get(), STDERR_FILENO);
  // A new process group, so that a timeout can kill the child and everything it started.
  posix_spawnattr_setpgroup(&setup.attributes, 0);
  // A host that ignores SIGPIPE must not pass that on; the child gets default dispositions and no mask.
  sigset_t defaults, empty;
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGPIPE);
  sigemptyset(&empty);
  posix_spawnattr_setsigdefault(&setup.attributes, &defaults);
  posix_spawnattr_setsigmask(&setup.attributes, &empty);
  posix_spawnattr_setflags(&setup.attributes,
                           POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);

  const auto start = Clock::now();
  pid_t pid = -1;
  int spawn_error =
      ::posix_spawnp(&pid, c_args[0], &setup.actions, &setup.attributes, c_args.data(), c_env.data());
  if (spawn_error != 0) throw RuntimeError("cannot run '" + argv[0] + "': " + std::strerror(spawn_error));
  out.write_end.reset();
  err.write_end.reset();

  SubprocessResult result;
  std::array<pollfd, 2> fds{pollfd{out.read_end.get(), POLLIN, 0}, pollfd{err.read_end.get(), POLLIN, 0}};
  std::array<std::string*, 2> sinks{&result.stdout_text, &result.stderr_text};
  const auto pipes_open = [&] { return fds[0].fd >= 0 || fds[1].fd >= 0; };
  auto deadline = options.timeout.count() > 0 ? start + options.timeout : Clock::time_point::max();
  auto exit_poll = kFirstExitPoll;
  bool exited = false, killed = false;
  int status = 0;
  // The child's exit is polled for: end of file on its pipes says nothing about it (it can close them and
  // run on), and a helper it left behind can hold them open after it exited.
  while (!exited || pipes_open()) {
    if (!exited && reaped(pid, status, WNOHANG)) {
      exited = true;
      ::kill(-pid, SIGKILL);  // what it started must not outlive it
      deadline = std::min(deadline, Clock::now() + kDrainAfterKill);
      continue;
    }
    const auto now = Clock::now();
    if (now >= deadline) {
      if (exited || killed) break;  // the group is dead but someone outside it still holds a pipe
      ::kill(-pid, SIGKILL);
      killed = result.timed_out = true;
      deadline = now + kDrainAfterKill;
      exit_poll = kFirstExitPoll;
      continue;
    }
    auto wait = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now);
    if (!exited) {
      wait = std::min(wait, exit_poll);
      exit_poll = std::min(exit_poll * 2, kLastExitPoll);
    }
    if (!pipes_open()) {
      std::this_thread::sleep_for(wait);
      continue;
    }
    if (::poll(fds.data(), fds.size(), static_cast<int>(wait.count())) < 0 && errno != EINTR) {
      fds[0].fd = fds[1].fd = -1;  // cannot read on: wait for the child alone
      continue;
    }
    for (size_t i = 0; i < fds.size(); ++i)
      if (fds[i].fd >= 0 && (fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
        if (!drain(fds[i].fd, *sinks[i])) {
          fds[i].fd = -1;              // negative fds are skipped by poll
          exit_poll = kFirstExitPoll;  // the exit usually follows closed output closely
        }
  }
  if (!exited) reaped(pid, status, 0);  // killed: SIGKILL ends it
  result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) result.signal = WTERMSIG(status);
  return result;
}

std::string shell_quote(const std::string& word) {
  bool plain = !word.empty();
  for (char c : word)
    plain = plain && c != '\0' &&
            (std::isalnum(static_cast<unsigned char>(c)) || std::strchr("@%_-+=:,./", c) != nullptr);
  if (plain) return word;
  std::string quoted = "'";
  for (char c : word) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

}  // namespace cutile::compile
