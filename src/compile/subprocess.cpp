#include "compile/subprocess.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cctype>
#include <cerrno>
#include <cstdlib>
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

// `name` as the shell finds it: a path as is, else the first executable of that name on this process's PATH
// (else the name, for execve to fail on).
std::string find_program(const std::string& name) {
  if (name.find('/') != std::string::npos) return name;
  const char* path = std::getenv("PATH");
  std::string_view dirs = path ? path : "/bin:/usr/bin";
  for (size_t begin = 0; begin <= dirs.size();) {
    size_t end = std::min(dirs.find(':', begin), dirs.size());
    const std::string dir(dirs.substr(begin, end - begin));
    const std::string candidate = (dir.empty() ? "." : dir) + "/" + name;
    struct stat info {};
    if (::stat(candidate.c_str(), &info) == 0 && S_ISREG(info.st_mode) &&
        ::access(candidate.c_str(), X_OK) == 0)
      return candidate;
    begin = end + 1;
  }
  return name;
}

// Makes `fd` the descriptor `target` of this process, open across exec.
void move_fd(int fd, int target) {
  if (fd == target)
    ::fcntl(fd, F_SETFD, 0);
  else
    ::dup2(fd, target);
}

// The child between fork and exec: only async-signal-safe calls, as the host may have other threads. A
// new process group, so that a timeout can kill the child and everything it started; SIGKILL when the
// thread that started it ends, which is when the host dies, since that thread waits for the child; stdin
// from /dev/null; default SIGPIPE (a host that ignores it must not pass that on) and no blocked signals.
[[noreturn]] void exec_child(const char* program, char* const* argv, char* const* envp, pid_t parent, int out,
                             int err, int report) {
  ::setpgid(0, 0);
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != parent) ::_exit(127);  // the host died before the line above
  const int null = ::open("/dev/null", O_RDONLY);
  if (null >= 0) move_fd(null, STDIN_FILENO);
  move_fd(out, STDOUT_FILENO);
  move_fd(err, STDERR_FILENO);
  struct sigaction default_action {};
  default_action.sa_handler = SIG_DFL;
  ::sigaction(SIGPIPE, &default_action, nullptr);
  sigset_t none;
  ::sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
  ::execve(program, argv, envp);
  const int error = errno;
  [[maybe_unused]] auto written = ::write(report, &error, sizeof error);
  ::_exit(127);
}

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

  const std::string program = find_program(argv[0]);
  Pipe out, err, report;  // report: the errno of a failed exec; it closes on a successful one

  const auto start = Clock::now();
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) throw RuntimeError("cannot run '" + argv[0] + "': fork failed: " + std::strerror(errno));
  if (pid == 0)
    exec_child(program.c_str(), c_args.data(), c_env.data(), parent, out.write_end.get(), err.write_end.get(),
               report.write_end.get());
  ::setpgid(pid, pid);  // as the child does, so that the group exists whichever runs first
  out.write_end.reset();
  err.write_end.reset();
  report.write_end.reset();
  int exec_error = 0;
  ssize_t got;
  while ((got = ::read(report.read_end.get(), &exec_error, sizeof exec_error)) < 0 && errno == EINTR) {
  }
  if (got == sizeof exec_error) {
    int status = 0;
    reaped(pid, status, 0);
    throw RuntimeError("cannot run '" + argv[0] + "': " + std::strerror(exec_error));
  }

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
