// `nardy bench movegen|...`: speed figures on one core, with a behaviour signature.
#include <cstdio>

#include "cli/command.h"
#include "bench/movegen_bench.h"

namespace nardy::cli {

void add_bench_command(CLI::App& app) {
  auto* bench = app.add_subcommand(
      "bench", "Benchmarks reported as commands (speed on one core, plus a signature).");
  bench->require_subcommand(1);
  {
    struct Args {
      long games = 20000;
      uint64_t seed = 1;
      std::vector<std::string> rules;
    };
    auto a = std::make_shared<Args>();
    auto* cmd = bench->add_subcommand(
        "movegen",
        "Uniformly random complete games with full legal-move generation every turn, one thread.\n"
        "Prints games/s, results/s and the signature (total results, fixed by seed and rules).");
    add_games_option(*cmd, a->games, "Games to play");
    add_seed_option(*cmd, a->seed);
    add_rule_option(*cmd, a->rules);
    cmd->callback([a] {
      Rules rules = rules_from(a->rules);
      bench_movegen(std::min(a->games, 500L), a->seed + 1, rules);  // warm-up
      MovegenBenchResult r = bench_movegen(a->games, a->seed, rules);
      std::printf("movegen: %ld random games, %ld turns, %.3f s on 1 thread\n", r.games, r.turns,
                  r.seconds);
      std::printf("  %.0f games/s   %.0f turns/s   %.0f results/s\n", r.games_per_s(),
                  r.turns_per_s(), r.results_per_s());
      std::printf("  signature %llu results (seed %llu)\n",
                  static_cast<unsigned long long>(r.results),
                  static_cast<unsigned long long>(a->seed));
    });
  }
  add_bench_train_command(*bench);
  add_bench_search_command(*bench);
}

}  // namespace nardy::cli
