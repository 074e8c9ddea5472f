// core/game.h: the end of a game and scoring (oin, mars, last_roll_draw), match colours
// (next_game_starter) and the opening rule (no_doubles, any_roll) in Game::roll and Game::legal.
#include <gtest/gtest.h>

#include <set>

#include "core/error.h"
#include "core/game.h"
#include "core/notation.h"
#include "core/pos_text.h"
#include "tests/support/scenario.h"

namespace nardy::testing {
namespace {

const Rules kDefault;
const Rules kLastRollDraw = with_rule("last_roll_draw", "true");

// ---- Scoring ----

// Given White has borne off all 15 and Black none:
//  13  14  15  16  17  18  |  19  20  21  22  23  24
//   .   .   .   .   .   .  |   .   .   .   .   .   .
//  --------------------------------------------------
// B15   .   .   .   .   .  |   .   .   .   .   .   .
//  12  11  10   9   8   7  |   6   5   4   3   2   1
//   off: White 15, Black 0
// Then White wins a mars (2 points) under the default rules.
TEST(Outcome, MarsWhenTheLoserHasNoneOff) {
  Position pos = board({}, {{12, 15}}, Side::Black);
  EXPECT_EQ(game_outcome(pos, kDefault), (Outcome{Side::White, 2}));
  EXPECT_EQ(format_outcome(*game_outcome(pos, kDefault)), "white 2");
  EXPECT_TRUE(game_outcome(pos, kDefault)->is_mars());
  EXPECT_EQ(game_outcome(pos, kDefault)->points_for(Side::Black), -2);
}

// Given White has finished and Black has borne off one:
//  13  14  15  16  17  18  |  19  20  21  22  23  24
// B14   .   .   .   .   .  |   .   .   .   .   .   .
//  --------------------------------------------------
//   .   .   .   .   .   .  |   .   .   .   .   .   .
//  12  11  10   9   8   7  |   6   5   4   3   2   1
//   off: White 15, Black 1
// Then White wins an oin (1 point).
TEST(Outcome, OinWhenTheLoserHasOneOff) {
  Position pos = board({}, {{13, 14}}, Side::Black);
  EXPECT_EQ(game_outcome(pos, kDefault), (Outcome{Side::White, 1}));
  EXPECT_EQ(format_outcome(*game_outcome(pos, kDefault)), "white 1");
}

// Given Black has finished, White to move with none off:
//  13  14  15  16  17  18  |  19  20  21  22  23  24
//   .   .   .   .   .   .  |   .   .   .   .   . W15
//  --------------------------------------------------
//   .   .   .   .   .   .  |   .   .   .   .   .   .
//  12  11  10   9   8   7  |   6   5   4   3   2   1
//   off: White 0, Black 15
// Then Black wins a mars, under both settings of last_roll_draw (White never gets a last turn).
TEST(Outcome, BlackWinsAtOnce) {
  Position pos = board({{24, 15}}, {}, Side::White);
  EXPECT_EQ(game_outcome(pos, kDefault), (Outcome{Side::Black, 2}));
  EXPECT_EQ(game_outcome(pos, kLastRollDraw), (Outcome{Side::Black, 2}));
  EXPECT_EQ(format_outcome(*game_outcome(pos, kDefault)), "black 2");
}

TEST(Outcome, NoOutcomeWhileBothHaveCheckers) {
  EXPECT_FALSE(game_outcome(Position::start(), kDefault));
  EXPECT_FALSE(game_outcome(board({{1, 1}}, {{13, 1}}, Side::White), kLastRollDraw));
}

// ---- last_roll_draw ----

// Given White bears off its last checker while Black, with 13 off, has two on 13:
//  13  14  15  16  17  18  |  19  20  21  22  23  24
//  B2   .   .   .   .   .  |   .   .   .   .   .   .
//  --------------------------------------------------
//   .   .   .   .   .   .  |   .   .   .   .   .  W1
//  12  11  10   9   8   7  |   6   5   4   3   2   1
//   off: White 14, Black 13
// When last_roll_draw is on, Then the game is not over: Black plays one more turn. If Black
// then bears off both (1-1 does it) the game is a draw; with a roll that leaves one, White wins.
TEST(LastRollDraw, BlackFinishingOnItsLastTurnDraws) {
  Position pos = board({{1, 1}}, {{13, 2}}, Side::White);
  Game game(kLastRollDraw, pos);
  game.play({3, 1}, "1/off");
  EXPECT_FALSE(game.is_over());
  EXPECT_EQ(game.position().side_to_move(), Side::Black);
  Game draw = game;
  draw.play({1, 1}, "13/off(2)");
  ASSERT_TRUE(draw.is_over());
  EXPECT_TRUE(draw.outcome()->is_draw());
  EXPECT_EQ(format_outcome(*draw.outcome()), "draw");
  EXPECT_EQ(draw.outcome()->points_for(Side::White), 0);
  // Without the variant the same bear-off ends the game at once.
  Game plain(kDefault, pos);
  plain.play({3, 1}, "1/off");
  EXPECT_EQ(plain.outcome(), (Outcome{Side::White, 1}));
}

// Given White bears off its last checker, Black with none off and two checkers home:
//  13  14  15  16  17  18  |  19  20  21  22  23  24
//  B2   .   .   .   . B13  |   .   .   .   .   .   .
//  --------------------------------------------------
//   .   .   .   .   .   .  |   .   .   .   .   .  W1
//  12  11  10   9   8   7  |   6   5   4   3   2   1
//   off: White 14, Black 0
// When last_roll_draw is on and Black's last turn bears off two but not all, Then White wins an
// oin, not a mars: mars is judged after Black's extra turn. Without the variant it is a mars.
TEST(LastRollDraw, MarsIsJudgedAfterTheLastTurn) {
  Position pos = board({{1, 1}}, {{18, 13}, {13, 2}}, Side::White);
  Game game(kLastRollDraw, pos);
  game.play({2, 1}, "1/off");
  ASSERT_FALSE(game.is_over());
  game.play({6, 6}, "18/off(4)");
  ASSERT_TRUE(game.is_over());
  EXPECT_EQ(game.outcome(), (Outcome{Side::White, 1}));

  Game plain(kDefault, pos);
  plain.play({2, 1}, "1/off");
  EXPECT_EQ(plain.outcome(), (Outcome{Side::White, 2}));
}

// Given the same bear-off, When Black's last turn bears off nothing, Then White wins a mars.
TEST(LastRollDraw, MarsStandsIfBlackBearsOffNothing) {
  Position pos = board({{1, 1}}, {{20, 15}}, Side::White);
  Game game(kLastRollDraw, pos);
  game.play({2, 1}, "1/off");
  ASSERT_FALSE(game.is_over());
  game.play({2, 1}, "20/17");
  EXPECT_EQ(game.outcome(), (Outcome{Side::White, 2}));
}

// ---- next_game_starter ----

TEST(NextGameStarter, PreviousBlackAlternates) {
  const Rules rules;
  for (int white : {0, 1})
    for (Outcome o : {Outcome{Side::White, 1}, Outcome{Side::Black, 2}, Outcome{std::nullopt, 0}})
      EXPECT_EQ(next_white_player(white, o, rules), 1 - white);
}

TEST(NextGameStarter, PreviousWinnerTakesWhite) {
  const Rules rules = with_rule("next_game_starter", "previous_winner");
  EXPECT_EQ(next_white_player(0, Outcome{Side::White, 1}, rules), 0);
  EXPECT_EQ(next_white_player(0, Outcome{Side::Black, 1}, rules), 1);
  EXPECT_EQ(next_white_player(1, Outcome{Side::White, 2}, rules), 1);
  EXPECT_EQ(next_white_player(1, Outcome{Side::Black, 2}, rules), 0);
  // A draw alternates.
  EXPECT_EQ(next_white_player(0, Outcome{std::nullopt, 0}, rules), 1);
  EXPECT_EQ(next_white_player(1, Outcome{std::nullopt, 0}, rules), 0);
}

// ---- Opening rule ----

// Given opening=no_doubles, When the first roll of a game is made, Then it is never a double,
// and every ordered pair of different numbers occurs; later rolls include doubles.
TEST(Opening, NoDoublesRollsNoDoubleFirst) {
  Game game(kDefault);
  Rng rng(11);
  std::set<std::pair<int, int>> seen;
  for (int i = 0; i < 6000; ++i) {
    Dice d = game.roll(rng);
    ASSERT_FALSE(d.is_double());
    ASSERT_TRUE(d.valid());
    seen.insert({d.d1, d.d2});
  }
  EXPECT_EQ(seen.size(), 30u);
  game.play({6, 5}, "24/13");
  int doubles = 0;
  for (int i = 0; i < 6000; ++i) doubles += game.roll(rng).is_double();
  EXPECT_GT(doubles, 800);
  EXPECT_LT(doubles, 1200);
}

// Given opening=any_roll, Then the first roll is a fresh roll: doubles about 1 in 6.
TEST(Opening, AnyRollMayRollADoubleFirst) {
  Game game(with_rule("opening", "any_roll"));
  Rng rng(12);
  int doubles = 0;
  for (int i = 0; i < 6000; ++i) doubles += game.roll(rng).is_double();
  EXPECT_GT(doubles, 800);
  EXPECT_LT(doubles, 1200);
}

// Given opening=no_doubles, When a double is offered for the first turn, Then Game::legal and
// Game::play refuse it with a message; on later turns doubles are fine.
TEST(Opening, NoDoublesRefusesADoubleOnTheFirstTurn) {
  Game game(kDefault);
  try {
    game.legal({6, 6});
    FAIL() << "expected an Error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(),
                 "dice 6-6: the opening roll cannot be a double under opening=no_doubles");
  }
  EXPECT_THROW(game.play({3, 3}, "24/18(2)"), Error);
  game.play({6, 5}, "24/13");
  EXPECT_EQ(legal_notations(game.position(), {6, 6}, kDefault),
            std::vector<std::string>({"12/6(2)"}));
  EXPECT_EQ(game.legal({6, 6}).size(), 1u);
}

// Given a game from a hand-built position, Then the opening rule does not apply to its first turn.
TEST(Opening, OnlyAGameFromTheStartHasAnOpeningTurn) {
  Game game(kDefault, board({{24, 14}, {13, 1}}, {{12, 15}}, Side::White));
  EXPECT_FALSE(game.is_opening_turn());
  EXPECT_NO_THROW(game.legal({6, 6}));
  EXPECT_TRUE(Game(kDefault).is_opening_turn());
}

// Given a bare position, Then only the start position under opening=no_doubles excludes doubles.
TEST(Opening, ABarePositionExcludesDoublesOnlyAtTheStartUnderNoDoubles) {
  EXPECT_TRUE(opening_excludes_doubles(Position::start(), kDefault));
  EXPECT_FALSE(opening_excludes_doubles(Position::start(), with_rule("opening", "any_roll")));
  EXPECT_FALSE(
      opening_excludes_doubles(board({{24, 14}, {13, 1}}, {{12, 15}}, Side::Black), kDefault));
}

// ---- Game mechanics ----

TEST(Game, PlayUndoAndIllegalMoves) {
  Game game(kDefault);
  game.play({6, 5}, "24/13");
  ASSERT_EQ(game.history().size(), 1u);
  EXPECT_EQ(game.history()[0].dice, (Dice{6, 5}));
  EXPECT_EQ(format_move(game.history()[0].move), "24/13");
  try {
    game.play({3, 1}, "24/21 24/23");
    FAIL() << "expected an Error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("move '24/21 24/23' is not legal with 3-1"),
              std::string::npos)
        << e.what();
  }
  EXPECT_EQ(game.history().size(), 1u);  // nothing changed
  MoveResult bogus;
  bogus.position = Position::start();
  EXPECT_THROW(game.play({3, 1}, bogus), Error);
  EXPECT_TRUE(game.undo());
  EXPECT_EQ(game.position(), Position::start());
  EXPECT_FALSE(game.undo());
}

TEST(Game, NoMovesOnceTheGameIsOver) {
  Game game(kDefault, board({{1, 1}}, {{12, 15}}, Side::White));
  game.play({6, 6}, "1/off");
  ASSERT_TRUE(game.is_over());
  try {
    game.legal({2, 1});
    FAIL() << "expected an Error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "the game is over (white 2)");
  }
}

TEST(Game, RejectsAnInvalidStart) {
  std::array<int, kNumPoints> points{};
  points[0] = 16;
  try {
    Game game(kDefault, Position::from_points(points, Side::White));
    FAIL() << "expected an Error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "game start position: White has 16 checkers on the board (at most 15)");
  }
}

}  // namespace
}  // namespace nardy::testing
