// The shared random-simulation test (tests/support/random_sim.h) for every combination of the
// rules variants: thousands of complete games, every state checked.
#include <gtest/gtest.h>

#include "core/movegen.h"
#include "core/notation.h"
#include "core/pos_text.h"
#include "tests/support/random_sim.h"

namespace nardy::testing {
namespace {

class RandomSim : public ::testing::TestWithParam<Rules> {};

std::string rules_name(const ::testing::TestParamInfo<Rules>& info) {
  std::string s;
  for (const std::string& key : Rules::keys()) s += (s.empty() ? "" : "_") + info.param.get(key);
  return s;
}

// Per-state check specific to this suite: no result takes more checkers off the head than the
// head rule allows.
void check_head_rule(const Game& game, Dice dice, const MoveList& moves) {
  const Position& pos = game.position();
  const Side me = pos.side_to_move();
  const int allowance = head_allowance(pos, dice, game.rules());
  for (const MoveResult& m : moves)
    ASSERT_LE(pos.on_head(me) - m.position.on_head(me), allowance)
        << format_pos(pos) << " " << format_dice(dice);
}

// 24 combinations x (120 uniform + 80 racing games) = 4,800 games.
TEST_P(RandomSim, EveryStateIsConsistent) {
  RandomSimOptions o;
  o.rules = GetParam();
  o.seed = std::hash<std::string>{}(o.rules.to_string()) % 100000;
  o.state_checker = check_head_rule;
  o.num_games = 120;
  RandomSimStats uniform = random_sim_test(o);
  o.policy = Policy::Race;
  o.num_games = 80;
  o.seed += 1;
  RandomSimStats race = random_sim_test(o);
  EXPECT_EQ(uniform.games + race.games, 200);
  EXPECT_GT(uniform.turns, 0);
  EXPECT_GT(uniform.white_wins + race.white_wins, 0);
  EXPECT_GT(uniform.black_wins + race.black_wins, 0);
  if (!o.rules.last_roll_draw) {
    EXPECT_EQ(uniform.draws + race.draws, 0);
  } else {
    EXPECT_GT(uniform.draws + race.draws, 0);  // racing play reaches last-roll draws
  }
  std::printf("games %ld, turns %ld, passes %ld, white %ld, black %ld, draws %ld, mars %ld\n",
              uniform.games + race.games, uniform.turns + race.turns, uniform.passes + race.passes,
              uniform.white_wins + race.white_wins, uniform.black_wins + race.black_wins,
              uniform.draws + race.draws, uniform.mars + race.mars);
}

INSTANTIATE_TEST_SUITE_P(AllRules, RandomSim, ::testing::ValuesIn(all_rule_combinations()),
                         rules_name);

}  // namespace
}  // namespace nardy::testing
