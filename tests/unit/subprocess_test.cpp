#include "compile/subprocess.hpp"

#include <gtest/gtest.h>

#include <csignal>
#include <fstream>

#include "cutile/error.hpp"
#include "support/process_state.hpp"
#include "support/scoped_env.hpp"
#include "support/temp_dir.hpp"

namespace cutile::compile {
namespace {

using namespace std::chrono_literals;

TEST(Subprocess, ReportsTheExitCode) {
  auto result = run_subprocess({"sh", "-c", "exit 3"});
  EXPECT_EQ(result.exit_code, 3);
  EXPECT_EQ(result.signal, 0);
  EXPECT_FALSE(result.timed_out);
  EXPECT_FALSE(result.succeeded());
  EXPECT_TRUE(run_subprocess({"true"}).succeeded());
}

TEST(Subprocess, CapturesStdoutAndStderrApart) {
  auto result = run_subprocess({"sh", "-c", "echo to-out; echo to-err >&2; echo more-err >&2"});
  EXPECT_EQ(result.stdout_text, "to-out\n");
  EXPECT_EQ(result.stderr_text, "to-err\nmore-err\n");
}

TEST(Subprocess, DrainsLargeOutputOnBothPipes) {
  // More than a pipe buffer on each stream: reading only one of them would deadlock.
  auto result = run_subprocess({"sh", "-c", "head -c 1000000 /dev/zero; head -c 700000 /dev/zero >&2"});
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_EQ(result.stdout_text.size(), 1000000u);
  EXPECT_EQ(result.stderr_text.size(), 700000u);
}

TEST(Subprocess, AppliesEnvironmentOverrides) {
  test_support::ScopedEnv inherited("CUTILE_TEST_REMOVED", "still-here");
  SubprocessOptions options;
  options.environment = {{"CUTILE_TEST_SET", "set-value"}, {"CUTILE_TEST_REMOVED", std::nullopt}};
  auto result =
      run_subprocess({"sh", "-c", "echo \"$CUTILE_TEST_SET/${CUTILE_TEST_REMOVED-removed}\""}, options);
  EXPECT_EQ(result.stdout_text, "set-value/removed\n");
}

TEST(Subprocess, TimeoutKillsTheChild) {
  SubprocessOptions options;
  options.timeout = 200ms;
  auto result = run_subprocess({"sleep", "5"}, options);
  EXPECT_TRUE(result.timed_out);
  EXPECT_EQ(result.signal, SIGKILL);
  EXPECT_EQ(result.exit_code, -1);
  EXPECT_LT(result.seconds, 2.0);
}

TEST(Subprocess, TimeoutKillsWhatTheChildStarted) {
  // The backgrounded sleep holds the output pipes; only killing the process group ends the wait.
  SubprocessOptions options;
  options.timeout = 200ms;
  auto result = run_subprocess({"sh", "-c", "sleep 5 & wait"}, options);
  EXPECT_TRUE(result.timed_out);
  EXPECT_LT(result.seconds, 2.0);
}

TEST(Subprocess, TimeoutCoversAChildThatClosedItsOutput) {
  // End of file on both pipes says nothing about the child: the deadline still holds.
  SubprocessOptions options;
  options.timeout = 200ms;
  auto result = run_subprocess({"sh", "-c", "exec >/dev/null 2>&1; exec sleep 30"}, options);
  EXPECT_TRUE(result.timed_out);
  EXPECT_EQ(result.signal, SIGKILL);
  EXPECT_LT(result.seconds, 2.0);
}

TEST(Subprocess, WhatTheChildLeavesBehindIsKilled) {
  test_support::TempDir temp("cutile-subprocess");
  const auto pid_file = temp.path() / "pid";
  auto result = run_subprocess({"sh", "-c", "sleep 30 >/dev/null 2>&1 & echo $! > " + pid_file.string()});
  EXPECT_TRUE(result.succeeded());
  pid_t left = 0;
  std::ifstream(pid_file) >> left;
  ASSERT_GT(left, 0);
  EXPECT_TRUE(test_support::process_ends_within(left, 2000ms));
  if (test_support::process_alive(left)) ::kill(left, SIGKILL);
}

TEST(Subprocess, ReportsTheSignalThatEndedTheChild) {
  auto result = run_subprocess({"sh", "-c", "kill -TERM $$"});
  EXPECT_EQ(result.signal, SIGTERM);
  EXPECT_EQ(result.exit_code, -1);
  EXPECT_FALSE(result.timed_out);
}

TEST(Subprocess, MissingProgramIsARuntimeError) {
  try {
    run_subprocess({"/nonexistent/program", "--flag"});
    FAIL() << "expected a RuntimeError";
  } catch (const RuntimeError& error) {
    EXPECT_NE(error.message().find("cannot run '/nonexistent/program'"), std::string::npos)
        << error.message();
  }
}

TEST(ShellQuote, LeavesPlainWordsAndQuotesTheRest) {
  EXPECT_EQ(shell_quote("/usr/bin/tileiras"), "/usr/bin/tileiras");
  EXPECT_EQ(shell_quote("--gpu-name=sm_90"), "--gpu-name=sm_90");
  EXPECT_EQ(shell_quote(""), "''");
  EXPECT_EQ(shell_quote("a b"), "'a b'");
  EXPECT_EQ(shell_quote("it's"), "'it'\\''s'");
}

}  // namespace
}  // namespace cutile::compile
