// Heuristic agent: its terms on drawn boards, determinism, and strength against random play.
#include "selfplay/agents/heuristic_agent.h"

#include <gtest/gtest.h>

#include "core/pos_text.h"

namespace nardy {
namespace {

TEST(BlockPressure, CountsRunsInFrontOfTheVictimsCheckersSquared) {
  // Given White holding points 18, 17, 16 (three in a row along Black's route: Black routes
  // 6, 5, 4) and its head 24 (Black route 12), and Black's 15 checkers on its head (point 12,
  // Black route 24), behind both runs.
  Position pos = parse_pos("0,0,0,0,0,0,0,0,0,0,0,-15,0,0,0,1,1,1,0,0,0,0,0,12 w");
  // When the pressure of White on Black is measured, Then it is 3^2 * 15/15 + 1^2 * 15/15.
  EXPECT_DOUBLE_EQ(block_pressure(pos, Side::White, Side::Black), 10.0);
  // And Black's one point (White route 12) has all 15 White checkers (routes 16..24) behind it.
  EXPECT_DOUBLE_EQ(block_pressure(pos, Side::Black, Side::White), 1.0);
}

TEST(BlockPressure, ARunWithNobodyBehindItIsWorthNothing) {
  // Given White on 3, 2, 1 and every Black checker already past them (in Black's home 13..18).
  Position pos = parse_pos("1,1,1,0,0,0,0,0,0,0,0,0,-15,0,0,0,0,0,0,0,0,0,0,12 w");
  EXPECT_DOUBLE_EQ(block_pressure(pos, Side::White, Side::Black), 0.0);
}

TEST(HeuristicScore, PrefersTakingACheckerOffTheHeadAndSpreading) {
  // Given the start and White's 6-5 roll alternatives: every legal result leaves the head once
  // (the head rule allows one); compare two hand-made boards instead: a checker developed to
  // 18 versus the same pips stacked back on the head side.
  Position developed = parse_pos("0,0,0,0,0,0,0,0,0,0,0,-15,0,0,0,0,0,1,0,0,0,0,0,14 b");
  Position stacked = parse_pos("0,0,0,0,0,0,0,0,0,0,0,-15,0,0,0,0,0,0,0,0,0,0,0,15 b");
  EXPECT_GT(heuristic_score(developed, Side::White), heuristic_score(stacked, Side::White));
}

TEST(HeuristicAgent, IsDeterministic) {
  HeuristicAgent agent;
  Position pos = Position::start();
  Rules rules;
  MoveList moves = legal_moves(pos, Dice{6, 3}, rules);
  Rng r1(1), r2(999);
  EXPECT_EQ(agent.choose(pos, Dice{6, 3}, moves, r1), agent.choose(pos, Dice{6, 3}, moves, r2));
  EXPECT_EQ(make_basic_agent("heuristic")->spec(), "heuristic");
}

}  // namespace
}  // namespace nardy
