// core/notation.h: the canonical notation written by format_move (docs/rules.md rule 7) and the
// spellings find_move accepts; core/movegen.h result order and sort_by_position.
#include <gtest/gtest.h>

#include "core/movegen.h"
#include "core/notation.h"
#include "core/pos_text.h"
#include "tests/support/scenario.h"

namespace nardy::testing {
namespace {

// Given White with 14 on 24 and one on 13:
//  13  14  15  16  17  18  |  19  20  21  22  23  24
//  W1   .   .   .   .   .  |   .   .   .   .   . W14
//  --------------------------------------------------
// B15   .   .   .   .   .  |   .   .   .   .   .   .
//  12  11  10   9   8   7  |   6   5   4   3   2   1
//   off: White 0, Black 0
// When White rolls 3-3, Then each result is written once per path, rearmost first, with counts
// for identical paths, and every spelling of the same move finds the same result.
TEST(Notation, CanonicalFormAndAcceptedSpellings) {
  Position pos = board({{24, 14}, {13, 1}}, {{12, 15}}, Side::White);
  std::vector<std::string> all = legal_notations(pos, {3, 3});
  EXPECT_NE(std::find(all.begin(), all.end(), "24/21 13/4"), all.end());
  EXPECT_NE(std::find(all.begin(), all.end(), "13/1"), all.end());
  EXPECT_NE(std::find(all.begin(), all.end(), "24/18 13/7"), all.end());
  // Chains, written-out repeats and any order give the same result.
  EXPECT_EQ(after(pos, {3, 3}, "13/10/7/4 24/21"), after(pos, {3, 3}, "24/21 13/4"));
  EXPECT_EQ(after(pos, {3, 3}, "13/10 10/7 7/4 24/21"), after(pos, {3, 3}, "24/21 13/4"));
  EXPECT_EQ(after(pos, {3, 3}, "13/7 24/18"), after(pos, {3, 3}, "24/18 13/7"));
}

TEST(Notation, CountsOffAndPass) {
  // Two checkers from the head under the 6-6 exception.
  EXPECT_EQ(legal_notations(Position::start(), {6, 6}), std::vector<std::string>({"24/18(2)"}));
  // Identical bear-offs are counted; repeated paths may be written out when parsing.
  Position home = board({{4, 2}, {2, 1}}, {{12, 15}}, Side::White);
  EXPECT_EQ(legal_notations(home, {6, 5}), std::vector<std::string>({"4/off(2)"}));
  EXPECT_EQ(after(home, {6, 5}, "4/off 4/off"), after(home, {6, 5}, "4/off(2)"));
  Move pass;
  EXPECT_EQ(format_move(pass), "pass");
}

// Black's paths are written in absolute points along Black's route (12 ... 1, 24 ... 13).
TEST(Notation, BlackCrossesFromOneToTwentyFour) {
  Position pos = board({{24, 15}}, {{12, 10}, {3, 5}}, Side::Black);
  std::vector<std::string> all = legal_notations(pos, {6, 5});
  EXPECT_NE(std::find(all.begin(), all.end(), "3/16"), all.end());
  EXPECT_NE(std::find(all.begin(), all.end(), "12/6 3/22"), all.end());
  Position p = after(pos, {6, 5}, "3/22/16");
  EXPECT_EQ(p.at_point(16), -1);
  EXPECT_EQ(p.at_point(3), -4);
}

TEST(Notation, FormatDice) {
  EXPECT_EQ(format_dice({6, 5}), "6-5");
  EXPECT_EQ(format_dice({1, 1}), "1-1");
}

// Results are distinct and sort_by_position orders them by absolute board.
TEST(Movegen, SortByPositionIsCanonical) {
  Position pos =
      board({{24, 10}, {20, 1}, {18, 1}, {16, 1}, {14, 1}, {10, 1}}, {{12, 15}}, Side::White);
  MoveList moves = legal_moves(pos, {4, 2}, {});
  ASSERT_GT(moves.size(), 5u);
  MoveList sorted = moves;
  sort_by_position(sorted);
  for (size_t i = 1; i < sorted.size(); ++i)
    EXPECT_LT(sorted[i - 1].position.points(), sorted[i].position.points());
  // generate_moves into a reused list gives the same results in the same order.
  MoveList again;
  generate_moves(pos, {2, 4}, {}, again);
  ASSERT_EQ(again.size(), moves.size());
  for (size_t i = 0; i < moves.size(); ++i) EXPECT_EQ(again[i].position, moves[i].position);
}

}  // namespace
}  // namespace nardy::testing
