// `nardy analyze POS D1 D2 [--agent SPEC]`: the legal moves ranked by equity.
#include <iostream>

#include "core/error.h"
#include "core/notation.h"
#include "core/pos_text.h"
#include "selfplay/evaluation/analysis.h"
#include "cli/command.h"
#include "selfplay/search/net_agent.h"

namespace nardy::cli {

void add_analyze_command(CLI::App& app) {
  struct Args {
    std::vector<std::string> positional, rules;
    std::string agent, json;
    int64_t trials = 360;
    int threads = 1;
    uint64_t seed = 1;
  };
  auto a = std::make_shared<Args>();
  auto* cmd = app.add_subcommand(
      "analyze",
      "Rank the legal moves of POS with dice D1 D2 by equity for the mover, with outcome "
      "probabilities.\n"
      "A net agent (net:PATH[:ply=N]...) scores them by its search at its ply; other agents "
      "(random,\n"
      "heuristic) by rollouts of each move with --trials games (standard errors shown).");
  cmd->add_option("args", a->positional,
                  "POS D1 D2 (POS quoted as one argument, or as two; or a position ID)")
      ->required()
      ->allow_extra_args();
  add_agent_option(*cmd, a->agent, "Agent spec");
  cmd->add_option("--trials", a->trials, "Rollout trials per move (agents without an evaluator)")
      ->capture_default_str()
      ->check(CLI::Range(int64_t{1}, int64_t{1} << 32));
  add_threads_option(*cmd, a->threads, "Threads for rollouts");
  add_seed_option(*cmd, a->seed);
  add_json_option(*cmd, a->json, "Also write the analysis as JSON to FILE");
  add_rule_option(*cmd, a->rules);
  cmd->callback([a, cmd] {
    check_agent_available("analyze", *cmd, a->agent);
    const auto [pos, dice] = parse_pos_dice_args("analyze", a->positional);
    AnalysisOptions o;
    o.rules = rules_from(a->rules);
    o.rollout_trials = a->trials;
    o.threads = a->threads;
    o.seed = a->seed;
    const Analysis an = analyze_moves(pos, dice, a->agent, o);
    std::cout << format_pos(pos) << "  dice " << format_dice(dice) << "\n" << an.to_text();
    if (!a->json.empty()) write_output_file("analyze", "JSON", a->json, an.to_json() + "\n");
  });
}

}  // namespace nardy::cli
