// The race net in the search layer: a race's results beyond the table are valued from the table's
// and the net's distributions without the evaluator and are not marked exact, while a contact
// position's results keep the evaluator's values even when they are races; the shipped net's 0-ply
// choices in races beyond a small table lose almost nothing against a larger exact table, and far
// less than a race formula's.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>

#include "core/movegen.h"
#include "core/pos_text.h"
#include "core/random.h"
#include "selfplay/search/search.h"
#include "selfplay/search/shipped_models.h"
#include "selfplay/tables/race.h"
#include "selfplay/tables/race_net.h"
#include "selfplay/tables/race_odds.h"
#include "tests/selfplay/race_position.h"
#include "tests/selfplay/test_evaluators.h"

namespace nardy {
namespace {

using testing::race_position;
using testing::RaceEvaluator;

const BearoffTable& table(int points) {
  static const BearoffTable t4 = BearoffTable::build(4), t6 = BearoffTable::build(6);
  return points == 4 ? t4 : t6;
}

const RaceNet& shipped_net() {
  static const RaceNet net =
      RaceNet::load(std::string(NARDY_SOURCE_DIR) + "/models/" + std::string(kRaceNetFile));
  return net;
}

TEST(RaceNetSearch, RacesBeyondTheTableSkipTheEvaluatorAndAreNotExact) {
  RaceEvaluator ev;
  SearchOptions o = uniform_search_options();
  o.tables = &table(4);
  o.race_net = &shipped_net();
  Search search(ev, Rules{}, o);
  const Position pos = race_position({1, 2, 3, 4, 3, 2}, {0, 4, 5, 2, 2, 2}, Side::White);
  ASSERT_TRUE(is_race(pos));
  ASSERT_FALSE(table(4).covers(pos));
  RaceValuer valuer(&table(4), shipped_net());
  const RaceOdds odds = *valuer.odds(pos, Rules{});
  const Evaluation e = search.evaluate(pos, 0);
  EXPECT_FLOAT_EQ(e.win, static_cast<float>(odds.win));
  EXPECT_FLOAT_EQ(e.lose_mars, static_cast<float>(odds.lose_mars));
  const MoveList moves = legal_moves(pos, Dice{5, 3}, Rules{});
  std::vector<ScoredMove> scored;
  for (int ply : {0, 1}) {
    search.cache().new_generation();
    search.score_moves(pos, moves, ply, scored);
    for (const auto& s : scored) {
      EXPECT_FALSE(s.exact && !table(4).covers(moves[s.index].position));
      if (ply == 0) {
        const RaceOdds c = *valuer.odds(moves[s.index].position, Rules{});
        EXPECT_NEAR(s.equity(), -c.equity(), 1e-5);
      }
    }
  }
  EXPECT_EQ(ev.positions, 0);  // every race valued without the evaluator
  search.evaluate(Position::start(), 0);
  EXPECT_EQ(ev.positions, 1);  // contact still goes to the evaluator
}

TEST(RaceNetSearch, AContactPositionsRaceResultsKeepTheEvaluatorsValues) {
  // White's last checker on its route 14 (point 14) still faces Black: contact. A 6-5 that moves
  // it home makes a race, one that does not keeps the contact; all are valued by the evaluator.
  std::array<int, kNumPoints> points{};
  points[0] = 4, points[2] = 4, points[4] = 4;  // White on 1, 3, 5, 10, 11 and 14
  points[9] = 1, points[10] = 1, points[13] = 1;
  for (int p = 15; p <= 19; ++p) points[p - 1] = -3;  // Black's routes 3..7
  const Position pos = Position::from_points(points, Side::White);
  ASSERT_FALSE(is_race(pos)) << format_pos(pos);
  RaceEvaluator ev;
  SearchOptions o = uniform_search_options();
  o.tables = &table(4);
  o.race_net = &shipped_net();
  Search search(ev, Rules{}, o);
  const MoveList moves = legal_moves(pos, Dice{6, 5}, Rules{});
  std::vector<ScoredMove> scored;
  search.score_moves(pos, moves, 0, scored);
  int races = 0;
  for (const auto& s : scored) {
    const Position& c = moves[s.index].position;
    races += is_race(c);
    EXPECT_NEAR(s.equity(), -RaceEvaluator::value(c).equity(), 1e-6);
  }
  EXPECT_GT(races, 0);
  EXPECT_LT(races, static_cast<int>(scored.size()));
  EXPECT_EQ(ev.positions, static_cast<int64_t>(moves.size()));
  // The same race valued as a race's result, or on its own, is the race net's.
  const auto race = std::find_if(moves.begin(), moves.end(),
                                 [](const MoveResult& m) { return is_race(m.position); });
  RaceValuer valuer(&table(4), shipped_net());
  EXPECT_FLOAT_EQ(search.evaluate(race->position, 0).win,
                  static_cast<float>(valuer.odds(race->position, Rules{})->win));
}

TEST(RaceNetSearch, ShippedNetChoosesAlmostLikeALargerTable) {
  // Random races within 6 points but beyond a 4-point table; each roll's 0-ply choice judged by
  // the exact 6-point table.
  Rng rng(21);
  RaceEvaluator ev;
  SearchOptions with_net = uniform_search_options();
  with_net.tables = &table(4);
  with_net.race_net = &shipped_net();
  SearchOptions formula = uniform_search_options();
  formula.tables = &table(4);
  Search a(ev, Rules{}, with_net), b(ev, Rules{}, formula);
  double loss_net = 0, loss_formula = 0;
  int decisions = 0;
  while (decisions < 400) {
    std::vector<int> w(6, 0), bl(6, 0);
    for (int c = 0; c < 15; ++c) ++w[rng.below(6)], ++bl[rng.below(6)];
    const Position pos = race_position(w, bl, Side::White);
    if (table(4).covers(pos)) continue;
    const Dice dice{static_cast<int>(rng.below(6)) + 1, static_cast<int>(rng.below(6)) + 1};
    const MoveList moves = legal_moves(pos, dice, Rules{});
    if (moves.size() < 2) continue;
    double best = -10;
    std::vector<double> exact;
    for (const auto& m : moves) {
      exact.push_back(-race_odds(table(6), m.position, Rules{})->equity());
      best = std::max(best, exact.back());
    }
    std::vector<ScoredMove> sa, sb;
    a.cache().new_generation(), b.cache().new_generation();
    a.score_moves(pos, moves, 0, sa);
    b.score_moves(pos, moves, 0, sb);
    loss_net += best - exact[sa[0].index];
    loss_formula += best - exact[sb[0].index];
    ++decisions;
  }
  loss_net /= decisions, loss_formula /= decisions;
  std::printf("mean loss per decision: race net %.5f, race formula %.5f\n", loss_net, loss_formula);
  EXPECT_LT(loss_net, 0.001);
  EXPECT_LT(loss_net, loss_formula / 3);
}

}  // namespace
}  // namespace nardy
