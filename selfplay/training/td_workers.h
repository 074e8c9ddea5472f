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
//
// Several processes (ranks of a World, selfplay/distributed/world.h): the workers are numbered
// globally, rank r's thread t being worker r·T + t of R·T, and the rounds are global: a round
// covers R·T·merge_every games, dealt as above over all R·T workers; at its end every rank
// all-gathers every worker's change (nn/delta_merge.h write_delta) and adds them in worker
// order (add_deltas). So R ranks of T threads train the same net, bit for bit, as one process
// of R·T threads, and every rank holds that net after each round. Stop requests and worker
// failures are exchanged at each round end too: all ranks stop at the same round, and a failure
// on one rank makes every rank throw. Every rank must call play() with the same arguments.
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
#include "selfplay/distributed/world.h"
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
  // backend "fast" or "libtorch"; `merge_every` (>= 1) games per worker per round; `world`
  // (which must outlive this object) the ranks training together (this process alone when
  // null). Throws Error for bad counts, an unknown backend or a shape the backend does not
  // support.
  TdWorkers(ValueNet& net, const Rules& rules, std::string_view backend, int threads,
            int merge_every, World* world = nullptr);

  // Plays games [begin, end), game g as setup(g) says (called on the worker threads, so it
  // must be thread-safe). Stops early, at a round end, once *stop is true. `finished`, when
  // given, is incremented as each game ends (for live progress). An exception in a worker is
  // rethrown here once every worker has stopped; the master net then holds the rounds before.
  // With several ranks the stats are totals over all ranks and `finished` counts this rank's
  // games; a failure on another rank throws Error naming it.
  TdPlayStats play(int64_t begin, int64_t end, const std::function<TdGameSetup(int64_t)>& setup,
                   const std::atomic<bool>* stop = nullptr,
                   std::atomic<int64_t>* finished = nullptr);

  // The cost of the round ends so far (all play() calls): rounds, seconds in merge_round (the
  // exchange between ranks, waiting for the slowest included, and the sum), and the floats this
  // rank sent per round (0 on one rank).
  struct MergeCost {
    int64_t rounds = 0;
    double seconds = 0;
    int64_t floats_sent_per_round = 0;
  };
  const MergeCost& merge_cost() const { return merge_cost_; }

  int threads() const { return threads_; }  // per rank
  int world_size() const { return world_->size(); }
  int merge_every() const { return merge_every_; }
  const char* backend_name() const;

 private:
  // The merge at a round end (on one local thread while the others wait): local copies only,
  // or every rank's through the World. Returns whether any rank asked to stop; throws if a
  // rank reported a failure.
  bool merge_round(bool failed_here, bool stop_here);
  TdPlayStats total_over_ranks(const std::vector<TdPlayStats>& local) const;
  TdPlayStats play_serial(int64_t begin, int64_t end,
                          const std::function<TdGameSetup(int64_t)>& setup,
                          const std::atomic<bool>* stop, std::atomic<int64_t>* finished);

  ValueNet& net_;
  int threads_;
  int merge_every_;
  World* world_;
  std::vector<ValueNet> copies_;  // per worker (rounds only: several threads or ranks)
  std::vector<float> deltas_;     // this rank's workers' changes, then every rank's
  MergeCost merge_cost_;
  std::vector<std::unique_ptr<TdSelfPlayer>> players_;
};

}  // namespace nardy
