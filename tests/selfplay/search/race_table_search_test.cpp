// The race table in the search layer: covered races are valued exactly at every depth without
// calling the evaluator, candidates say so, the values agree with long rollouts, and an agent
// with the table does not do worse in races than the same agent without it (mirrored dice).
#include <gtest/gtest.h>

#include <cmath>

#include "core/game.h"
#include "core/pos_text.h"
#include "selfplay/evaluation/rollout.h"
#include "selfplay/evaluation/stats.h"
#include "selfplay/search/search.h"
#include "selfplay/tables/race.h"
#include "selfplay/tables/race_odds.h"
#include "tests/selfplay/race_position.h"
#include "tests/selfplay/test_evaluators.h"

namespace nardy {
namespace {

using testing::RaceEvaluator;

using testing::race_position;

const BearoffTable& table4() {
  static const BearoffTable t = BearoffTable::build(4);
  return t;
}

// Plays the best 0-ply result of its search (with or without the table).
class SearchAgent final : public Agent {
 public:
  explicit SearchAgent(const BearoffTable* tables)
      : search_(evaluator_, Rules{}, [&] {
          SearchOptions o = uniform_search_options();
          o.tables = tables;
          return o;
        }()) {}
  size_t choose(const Position& pos, Dice, const MoveList& moves, Rng&) override {
    search_.cache().new_generation();
    search_.score_moves(pos, moves, 0, scored_);
    return scored_[0].index;
  }
  std::string spec() const override { return "test-search"; }
  RaceEvaluator evaluator_;

 private:
  Search search_;
  std::vector<ScoredMove> scored_;
};

TEST(RaceTableSearch, CoveredRacesAreExactAtEveryDepthWithoutTheEvaluator) {
  RaceEvaluator ev;
  SearchOptions o = uniform_search_options();
  o.tables = &table4();
  Search search(ev, Rules{}, o);
  const Position pos = race_position({2, 3, 4, 6}, {0, 5, 5, 5}, Side::Black);
  const RaceOdds odds = *race_odds(table4(), pos, Rules{});
  for (int depth : {0, 1, 2}) {
    const Evaluation e = search.evaluate(pos, depth);
    EXPECT_FLOAT_EQ(e.win, static_cast<float>(odds.win)) << depth;
    EXPECT_FLOAT_EQ(e.win_mars, static_cast<float>(odds.win_mars)) << depth;
    EXPECT_FLOAT_EQ(e.lose_mars, static_cast<float>(odds.lose_mars)) << depth;
  }
  MoveList moves = legal_moves(pos, Dice{6, 5}, Rules{});
  std::vector<ScoredMove> scored;
  search.score_moves(pos, moves, 1, scored);
  for (const auto& s : scored) {
    EXPECT_TRUE(s.exact);
    EXPECT_EQ(s.ply, 1);
    const RaceOdds c = *race_odds(table4(), moves[s.index].position, Rules{});
    EXPECT_NEAR(s.equity(), -c.equity(), 1e-5);
  }
  EXPECT_EQ(ev.positions, 0);  // the table answered everything
  // Without the table the evaluator is asked and nothing is exact.
  Search plain(ev, Rules{}, uniform_search_options());
  plain.score_moves(pos, moves, 0, scored);
  EXPECT_FALSE(scored[0].exact);
  EXPECT_GT(ev.positions, 0);
  // Contact positions are not covered.
  EXPECT_FALSE(table_evaluation(&table4(), Position::start(), Rules{}));
}

TEST(RaceTableSearch, TableValuesAgreeWithLongRollouts) {
  // Rollouts that play every turn out (no table shortcut), with the table-using agent on both
  // sides; 15 checkers a side, so mars is possible.
  RolloutOptions ro;
  ro.trials = 20000;
  ro.threads = 2;
  ro.seed = 7;
  ro.tables = false;
  ro.luck_adjust = false;
  for (const Position& pos : {race_position({0, 5, 5, 5}, {1, 2, 6, 6}, Side::White),
                              race_position({0, 0, 7, 8}, {3, 4, 4, 0}, Side::Black)}) {
    const RaceOdds odds = *race_odds(table4(), pos, Rules{});
    const RolloutResult r = rollout(
        pos, [] { return std::make_unique<SearchAgent>(&table4()); }, {}, ro);
    auto near = [&](RolloutOutput k, double exact, const char* what) {
      const RolloutStat& s = r.raw[k];
      EXPECT_NEAR(s.mean, exact, 4 * s.se + 0.003) << what << " " << format_pos(pos);
    };
    near(kRoWin, odds.win, "win");
    near(kRoWinMars, odds.win_mars, "win_mars");
    near(kRoLoseMars, odds.lose_mars, "lose_mars");
    near(kRoEquity, odds.equity(), "equity");
  }
}

TEST(RaceTableSearch, AgentWithTheTableDoesNotDoWorseInRaces) {
  // Mirrored pairs from random race positions within the table: the same dice, colours swapped.
  Rng rng(11);
  SearchAgent with(&table4()), without(nullptr);
  std::vector<double> pair_points;
  for (int g = 0; g < 300; ++g) {
    std::vector<int> w(4, 0), b(4, 0);
    for (int c = 0; c < 15; ++c) ++w[rng.below(4)], ++b[rng.below(4)];
    const Position start = race_position(w, b, Side::White);
    ASSERT_TRUE(is_race(start));
    const uint64_t dice_seed = rng.next();
    double pair = 0;
    for (int swap = 0; swap < 2; ++swap) {
      Game game(Rules{}, start);
      Rng dice(dice_seed), agent_rng(1);
      while (!game.is_over()) {
        const Dice d = game.roll(dice);
        const MoveList moves = game.legal(d);
        const bool white = game.position().side_to_move() == Side::White;
        Agent& a = (white != (swap == 1)) ? static_cast<Agent&>(with) : without;
        game.play(d, moves[a.choose(game.position(), d, moves, agent_rng)]);
      }
      pair += game.outcome()->points_for(swap == 0 ? Side::White : Side::Black);
    }
    pair_points.push_back(pair / 2);
  }
  const MeanEstimate m = estimate_mean(pair_points);
  std::printf("table agent vs formula agent in races: %+.4f points/game, 95%% CI [%+.4f, %+.4f]\n",
              m.mean, m.ci95_low, m.ci95_high);
  EXPECT_GE(m.ci95_high, 0.0);  // not significantly worse
  EXPECT_GE(m.mean, -0.01);
}

}  // namespace
}  // namespace nardy
