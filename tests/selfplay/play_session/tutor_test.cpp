// The play session's tutor (selfplay/play_session/play_session.h "Tutor"): a move losing more than
// the threshold is held back with the best move and the loss, `keep` or the same move again plays
// it, a good move is played at once; the loss is the analysis' (and so the review's).
#include <gtest/gtest.h>

#include <cstdio>

#include "core/error.h"
#include "nn/value_net.h"
#include "selfplay/evaluation/analysis.h"
#include "selfplay/play_session/play_session.h"
#include "tests/support/temp_dir.h"

namespace nardy {
namespace {

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// Answers "1" until the person has a decision with at least three distinct results.
void until_a_decision(PlaySession& s) {
  while (!s.finished() &&
         legal_moves(s.match().current_game().position(), *s.dice(), Rules{}).size() < 3)
    s.input("1");
  ASSERT_FALSE(s.finished());
}

TEST(Tutor, AWorseMoveIsHeldBackUntilKeptAndTheBestIsPlayedAtOnce) {
  testing::TempDir dir;
  const std::string net = dir.file("net.pt");
  ValueNet::create(NetShape{}, 3).save(net, CheckpointInfo{});
  PlaySessionOptions o;
  o.agent = "net:" + net;
  o.seed = 8;
  o.tutor_threshold = 1e-6;
  PlaySession s(o);
  s.start();
  for (int round = 0; round < 2; ++round) {
    until_a_decision(s);
    const Game& game = s.match().current_game();
    const size_t turns = game.history().size();
    const Dice dice = *s.dice();
    AnalysisOptions ao;
    const Analysis a = analyze_moves(game.position(), dice, o.agent, ao);
    const MoveAnalysis& worst = a.moves.back();
    const double loss = a.moves.front().equity - worst.equity;
    ASSERT_GT(loss, *o.tutor_threshold);
    const std::string warning = s.input(worst.notation);
    char expected[64];
    std::snprintf(expected, sizeof expected, "loses %.3f points", loss);
    EXPECT_TRUE(contains(warning, "tutor: " + worst.notation)) << warning;
    EXPECT_TRUE(contains(warning, expected)) << warning;
    EXPECT_TRUE(contains(warning, "best move " + a.moves.front().notation)) << warning;
    // Nothing is played yet: the same roll waits for a move.
    EXPECT_EQ(s.match().current_game().history().size(), turns);
    EXPECT_EQ(*s.dice(), dice);
    EXPECT_EQ(s.waiting(), PlaySession::Waiting::Move);
    // Round 0 keeps it with `keep`, round 1 by entering it again.
    s.input(round == 0 ? "keep" : worst.notation);
    ASSERT_GT(s.match().current_game().history().size(), turns);
    EXPECT_EQ(s.match().current_game().history()[turns].dice, dice);
    EXPECT_EQ(s.match().current_game().history().size() > turns + 1
                  ? s.match().current_game().history()[turns + 1].before
                  : s.match().current_game().position(),
              worst.position);
  }
  // The best move passes without a word from the tutor.
  until_a_decision(s);
  const Game& game = s.match().current_game();
  const size_t turns = game.history().size();
  const Analysis a = analyze_moves(game.position(), *s.dice(), o.agent, AnalysisOptions{});
  const std::string out = s.input(a.moves.front().notation);
  EXPECT_FALSE(contains(out, "tutor:")) << out;
  EXPECT_GT(s.match().current_game().history().size(), turns);
  EXPECT_TRUE(contains(s.input("keep"), "there is none"));
}

TEST(Tutor, ABadThresholdCannotStart) {
  PlaySessionOptions o;
  o.tutor_threshold = -0.1;
  EXPECT_THROW(PlaySession{o}, Error);
  o.tutor_threshold = 0.0;
  EXPECT_THROW(PlaySession{o}, Error);
}

}  // namespace
}  // namespace nardy
