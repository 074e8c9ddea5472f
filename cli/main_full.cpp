// nardy-full: every subcommand of the `nardy` tool, one file each. `build/nardy` (the light
// front end in cli/main_light.cpp) runs the torch-free commands itself and hands
// everything else to this binary, so quick commands do not pay for loading LibTorch.
#include "cli/command.h"
#include "selfplay/search/agent_kinds.h"

int main(int argc, char** argv) {
  CLI::App app{nardy::cli::kAppDescription, "nardy"};
  app.require_subcommand(1);
  app.set_help_all_flag("--help-all", "Show help for every command");
  app.set_version_flag("--version", nardy::cli::version_text(),
                       "Show the version, commit, build type, kernel path and LibTorch version");
  nardy::cli::add_legal_command(app);
  nardy::cli::add_show_command(app);
  nardy::cli::add_selfplay_command(app, nardy::make_agent);
  nardy::cli::add_bench_command(app);
  nardy::cli::add_train_command(app);
  nardy::cli::add_eval_command(app);
  nardy::cli::add_analyze_command(app);
  nardy::cli::add_review_command(app);
  nardy::cli::add_convert_command(app);
  nardy::cli::add_rollout_command(app);
  nardy::cli::add_luck_command(app);
  nardy::cli::add_tournament_command(app);
  nardy::cli::add_engine_command(app);
  nardy::cli::add_serve_command(app);
  nardy::cli::add_match_command(app);
  nardy::cli::add_play_command(app);
  nardy::cli::add_label_command(app);
  nardy::cli::add_fit_command(app);
  nardy::cli::add_bearoff_command(app);
  nardy::cli::add_benchmark_command(app);
  return nardy::cli::run_app(app, argc, argv);
}
