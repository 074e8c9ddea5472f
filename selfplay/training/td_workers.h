// selfplay/training/td_workers.h — TD(λ) self-play training on one or several threads, reproducible
// for a given thread count.
//
// One thread trains the net in place, game after game (TD-Gammon's loop). With T > 1 threads
// the games are played in synchronous rounds (data-parallel TD, "local SGD"):
//   * every worker trains a private copy of the net (its own backend, traces and scratch);
//     at the start of each round the copies are reset to the master net θ;
//   * a round covers the next n = min(T * merge_every, end - start) games; worker t plays
//     games start + t, start + t + T, ... on its copy, updating it after every move (plain
//     TD(λ) within a worker);
//   * when every worker is done, the master gains each copy's change in worker order,
//     θ ← θ + Σ_t (θ_t − θ) (nn/delta_merge.h), on the last thread to arrive.
// So the trained net depends only on the seeds, the per-game parameters, T and merge_every —
// never on thread timing — and the same config trains the same net bit for bit on any
// machine with the same float arithmetic. During a round no worker writes memory another
// reads (unlike Hogwild, whose shared W1 rows bounce between cores on every TD update); the
// price is that a worker sees the others' updates only at round ends, up to
// (T - 1) * merge_every games late.
//
// A stop request takes effect at the next round end (with one thread: the next game end), so
// the games done are always a prefix [begin, begin + games) of the requested range.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string_view>
#include <vector>

#include "core/random.h"
#include "core/rules.h"
#include "nn/value_net.h"
#include "selfplay/training/td_game.h"

namespace nardy {

// Totals over the games of one play() call.
struct TdPlayStats {
  int64_t games = 0;
  int64_t unfinished = 0;  // games stopped by the turn limit
  int64_t turns = 0;
  int64_t updates = 0;      // TD updates (= positions learned from)
  double abs_td_error = 0;  // sum of |target - value| equity over the updates
  void add(const TdGameStats& s);
  void add(const TdPlayStats& s);
};

// What game g is: its random stream (dice and exploration) and its learning parameters.
struct TdGameSetup {
  Rng rng;
  TdGameParams params;
};

class TdWorkers {
 public:
  // `threads` workers (>= 1) training `net` (which must outlive this object) with the
  // backend "fast" or "libtorch"; `merge_every` (>= 1) games per worker per round.
  // Throws Error for bad counts, an unknown backend or a shape the backend does not support.
  TdWorkers(ValueNet& net, const Rules& rules, std::string_view backend, int threads,
            int merge_every);

  // Plays games [begin, end), game g as setup(g) says (called on the worker threads, so it
  // must be thread-safe). Stops early, at a round end, once *stop is true. `finished`, when
  // given, is incremented as each game ends (for live progress). An exception in a worker is
  // rethrown here once every worker has stopped; the master net then holds the rounds before.
  TdPlayStats play(int64_t begin, int64_t end, const std::function<TdGameSetup(int64_t)>& setup,
                   const std::atomic<bool>* stop = nullptr,
                   std::atomic<int64_t>* finished = nullptr);

  int threads() const { return threads_; }
  int merge_every() const { return merge_every_; }
  const char* backend_name() const;

 private:
  TdPlayStats play_serial(int64_t begin, int64_t end,
                          const std::function<TdGameSetup(int64_t)>& setup,
                          const std::atomic<bool>* stop, std::atomic<int64_t>* finished);

  ValueNet& net_;
  int threads_;
  int merge_every_;
  std::vector<ValueNet> copies_;  // per worker (threads > 1 only)
  std::vector<std::unique_ptr<TdSelfPlayer>> players_;
};

}  // namespace nardy
