// nardy-full: every subcommand of the `nardy` tool, one file each. `build/nardy` (the light
// front end in selfplay/cli_light/main.cpp) runs the torch-free commands itself and hands
// everything else to this binary, so quick commands do not pay for loading LibTorch.
#include "selfplay/cli/command.h"
#include "selfplay/net_agent.h"

int main(int argc, char** argv) {
  CLI::App app{nardy::cli::kAppDescription, "nardy"};
  app.require_subcommand(1);
  nardy::register_net_agents();  // agent specs net:PATH... everywhere
  app.set_help_all_flag("--help-all", "Show help for every command");
  nardy::cli::add_legal_command(app);
  nardy::cli::add_show_command(app);
  nardy::cli::add_selfplay_command(app);
  nardy::cli::add_bench_command(app);
  nardy::cli::add_train_command(app);
  nardy::cli::add_eval_command(app);
  nardy::cli::add_analyze_command(app);
  nardy::cli::add_rollout_command(app);
  nardy::cli::add_tournament_command(app);
  nardy::cli::add_engine_command(app);
  return nardy::cli::run_app(app, argc, argv);
}
