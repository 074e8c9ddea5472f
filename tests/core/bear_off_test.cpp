// docs/rules.md "A turn", rules 5-7 as Given/When/Then scenarios: bearing off (exact, overshoot
// only from the highest point, never compulsory, after coming home in the same turn), the
// dice obligation (as many dice as possible, the larger die, passes) and the end of the game
// voiding unused dice. Also docs/rules.md's "Checks anyone can do by hand".
#include <gtest/gtest.h>

#include "core/game.h"
#include "core/movegen.h"
#include "core/pos_text.h"
#include "tests/support/scenario.h"

namespace nardy::testing {
namespace {

using Strings = std::vector<std::string>;

// ---- docs/rules.md "Checks anyone can do by hand" ----

// Given the start:
//  13  14  15  16  17  18  |  19  20  21  22  23  24
//   .   .   .   .   .   .  |   .   .   .   .   . W15
//  --------------------------------------------------
// B15   .   .   .   .   .  |   .   .   .   .   .   .
//  12  11  10   9   8   7  |   6   5   4   3   2   1
//   off: White 0, Black 0
// When White rolls 6-5, Then the only legal move is 24/13 (24/18/13 and 24/19/13 end alike),
// leaving 14 on 24 and one on 13, pips White 349 and Black 360.
TEST(HandChecks, StartSixFive) {
  Position start = Position::start();
  EXPECT_EQ(start.pips(Side::White), 360);
  EXPECT_EQ(start.pips(Side::Black), 360);
  MoveList moves = legal_moves(start, {6, 5}, {});
  ASSERT_EQ(moves.size(), 1u);
  EXPECT_EQ(legal_notations(start, {6, 5}), Strings({"24/13"}));
  const Position& p = moves[0].position;
  EXPECT_EQ(p.at_point(24), 14);
  EXPECT_EQ(p.at_point(13), 1);
  EXPECT_EQ(p.pips(Side::White), 349);
  EXPECT_EQ(p.pips(Side::Black), 360);
  EXPECT_EQ(p.side_to_move(), Side::Black);
  EXPECT_EQ(after(start, {5, 6}, "24/18/13"), p);
  EXPECT_EQ(after(start, {6, 5}, "24/19/13"), p);
}

// Given White home with six off, Black on 13..18:
//  13  14  15  16  17  18  |  19  20  21  22  23  24
//  B3  B3  B3  B2  B2  B2  |   .   .   .   .   .   .
//  --------------------------------------------------
//   .   .   .   .   .   .  |  W2  W2  W2  W1  W1  W1
//  12  11  10   9   8   7  |   6   5   4   3   2   1
//   off: White 6, Black 0
// Then the pips are 36 and 48. When White rolls 6-5, Then 6/off 5/off is legal and leaves
// 8 off and 25 pips; the other legal move keeps a checker in (6/1 6/off): bearing off is
// never compulsory.
TEST(HandChecks, BearOffSixFive) {
  Position pos = board({{1, 1}, {2, 1}, {3, 1}, {4, 2}, {5, 2}, {6, 2}},
                       {{13, 3}, {14, 3}, {15, 3}, {16, 2}, {17, 2}, {18, 2}}, Side::White);
  EXPECT_EQ(pos.off(Side::White), 6);
  EXPECT_EQ(pos.pips(Side::White), 36);
  EXPECT_EQ(pos.pips(Side::Black), 48);
  EXPECT_EQ(legal_notations(pos, {6, 5}), Strings({"6/1 6/off", "6/off 5/off"}));
  Position p = after(pos, {6, 5}, "6/off 5/off");
  EXPECT_EQ(p.off(Side::White), 8);
  EXPECT_EQ(p.pips(Side::White), 25);
}

// Given the start under opening=any_roll, When White rolls 6-6, Then White plays 24/18(2): the
// other two sixes are void because point 12 is Black's head.
TEST(HandChecks, StartSixSixUnderAnyRoll) {
  Rules rules = with_rule("opening", "any_roll");
  Game game(rules);
  MoveList moves = game.legal({6, 6});
  ASSERT_EQ(moves.size(), 1u);
  EXPECT_EQ(legal_notations(game.position(), {6, 6}, rules), Strings({"24/18(2)"}));
  EXPECT_EQ(moves[0].move.num_steps, 2);
}

// ---- Bearing off ----

// Given White on 4 (two) and 2, twelve off:
//  13  14  15  16  17  18  |  19  20  21  22  23  24
//   .   .   .   .   .   .  |   .   .   .   .   .   .
//  --------------------------------------------------
// B15   .   .   .   .   .  |   .   .  W2   .  W1   .
//  12  11  10   9   8   7  |   6   5   4   3   2   1
//   off: White 12, Black 0
// When White rolls 6-5, Then both dice bear off from 4, the highest point (overshoot).
TEST(BearOff, OvershootFromTheHighestPoint) {
  Position pos = board({{4, 2}, {2, 1}}, {{12, 15}}, Side::White);
  EXPECT_EQ(legal_notations(pos, {6, 5}), Strings({"4/off(2)"}));
}

// Given White on 6 and 3, thirteen off:
//  13  14  15  16  17  18  |  19  20  21  22  23  24
//   .   .   .   .   .   .  |   .   .   .   .   .   .
//  --------------------------------------------------
// B15   .   .   .   .   .  |  W1   .   .  W1   .   .
//  12  11  10   9   8   7  |   6   5   4   3   2   1
//   off: White 13, Black 0
// When White rolls 5-4, Then neither die may bear off from 3 while 6 is occupied: the checker on
// 6 moves inside home first (6/1 or 6/2), after which the other die bears off from 3.
TEST(BearOff, NoOvershootWhileAHigherPointIsHeld) {
  Position pos = board({{6, 1}, {3, 1}}, {{12, 15}}, Side::White);
  EXPECT_EQ(legal_notations(pos, {5, 4}), Strings({"6/1 3/off", "6/2 3/off"}));
}

// Given White on 8 (outside home) and two on 1, twelve off:
//  13  14  15  16  17  18  |  19  20  21  22  23  24
//   .   .   .   .   .   .  |   .   .   .   .   .   .
//  --------------------------------------------------
// B15   .   .   .  W1   .  |   .   .   .   .   .  W2
//  12  11  10   9   8   7  |   6   5   4   3   2   1
//   off: White 12, Black 0
// When White rolls 6-2, Then the checker comes home and bears off in the same turn (8/2/off or
// 8/6/off); the two on 1 may not bear off while 8 is still outside.
// When White rolls 5-1, Then 8/3 makes all home, after which the 1 bears off from 1; or 8/2.
TEST(BearOff, EnterHomeAndBearOffInTheSameTurn) {
  Position pos = board({{8, 1}, {1, 2}}, {{12, 15}}, Side::White);
  EXPECT_EQ(legal_notations(pos, {6, 2}), Strings({"8/off"}));
  EXPECT_TRUE(is_legal(pos, {6, 2}, "8/2 2/off"));
  EXPECT_EQ(legal_notations(pos, {5, 1}), Strings({"8/2", "8/3 1/off"}));
}

// Given Black on 18 and 15 (its home is 13..18, route 6 and 3), thirteen off; White all on 24:
//  13  14  15  16  17  18  |  19  20  21  22  23  24
//   .   .  B1   .   .  B1  |   .   .   .   .   . W15
//  --------------------------------------------------
//   .   .   .   .   .   .  |   .   .   .   .   .   .
//  12  11  10   9   8   7  |   6   5   4   3   2   1
//   off: White 0, Black 13
// When Black rolls 6-5, Then 18/off 15/off ends the game (Black wins a mars: White has none
// off), or 18/13 15/off.
TEST(BearOff, BlackBearsOffAndWinsAMars) {
  Position pos = board({{24, 15}}, {{18, 1}, {15, 1}}, Side::Black);
  EXPECT_EQ(legal_notations(pos, {6, 5}), Strings({"18/13 15/off", "18/off 15/off"}));
  Position end = after(pos, {6, 5}, "18/off 15/off");
  EXPECT_EQ(game_outcome(end, {}), (Outcome{Side::Black, 2}));
}

// ---- Dice obligation ----

// Given a lone White checker on 20 and a Black checker on 9:
//  13  14  15  16  17  18  |  19  20  21  22  23  24
//   .   .   .   .   .   .  |   .  W1   .   .   .   .
//  --------------------------------------------------
// B14   .   .  B1   .   .  |   .   .   .   .   .   .
//  12  11  10   9   8   7  |   6   5   4   3   2   1
//   off: White 14, Black 0
// When White rolls 6-5, Then either die alone can be played but not both (20/14/9 and 20/15/9
// are closed): the larger must be played, 20/14.
TEST(DiceObligation, OnlyTheLargerDie) {
  Position pos = board({{20, 1}}, {{12, 14}, {9, 1}}, Side::White);
  EXPECT_EQ(legal_notations(pos, {6, 5}), Strings({"20/14"}));
  EXPECT_EQ(legal_notations(pos, {5, 6}), Strings({"20/14"}));
}

// Given a lone White checker on 20 and Black on 14 and 9:
//  13  14  15  16  17  18  |  19  20  21  22  23  24
//   .  B1   .   .   .   .  |   .  W1   .   .   .   .
//  --------------------------------------------------
// B13   .   .  B1   .   .  |   .   .   .   .   .   .
//  12  11  10   9   8   7  |   6   5   4   3   2   1
//   off: White 14, Black 0
// When White rolls 6-5, Then the 6 cannot be played at all, and the 5 can: 20/15.
TEST(DiceObligation, OnlyTheSmallerDie) {
  Position pos = board({{20, 1}}, {{12, 13}, {14, 1}, {9, 1}}, Side::White);
  EXPECT_EQ(legal_notations(pos, {6, 5}), Strings({"20/15"}));
}

// Given a lone White checker on 20 and Black on 14:
//  13  14  15  16  17  18  |  19  20  21  22  23  24
//   .  B1   .   .   .   .  |   .  W1   .   .   .   .
//  --------------------------------------------------
// B14   .   .   .   .   .  |   .   .   .   .   .   .
//  12  11  10   9   8   7  |   6   5   4   3   2   1
//   off: White 14, Black 0
// When White rolls 6-5, Then 20/15/9 uses both dice and is the only legal move (full-move rule:
// the 5 alone is not enough).
TEST(DiceObligation, BothDiceWhenPossible) {
  Position pos = board({{20, 1}}, {{12, 14}, {14, 1}}, Side::White);
  EXPECT_EQ(legal_notations(pos, {6, 5}), Strings({"20/9"}));
}

// Given a lone White checker on 20 and Black on 14 and 15:
//  13  14  15  16  17  18  |  19  20  21  22  23  24
//   .  B1  B1   .   .   .  |   .  W1   .   .   .   .
//  --------------------------------------------------
// B13   .   .   .   .   .  |   .   .   .   .   .   .
//  12  11  10   9   8   7  |   6   5   4   3   2   1
//   off: White 14, Black 0
// When White rolls 6-5, Then nothing can be played: the single result is a pass, the same
// board with Black to move.
TEST(DiceObligation, NoMoveIsAPass) {
  Position pos = board({{20, 1}}, {{12, 13}, {14, 1}, {15, 1}}, Side::White);
  MoveList moves = legal_moves(pos, {6, 5}, {});
  ASSERT_EQ(moves.size(), 1u);
  EXPECT_EQ(moves[0].move.num_steps, 0);
  EXPECT_EQ(moves[0].position, pos.with_side_to_move(Side::Black));
  EXPECT_EQ(legal_notations(pos, {6, 5}), Strings({"pass"}));
  EXPECT_TRUE(is_legal(pos, {6, 5}, "pass"));
}

// Given White on 6 and 5, thirteen off, Black on 4 and 1 (closing 6/4 and 6/1):
//  13  14  15  16  17  18  |  19  20  21  22  23  24
//   .   .   .   .   .   .  |   .   .   .   .   .   .
//  --------------------------------------------------
// B13   .   .   .   .   .  |  W1  W1  B1   .   .  B1
//  12  11  10   9   8   7  |   6   5   4   3   2   1
//   off: White 13, Black 0
// When White rolls 5-2, Then the 5 can bear off from 5 and the 2 can play 5/3, but not both
// (after 5/off the 2 has no move; after 5/3 the 5 has none): the larger die wins, 5/off.
TEST(DiceObligation, LargerDieWhenItsOnlyPlayIsABearOff) {
  Position pos = board({{6, 1}, {5, 1}}, {{12, 13}, {4, 1}, {1, 1}}, Side::White);
  EXPECT_EQ(legal_notations(pos, {5, 2}), Strings({"5/off"}));
}

// Given White on 6 and 5, thirteen off, Black on 1, 2 and 3:
//  13  14  15  16  17  18  |  19  20  21  22  23  24
//   .   .   .   .   .   .  |   .   .   .   .   .   .
//  --------------------------------------------------
// B12   .   .   .   .   .  |  W1  W1   .  B1  B1  B1
//  12  11  10   9   8   7  |   6   5   4   3   2   1
//   off: White 13, Black 0
// When White rolls 6-3, Then only the 6 can be played (6/off; the 3 is closed everywhere).
TEST(DiceObligation, OnlyTheLargerDieByBearingOff) {
  Position pos = board({{6, 1}, {5, 1}}, {{12, 12}, {3, 1}, {2, 1}, {1, 1}}, Side::White);
  EXPECT_EQ(legal_notations(pos, {6, 3}), Strings({"6/off"}));
}

// ---- The end of the game voids the remaining dice ----

// Given White's last checker on 1, Black all on its head:
//  13  14  15  16  17  18  |  19  20  21  22  23  24
//   .   .   .   .   .   .  |   .   .   .   .   .   .
//  --------------------------------------------------
// B15   .   .   .   .   .  |   .   .   .   .   .  W1
//  12  11  10   9   8   7  |   6   5   4   3   2   1
//   off: White 14, Black 0
// When White rolls 6-6, Then 1/off ends the game at once; the other three sixes are void.
// White wins a mars (Black has none off).
TEST(GameEnd, LastCheckerOffVoidsTheRemainingDice) {
  Position pos = board({{1, 1}}, {{12, 15}}, Side::White);
  MoveList moves = legal_moves(pos, {6, 6}, {});
  ASSERT_EQ(moves.size(), 1u);
  EXPECT_EQ(moves[0].move.num_steps, 1);
  EXPECT_EQ(legal_notations(pos, {6, 6}), Strings({"1/off"}));
  EXPECT_EQ(moves[0].position.off(Side::White), 15);
  EXPECT_EQ(game_outcome(moves[0].position, {}), (Outcome{Side::White, 2}));
  EXPECT_EQ(legal_notations(pos, {6, 5}), Strings({"1/off"}));
}

// Given White's last two checkers on 2 and 1, Black with some borne off:
//  13  14  15  16  17  18  |  19  20  21  22  23  24
//  B5   .   .   .   .   .  |   .   .   .   .   .   .
//  --------------------------------------------------
//   .   .   .   .   .   .  |   .   .   .   .  W1  W1
//  12  11  10   9   8   7  |   6   5   4   3   2   1
//   off: White 13, Black 10
// When White rolls 4-4, Then two steps bear both off and the game ends (oin: Black has 10 off).
TEST(GameEnd, DoubleEndsAfterTwoSteps) {
  Position pos = board({{2, 1}, {1, 1}}, {{13, 5}}, Side::White);
  MoveList moves = legal_moves(pos, {4, 4}, {});
  ASSERT_EQ(moves.size(), 1u);
  EXPECT_EQ(moves[0].move.num_steps, 2);
  EXPECT_EQ(legal_notations(pos, {4, 4}), Strings({"2/off 1/off"}));
  EXPECT_EQ(game_outcome(moves[0].position, {}), (Outcome{Side::White, 1}));
}

}  // namespace
}  // namespace nardy::testing
