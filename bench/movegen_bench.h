// bench/movegen_bench.h — the move-generation benchmark behind `nardy bench movegen`.
//
// Plays uniformly random complete games from fixed seeds with full legal-move generation at
// every turn, on one thread, and reports speed and a signature: the total number of results
// generated, which depends only on the seeds and the rules. A refactor that changes the
// signature has changed behaviour (Stockfish's `bench` idea).
#pragma once

#include <cstdint>

#include "core/rules.h"

namespace nardy {

struct MovegenBenchResult {
  long games = 0;
  long turns = 0;
  uint64_t results = 0;  // signature: results generated over all turns
  double seconds = 0;
  double games_per_s() const { return games / seconds; }
  double results_per_s() const { return results / seconds; }
  double turns_per_s() const { return turns / seconds; }
};

MovegenBenchResult bench_movegen(long games, uint64_t seed, const Rules& rules);

}  // namespace nardy
