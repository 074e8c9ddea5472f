// tests/support/cli_run.h — running a program as a user would, for the CLI suites: its exit
// code, standard output and standard error, with given standard input.
#pragma once

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

extern char** environ;

namespace nardy::testing {

struct CliRun {
  int exit_code = -1;  // -1: killed by a signal
  std::string out, err;
};

// `s` as one shell word.
inline std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// The whole content of the file at `path` ("" if it cannot be read).
inline std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Runs `program` with `args` (each quoted for the shell) and `input` on standard input.
inline CliRun run_program(const std::string& program, const std::vector<std::string>& args,
                          const std::string& input = "") {
  char out_path[] = "/tmp/nardy_cli_out_XXXXXX";
  char err_path[] = "/tmp/nardy_cli_err_XXXXXX";
  char in_path[] = "/tmp/nardy_cli_in_XXXXXX";
  for (char* p : {out_path, err_path, in_path}) {
    const int fd = mkstemp(p);
    if (fd >= 0) close(fd);
  }
  std::ofstream(in_path, std::ios::binary) << input;
  std::string cmd = shell_quote(program);
  for (const std::string& a : args) cmd += " " + shell_quote(a);
  cmd += " >" + std::string(out_path) + " 2>" + std::string(err_path) + " <" + in_path;
  const int status = std::system(cmd.c_str());
  CliRun r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = slurp(out_path);
  r.err = slurp(err_path);
  for (const char* p : {out_path, err_path, in_path}) std::remove(p);
  return r;
}

// Starts `program` with `args` in the background, its standard output to /dev/null (for tests
// that kill it); returns its pid (-1 if it could not start). Reap it with waitpid.
inline pid_t spawn_program(const std::string& program, const std::vector<std::string>& args) {
  std::vector<std::string> words = {program};
  words.insert(words.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  pid_t pid = -1;
  if (posix_spawn(&pid, program.c_str(), &actions, nullptr, argv.data(), environ) != 0) pid = -1;
  posix_spawn_file_actions_destroy(&actions);
  return pid;
}

}  // namespace nardy::testing
