// Score-aware choice of net agents: by match winning chance when given a match game's stakes,
// by equity otherwise or with match=off.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>

#include "core/match_equity.h"
#include "selfplay/search/agent_kinds.h"
#include "selfplay/search/net_agent.h"
#include "tests/support/error_of.h"
#include "tests/support/position_sampler.h"

namespace nardy {
namespace {

// Values of a player who needs one point or less: any win wins the match, any loss loses it.
const OutcomeValues kOneAway{1, 1, 0, 0, 0.5};

ScoredMove scored(size_t index, float win, float win_mars, float lose_mars) {
  ScoredMove s;
  s.index = index;
  s.eval = Evaluation{win, win_mars, lose_mars, 0.0f};
  return s;
}

// A gammonish move (more equity) against a safe one (more wins).
TEST(ScoreAware, OneAwayPrefersWinsToMarsWhereMoneyPrefersTheMars) {
  const std::vector<ScoredMove> moves = {scored(0, 0.6f, 0.3f, 0.0f), scored(1, 0.7f, 0.0f, 0.0f)};
  ASSERT_GT(moves[0].equity(), moves[1].equity());
  Rng rng(1);
  EXPECT_EQ(choose_scored(moves, 0.0, rng), 0u);
  EXPECT_EQ(choose_scored_by_values(moves, OutcomeValues{}, 0.0, rng), 0u);  // money = equity
  EXPECT_EQ(choose_scored_by_values(moves, kOneAway, 0.0, rng), 1u);
}

const std::string& checkpoint_path() {
  static const std::string path = [] {
    const auto dir = std::filesystem::temp_directory_path() /
                     ("nardy_score_aware_test_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const std::string p = (dir / "ckpt-1.pt").string();
    ValueNet::create(NetShape{}, 7).save(p, CheckpointInfo{});
    return p;
  }();
  return path;
}

// Given stakes, a net agent plays the best match winning chance among its ranked candidates;
// with match=off, or without stakes, the best equity.
TEST(ScoreAware, NetAgentChoosesByStakesUnlessMatchOff) {
  const std::string spec = "net:" + checkpoint_path();
  auto aware = make_agent(spec + ":match", Rules{});
  auto blind = make_agent(spec + ":match=off", Rules{});
  auto* net = dynamic_cast<NetAgent*>(aware.get());
  ASSERT_NE(net, nullptr);
  // Stakes where a mars loss is as bad as a loss and a mars win counts triple.
  const OutcomeValues skewed{0.5, 1.0, 0.2, 0.2, 0.35};
  const GameStakes stakes{skewed, skewed};
  aware->set_game_stakes(stakes);
  blind->set_game_stakes(stakes);
  Rng rng(1);
  int differs = 0;
  for (int i = 0; i < 60; ++i) {
    const Position pos = testing::random_game_position(static_cast<uint64_t>(100 + i), 10 + i / 2);
    const Dice dice{static_cast<uint8_t>(1 + i % 6), static_cast<uint8_t>(1 + (i / 6) % 6)};
    const MoveList moves = legal_moves(pos, dice, Rules{});
    if (moves.size() < 2) continue;
    std::vector<ScoredMove> ranked;
    net->rank(pos, moves, ranked);
    size_t best_value = ranked[0].index;
    double best = -1;
    for (const auto& s : ranked) {
      const double v = skewed.value(s.eval.win, s.eval.win_mars, s.eval.lose_mars, s.eval.draw);
      if (v > best) best = v, best_value = s.index;
    }
    EXPECT_EQ(aware->choose(pos, dice, moves, rng), best_value);
    EXPECT_EQ(blind->choose(pos, dice, moves, rng), ranked[0].index);
    differs += best_value != ranked[0].index;
  }
  EXPECT_GT(differs, 0);  // the stakes change some choices
  // Without stakes the aware agent plays for points too.
  aware->set_game_stakes(std::nullopt);
  EXPECT_FALSE(net->active_stakes().has_value());
}

TEST(ScoreAware, SpecOptionIsChecked) {
  EXPECT_EQ(parse_net_agent_spec("x.pt:match").options.match, true);
  EXPECT_EQ(parse_net_agent_spec("x.pt:match=off").options.match, false);
  EXPECT_EQ(testing::error_of([] { parse_net_agent_spec("x.pt:match=maybe"); }),
            "agent 'net:x.pt:match=maybe': option match='maybe' must be on or off");
}

}  // namespace
}  // namespace nardy
