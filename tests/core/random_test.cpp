// core/random.h: roll_turn, the one source of a turn's dice.
#include "core/random.h"

#include <gtest/gtest.h>

#include <map>

namespace nardy {
namespace {

TEST(RollTurn, LaterTurnsAreFreshRollsBitForBit) {
  Rng a(5), b(5);
  for (int i = 0; i < 200; ++i) ASSERT_EQ(roll_turn(a, Rules{}, false), roll_dice(b));
}

TEST(RollTurn, OpeningUnderNoDoublesIsEveryNonDoubleRollEquallyOften) {
  Rng rng(9);
  std::map<std::pair<int, int>, int> counts;
  const int n = 30000;
  for (int i = 0; i < n; ++i) {
    const Dice d = roll_turn(rng, Rules{}, true);
    ASSERT_FALSE(d.is_double());
    ++counts[{d.d1, d.d2}];
  }
  EXPECT_EQ(counts.size(), 30u);  // every ordered pair of different numbers
  for (const auto& [dice, c] : counts) EXPECT_NEAR(c, n / 30, 150) << dice.first << dice.second;
}

TEST(RollTurn, OpeningUnderAnyRollIsAFreshRoll) {
  Rules any;
  any.opening = Opening::AnyRoll;
  Rng a(3), b(3);
  for (int i = 0; i < 200; ++i) ASSERT_EQ(roll_turn(a, any, true), roll_dice(b));
}

}  // namespace
}  // namespace nardy
