// build/nardy: the light front end of the `nardy` tool.
//
// LibTorch costs ~0.5 s of CPU and ~170 MB just to load, which quick commands such as
// `nardy legal` should not pay. This binary links only core and the torch-free part of
// selfplay. It runs `legal`, `show`, `bearoff` and `selfplay` (without net: agents) itself and
// replaces itself (execv) with `nardy-full`, found beside it, for everything else — including
// --help, which lists every command. Both binaries share the subcommand code in cli/. In a build
// without LibTorch (NARDY_WITH_TORCH=OFF) it is the whole tool.
#include <unistd.h>

#include <climits>
#include <cstring>
#include <iostream>
#include <string>
#include <string_view>

#include "cli/command.h"

namespace {

bool runs_here(int argc, char** argv) {
  if (argc < 2) return false;
  std::string cmd = argv[1];
  if (cmd != "legal" && cmd != "show" && cmd != "selfplay" && cmd != "bearoff") return false;
  for (int i = 2; i < argc; ++i) {  // agents with a network (net:, model:, default) need torch
    const std::string_view arg = argv[i];
    if (arg.find("net:") != arg.npos || arg.find("model:") != arg.npos ||
        arg.find("default") != arg.npos)
      return false;
  }
  return true;
}

[[maybe_unused]] int exec_full(char** argv) {
  char self[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  std::string dir = ".";
  if (n > 0) {
    self[n] = '\0';
    dir = self;
    dir = dir.substr(0, dir.rfind('/'));
  }
  std::string full = dir + "/nardy-full";
  execv(full.c_str(), argv);
  std::cerr << "nardy: cannot run " << full << ": " << std::strerror(errno)
            << " (build it with `make build`)\n";
  return 2;
}

// Built with NARDY_WITH_TORCH=OFF there is no nardy-full: this binary is the whole tool, so it
// answers --help itself and names what it cannot run.
#ifdef NARDY_LIGHT_ONLY
constexpr bool kHasFull = false;
#else
constexpr bool kHasFull = true;
#endif

bool asks_for_help(int argc, char** argv) {
  if (argc < 2) return true;
  const std::string_view a = argv[1];
  return a == "--help" || a == "-h" || a == "--help-all";
}

}  // namespace

int main(int argc, char** argv) {
  if (!runs_here(argc, argv)) {
    if (kHasFull) return exec_full(argv);
    if (!asks_for_help(argc, argv)) {
      std::cerr << "nardy: '" << argv[1]
                << "' needs LibTorch, and this build has NARDY_WITH_TORCH=OFF: it runs legal, "
                   "show and selfplay with the random and heuristic agents\n";
      return 2;
    }
  }
  CLI::App app{nardy::cli::kAppDescription, "nardy"};
  app.require_subcommand(1);
  nardy::cli::add_legal_command(app);
  nardy::cli::add_show_command(app);
  nardy::cli::add_bearoff_command(app);
  nardy::cli::add_selfplay_command(app, [](std::string_view spec, const nardy::Rules&) {
    if (auto agent = nardy::make_basic_agent(spec)) return agent;
    throw nardy::unknown_agent_kind(spec);
  });
  return nardy::cli::run_app(app, argc, argv);
}
