#include "bench/train_bench.h"

#include <chrono>

#include "selfplay/training/td_trainer.h"
#include "selfplay/training/td_workers.h"

namespace nardy {

TrainBenchResult bench_train(const NetShape& shape, const std::string& backend, int64_t games,
                             int threads, uint64_t seed, const Rules& rules, int merge_every,
                             double alpha, double lambda, World* world) {
  ValueNet net = ValueNet::create(shape, seed);
  TdWorkers workers(net, rules, backend, threads, merge_every, world);
  const TdGameParams params{static_cast<float>(alpha), static_cast<float>(lambda), 0.0f};
  const auto t0 = std::chrono::steady_clock::now();
  const TdPlayStats stats = workers.play(0, games, [&](int64_t g) {
    return TdGameSetup{game_rng(seed, g), params};
  });
  TrainBenchResult r;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  r.backend = workers.backend_name();
  r.threads = threads;
  r.merge_every = merge_every;
  r.games = stats.games;
  r.turns = stats.turns;
  r.world_size = workers.world_size();
  r.rounds = workers.merge_cost().rounds;
  r.merge_seconds = workers.merge_cost().seconds;
  r.bytes_sent_per_round =
      workers.merge_cost().floats_sent_per_round * static_cast<int64_t>(sizeof(float));
  return r;
}

}  // namespace nardy
