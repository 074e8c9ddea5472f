// The heuristic agent's strength against random play, measured in a mirrored arena match (so it
// lives with the evaluation suite; the agents suite stays torch-free).
#include <gtest/gtest.h>

#include "selfplay/evaluation/arena.h"

namespace nardy {
namespace {

TEST(HeuristicAgent, BeatsRandomInAtLeast90PercentOfGames) {
  // 400 mirrored games, fixed seed. Measured when written: 96.0% wins, +1.40 points/game
  // [+1.34, +1.47] (nardy eval heuristic random --games 400 --seed 20240601).
  ArenaOptions options;
  options.games = 400;
  options.seed = 20240601;
  options.threads = 2;
  ArenaResult r = run_arena("heuristic", "random", options);
  EXPECT_GE(r.a_win_rate, 0.90) << r.to_text();
  EXPECT_GT(r.ci95_low, 1.0) << r.to_text();
}

}  // namespace
}  // namespace nardy
