// core/random.h: the seed mixer against published splitmix64 values, and roll_turn, the one
// source of a turn's dice.
#include "core/random.h"

#include <gtest/gtest.h>

#include <map>

namespace nardy {
namespace {

TEST(Splitmix64, MatchesTheReferenceSequenceFromStateZero) {
  // The first outputs of Vigna's splitmix64.c seeded with 0.
  uint64_t state = 0;
  EXPECT_EQ(splitmix64(state), 0xE220A8397B1DCDAFull);
  EXPECT_EQ(splitmix64(state), 0x6E789E6AA1B965F4ull);
  EXPECT_EQ(splitmix64(state), 0x06C45D188009454Full);
  EXPECT_EQ(mix_seed(0), 0xE220A8397B1DCDAFull);
}

TEST(Rng, IsSeededFromFourSplitmixOutputs) {
  // xoshiro256**'s first output is rotl(s1 * 5, 7) * 9, s1 the second splitmix64 output.
  uint64_t s1 = 0x6E789E6AA1B965F4ull * 5;
  s1 = (s1 << 7) | (s1 >> 57);
  EXPECT_EQ(Rng(0).next(), s1 * 9);
}

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
