// Play sessions: a person (scripted here) against an agent, line by line — whole games and
// matches to the end, bad input re-prompting with the reason, legal/hint/undo/save, manual dice
// and resuming from match and game records.
#include "selfplay/play_session/play_session.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/notation.h"
#include "core/record.h"
#include "nn/value_net.h"
#include "tests/support/temp_dir.h"

namespace nardy {
namespace {

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// Answers every move prompt with the first legal move until the session ends.
int play_out(PlaySession& s) {
  int lines = 0;
  while (!s.finished()) {
    EXPECT_EQ(s.waiting(), PlaySession::Waiting::Move);
    const std::string out = s.input("1");
    EXPECT_FALSE(contains(out, "error")) << out;
    if (++lines > 2000) {
      ADD_FAILURE() << "the session does not end";
      break;
    }
  }
  return lines;
}

TEST(PlaySession, AMatchPlaysToTheEnd) {
  PlaySessionOptions o;
  o.agent = "heuristic";
  o.target = 3;
  o.seed = 11;
  PlaySession s(o);
  const std::string first = s.start();
  EXPECT_TRUE(contains(first, "you vs heuristic, match to 3 point(s); you play White"));
  EXPECT_TRUE(contains(first, "you (White) rolls"));
  EXPECT_EQ(s.prompt(), "you (White) " + format_dice(*s.dice()) + "> ");
  play_out(s);
  const Match& m = s.match();
  ASSERT_TRUE(m.is_over());
  EXPECT_GE(m.games().size(), 2u);
  // The record replays to the same match.
  const Match back = read_match_record(s.record());
  EXPECT_EQ(back.score(), m.score());
  EXPECT_EQ(back.names[1], "heuristic");
  EXPECT_EQ(s.input("1"), "the session is over\n");
}

TEST(PlaySession, BadInputRepromptsWithTheReason) {
  PlaySessionOptions o;
  o.seed = 2;
  PlaySession s(o);
  s.start();
  const std::string prompt = s.prompt();
  const Dice dice = *s.dice();
  EXPECT_TRUE(contains(s.input("24/1"), "error: "));
  EXPECT_TRUE(contains(s.input("hello"), "error: "));
  EXPECT_TRUE(contains(s.input("99"), "error: move number 99 is not in the legal list"));
  EXPECT_EQ(s.input(""), "");
  EXPECT_EQ(s.prompt(), prompt);  // still the same roll, nothing played
  EXPECT_EQ(*s.dice(), dice);
  EXPECT_TRUE(s.match().current_game().history().empty());
  EXPECT_TRUE(contains(s.input("help"), "Commands: legal, hint, undo"));
  EXPECT_EQ(s.input("undo"), "nothing to undo: you have not moved yet\n");
  const std::string legal = s.input("legal");
  const MoveList moves = legal_moves(Position::start(), dice, Rules{});
  EXPECT_TRUE(contains(legal, "  1. " + format_move(moves[0].move) + "\n"));
  EXPECT_TRUE(contains(legal, std::to_string(moves.size()) + ". "));
}

// Undo takes back the person's move and the bot's reply; the same roll is played again.
TEST(PlaySession, UndoReturnsToThePersonsLastRoll) {
  PlaySessionOptions o;
  o.seed = 5;
  PlaySession s(o);
  s.start();
  const Dice first = *s.dice();
  const std::string moved = s.input("1");
  ASSERT_FALSE(s.finished());
  ASSERT_GE(s.match().current_game().history().size(), 2u);  // the bot has replied
  // The board after the person's move comes first, then the bot's roll and move.
  ASSERT_EQ(s.match().current_game().history()[1].before.side_to_move(), Side::Black);
  const size_t board_at = moved.find("To move: Black");
  ASSERT_NE(board_at, std::string::npos) << moved;
  EXPECT_LT(board_at, moved.find("bot plays")) << moved;
  const std::string out = s.input("undo");
  EXPECT_TRUE(contains(out, "took back your move")) << out;
  EXPECT_EQ(*s.dice(), first);
  EXPECT_TRUE(s.match().current_game().history().empty());
  EXPECT_EQ(s.waiting(), PlaySession::Waiting::Move);
}

TEST(PlaySession, ManualDiceAreAskedForBothSidesAndChecked) {
  PlaySessionOptions o;
  o.manual_dice = true;
  o.human_colour = Side::Black;
  PlaySession s(o);
  s.start();
  EXPECT_EQ(s.waiting(), PlaySession::Waiting::Dice);
  EXPECT_EQ(s.prompt(), "dice for bot (White)> ");
  EXPECT_TRUE(contains(s.input("6-6"), "error: dice 6-6: the opening roll cannot be a double"));
  EXPECT_TRUE(contains(s.input("7-1"), "error: "));
  EXPECT_TRUE(contains(s.input("legal"), "error: 'legal' needs a roll first"));
  const std::string out = s.input("6-5");
  EXPECT_TRUE(contains(out, "bot plays 6-5 24/13")) << out;
  EXPECT_EQ(s.prompt(), "dice for you (Black)> ");
  s.input("3 1");
  EXPECT_EQ(s.prompt(), "you (Black) 3-1> ");
  const std::string moved = s.input("12/9/8");  // a chain, written another way than 12/9 9/8
  EXPECT_FALSE(contains(moved, "error")) << moved;
  EXPECT_EQ(s.match().current_game().history().back().move.num_steps, 2);
}

TEST(PlaySession, SaveAndResumeContinueTheMatch) {
  testing::TempDir dir;
  const std::string path = dir.file("m.txt");
  PlaySessionOptions o;
  o.target = 5;
  o.seed = 8;
  PlaySession s(o);
  s.start();
  s.input("1");
  s.input("1");
  EXPECT_TRUE(contains(s.input("save " + path), "saved the match record"));
  EXPECT_TRUE(contains(s.input("save /nonexistent/dir/x.txt"), "error: cannot write"));
  std::ifstream f(path);
  std::stringstream text;
  text << f.rdbuf();
  o.resume_record = text.str();
  PlaySession r(o);
  r.start();
  EXPECT_EQ(r.match().games()[0].history().size(), s.match().games()[0].history().size());
  EXPECT_EQ(r.match().target(), 5);
  play_out(r);
  EXPECT_TRUE(r.match().is_over());

  // A game record resumes as a match to 1.
  Game g;
  g.play({6, 5}, "24/13");
  o.resume_record = write_record(g);
  o.human_colour = Side::Black;
  PlaySession one(o);
  const std::string out = one.start();
  EXPECT_EQ(one.match().target(), 1);
  EXPECT_TRUE(contains(out, "you (Black) rolls")) << out;
}

TEST(PlaySession, HintRanksTheMovesWithMatchWinningChances) {
  PlaySessionOptions o;
  o.seed = 4;
  o.hint_trials = 4;
  PlaySession s(o);
  s.start();
  const std::string h = s.input("hint");
  EXPECT_TRUE(contains(h, "hint (rollouts")) << h;
  EXPECT_TRUE(contains(h, "match winning chance")) << h;
  EXPECT_TRUE(contains(h, "<- bot's choice")) << h;
}

// A score-aware net agent's hint is in its own order (match winning chance) and marks the move it
// plays: the first one.
TEST(PlaySession, NetHintRanksByMatchWinningChance) {
  testing::TempDir dir;
  const std::string net = dir.file("net.pt");
  ValueNet::create(NetShape{}, 3).save(net, CheckpointInfo{});
  PlaySessionOptions o;
  o.agent = "net:" + net;
  o.target = 3;
  o.seed = 6;
  PlaySession s(o);
  s.start();
  while (!s.finished() &&
         legal_moves(s.match().current_game().position(), *s.dice(), Rules{}).size() < 3)
    s.input("1");
  ASSERT_FALSE(s.finished());
  const std::string h = s.input("hint");
  EXPECT_TRUE(contains(h, "by match winning chance, best first):\n")) << h;
  const size_t first_line_end = h.find('\n', h.find('\n') + 1);
  EXPECT_TRUE(contains(h.substr(0, first_line_end), "<- bot's choice")) << h;
  o.agent += ":match=off";
  PlaySession blind(o);
  blind.start();
  EXPECT_FALSE(contains(blind.input("hint"), "by match winning chance"));
}

TEST(PlaySession, BadOptionsCannotStart) {
  PlaySessionOptions o;
  o.agent = "nonsense";
  EXPECT_THROW(PlaySession{o}, Error);
  o.agent = "heuristic";
  o.resume_record = "nardy-match 1\ntarget 0\n";
  EXPECT_THROW(PlaySession{o}, Error);
}

}  // namespace
}  // namespace nardy
