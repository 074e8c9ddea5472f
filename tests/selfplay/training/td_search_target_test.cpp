// Search targets for TD (td.target: search): the config is validated, the target of a position
// is its n-ply value under the current weights (checked against an independent Search on a copy
// of the net), and a small run differs from the default `next` run.
#include <gtest/gtest.h>

#include <cmath>

#include "core/error.h"
#include "selfplay/search/net_agent.h"
#include "selfplay/search/search.h"
#include "selfplay/training/config.h"
#include "selfplay/training/td_game.h"
#include "selfplay/training/td_trainer.h"
#include "tests/nn/test_nets.h"
#include "tests/support/temp_dir.h"
#include "tests/support/error_of.h"

namespace nardy {
namespace {

using testing::error_of;

const NetShape kShape{"raw-v1", {8}, Activation::Sigmoid, 3};

Evaluation white_view(const Evaluation& e, Side side) {
  return side == Side::White ? e : e.flipped();
}

TEST(TdSearchTarget, ConfigKeysAreValidated) {
  TrainConfig c;
  EXPECT_EQ(c.td.target, "next");
  EXPECT_EQ(c.td.game_target_ply(), 0);
  apply_override(c, "td.target=search");
  apply_override(c, "td.target_ply=2");
  EXPECT_EQ(c.td.game_target_ply(), 2);
  EXPECT_EQ(parse_config(to_yaml(c), "roundtrip"), c);
  const std::string bad = error_of([] { parse_config("td:\n  target: deep\n", "a.yaml"); });
  EXPECT_NE(bad.find("td.target"), std::string::npos) << bad;
  EXPECT_NE(bad.find("search"), std::string::npos) << bad;
  const std::string deep = error_of([] { parse_config("td:\n  target_ply: 4\n", "a.yaml"); });
  EXPECT_NE(deep.find("td.target_ply"), std::string::npos) << deep;
  EXPECT_NE(deep.find("[1, 3]"), std::string::npos) << deep;
}

// One turn from the start with lambda = 0: the only update moves V(start) toward its target,
// which is V1(start) with search targets and V0(position after the move) with next targets.
TEST(TdSearchTarget, TheTargetIsThePositionsSearchValue) {
  for (int ply : {1, 2}) {
    SCOPED_TRACE("ply " + std::to_string(ply));
    const ValueNet before = ValueNet::create(kShape, 5);
    NetEvaluator evaluator(before);
    Search search(evaluator, Rules{}, uniform_search_options());
    const Position start = Position::start();
    const Evaluation v0 = before.evaluate(start);  // White to move: White's view
    const Evaluation vn = white_view(search.evaluate(start, ply), Side::White);

    ValueNet net = before.clone();
    TdSelfPlayer player(net, Rules{}, "fast");
    Rng rng = game_rng(3, 0);
    const TdGameStats s = player.play_game(rng, TdGameParams{0.5f, 0.0f, 0.0f, ply}, 1);
    EXPECT_EQ(s.updates, 1);
    EXPECT_NEAR(s.abs_td_error, std::fabs(vn.equity() - v0.equity()), 1e-5);
    // The step moved V(start) toward the search value.
    const Evaluation after = net.evaluate(start);
    EXPECT_LT(std::fabs(after.equity() - vn.equity()), std::fabs(v0.equity() - vn.equity()));

    // The same game with next targets uses another target.
    ValueNet net2 = before.clone();
    TdSelfPlayer player2(net2, Rules{}, "fast");
    Rng rng2 = game_rng(3, 0);
    const TdGameStats s2 = player2.play_game(rng2, TdGameParams{0.5f, 0.0f, 0.0f, 0}, 1);
    EXPECT_GT(std::fabs(s2.abs_td_error - s.abs_td_error), 1e-4);
  }
}

// Along a whole game every update's target is the search value under the weights of that moment:
// with alpha = 0 the net never changes, so the total |error| equals an independent replay's.
TEST(TdSearchTarget, WholeGameWithFrozenWeights) {
  const ValueNet net = ValueNet::create(kShape, 6);
  ValueNet trained = net.clone();
  TdSelfPlayer player(trained, Rules{}, "fast");
  Rng rng = game_rng(4, 1);
  const TdGameStats s = player.play_game(rng, TdGameParams{1e-30f, 0.0f, 0.0f, 1}, 40);
  ASSERT_EQ(s.updates, 40);
  // Replay the same 40 turns (same dice stream, greedy 0-ply moves) and sum |V1 - V0|.
  NetEvaluator evaluator(net);
  Search search(evaluator, Rules{}, uniform_search_options());
  Rng replay = game_rng(4, 1);
  Rng dice = replay.split(1);
  Position pos = Position::start();
  MoveList moves;
  double sum = 0;
  for (int turn = 0; turn < 40; ++turn) {
    const Evaluation v0 = white_view(net.evaluate(pos), pos.side_to_move());
    search.cache().new_generation();
    const Evaluation v1 = white_view(search.evaluate(pos, 1), pos.side_to_move());
    sum += std::fabs(v1.equity() - v0.equity());
    generate_moves(pos, roll_turn(dice, Rules{}, turn == 0), Rules{}, moves);
    pos = moves[search.best_static(pos, moves).first].position;
  }
  EXPECT_NEAR(s.abs_td_error, sum, 1e-3);
}

TEST(TdSearchTarget, SmallRunDiffersFromNext) {
  testing::TempDir tmp;
  auto config = [&](const std::string& name, const std::string& target) {
    TrainConfig c;
    c.run.name = name;
    c.run.dir = tmp.file("runs");
    c.net.hidden = {8};
    c.td.target = target;
    c.train.games = 4;
    c.train.checkpoint_every = 4;
    c.train.eval_every = 0;
    c.eval.opponents = {};
    c.log.metrics_every = 0;
    return c;
  };
  const TrainResult next = train(config("next", "next"));
  const TrainResult searched = train(config("search", "search"));
  const TrainResult again = train(config("again", "search"));
  ASSERT_TRUE(next.completed && searched.completed);
  EXPECT_FALSE(testing::same_parameters(ValueNet::load(next.checkpoint),
                                        ValueNet::load(searched.checkpoint)));
  EXPECT_TRUE(testing::same_parameters(ValueNet::load(again.checkpoint),
                                       ValueNet::load(searched.checkpoint)));
}

TEST(TdSearchTarget, BadPlyIsRefused) {
  ValueNet net = ValueNet::create(kShape, 1);
  TdSelfPlayer player(net, Rules{}, "fast");
  Rng rng(1);
  EXPECT_NE(error_of([&] {
              player.play_game(rng, TdGameParams{0.1f, 0.7f, 0.0f, 9});
            }).find("target_ply"),
            std::string::npos);
}

}  // namespace
}  // namespace nardy
