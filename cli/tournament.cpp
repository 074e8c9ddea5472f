// `nardy tournament SPEC... --games N`: a round robin and a ratings table.
#include <cstdio>
#include <iostream>

#include "core/error.h"
#include "cli/command.h"
#include "selfplay/search/net_agent.h"
#include "selfplay/evaluation/tournament.h"

namespace nardy::cli {

void add_tournament_command(CLI::App& app) {
  struct Args {
    std::vector<std::string> players, rules;
    int64_t games = 200;
    int threads = 1;
    uint64_t seed = 1;
    std::string csv, json;
  };
  auto a = std::make_shared<Args>();
  auto* cmd = app.add_subcommand(
      "tournament",
      "Round robin between agents (mirrored dice pairs for every pairing) and a ratings table: "
      "Elo\n"
      "with 95% CIs from the pairwise results by weighted least squares, anchored at the first "
      "player.\n"
      "A run directory stands for all its ckpt-*.pt checkpoints (as net:DIR/ckpt-N.pt).");
  cmd->add_option("players", a->players, "Agent specs or run directories")->required();
  add_games_option(*cmd, a->games, "Games per pairing", int64_t{2});
  add_threads_option(*cmd, a->threads, "Threads per match");
  add_seed_option(*cmd, a->seed, "Seed (pairing k uses seed + k)");
  cmd->add_option("--csv", a->csv, "Write the ratings as CSV to FILE");
  add_json_option(*cmd, a->json, "Write ratings and matches as JSON to FILE");
  add_rule_option(*cmd, a->rules);
  cmd->callback([a] {
    TournamentOptions o;
    o.games = a->games;
    o.threads = a->threads;
    o.seed = a->seed;
    o.rules = rules_from(a->rules);
    o.world = &process_world();
    const bool root = o.world->is_root();  // prints and writes; every rank plays its share
    o.progress = [root](int k, int n, const ArenaResult& r) {
      if (root)
        std::fprintf(stderr, "match %d/%d: %s vs %s %+.3f pts/game\n", k, n, r.a_spec.c_str(),
                     r.b_spec.c_str(), r.a_points_per_game);
    };
    const std::vector<std::string> players = expand_tournament_players(a->players);
    const TournamentResult t = run_tournament(players, o);
    if (!root) return;
    std::cout << t.to_text();
    if (!a->csv.empty()) write_output_file("tournament", "CSV", a->csv, t.to_csv());
    if (!a->json.empty()) write_output_file("tournament", "JSON", a->json, t.to_json() + "\n");
  });
}

}  // namespace nardy::cli
