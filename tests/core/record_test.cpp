// core/record.h and core/pos_text.h: records written and replayed (hand-built starts, rules,
// results, comments, CRLF, several records in one file) and the board drawing. Malformed
// records are covered in parse_errors_test.cpp; random games in random_sim_test.cpp.
#include <gtest/gtest.h>

#include "core/error.h"
#include "core/notation.h"
#include "core/pos_text.h"
#include "core/record.h"
#include "tests/support/scenario.h"

namespace nardy::testing {
namespace {

// Given a hand-built ending under last_roll_draw:
//  13  14  15  16  17  18  |  19  20  21  22  23  24
//  B2   .   .   .   .   .  |   .   .   .   .   .   .
//  --------------------------------------------------
//   .   .   .   .   .   .  |   .   .   .   .   .  W1
//  12  11  10   9   8   7  |   6   5   4   3   2   1
//   off: White 14, Black 13
// When White bears off and Black bears off both on its last turn, Then the record carries the
// rules, the start and "result draw", and replays to the same game.
TEST(Record, HandBuiltStartRulesAndDrawRoundTrip) {
  Rules rules = with_rule("last_roll_draw", "true");
  Position start = board({{1, 1}}, {{13, 2}}, Side::White);
  Game game(rules, start);
  game.play({3, 1}, "1/off");
  game.play({1, 1}, "13/off(2)");
  ASSERT_TRUE(game.is_over());
  const std::string text = write_record(game);
  EXPECT_EQ(text,
            "nardy-record 1\n"
            "rules opening=no_doubles head_exception=standard last_roll_draw=true "
            "next_game_starter=previous_black\n"
            "start 1,0,0,0,0,0,0,0,0,0,0,0,-2,0,0,0,0,0,0,0,0,0,0,0 w\n"
            "3-1 1/off\n"
            "1-1 13/off(2)\n"
            "result draw\n");
  Game back = read_record(text);
  EXPECT_EQ(back.position(), game.position());
  EXPECT_EQ(back.rules(), rules);
  EXPECT_EQ(back.start(), start);
  EXPECT_EQ(back.outcome(), game.outcome());
}

TEST(Record, CommentsBlankLinesCrlfAndOtherSpellings) {
  Game g = read_record(
      "# a game\r\n"
      "\r\n"
      "nardy-record 1\r\n"
      "6-5 24/18/13\r\n"
      "# Black's reply\r\n"
      "31 12/9 9/8\r\n");
  ASSERT_EQ(g.history().size(), 2u);
  EXPECT_EQ(g.position().at_point(13), 1);
  EXPECT_EQ(g.position().at_point(8), -1);
  EXPECT_EQ(g.rules(), Rules{});
}

TEST(Record, SeveralRecordsInOneFile) {
  Game a(Rules{});
  a.play({6, 5}, "24/13");
  Game b(with_rule("opening", "any_roll"));
  b.play({6, 6}, "24/18(2)");
  std::vector<Game> games = read_records(write_record(a) + "\n" + write_record(b));
  ASSERT_EQ(games.size(), 2u);
  EXPECT_EQ(games[0].position(), a.position());
  EXPECT_EQ(games[1].position(), b.position());
  EXPECT_EQ(games[1].rules().opening, Opening::AnyRoll);
}

TEST(Record, PlayerNamesRoundTripAndAreChecked) {
  Game g;
  g.set_name(Side::White, "default:ply=1");
  g.set_name(Side::Black, "Ali Aliyev");
  g.play(make_dice(6, 5), "24/13");
  const std::string text = write_record(g);
  EXPECT_NE(text.find("\nwhite default:ply=1\nblack Ali Aliyev\n6-5 24/13\n"), std::string::npos)
      << text;
  const Game back = read_record(text);
  EXPECT_EQ(back.names(), g.names());
  EXPECT_EQ(write_record(back), text);
  // Unnamed games write no name lines (records from before names read the same).
  EXPECT_EQ(write_record(Game()).find("white"), std::string::npos);
  EXPECT_THROW(g.set_name(Side::White, "two\nlines"), Error);
  try {
    read_record("nardy-record 1\n6-5 24/13\nwhite late\n");
    ADD_FAILURE() << "a name after the first move was accepted";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "record line 3: a white line must come before the first move");
  }
}

TEST(Record, PassesAreWrittenAndReplayed) {
  // A lone White checker on 20, Black on 14 and 15: 6-5 is a pass.
  Position start = board({{20, 1}}, {{12, 13}, {14, 1}, {15, 1}}, Side::White);
  Game game(Rules{}, start);
  game.play({6, 5}, "pass");
  EXPECT_EQ(write_record(game).find("6-5 pass\n") != std::string::npos, true);
  EXPECT_EQ(read_record(write_record(game)).position(), game.position());
}

TEST(PosText, DrawBoardShowsCountsPipsAndSide) {
  std::string s = draw_board(Position::start());
  EXPECT_NE(s.find("W15"), std::string::npos) << s;
  EXPECT_NE(s.find("B15"), std::string::npos) << s;
  EXPECT_NE(s.find("White (W): pips 360, off 0, head(24) 15"), std::string::npos) << s;
  EXPECT_NE(s.find("Black (B): pips 360, off 0, head(12) 15"), std::string::npos) << s;
  EXPECT_NE(s.find("To move: White"), std::string::npos) << s;
}

}  // namespace
}  // namespace nardy::testing
