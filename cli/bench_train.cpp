// `nardy bench train`: self-play TD training games per second (bench/train_bench.h).
#include <cstdio>

#include "core/error.h"
#include "cli/command.h"
#include "bench/train_bench.h"

namespace nardy::cli {

void add_bench_train_command(CLI::App& bench) {
  struct Args {
    long games = 1000;
    long libtorch_games = 0;
    std::string backend = "both";
    std::string encoder = "raw";
    std::vector<int> hidden = {128};
    int threads = 1;
    int merge_every = 16;
    uint64_t seed = 1;
    std::vector<std::string> rules;
  };
  auto a = std::make_shared<Args>();
  auto* cmd = bench.add_subcommand(
      "train",
      "TD(lambda) self-play training games per second with a fresh net (default raw encoder, 128\n"
      "sigmoid hidden units): movegen, batched incremental evaluation of every candidate, one TD\n"
      "update per turn. By default the fast backend and, beside it, libtorch.");
  add_games_option(*cmd, a->games, "Games for the fast backend");
  cmd->add_option("--libtorch-games", a->libtorch_games,
                  "Games for libtorch (default: games / 10, at least 10)")
      ->check(CLI::Range(0L, 100000000L));
  cmd->add_option("--backend", a->backend, "fast, libtorch or both")
      ->capture_default_str()
      ->check(CLI::IsMember({"fast", "libtorch", "both"}));
  cmd->add_option("--encoder", a->encoder, "Encoder (raw, extended)")->capture_default_str();
  add_hidden_option(*cmd, a->hidden, "Hidden units");
  add_threads_option(*cmd, a->threads, "Worker threads (selfplay/training/td_workers.h)", 256);
  cmd->add_option("--merge-every", a->merge_every,
                  "Games per worker between merges (threads > 1), as run.merge_every")
      ->capture_default_str()
      ->check(CLI::Range(1, 1000));
  add_seed_option(*cmd, a->seed);
  add_rule_option(*cmd, a->rules);
  cmd->callback([a] {
    const Rules rules = rules_from(a->rules);
    World& world = process_world();  // under torchrun: the games of all ranks, rank 0 reports
    const bool root = world.is_root();
    NetShape shape;
    shape.encoder = a->encoder;
    shape.hidden = a->hidden;
    shape.num_outputs = value_outputs(rules);
    auto run = [&](const std::string& backend, long games) {
      const int threads = a->threads;
      bench_train(shape, backend, std::min(games, 20L), threads, a->seed + 1, rules, a->merge_every,
                  0.1, 0.7, &world);  // warm-up
      const TrainBenchResult r = bench_train(shape, backend, games, threads, a->seed, rules,
                                             a->merge_every, 0.1, 0.7, &world);
      if (!root) return;
      std::printf(
          "train %-8s %6ld games %8ld turns %8.2f s  %8.1f games/s  %9.0f turns/s  (%d thread%s)\n",
          r.backend.c_str(), static_cast<long>(r.games), static_cast<long>(r.turns), r.seconds,
          r.games_per_s(), r.turns_per_s(), r.threads, r.threads == 1 ? "" : "s");
      if (r.world_size > 1)
        std::printf(
            "  %d ranks x %d thread%s: %lld rounds, %lld bytes sent per rank per round, "
            "%.3f ms per round merging (exchange, waiting for the slowest rank, sum), "
            "%.1f%% of the time\n",
            r.world_size, r.threads, r.threads == 1 ? "" : "s", static_cast<long long>(r.rounds),
            static_cast<long long>(r.bytes_sent_per_round),
            r.rounds ? 1000 * r.merge_seconds / static_cast<double>(r.rounds) : 0.0,
            r.seconds > 0 ? 100 * r.merge_seconds / r.seconds : 0.0);
      std::fflush(stdout);
    };
    if (root) {
      std::printf("self-play TD training, net %s %s hidden sigmoid, %d thread%s",
                  a->encoder.c_str(), hidden_name(a->hidden).c_str(), a->threads,
                  a->threads == 1 ? "" : "s");
      if (world.size() > 1) std::printf(" on each of %d ranks", world.size());
      if (a->threads > 1 || world.size() > 1)
        std::printf(" (private copies merged every %d games per worker)", a->merge_every);
      std::printf(", seed %llu\n", static_cast<unsigned long long>(a->seed));
    }
    if (a->backend != "libtorch") run("fast", a->games);
    if (a->backend != "fast")
      run("libtorch", a->libtorch_games > 0 ? a->libtorch_games : std::max(10L, a->games / 10));
  });
}

}  // namespace nardy::cli
