// `nardy bench movegen|...`: speed figures on one core, with a behaviour signature.
#include <cstdio>
#include <filesystem>

#include "cli/command.h"
#include "bench/movegen_bench.h"
#include "bench/summary_bench.h"
#include "core/error.h"
#include "core/file_error.h"

namespace nardy::cli {

void add_bench_command(CLI::App& app) {
  auto* bench = app.add_subcommand(
      "bench", "Benchmarks reported as commands (speed on one core, plus a signature).");
  bench->require_subcommand(0, 1);
  {
    // `nardy bench` alone: the summary table of bench/summary_bench.h, by default with the
    // small trained net of the repository (run from its root).
    static constexpr const char* kDefaultNet = "tests/data/search_net.pt";
    struct Args {
      std::string net = kDefaultNet;
      double scale = 1.0;
      std::vector<std::string> rules;
    };
    auto a = std::make_shared<Args>();
    bench
        ->add_option("--net", a->net,
                     "Without a subcommand: checkpoint for the search and rollout rows (\"\" "
                     "leaves them out)")
        ->capture_default_str();
    bench->add_option("--scale", a->scale, "Without a subcommand: multiplies every row's work")
        ->capture_default_str()
        ->check(CLI::PositiveNumber);
    add_rule_option(*bench, a->rules);
    bench->callback([bench, a] {
      if (!bench->get_subcommands().empty()) return;
      SummaryBenchOptions o;
      o.net = a->net;
      if (!o.net.empty() && !path_exists("bench: checkpoint", o.net)) {
        if (o.net != kDefaultNet) throw Error("bench: no checkpoint at " + quote_path(o.net));
        std::printf("(no net at %s: search and rollout rows left out; give --net PATH)\n",
                    kDefaultNet);
        o.net.clear();
      }
      o.scale = a->scale;
      o.rules = rules_from(a->rules);
      std::printf("%-27s %12s  %-15s %-22s %s\n", "benchmark (1 thread)", "value", "unit",
                  "signature", "command");
      for (const BenchRow& r : bench_summary(o)) {
        std::printf("%-27s %12.*f  %-15s %-22s %s\n", r.name.c_str(), r.value < 10 ? 3 : 0, r.value,
                    r.unit.c_str(), r.signature.c_str(), r.command.c_str());
        std::fflush(stdout);
      }
    });
  }
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
  add_bench_kernels_command(*bench);
}

}  // namespace nardy::cli
