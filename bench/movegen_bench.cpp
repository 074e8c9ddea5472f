#include "bench/movegen_bench.h"

#include <chrono>

#include "core/game.h"
#include "core/movegen.h"

namespace nardy {

MovegenBenchResult bench_movegen(long games, uint64_t seed, const Rules& rules) {
  MovegenBenchResult r;
  Rng rng(seed);
  MoveList moves;
  auto t0 = std::chrono::steady_clock::now();
  for (long g = 0; g < games; ++g) {
    Position pos = Position::start();
    bool first = true;
    while (!game_outcome(pos, rules)) {
      Dice dice = roll_turn(rng, rules, first);
      first = false;
      generate_moves(pos, dice, rules, moves);
      r.results += moves.size();
      ++r.turns;
      pos = moves[moves.size() == 1 ? 0 : rng.below(static_cast<uint32_t>(moves.size()))].position;
    }
    ++r.games;
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

}  // namespace nardy
