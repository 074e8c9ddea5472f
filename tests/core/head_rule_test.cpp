// docs/rules.md "A turn", rule 3 (the head rule) and its exception variants, for both colours,
// as Given/When/Then scenarios. Also the seeds' worked examples (000/004) about first doubles.
#include <gtest/gtest.h>

#include "core/game.h"
#include "core/movegen.h"
#include "core/pos_text.h"
#include "tests/support/scenario.h"

namespace nardy::testing {
namespace {

using Strings = std::vector<std::string>;

const Rules kStandard = with_rule("head_exception", "standard");
const Rules kStrict = with_rule("head_exception", "strict");
const Rules kNone = with_rule("head_exception", "none");

// ---- White's first turn: every exception double under every variant ----

// Given the start, White to move:
//  13  14  15  16  17  18  |  19  20  21  22  23  24
//   .   .   .   .   .   .  |   .   .   .   .   . W15
//  --------------------------------------------------
// B15   .   .   .   .   .  |   .   .   .   .   .   .
//  12  11  10   9   8   7  |   6   5   4   3   2   1
//   off: White 0, Black 0
// When White rolls 6-6, Then one checker runs 24/18 and is stopped by Black's head on 12; the
// exception lets a second one follow (standard, strict), otherwise only 24/18 is played.
TEST(HeadRule, WhiteFirstSixSix) {
  Position start = Position::start();
  EXPECT_EQ(legal_notations(start, {6, 6}, kStandard), Strings({"24/18(2)"}));
  EXPECT_EQ(legal_notations(start, {6, 6}, kStrict), Strings({"24/18(2)"}));
  EXPECT_EQ(legal_notations(start, {6, 6}, kNone), Strings({"24/18"}));
}

// Given the start (as drawn above), When White rolls 4-4, Then 24/20/16 is stopped by point 12:
// two checkers play 24/16 each, or one alone plays 24/16 without the exception.
TEST(HeadRule, WhiteFirstFourFour) {
  Position start = Position::start();
  EXPECT_EQ(legal_notations(start, {4, 4}, kStandard), Strings({"24/16(2)"}));
  EXPECT_EQ(legal_notations(start, {4, 4}, kStrict), Strings({"24/16(2)"}));
  EXPECT_EQ(legal_notations(start, {4, 4}, kNone), Strings({"24/16"}));
}

// Given the start, When White rolls 3-3, Then a lone checker reaches 15 and its fourth step
// hits Black's head: with a second head checker the four steps split 3+1 or 2+2.
TEST(HeadRule, WhiteFirstThreeThree) {
  Position start = Position::start();
  const Strings two = {"24/18(2)", "24/21 24/15"};
  EXPECT_EQ(legal_notations(start, {3, 3}, kStandard), two);
  EXPECT_EQ(legal_notations(start, {3, 3}, kStrict), two);
  EXPECT_EQ(legal_notations(start, {3, 3}, kNone), Strings({"24/15"}));
}

// Given the start, When White rolls any other double, Then one checker plays every step:
// the exception is only for 6-6, 4-4 and 3-3.
TEST(HeadRule, WhiteFirstOtherDoublesMoveOneChecker) {
  Position start = Position::start();
  for (const Rules& rules : {kStandard, kStrict, kNone}) {
    EXPECT_EQ(legal_notations(start, {5, 5}, rules), Strings({"24/4"}));
    EXPECT_EQ(legal_notations(start, {2, 2}, rules), Strings({"24/16"}));
    EXPECT_EQ(legal_notations(start, {1, 1}, rules), Strings({"24/20"}));
  }
}

// ---- Black's first turn, after White's 6-5 (24/13) ----

// Given White has played 24/13, Black to move with all 15 on its head (point 12):
//  13  14  15  16  17  18  |  19  20  21  22  23  24
//  W1   .   .   .   .   .  |   .   .   .   .   . W14
//  --------------------------------------------------
// B15   .   .   .   .   .  |   .   .   .   .   .   .
//  12  11  10   9   8   7  |   6   5   4   3   2   1
//   off: White 0, Black 0
// When Black rolls 6-6, 4-4 or 3-3, Then Black's lone checker is stopped by White's head on
// point 24 (Black's route: 12 ... 1, 24, ...), and the exception mirrors White's.
TEST(HeadRule, BlackFirstDoubles) {
  Position pos = board({{24, 14}, {13, 1}}, {{12, 15}}, Side::Black);
  for (const Rules& rules : {kStandard, kStrict}) {
    EXPECT_EQ(legal_notations(pos, {6, 6}, rules), Strings({"12/6(2)"}));
    EXPECT_EQ(legal_notations(pos, {4, 4}, rules), Strings({"12/4(2)"}));
    EXPECT_EQ(legal_notations(pos, {3, 3}, rules), Strings({"12/6(2)", "12/9 12/3"}));
  }
  EXPECT_EQ(legal_notations(pos, {6, 6}, kNone), Strings({"12/6"}));
  EXPECT_EQ(legal_notations(pos, {4, 4}, kNone), Strings({"12/4"}));
  EXPECT_EQ(legal_notations(pos, {3, 3}, kNone), Strings({"12/3"}));
}

// ---- strict: another opposing checker stops the run first ----

// Given White all on its head and a Black checker on 16 (Black's home):
//  13  14  15  16  17  18  |  19  20  21  22  23  24
//   .   .   .  B1   .   .  |   .   .   .   .   . W15
//  --------------------------------------------------
// B14   .   .   .   .   .  |   .   .   .   .   .   .
//  12  11  10   9   8   7  |   6   5   4   3   2   1
//   off: White 0, Black 0
// When White rolls 4-4, Then 24/20 is followed by a blocked 20/16: standard still lets two
// checkers leave (24/20(2)); strict does not, because point 16 stopped the run before Black's head.
TEST(HeadRule, StrictWhiteRunStoppedBeforeTheHead) {
  Position pos = board({{24, 15}}, {{12, 14}, {16, 1}}, Side::White);
  EXPECT_EQ(legal_notations(pos, {4, 4}, kStandard), Strings({"24/20(2)"}));
  EXPECT_EQ(legal_notations(pos, {4, 4}, kStrict), Strings({"24/20"}));
  EXPECT_EQ(legal_notations(pos, {4, 4}, kNone), Strings({"24/20"}));
}

// Given White all on its head and a Black checker on 18:
//  13  14  15  16  17  18  |  19  20  21  22  23  24
//   .   .   .   .   .  B1  |   .   .   .   .   . W15
//  --------------------------------------------------
// B14   .   .   .   .   .  |   .   .   .   .   .   .
//  12  11  10   9   8   7  |   6   5   4   3   2   1
//   off: White 0, Black 0
// When White rolls 3-3, Then 24/21/18 stops at 18: two checkers to 21 (standard) or one
// (strict, none). When White rolls 6-6, Then nothing moves at all: a pass in every variant.
TEST(HeadRule, StrictWhiteThreeThreeAndBlockedSixSix) {
  Position pos = board({{24, 15}}, {{12, 14}, {18, 1}}, Side::White);
  EXPECT_EQ(legal_notations(pos, {3, 3}, kStandard), Strings({"24/21(2)"}));
  EXPECT_EQ(legal_notations(pos, {3, 3}, kStrict), Strings({"24/21"}));
  EXPECT_EQ(legal_notations(pos, {3, 3}, kNone), Strings({"24/21"}));
  for (const Rules& rules : {kStandard, kStrict, kNone})
    EXPECT_EQ(legal_notations(pos, {6, 6}, rules), Strings({"pass"}));
}

// Given White all on its head, Black's head on 12 and a Black checker on 6 behind it:
//  13  14  15  16  17  18  |  19  20  21  22  23  24
//   .   .   .   .   .   .  |   .   .   .   .   . W15
//  --------------------------------------------------
// B14   .   .   .   .   .  |  B1   .   .   .   .   .
//  12  11  10   9   8   7  |   6   5   4   3   2   1
//   off: White 0, Black 0
// When White rolls 6-6, Then the run 24/18 is stopped by Black's head itself (before point 6
// is reached), so strict allows the second checker.
TEST(HeadRule, StrictCountsOnlyTheFirstStopper) {
  Position pos = board({{24, 15}}, {{12, 14}, {6, 1}}, Side::White);
  EXPECT_EQ(legal_notations(pos, {6, 6}, kStrict), Strings({"24/18(2)"}));
  EXPECT_EQ(head_allowance(pos, {6, 6}, kStrict), 2);
}

// Given Black all on its head and a White checker on 6 (Black's route point 18):
//  13  14  15  16  17  18  |  19  20  21  22  23  24
//   .   .   .   .   .   .  |   .   .   .   .   . W14
//  --------------------------------------------------
// B15   .   .   .   .   .  |  W1   .   .   .   .   .
//  12  11  10   9   8   7  |   6   5   4   3   2   1
//   off: White 0, Black 0
// When Black rolls 3-3, Then 12/9/6 stops at White's checker on 6: two checkers to 9 under
// standard, one under strict and none.
TEST(HeadRule, StrictBlackRunStoppedBeforeTheHead) {
  Position pos = board({{24, 14}, {6, 1}}, {{12, 15}}, Side::Black);
  EXPECT_EQ(legal_notations(pos, {3, 3}, kStandard), Strings({"12/9(2)"}));
  EXPECT_EQ(legal_notations(pos, {3, 3}, kStrict), Strings({"12/9"}));
  EXPECT_EQ(legal_notations(pos, {3, 3}, kNone), Strings({"12/9"}));
}

// ---- The seeds' worked examples (000 Korean, 004 Russian) ----

// Given opening=any_roll, When White's first roll is 5-5, Then White plays one checker 24/4
// (5-5 is not an exception double). Then Black's 4-4 runs 12/8 and is stopped by White on 4:
//  13  14  15  16  17  18  |  19  20  21  22  23  24
//   .   .   .   .   .   .  |   .   .   .   .   . W14
//  --------------------------------------------------
// B15   .   .   .   .   .  |   .   .  W1   .   .   .
//  12  11  10   9   8   7  |   6   5   4   3   2   1
//   off: White 0, Black 0
// under strict Black moves only one checker from the head (one 4 played), under standard two.
TEST(HeadRule, SeedExampleWhiteFiveFiveThenBlackFourFour) {
  for (const char* head : {"standard", "strict", "none"}) {
    Rules rules = with_rule("opening", "any_roll");
    rules.set("head_exception", head);
    Game game(rules);
    ASSERT_EQ(legal_notations(game.position(), {5, 5}, rules), Strings({"24/4"}));
    game.play({5, 5}, "24/4");
    Strings expected = std::string(head) == "standard" ? Strings({"12/8(2)"}) : Strings({"12/8"});
    EXPECT_EQ(legal_notations(game.position(), {4, 4}, rules), expected) << head;
  }
}

// Given opening=any_roll, When White's first roll is 2-2 (24/16) and Black's is 5-5, Then Black
// moves one checker from the head with three 5s (12/7/2/21), the fourth blocked by White on 16:
//  13  14  15  16  17  18  |  19  20  21  22  23  24
//   .   .   .  W1   .   .  |   .   .   .   .   . W14
//  --------------------------------------------------
// B15   .   .   .   .   .  |   .   .   .   .   .   .
//  12  11  10   9   8   7  |   6   5   4   3   2   1
//   off: White 0, Black 0
TEST(HeadRule, SeedExampleWhiteTwoTwoThenBlackFiveFive) {
  for (const char* head : {"standard", "strict", "none"}) {
    Rules rules = with_rule("opening", "any_roll");
    rules.set("head_exception", head);
    Game game(rules);
    ASSERT_EQ(legal_notations(game.position(), {2, 2}, rules), Strings({"24/16"}));
    game.play({2, 2}, "24/16");
    EXPECT_EQ(legal_notations(game.position(), {5, 5}, rules), Strings({"12/21"})) << head;
  }
}

// ---- The rule itself on ordinary turns ----

// Given White with 14 on the head and one on 13:
//  13  14  15  16  17  18  |  19  20  21  22  23  24
//  W1   .   .   .   .   .  |   .   .   .   .   . W14
//  --------------------------------------------------
// B15   .   .   .   .   .  |   .   .   .   .   .   .
//  12  11  10   9   8   7  |   6   5   4   3   2   1
//   off: White 0, Black 0
// When White rolls 6-5, Then two head checkers may not both leave (24/18 24/19 is illegal),
// while one head checker plus the other is fine.
TEST(HeadRule, OnlyOneCheckerLeavesTheHeadPerTurn) {
  Position pos = board({{24, 14}, {13, 1}}, {{12, 15}}, Side::White);
  EXPECT_FALSE(is_legal(pos, {6, 5}, "24/18 24/19"));
  EXPECT_TRUE(is_legal(pos, {6, 5}, "24/18 13/8"));
  EXPECT_TRUE(is_legal(pos, {6, 5}, "24/13"));
  for (const MoveResult& m : legal_moves(pos, {6, 5}, {}))
    EXPECT_GE(m.position.on_head(Side::White), 13);
}

// Given White with only 14 on its head (one checker already on 20), not a first turn:
//  13  14  15  16  17  18  |  19  20  21  22  23  24
//   .   .   .   .   .   .  |   .  W1   .   .   . W14
//  --------------------------------------------------
// B15   .   .   .   .   .  |   .   .   .   .   .   .
//  12  11  10   9   8   7  |   6   5   4   3   2   1
//   off: White 0, Black 0
// When White rolls 6-6, 4-4 or 3-3, Then the exception does not apply under any variant: at
// most one checker leaves the head.
TEST(HeadRule, ExceptionNeedsAllFifteenOnTheHead) {
  Position pos = board({{24, 14}, {20, 1}}, {{12, 15}}, Side::White);
  for (const Rules& rules : {kStandard, kStrict, kNone}) {
    for (int d : {6, 4, 3}) {
      Dice dice{static_cast<uint8_t>(d), static_cast<uint8_t>(d)};
      EXPECT_EQ(head_allowance(pos, dice, rules), 1);
      for (const MoveResult& m : legal_moves(pos, dice, rules))
        EXPECT_GE(m.position.on_head(Side::White), 13) << format_pos(m.position);
    }
  }
}

// Given White all on its head, When a non-double or a non-exception double is rolled, Then the
// allowance is one under every variant; the exception doubles give two under standard.
TEST(HeadRule, AllowanceByRollAndVariant) {
  Position start = Position::start();
  for (const WeightedRoll& roll : kDistinctRolls) {
    const Dice d = roll.dice;
    const bool exception = d.is_double() && (d.d1 == 6 || d.d1 == 4 || d.d1 == 3);
    EXPECT_EQ(head_allowance(start, d, kStandard), exception ? 2 : 1);
    EXPECT_EQ(head_allowance(start, d, kStrict), exception ? 2 : 1);
    EXPECT_EQ(head_allowance(start, d, kNone), 1);
  }
}

}  // namespace
}  // namespace nardy::testing
