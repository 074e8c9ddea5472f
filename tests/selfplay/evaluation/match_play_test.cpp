// Matches to N points: the stakes agents are told before each game, mirrored pairs, thread
// independence, and statistics recomputed from the raw pair results.
#include "selfplay/evaluation/match_play.h"

#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "selfplay/evaluation/stats.h"
#include "selfplay/search/agent_kinds.h"
#include "tests/support/error_of.h"

namespace nardy {
namespace {

using testing::error_of;

// Plays the first result and records the stakes it was given before each game.
class StakesRecorder final : public Agent {
 public:
  std::vector<std::optional<GameStakes>> given;
  size_t choose(const Position&, Dice, const MoveList&, Rng&) override { return 0; }
  std::string spec() const override { return "test-stakes"; }
  void set_game_stakes(const std::optional<GameStakes>& s) override { given.push_back(s); }
};

TEST(MatchPlay, AgentsAreToldTheStakesOfEveryGameAndNoneAfterTheMatch) {
  StakesRecorder a, b;
  const GameOutcomeModel model = GameOutcomeModel::self_play();
  const MatchEquityTable table(5, model, Rules{});
  Match record(5);
  const MatchPlay p = play_match(a, b, table, Rules{}, 9, 2, 1, &record);
  ASSERT_TRUE(p.score.is_over());
  EXPECT_EQ(p.games, static_cast<int>(record.games().size()));
  EXPECT_EQ(record.score(), p.score);
  EXPECT_EQ(record.white_players()[0], 1);
  ASSERT_EQ(a.given.size(), static_cast<size_t>(p.games) + 1);
  EXPECT_FALSE(a.given.back().has_value());
  // Game g's stakes are the table's at the score before it.
  MatchScore s(5, 1);
  for (int g = 0; g < p.games; ++g) {
    ASSERT_TRUE(a.given[static_cast<size_t>(g)].has_value());
    EXPECT_EQ(a.given[static_cast<size_t>(g)]->white, table.stakes(s).white);
    EXPECT_EQ(b.given[static_cast<size_t>(g)]->black, table.stakes(s).black);
    s.add_game(*record.games()[static_cast<size_t>(g)].outcome(), Rules{});
  }
}

// The same deterministic agent on both sides: the two matches of a pair replay the same games
// with colours swapped, so each side wins exactly one match of every pair.
TEST(MatchPlay, MirroredPairsOfIdenticalAgentsSplitEveryPair) {
  MatchOptions o;
  o.target = 3;
  o.matches = 20;
  o.seed = 5;
  const MatchResult r = run_matches("heuristic", "heuristic", o);
  EXPECT_EQ(r.pairs, 10);
  for (int w : r.pair_wins) EXPECT_EQ(w, 1);
  for (int64_t i = 0; i < r.pairs; ++i)
    EXPECT_EQ(r.match_games[static_cast<size_t>(2 * i)],
              r.match_games[static_cast<size_t>(2 * i + 1)]);
  EXPECT_DOUBLE_EQ(r.a_win_rate, 0.5);
  EXPECT_DOUBLE_EQ(r.ci95_low, 0.5);
  EXPECT_GE(r.mean_games_per_match, 2.0);  // 3 points take at least two games
}

TEST(MatchPlay, ResultsDoNotDependOnThreadsAndFollowTheSeed) {
  MatchOptions o;
  o.target = 2;
  o.matches = 12;
  o.seed = 3;
  const MatchResult one = run_matches("heuristic", "random", o);
  o.threads = 2;
  const MatchResult two = run_matches("heuristic", "random", o);
  EXPECT_EQ(one.pair_wins, two.pair_wins);
  EXPECT_EQ(one.match_games, two.match_games);
  EXPECT_GT(one.a_win_rate, 0.8);  // the heuristic beats random play
  o.seed = 4;
  EXPECT_NE(run_matches("heuristic", "random", o).match_games, one.match_games);
}

TEST(MatchPlay, StatisticsFromPairWins) {
  const MatchResult r = match_statistics(3, {2, 1, 0, 2}, {2, 3, 4, 2, 3, 3, 2, 5});
  EXPECT_EQ(r.matches, 8);
  EXPECT_EQ(r.a_wins, 5);
  EXPECT_EQ(r.b_wins, 3);
  EXPECT_DOUBLE_EQ(r.a_win_rate, 5.0 / 8);
  EXPECT_DOUBLE_EQ(r.mean_games_per_match, 24.0 / 8);
  const std::vector<double> xs = {1.0, 0.5, 0.0, 1.0};
  const MeanEstimate m = estimate_mean(xs);
  EXPECT_DOUBLE_EQ(r.ci95_low, m.ci95_low);
  EXPECT_DOUBLE_EQ(r.ci95_high, m.ci95_high);
  const auto j = nlohmann::json::parse(r.to_json());
  EXPECT_EQ(j["pair_wins"].get<std::vector<int>>(), (std::vector<int>{2, 1, 0, 2}));
  EXPECT_EQ(j["target"], 3);
  EXPECT_NE(r.to_text().find("A match win rate 0.6250"), std::string::npos);
  EXPECT_EQ(error_of([] {
              match_statistics(3, {3}, {1, 1});
            }),
            "match statistics: a pair has 0..2 wins, got 3");
}

TEST(MatchPlay, BadOptionsAreNamed) {
  MatchOptions o;
  o.target = 0;
  EXPECT_EQ(error_of([&] { run_matches("heuristic", "random", o); }),
            "match: --to must be 1..99 points (got 0)");
  o.target = 3;
  o.matches = 0;
  EXPECT_EQ(error_of([&] { run_matches("heuristic", "random", o); }),
            "match: --matches must be at least 1 (got 0)");
}

}  // namespace
}  // namespace nardy
