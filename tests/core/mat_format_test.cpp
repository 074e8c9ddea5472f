// .mat match files (core/mat_format.h): hand-written samples in both players' numberings,
// round trips nardy -> .mat -> nardy, and errors naming the line.
#include "core/mat_format.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "core/match.h"
#include "core/random.h"
#include "tests/support/error_of.h"

namespace nardy {
namespace {

using testing::error_of;

// alice (player 1, left column) is White and moves first; bob's moves are in his own numbering
// (his head is his 24 = the board's point 12).
const char* kAliceWhite =
    "; a hand-written sample\n"
    " 3 point match\n"
    "\n"
    " Game 1\n"
    " alice : 0                          bob : 0\n"
    "  1) 65: 24/13                      31: 24/21 21/20\n"
    "  2) 42: 24/20 13/11                53: 24/19 20/17\n"
    "  3) 61: 24/18 18/17                64: 24/18 19/15\n";

// bob (right column) is White: the first line's left column is empty; alice's moves are in her
// own numbering.
const char* kBobWhite =
    " 1 point match\n"
    "\n"
    " Game 1\n"
    " alice : 0                          bob : 0\n"
    "  1)                                65: 24/13\n"
    "  2) 31: 24/21/20                   42: 24/20 13/11\n"
    "  3) 53: 24/19 20/17\n";

// The same turns in absolute points (core/notation.h).
Game sample_game() {
  Game g;
  g.play({6, 5}, "24/13");
  g.play({3, 1}, "12/8");
  g.play({4, 2}, "24/20 13/11");
  g.play({5, 3}, "12/7 8/5");
  g.play({6, 1}, "24/17");
  g.play({6, 4}, "12/6 7/3");
  return g;
}

TEST(MatFormat, HandWrittenSamplesReplayInEachPlayersNumbering) {
  const Game expected = sample_game();
  const Match a = read_mat(kAliceWhite);
  EXPECT_EQ(a.target(), 3);
  EXPECT_EQ(a.names[0], "alice");
  EXPECT_EQ(a.names[1], "bob");
  ASSERT_EQ(a.games().size(), 1u);
  EXPECT_EQ(a.white_players()[0], 0);
  EXPECT_EQ(a.current_game().position(), expected.position());
  EXPECT_EQ(a.current_game().history().size(), 6u);

  const Match b = read_mat(kBobWhite);
  EXPECT_EQ(b.white_players()[0], 1);
  ASSERT_EQ(b.current_game().history().size(), 4u);
  EXPECT_EQ(b.current_game().position(), expected.history()[4].before);
  EXPECT_TRUE(looks_like_mat(kAliceWhite));
  EXPECT_FALSE(looks_like_mat("nardy-match 1\n"));
}

// A match between two seeded random players.
Match random_match(int target, int first_white, uint64_t seed) {
  Match m(target, Rules{}, first_white);
  m.names = {"alice smith", "bob"};
  Rng rng(seed);
  for (;;) {
    Game& g = m.current_game();
    while (!g.is_over()) {
      const Dice d = g.roll(rng);
      const MoveList moves = g.legal(d);
      g.play(d, moves[rng.below(static_cast<uint32_t>(moves.size()))]);
    }
    if (m.is_over()) return m;
    m.start_next_game();
  }
}

TEST(MatFormat, RoundTripsGiveTheSameMatch) {
  for (int first_white : {0, 1}) {
    for (uint64_t seed : {1, 2, 3}) {
      const Match m = random_match(3, first_white, seed);
      const std::string mat = write_mat(m);
      const Match back = read_mat(mat);
      EXPECT_EQ(write_match_record(back), write_match_record(m)) << mat;
      EXPECT_EQ(write_mat(back), mat);
    }
  }
  // An unfinished last game, and passes, survive too.
  Match m = random_match(5, 0, 9);
  while (m.current_game().history().size() > 7) m.current_game().undo();
  EXPECT_EQ(write_match_record(read_mat(write_mat(m))), write_match_record(m));
}

TEST(MatFormat, WrittenFilesUseEachPlayersOwnNumbering) {
  Match m(1);
  m.names = {"alice", "bob"};
  Game& g = m.current_game();
  g.play({6, 5}, "24/13");
  g.play({3, 1}, "12/8");  // Black's 24/20 in its own numbering
  const std::string mat = write_mat(m);
  EXPECT_NE(mat.find("  1) 65: 24/13"), std::string::npos) << mat;
  EXPECT_NE(mat.find("31: 24/20"), std::string::npos) << mat;  // one checker's path
  EXPECT_NE(mat.find(" 1 point match"), std::string::npos) << mat;
  EXPECT_NE(mat.find("[Rules \"" + m.rules().to_string() + "\"]"), std::string::npos) << mat;
}

TEST(MatFormat, AnythingThatDoesNotReplayIsAnErrorNamingTheLine) {
  // bob's move written in absolute points (12/8) instead of his own numbering (24/20).
  const std::string absolute = error_of([] {
    read_mat(" 1 point match\n Game 1\n alice : 0    bob : 0\n  1) 65: 24/13    31: 12/9 9/8\n");
  });
  EXPECT_NE(absolute.find(".mat line 4"), std::string::npos) << absolute;
  EXPECT_NE(absolute.find("'bob' (Black) 31"), std::string::npos) << absolute;
  auto error_at = [](const std::string& text) { return error_of([&] { read_mat(text); }); };
  const std::string head = " 1 point match\n Game 1\n a : 0    b : 0\n";
  EXPECT_NE(error_at(head + "  1) 65: 24/13*    31: 24/20\n").find("hits"), std::string::npos);
  EXPECT_NE(error_at(head + "  1) 65: 24/13    31: 24/20\n  2) Doubles => 2\n").find("cube"),
            std::string::npos);
  EXPECT_NE(error_at(head + "  1) 66: 24/18 24/18 18/12 18/12\n").find("opening=any_roll"),
            std::string::npos);
  EXPECT_NE(error_at(head + "  1) 65: 24/13    31: 24/20\n      Wins 1 point\n").find("not over"),
            std::string::npos);
  EXPECT_NE(error_at(head + "  1) 65: 27/13\n").find("not a point"), std::string::npos);
  EXPECT_NE(error_at(" 0 point match\n").find("money"), std::string::npos);
  EXPECT_NE(error_at("junk\n").find("line 1"), std::string::npos);
  EXPECT_NE(error_at(" 1 point match\n Game 2\n").find("expected Game 1"), std::string::npos);
  EXPECT_NE(error_at(" 3 point match\n Game 1\n a : 0    b : 0\n Game 2\n").find("has no moves"),
            std::string::npos);
  EXPECT_NE(error_at(" 1 point match\n Game 1\n a : 1    b : 0\n").find("0 : 0"),
            std::string::npos);
  // A file with the opening double allowed by a rule (tag or argument) replays.
  const std::string doubles = head + "  1) 66: 24/18 24/18 18/12 18/12\n";
  EXPECT_NE(error_at(doubles).find("line 4"), std::string::npos);
  Rules any;
  any.opening = Opening::AnyRoll;
  // 6-6 from the start plays two checkers 24/18(2) and can go no further (Black's head is 12).
  EXPECT_EQ(read_mat(head + "  1) 66: 24/18(2)\n", any).current_game().history().size(), 1u);
  EXPECT_EQ(read_mat("; [Rules \"opening=any_roll\"]\n" + head + "  1) 66: 24/18 24/18\n")
                .current_game()
                .history()
                .size(),
            1u);
}

TEST(MatFormat, AGameWonInTheFileIsCheckedAndTheNextGameFollowsTheStarterRule) {
  const Match m = random_match(3, 0, 4);
  ASSERT_GE(m.games().size(), 2u);
  std::string mat = write_mat(m);
  // Claim 2 points for a game won by 1 (or the reverse).
  const Outcome first = *m.games()[0].outcome();
  const std::string claim = first.points == 1 ? "Wins 1 point" : "Wins 2 points";
  const std::string wrong = first.points == 1 ? "Wins 2 points" : "Wins 1 point";
  std::string bad = mat;
  bad.replace(bad.find(claim), claim.size(), wrong);
  EXPECT_NE(error_of([&] { read_mat(bad); }).find("but the game ended"), std::string::npos);
  // Under previous_winner the second game's White would be the first game's winner.
  Rules other;
  other.next_game_starter = NextGameStarter::PreviousWinner;
  const int winner = *first.winner == Side::White ? 0 : 1;
  if (winner == m.white_players()[1]) GTEST_SKIP() << "both rules give the same White here";
  std::string untagged = mat.substr(mat.find("\n 3 point match"));
  EXPECT_NE(error_of([&] { read_mat(untagged, other); }).find("next_game_starter"),
            std::string::npos);
}

}  // namespace
}  // namespace nardy
