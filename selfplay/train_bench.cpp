#include "selfplay/train_bench.h"

#include <atomic>
#include <chrono>
#include <memory>
#include <thread>
#include <vector>

#include "selfplay/td_game.h"
#include "selfplay/td_trainer.h"

namespace nardy {

TrainBenchResult bench_train(const NetShape& shape, const std::string& backend, int64_t games, int threads,
                             uint64_t seed, const Rules& rules, double alpha, double lambda) {
  ValueNet net = ValueNet::create(shape, seed);
  std::vector<std::unique_ptr<TdSelfPlayer>> players;
  for (int t = 0; t < threads; ++t)
    players.push_back(std::make_unique<TdSelfPlayer>(net, rules, backend, static_cast<float>(lambda)));
  std::atomic<int64_t> next{0};
  std::vector<int64_t> turns(threads, 0);
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      for (int64_t g; (g = next.fetch_add(1)) < games;) {
        Rng rng = game_rng(seed, g);
        turns[t] += players[t]->play_game(rng, static_cast<float>(alpha), 0.0f).turns;
      }
    });
  }
  for (auto& th : pool) th.join();
  TrainBenchResult r;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  r.backend = players.front()->backend_name();
  r.threads = threads;
  r.games = games;
  for (int64_t n : turns) r.turns += n;
  return r;
}

}  // namespace nardy
