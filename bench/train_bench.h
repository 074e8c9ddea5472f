// bench/train_bench.h — the self-play training benchmark behind `nardy bench train`.
//
// Plays `games` TD(λ) self-play training games (selfplay/training/td_game.h: move generation,
// batched incremental evaluation of every candidate, one TD update per turn) on a freshly
// initialised net of `shape` with the given backend, on `threads` workers merging every
// `merge_every` games (selfplay/training/td_workers.h, as in training), and reports the speed. The
// figure is what a training run achieves between evaluations. Game g uses game_rng(seed, g), so the
// total turns for a given thread count are a signature of the code.
//
// With a World of several ranks (selfplay/distributed/world.h) the games are those of all ranks,
// played as R ranks × `threads` workers (the total turns then equal one process's of R·threads),
// and the result adds the round ends' cost: the floats each rank sends per round and the
// seconds spent merging (the exchange, waiting for the slowest rank, and the sum).
#pragma once

#include <cstdint>
#include <string>

#include "core/rules.h"
#include "nn/value_net.h"
#include "selfplay/distributed/world.h"

namespace nardy {

struct TrainBenchResult {
  std::string backend;
  int threads = 1;
  int merge_every = 16;
  int64_t games = 0;
  int64_t turns = 0;  // turns played (= TD updates)
  double seconds = 0;
  int world_size = 1;
  int64_t rounds = 0;                // round ends (merges)
  double merge_seconds = 0;          // spent in them
  int64_t bytes_sent_per_round = 0;  // by this rank (0 on one rank)
  double games_per_s() const { return seconds > 0 ? games / seconds : 0; }
  double turns_per_s() const { return seconds > 0 ? turns / seconds : 0; }
};

TrainBenchResult bench_train(const NetShape& shape, const std::string& backend, int64_t games,
                             int threads, uint64_t seed, const Rules& rules, int merge_every = 16,
                             double alpha = 0.1, double lambda = 0.7, World* world = nullptr);

}  // namespace nardy
