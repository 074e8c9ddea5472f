// `nardy match A B --to N --matches M ...`: matches to N points between two agents, in mirrored
// pairs, with score-aware play (selfplay/evaluation/match_play.h).
#include <chrono>
#include <cstdio>
#include <iostream>

#include "cli/command.h"
#include "core/error.h"
#include "selfplay/evaluation/match_play.h"

namespace nardy::cli {

void add_match_command(CLI::App& app) {
  struct Args {
    std::string a, b, json;
    int target = 3;
    int64_t matches = 100;
    int threads = 1;
    uint64_t seed = 1;
    std::vector<std::string> rules;
  };
  auto args = std::make_shared<Args>();
  auto* cmd = app.add_subcommand(
      "match",
      "Play matches to N points between agent A and agent B, in pairs with mirrored dice (A White "
      "in\ngame 1 of one match, B in the other), and print A's match win rate with a 95% CI and "
      "the mean\ngames per match. Net agents play score-aware (by match winning chance) unless "
      "given :match=off.\nAgents: default, model:NAME, net:PATH (each [:ply=N][:match=on|off]...), "
      "random, heuristic.");
  cmd->add_option("A", args->a, "Agent spec of A")->required();
  cmd->add_option("B", args->b, "Agent spec of B")->required();
  cmd->add_option("--to", args->target, "Points to win a match")
      ->capture_default_str()
      ->check(CLI::Range(1, kMaxMatchTarget));
  cmd->add_option("--matches", args->matches, "Matches (rounded up to an even number)")
      ->capture_default_str()
      ->check(CLI::Range(int64_t{1}, int64_t{1} << 40));
  cmd->add_option("--threads", args->threads, "Worker threads (results do not depend on it)")
      ->capture_default_str()
      ->check(CLI::Range(1, 1024));
  cmd->add_option("--seed", args->seed, "Seed of the dice and the agents' randomness")
      ->capture_default_str();
  cmd->add_option("--json", args->json, "Also write the full result as JSON to FILE");
  add_rule_option(*cmd, args->rules);
  cmd->callback([args] {
    MatchOptions o;
    o.target = args->target;
    o.matches = args->matches;
    o.threads = args->threads;
    o.seed = args->seed;
    o.rules = rules_from(args->rules);
    const auto t0 = std::chrono::steady_clock::now();
    const MatchResult r = run_matches(args->a, args->b, o);
    const double secs =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::cout << r.to_text();
    std::printf("%.2f s, %.1f matches/s on %d thread(s)\n", secs,
                static_cast<double>(r.matches) / secs, args->threads);
    if (!args->json.empty()) write_output_file("match", "JSON", args->json, r.to_json() + "\n");
  });
}

}  // namespace nardy::cli
