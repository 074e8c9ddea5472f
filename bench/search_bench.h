// bench/search_bench.h — time per move of an agent (`nardy bench search`).
//
// Positions come from heuristic-vs-heuristic games of a fixed seed (every 5th turn with more than
// one legal result), so every agent is timed on the same positions and dice. The agent
// chooses on each in order, keeping its evaluation cache between positions as in a game.
// The signature (a hash of the chosen results) changes only if the choices change.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/movegen.h"
#include "core/rules.h"

namespace nardy {

// One timed decision: a position, its roll and the legal results.
struct SearchBenchSample {
  Position pos;
  Dice dice;
  MoveList moves;
};

// The first `positions` samples of heuristic self-play from `seed` (every 5th turn with more
// than one legal result). Throws Error if positions < 1.
std::vector<SearchBenchSample> bench_search_samples(int64_t positions, uint64_t seed,
                                                    const Rules& rules);

struct SearchBenchResult {
  int64_t moves = 0;
  double seconds = 0;
  double cpu_seconds = 0;  // the thread's CPU time over the same span (honest on a busy machine)
  uint64_t evaluator_positions = 0;  // sent to the net (0 for agents without a search)
  double cache_hit_rate = 0;         // over all cache lookups
  uint64_t signature = 0;
  double seconds_per_move() const { return moves ? seconds / static_cast<double>(moves) : 0.0; }
  double cpu_seconds_per_move() const {
    return moves ? cpu_seconds / static_cast<double>(moves) : 0.0;
  }
};

// Throws Error on a bad spec or positions < 1.
SearchBenchResult bench_search(const std::string& agent_spec, int64_t positions, uint64_t seed,
                               const Rules& rules);

}  // namespace nardy
