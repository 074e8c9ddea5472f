// core/match.h: the score of a match (single wins, mars, draws as half points, the end of the
// match, who plays White next) and match records written, replayed and rejected with reasons.
#include "core/match.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "core/record.h"
#include "tests/support/error_of.h"
#include "tests/support/scenario.h"

namespace nardy::testing {
namespace {

const Outcome kWhiteOin{Side::White, 1};
const Outcome kWhiteMars{Side::White, 2};
const Outcome kBlackOin{Side::Black, 1};
const Outcome kBlackMars{Side::Black, 2};
const Outcome kDraw{std::nullopt, 0};

// Plays the current game of `match` to its end with random legal moves.
void finish_randomly(Match& match, Rng& rng) {
  Game& g = match.current_game();
  while (!g.is_over()) {
    const Dice dice = g.roll(rng);
    const MoveList moves = g.legal(dice);
    g.play(dice, moves[rng.below(static_cast<uint32_t>(moves.size()))]);
  }
}

TEST(MatchScore, WinsCountTheirPointsForWhoeverPlayedTheColour) {
  MatchScore s(5, /*first_white=*/1);
  s.add_game(kWhiteMars, Rules{});  // player 1 was White
  EXPECT_EQ(s.half_points(1), 4);
  EXPECT_EQ(s.half_points(0), 0);
  EXPECT_EQ(s.white_player(), 0);  // previous_black: the player who had Black starts
  s.add_game(kWhiteOin, Rules{});  // player 0 was White
  EXPECT_EQ(s.half_points(0), 2);
  EXPECT_EQ(s.half_points_needed(0), 8);
  EXPECT_EQ(s.games_played(), 2);
  EXPECT_FALSE(s.is_over());
  EXPECT_EQ(s.to_string({"a", "b"}), "a 1 - 2 b (to 5)");
}

TEST(MatchScore, PreviousWinnerKeepsWhiteWithTheWinnerAndAlternatesAfterADraw) {
  Rules rules = with_rule("next_game_starter", "previous_winner");
  rules.last_roll_draw = true;
  MatchScore s(7, 0);
  s.add_game(kBlackOin, rules);  // player 1 (Black) wins: White next
  EXPECT_EQ(s.white_player(), 1);
  s.add_game(kWhiteOin, rules);  // player 1 (White) wins again: keeps White
  EXPECT_EQ(s.white_player(), 1);
  s.add_game(kDraw, rules);
  EXPECT_EQ(s.white_player(), 0);
  EXPECT_EQ(s.half_points(0), 1);
  EXPECT_EQ(s.half_points(1), 5);
  EXPECT_EQ(s.to_string(), "player 0 0.5 - 2.5 player 1 (to 7)");
}

TEST(MatchScore, MarsAtOneAwayOvershootsAndEndsTheMatch) {
  MatchScore s(3, 0);
  s.add_game(kWhiteMars, Rules{});  // player 0: 2
  s.add_game(kBlackMars, Rules{});  // player 0 is Black and wins mars: 4 >= 3
  ASSERT_TRUE(s.is_over());
  EXPECT_EQ(*s.winner(), 0);
  EXPECT_EQ(error_of([&] { s.add_game(kWhiteOin, Rules{}); }),
            "match: a game after the end of the match (player 0 4 - 0 player 1 (to 3))");
}

// A draw that brings both players to the target at once does not end the match; the next
// decisive game does, and a draw ending only one player's way does.
TEST(MatchScore, DrawAtBothOneHalfAwayGoesOnUntilADecisiveGame) {
  Rules rules = with_rule("last_roll_draw", "true");
  MatchScore s(1, 0);
  s.add_game(kDraw, rules);
  EXPECT_FALSE(s.is_over());
  s.add_game(kDraw, rules);  // 1 - 1 at target 1
  EXPECT_FALSE(s.is_over());
  EXPECT_EQ(s.half_points_needed(0), 0);
  s.add_game(kDraw, rules);
  EXPECT_FALSE(s.is_over());
  s.add_game(kBlackOin, rules);  // white_player alternated 0,1,0,1: Black is player 0
  EXPECT_EQ(*s.winner(), 0);

  MatchScore t(1, 0);
  t.add_game(kWhiteOin, rules);  // not over: 1 point reaches target 1
  EXPECT_EQ(*t.winner(), 0);
  MatchScore u(2, 0);
  u.add_game(kWhiteOin, rules);  // player 0: 1
  u.add_game(kDraw, rules);      // 1.5 - 0.5
  u.add_game(kDraw, rules);      // 2 - 1: over by a draw
  EXPECT_EQ(*u.winner(), 0);
}

TEST(MatchScore, AtAScoreReachedElsewhere) {
  const MatchScore s = MatchScore::at(5, 7, 9, 1);
  EXPECT_EQ(s.half_points_needed(0), 3);
  EXPECT_EQ(s.half_points_needed(1), 1);
  EXPECT_EQ(s.white_player(), 1);
  EXPECT_EQ(s.to_string(), "player 0 3.5 - 4.5 player 1 (to 5)");
  EXPECT_EQ(error_of([] { MatchScore::at(5, -1, 0, 0); }),
            "match score: half points must be >= 0 (got -1, 0)");
}

TEST(MatchScore, RejectsTargetsAndPlayersOutOfRange) {
  EXPECT_EQ(error_of([] { MatchScore(0); }), "match target 0: must be 1..99 points");
  EXPECT_EQ(error_of([] { MatchScore(100); }), "match target 100: must be 1..99 points");
  EXPECT_EQ(error_of([] { MatchScore(3, 2); }),
            "match: the first White player must be 0 or 1 (got 2)");
}

TEST(Match, GamesFollowTheScoreAndUndoCrossesGameBoundaries) {
  Rng rng(7);
  Match m(3, Rules{}, 1);  // one game cannot end a match to 3
  m.names = {"alice", "bob"};
  EXPECT_EQ(m.player_to_move(), 1);
  EXPECT_EQ(error_of([&] { m.start_next_game(); }), "match: game 1 is not over yet");
  finish_randomly(m, rng);
  const MatchScore after1 = m.score();
  EXPECT_EQ(after1.games_played(), 1);
  m.start_next_game();
  EXPECT_EQ(m.games().size(), 2u);
  EXPECT_EQ(m.current_white_player(), 0);
  EXPECT_EQ(m.score_before_current_game(), after1);
  // Undo from an empty game goes back into the finished one, which is then not over.
  ASSERT_TRUE(m.undo());
  EXPECT_EQ(m.games().size(), 1u);
  EXPECT_FALSE(m.current_game().is_over());
  EXPECT_EQ(m.score().games_played(), 0);
}

// Plays whole random matches, writes their records and replays them to the same games.
TEST(MatchRecord, RandomMatchesRoundTrip) {
  for (const char* starter : {"previous_black", "previous_winner"}) {
    Rules rules = with_rule("next_game_starter", starter);
    rules.last_roll_draw = true;
    Rng rng(11);
    for (int target : {1, 3, 5}) {
      Match m(target, rules, target % 2);
      m.names = {"net:some/path.pt:ply=1", "a person"};
      for (;;) {
        finish_randomly(m, rng);
        if (m.is_over()) break;
        m.start_next_game();
      }
      const std::string text = write_match_record(m);
      const Match back = read_match_record(text);
      EXPECT_EQ(write_match_record(back), text);
      EXPECT_EQ(back.score(), m.score());
      EXPECT_EQ(back.names, m.names);
      EXPECT_EQ(back.white_players(), m.white_players());
      EXPECT_EQ(back.games().size(), m.games().size());
      EXPECT_TRUE(back.is_over());
    }
  }
}

// An unfinished match: the last game in progress is kept and can be continued.
TEST(MatchRecord, MatchInProgressResumes) {
  Match m(3);
  m.current_game().play({6, 5}, "24/13");
  const std::string text = write_match_record(m);
  EXPECT_EQ(text,
            "nardy-match 1\n"
            "target 3\n"
            "rules opening=no_doubles head_exception=standard last_roll_draw=false "
            "next_game_starter=previous_black\n"
            "game white=0\n"
            "nardy-record 1\n"
            "rules opening=no_doubles head_exception=standard last_roll_draw=false "
            "next_game_starter=previous_black\n"
            "6-5 24/13\n");
  Match back = read_match_record("# saved\n" + text + "\n");
  EXPECT_EQ(back.current_game().position(), m.current_game().position());
  back.current_game().play({3, 1}, "12/9 9/8");
  EXPECT_EQ(back.player_to_move(), 0);
}

std::string header(int target = 3) {
  return "nardy-match 1\ntarget " + std::to_string(target) +
         "\nrules\n";  // an empty rules line: the defaults
}

TEST(MatchRecord, ErrorsNameTheLineAndTheProblem) {
  EXPECT_EQ(error_of([] { read_match_record(""); }),
            "match record: empty (no 'nardy-match 1' header)");
  EXPECT_EQ(error_of([] { read_match_record("nardy-record 1\n"); }),
            "match record line 1: expected the header 'nardy-match 1', got 'nardy-record 1'");
  EXPECT_EQ(error_of([] { read_match_record("nardy-match 1\ntarget x\n"); }),
            "match record line 2: target 'x' is not an integer");
  EXPECT_EQ(error_of([] { read_match_record("nardy-match 1\ntarget 0\n"); }),
            "match record line 2: match target 0: must be 1..99 points");
  EXPECT_EQ(error_of([] { read_match_record("nardy-match 1\nrules\ngame white=0\n"); }),
            "match record line 3: no 'target N' line before the first game");
  EXPECT_EQ(error_of([] { read_match_record(header() + "player 2 x\n"); }),
            "match record line 4: player number must be 0 or 1 (got 2)");
  EXPECT_EQ(error_of([] { read_match_record(header() + "player 0 \xff\n"); }),
            "match record line 4: player 0's name '\\xff' is not printable UTF-8 text");
  EXPECT_EQ(error_of([] {
              read_match_record(header() +
                                "player 1 a\x01"
                                "b\n");
            }),
            "match record line 4: player 1's name 'a\\x01b' is not printable UTF-8 text");
  EXPECT_EQ(read_match_record(header() + "player 1 \xce\xbb\ngame white=0\nnardy-record 1\nrules\n")
                .names[1],
            "\xce\xbb");  // valid UTF-8 (λ) is a name like any other
  EXPECT_EQ(error_of([] { read_match_record(header() + "score 1 0\n"); }),
            "match record line 4: expected 'target N', 'rules ...', 'player 0|1 NAME' or "
            "'game white=P', got 'score 1 0'");
  EXPECT_EQ(error_of([] { read_match_record(header()); }),
            "match record line 3: no game (expected 'game white=P')");
  EXPECT_EQ(error_of([] { read_match_record(header() + "game white=2\nnardy-record 1\n"); }),
            "match record line 4: white player must be 0 or 1 (got 2)");
  EXPECT_EQ(error_of([] { read_match_record(header() + "game white=0\n"); }),
            "match record line 4: game 1 has no record");
  // A bad move inside a game names the line of the whole file.
  EXPECT_EQ(error_of([] {
              read_match_record(header() + "game white=0\nnardy-record 1\nrules\n6-5 24/12\n");
            }),
            "record line 7: move '24/12' is not legal with 6-5 (legal: 24/13)");
  EXPECT_EQ(
      error_of([] {
        read_match_record(header() + "game white=0\nnardy-record 1\nrules last_roll_draw=true\n");
      }),
      "match record line 4: game 1 has rules 'opening=no_doubles head_exception=standard "
      "last_roll_draw=true next_game_starter=previous_black', the match "
      "'opening=no_doubles head_exception=standard last_roll_draw=false "
      "next_game_starter=previous_black'");
}

TEST(MatchRecord, RejectsGamesThatCannotFollow) {
  Rng rng(3);
  Match one(1);
  finish_randomly(one, rng);
  const std::string done = write_record(one.current_game());
  const int k = static_cast<int>(std::count(done.begin(), done.end(), '\n'));
  const std::string fresh = "nardy-record 1\nrules\n";
  // A second game after an unfinished one.
  EXPECT_EQ(error_of([&] {
              read_match_record(header() + "game white=0\n" + fresh + "game white=1\n" + fresh);
            }),
            "match record line 7: game 2 follows a game that is not over");
  // White must alternate under previous_black.
  EXPECT_EQ(error_of([&] {
              read_match_record(header() + "game white=0\n" + done + "game white=0\n" + fresh);
            }),
            "match record line " + std::to_string(5 + k) +
                ": game 2: white=0 but next_game_starter=previous_black gives White to player 1");
  // A game after the end of a match to 1.
  const int line = 5 + k;
  MatchScore final_score(1, 0);
  final_score.add_game(*one.current_game().outcome(), Rules{});
  EXPECT_EQ(error_of([&] {
              read_match_record(header(1) + "game white=0\n" + done + "game white=1\n" + fresh);
            }),
            "match record line " + std::to_string(line) +
                ": game 2 follows the end of the match (" + final_score.to_string() + ")");
}

}  // namespace
}  // namespace nardy::testing
