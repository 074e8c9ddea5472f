// Search: expectimax values against a brute-force reference, a hand-checked 1-ply choice, the
// move filter, exact values at the end of the game, and the evaluation cache.
#include "selfplay/search/search.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "core/error.h"
#include "core/game.h"
#include "core/notation.h"
#include "core/pos_text.h"
#include "tests/selfplay/test_evaluators.h"
#include "tests/support/position_sampler.h"

namespace nardy {
namespace {

using testing::ConstantEvaluator;
using testing::HashEvaluator;
using testing::RaceEvaluator;
using testing::random_game_position;

// The average over the 21 distinct rolls of each roll's best value, summed in double.
struct RollAverage {
  double sum[4] = {0, 0, 0, 0};
  void add(int weight36, const Evaluation& e) {
    sum[0] += weight36 / 36.0 * e.win;
    sum[1] += weight36 / 36.0 * e.win_mars;
    sum[2] += weight36 / 36.0 * e.lose_mars;
    sum[3] += weight36 / 36.0 * e.draw;
  }
  Evaluation value() const {
    return Evaluation{float(sum[0]), float(sum[1]), float(sum[2]), float(sum[3])};
  }
};

// Reference: value(pos, depth) straight from the definition in search.h, no filter, no cache,
// on HashEvaluator's static values; with `stakes`, each mover picks its best match winning
// chance by its own OutcomeValues instead of its best equity.
Evaluation reference_value(const Position& pos, int depth, const Rules& rules,
                           const GameStakes* stakes = nullptr) {
  const Side me = pos.side_to_move();
  if (auto o = game_outcome(pos, rules)) {
    const int pts = o->points_for(me);
    return Evaluation{pts > 0 ? 1.f : 0.f, pts == 2 ? 1.f : 0.f, pts == -2 ? 1.f : 0.f,
                      o->is_draw() ? 1.f : 0.f};
  }
  if (depth == 0) return HashEvaluator::value(pos);
  RollAverage acc;
  for (const auto& r : kDistinctRolls) {
    Evaluation best;
    double best_eq = -1e9;
    for (const auto& m : legal_moves(pos, r.dice, rules)) {
      const Evaluation v = reference_value(m.position, depth - 1, rules, stakes).flipped();
      const double value =
          stakes ? stakes->for_side(me).value(v.win, v.win_mars, v.lose_mars, v.draw) : v.equity();
      if (value > best_eq) best_eq = value, best = v;
    }
    acc.add(r.weight36, best);
  }
  return acc.value();
}

TEST(Search, OnePlyBlocksTheOpponentsOnlyEscapeRolls) {
  // Given White to move with one checker on 16 and 14 on the head, and Black with a single
  // checker left on 15 (Black's route 3; 14 borne off):
  //     13 14 15 16 ... 24
  //      .  .  b  W ...  W(14)
  // Black bears off next turn with every roll unless White stands in the way. A White
  // checker on 13 (Black's route 1) stops 1-1 (15/14/13 blocked) and 2-2 (15/13 blocked, no
  // other two): Black escapes with 34/36. On 14 it stops only 1-1: 35/36. White has nothing
  // off, so Black's win is a mars (2 points).
  const Position pos = parse_pos("0,0,0,0,0,0,0,0,0,0,0,0,0,0,-1,1,0,0,0,0,0,0,0,14 w");
  const Rules rules;
  MoveList moves = legal_moves(pos, Dice{3, 2}, rules);
  ConstantEvaluator constant;
  Search search(constant, rules, uniform_search_options());
  std::vector<ScoredMove> scored;
  // When White plays 3-2 at 1-ply with an evaluator that sees every position as even,
  search.score_moves(pos, moves, 1, scored);
  // Then it plays 16/13 24/22, worth -2 * 34/36, ahead of 16/14 24/21 at -2 * 35/36.
  ASSERT_GE(scored.size(), 3u);
  EXPECT_EQ(format_move(moves[scored[0].index].move), "24/22 16/13");
  EXPECT_NEAR(scored[0].equity(), -2.0 * 34 / 36, 1e-5);
  EXPECT_EQ(format_move(moves[scored[1].index].move), "24/21 16/14");
  EXPECT_NEAR(scored[1].equity(), -2.0 * 35 / 36, 1e-5);
  for (size_t k = 2; k < scored.size(); ++k) EXPECT_NEAR(scored[k].equity(), -2.0, 1e-5);
  // At 0-ply every result looks the same (equity 0).
  search.score_moves(pos, moves, 0, scored);
  for (const auto& s : scored) EXPECT_NEAR(s.equity(), 0.0, 1e-6);
}

TEST(Search, OnePlyValuesEqualTheBruteForceExpectimax) {
  const Rules rules;
  HashEvaluator hash;
  SearchOptions so = uniform_search_options();
  so.filter_keep = so.inner_keep = 1000;
  so.filter_delta = so.inner_delta = 100;  // no filter: every candidate gets the full value
  Search search(hash, rules, so);
  for (uint64_t seed : {1u, 2u, 3u}) {
    const Position pos = random_game_position(seed, 30);
    MoveList moves = legal_moves(pos, Dice{5, 2}, rules);
    std::vector<ScoredMove> scored;
    search.score_moves(pos, moves, 1, scored);
    ASSERT_EQ(scored.size(), moves.size());
    double best_ref = -1e9;
    for (const auto& s : scored) {
      EXPECT_EQ(s.ply, 1);
      const Evaluation ref = reference_value(moves[s.index].position, 1, rules).flipped();
      EXPECT_NEAR(s.eval.win, ref.win, 1e-5);
      EXPECT_NEAR(s.eval.win_mars, ref.win_mars, 1e-5);
      EXPECT_NEAR(s.eval.lose_mars, ref.lose_mars, 1e-5);
      EXPECT_NEAR(s.equity(), ref.equity(), 1e-5);
      best_ref = std::max(best_ref, double(ref.equity()));
    }
    // The first is the expectimax best.
    EXPECT_NEAR(scored[0].equity(), best_ref, 1e-6);
  }
}

TEST(Search, TheOnePlyBlendMixesEachCandidatesOnePlyAndZeroPlyValues) {
  const Rules rules;
  HashEvaluator hash;
  SearchOptions so = uniform_search_options();
  so.filter_keep = 1000;
  so.filter_delta = 100;  // every candidate searched
  so.blend = 0.25;
  Search search(hash, rules, so);
  const Position pos = random_game_position(4, 30);
  const MoveList moves = legal_moves(pos, Dice{6, 3}, rules);
  std::vector<ScoredMove> scored;
  search.score_moves(pos, moves, 1, scored);
  ASSERT_EQ(scored.size(), moves.size());
  for (const auto& s : scored) {
    const Position& c = moves[s.index].position;
    const Evaluation one = reference_value(c, 1, rules).flipped();
    const Evaluation zero = HashEvaluator::value(c).flipped();
    EXPECT_EQ(s.ply, 1);
    EXPECT_NEAR(s.eval.win, 0.75f * one.win + 0.25f * zero.win, 1e-5);
    EXPECT_NEAR(s.eval.lose_mars, 0.75f * one.lose_mars + 0.25f * zero.lose_mars, 1e-5);
  }
  for (size_t k = 1; k < scored.size(); ++k) EXPECT_GE(scored[k - 1].equity(), scored[k].equity());
  // Only at ply 1; a 2-ply search and the position's own 1-ply value are not blended.
  search.cache().new_generation();
  EXPECT_NEAR(search.evaluate(moves[0].position, 1).win,
              reference_value(moves[0].position, 1, rules).win, 1e-5);
  so.blend = 1.5;
  EXPECT_THROW(Search(hash, rules, so), Error);
}

TEST(Search, TwoPlyEqualsBruteForceOnASmallEndgame) {
  // White 3 checkers in home, Black 3 in home: few results per roll.
  const Position pos = parse_pos("1,0,0,1,0,1,0,0,0,0,0,0,-1,0,-1,0,0,-1,0,0,0,0,0,0 w");
  const Rules rules;
  HashEvaluator hash;
  SearchOptions so = uniform_search_options();
  so.filter_keep = so.inner_keep = 1000;
  so.filter_delta = so.inner_delta = 100;
  Search search(hash, rules, so);
  for (int depth : {1, 2}) {
    const Evaluation got = search.evaluate(pos, depth);
    const Evaluation ref = reference_value(pos, depth, rules);
    EXPECT_NEAR(got.win, ref.win, 1e-5) << "depth " << depth;
    EXPECT_NEAR(got.equity(), ref.equity(), 1e-5) << "depth " << depth;
  }
}

TEST(Search, RepliesByMatchWinningChanceEqualTheBruteForceExpectimax) {
  // Given the stakes of a match to 3 at 2-1 with the trailer (2-away) as White: White's mars
  // wins the match, its oin only ties at 1-away each; for Black (1-away) a mars win is worth no
  // more than an oin, and a mars loss loses the match while an oin loss ties it. (Values as
  // MatchEquityTable gives them, rounded; the search takes any OutcomeValues.)
  const GameStakes stakes{OutcomeValues{0.42, 1.0, 0.0, 0.0, 0.2},
                          OutcomeValues{1.0, 1.0, 0.58, 0.0, 0.8}};
  const Position pos = parse_pos("1,0,0,1,0,1,0,0,0,0,0,0,-1,0,-1,0,0,-1,0,0,0,0,0,0 w");
  const Rules rules;
  HashEvaluator hash;
  SearchOptions so = uniform_search_options();
  so.filter_keep = so.inner_keep = 1000;
  so.filter_delta = so.inner_delta = 100;
  Search search(hash, rules, so);
  search.set_stakes(stakes);
  bool differs_from_equity = false;
  for (int depth : {1, 2}) {
    // When the search values the position with the replies chosen by match winning chance,
    const Evaluation got = search.evaluate(pos, depth);
    // then it equals the hand-written expectimax by each mover's OutcomeValues,
    const Evaluation ref = reference_value(pos, depth, rules, &stakes);
    EXPECT_NEAR(got.win, ref.win, 1e-5) << "depth " << depth;
    EXPECT_NEAR(got.win_mars, ref.win_mars, 1e-5) << "depth " << depth;
    EXPECT_NEAR(got.lose_mars, ref.lose_mars, 1e-5) << "depth " << depth;
    // and some reply differs from the one equity picks (the values differ).
    const Evaluation blind = reference_value(pos, depth, rules);
    differs_from_equity |= std::fabs(blind.win - ref.win) > 1e-4 ||
                           std::fabs(blind.win_mars - ref.win_mars) > 1e-4 ||
                           std::fabs(blind.lose_mars - ref.lose_mars) > 1e-4;
  }
  EXPECT_TRUE(differs_from_equity);
  // Without stakes it is the equity expectimax again (a fresh cache generation).
  search.set_stakes(std::nullopt);
  const Evaluation again = search.evaluate(pos, 2);
  EXPECT_NEAR(again.equity(), reference_value(pos, 2, rules).equity(), 1e-5);
}

TEST(Search, FilterKeepsTheBestKWithinDelta) {
  const Rules rules;
  HashEvaluator hash;
  SearchOptions so = uniform_search_options();
  so.filter_keep = 2;
  Search search(hash, rules, so);
  const Position pos = random_game_position(5, 20);
  MoveList moves = legal_moves(pos, Dice{6, 3}, rules);
  ASSERT_GT(moves.size(), 3u);
  std::vector<ScoredMove> zero, one;
  search.score_moves(pos, moves, 0, zero);
  search.score_moves(pos, moves, 1, one);
  int deep = 0, expected = 0;
  for (const auto& s : one) deep += s.ply == 1;
  for (size_t k = 0; k < 2; ++k) expected += zero[k].equity() >= zero[0].equity() - 0.16;
  EXPECT_EQ(deep, expected);
  // The deep ones are among the 0-ply best two, and come first.
  for (int k = 0; k < deep; ++k) {
    EXPECT_EQ(one[static_cast<size_t>(k)].ply, 1);
    EXPECT_TRUE(one[static_cast<size_t>(k)].index == zero[0].index ||
                one[static_cast<size_t>(k)].index == zero[1].index);
  }
  // A zero delta keeps only the 0-ply best.
  SearchOptions narrow = uniform_search_options();
  narrow.filter_delta = 0;
  Search s2(hash, rules, narrow);
  s2.score_moves(pos, moves, 1, one);
  EXPECT_EQ(one[0].ply, 1);
  EXPECT_EQ(one[0].index, zero[0].index);
  EXPECT_EQ(one[1].ply, 0);
}

// value(pos, depth) with the inner move filter of search.h, straight from its definition on
// HashEvaluator's static values, no cache: inside a value of depth >= 2 each roll's results are
// ranked by their 0-ply equity for the mover (ties: the earlier result) and only the first
// `keep` within `delta` of the best get their deeper value; at depth 1 the 0-ply best is taken.
// `expanded` counts the values of depth >= 1 computed (nodes whose rolls are generated).
Evaluation filtered_value(const Position& pos, int depth, const Rules& rules, int keep,
                          double delta, int64_t& expanded) {
  if (game_outcome(pos, rules) || depth == 0) return reference_value(pos, 0, rules);
  ++expanded;
  RollAverage acc;
  for (const auto& r : kDistinctRolls) {
    const MoveList moves = legal_moves(pos, r.dice, rules);
    std::vector<std::pair<double, size_t>> order;  // (0-ply equity for the mover, index)
    for (size_t i = 0; i < moves.size(); ++i)
      order.emplace_back(reference_value(moves[i].position, 0, rules).flipped().equity(), i);
    std::stable_sort(order.begin(), order.end(),
                     [](const auto& a, const auto& b) { return a.first > b.first; });
    Evaluation best = reference_value(moves[order[0].second].position, 0, rules).flipped();
    if (depth >= 2) {
      double best_eq = -1e9;
      for (size_t k = 0; k < order.size() && k < static_cast<size_t>(keep) &&
                         order[k].first >= order[0].first - delta;
           ++k) {
        const Evaluation v =
            filtered_value(moves[order[k].second].position, depth - 1, rules, keep, delta, expanded)
                .flipped();
        if (v.equity() > best_eq) best_eq = v.equity(), best = v;
      }
    }
    acc.add(r.weight36, best);
  }
  return acc.value();
}

TEST(Search, InnerFilterKeepsAtMostKWithinDeltaOfEachReply) {
  const Rules rules;
  HashEvaluator hash;
  bool tiered_differs = false;
  for (uint64_t seed : {3u, 4u, 7u}) {
    const Position pos = random_game_position(seed, 24);
    ASSERT_FALSE(game_outcome(pos, rules));
    int64_t unfiltered_nodes = 0, most_filtered = 0;
    const Evaluation all = filtered_value(pos, 2, rules, 1000, 100, unfiltered_nodes);
    for (const auto& [keep, delta] : {std::pair{1, 0.0}, {2, 0.04}, {3, 0.1}, {8, 0.16}}) {
      // Given a search whose inner filter keeps `keep` within `delta`, without a cache,
      SearchOptions so = uniform_search_options();
      so.inner_keep = keep;
      so.inner_delta = delta;
      so.cache_bits = 0;
      Search search(hash, rules, so);
      // when it values the position at 2-ply,
      const Evaluation got = search.evaluate(pos, 2);
      // then the value is the filtered expectimax of the definition,
      int64_t nodes = 0;
      const Evaluation ref = filtered_value(pos, 2, rules, keep, delta, nodes);
      EXPECT_NEAR(got.win, ref.win, 1e-5) << seed << " keep " << keep;
      EXPECT_NEAR(got.win_mars, ref.win_mars, 1e-5) << seed << " keep " << keep;
      EXPECT_NEAR(got.lose_mars, ref.lose_mars, 1e-5) << seed << " keep " << keep;
      // and it expanded exactly the replies the filter keeps (one evaluator call per node:
      // the node itself and, for each roll, at most `keep` replies), the brute-force count.
      EXPECT_EQ(static_cast<int64_t>(search.evaluator_calls()), nodes) << seed << " keep " << keep;
      EXPECT_LE(nodes, 1 + 21 * keep);
      if (keep == 1) EXPECT_EQ(nodes, 1 + 21);  // gnubg's inner choice: the 0-ply best only
      tiered_differs |= std::fabs(got.equity() - all.equity()) > 1e-4;
      most_filtered = std::max(most_filtered, nodes);
    }
    EXPECT_GT(unfiltered_nodes, most_filtered);  // every filter above cut something
  }
  EXPECT_TRUE(tiered_differs);  // and it changed some value
}

TEST(Search, InnerFilterLeavesTheRootFilterAndOnePlyAlone) {
  const Rules rules;
  HashEvaluator hash;
  const Position pos = random_game_position(9, 22);
  MoveList moves = legal_moves(pos, Dice{5, 3}, rules);
  ASSERT_GT(moves.size(), 8u);
  SearchOptions old_opts = uniform_search_options(), tiered = uniform_search_options();
  old_opts.filter_delta = tiered.filter_delta = 1.0;  // several candidates reach 2-ply
  tiered.inner_keep = 1;
  tiered.inner_delta = 0;
  Search a(hash, rules, old_opts), b(hash, rules, tiered);
  std::vector<ScoredMove> sa, sb;
  // At 2-ply the same candidates pass the root filter (8 within 0.16 at 0-ply) either way;
  a.score_moves(pos, moves, 2, sa);
  b.score_moves(pos, moves, 2, sb);
  ASSERT_EQ(sa.size(), sb.size());
  std::vector<size_t> deep_a, deep_b;
  for (const auto& s : sa)
    if (s.ply == 2) deep_a.push_back(s.index);
  for (const auto& s : sb)
    if (s.ply == 2) deep_b.push_back(s.index);
  std::sort(deep_a.begin(), deep_a.end());
  std::sort(deep_b.begin(), deep_b.end());
  EXPECT_EQ(deep_a, deep_b);
  EXPECT_GT(deep_a.size(), 1u);
  // at 1-ply the inner filter has no level to act on: identical values.
  a.score_moves(pos, moves, 1, sa);
  b.score_moves(pos, moves, 1, sb);
  ASSERT_EQ(sa.size(), sb.size());
  for (size_t k = 0; k < sa.size(); ++k) {
    EXPECT_EQ(sa[k].index, sb[k].index);
    EXPECT_EQ(sa[k].eval.win, sb[k].eval.win);
  }
}

TEST(Search, RepeatedPositionsAreEvaluatedOnce) {
  const Rules rules;
  RaceEvaluator race;
  Search search(race, rules, uniform_search_options());
  const Position pos = random_game_position(8, 25);
  const Evaluation first = search.evaluate(pos, 1);
  const uint64_t sent = search.evaluator_positions();
  const uint64_t hits = search.cache().hits();
  EXPECT_GT(sent, 0u);
  // When the same value is asked again, then nothing new reaches the evaluator.
  const Evaluation again = search.evaluate(pos, 1);
  EXPECT_EQ(search.evaluator_positions(), sent);
  EXPECT_GT(search.cache().hits(), hits);
  EXPECT_EQ(first.win, again.win);
  EXPECT_EQ(race.positions, static_cast<int64_t>(sent));
  // Its children's static values are cached too: the 0-ply ranking of any roll is free.
  MoveList moves = legal_moves(pos, Dice{4, 1}, rules);
  std::vector<ScoredMove> scored;
  search.score_moves(pos, moves, 0, scored);
  // (the candidates are children of pos, not grandchildren: they may be new)
  const uint64_t after_rank = search.evaluator_positions();
  search.score_moves(pos, moves, 0, scored);
  EXPECT_EQ(search.evaluator_positions(), after_rank);
  // Without a cache every call goes to the evaluator.
  SearchOptions none = uniform_search_options();
  none.cache_bits = 0;
  Search uncached(race, rules, none);
  uncached.evaluate(pos, 1);
  const uint64_t once = uncached.evaluator_positions();
  uncached.evaluate(pos, 1);
  EXPECT_EQ(uncached.evaluator_positions(), 2 * once);
}

TEST(EvalCache, NeverReturnsAnotherPositionsValue) {
  EvalCache cache(2);  // 4 slots: many positions share a slot
  std::vector<Position> ps;
  for (uint64_t s = 1; s <= 40; ++s)
    ps.push_back(random_game_position(s, 10 + static_cast<int>(s)));
  for (size_t i = 0; i < ps.size(); ++i) {
    cache.store(ps[i], 0, HashEvaluator::value(ps[i]));
    for (size_t j = 0; j <= i; ++j) {
      Evaluation e;
      if (cache.lookup(ps[j], 0, e)) EXPECT_EQ(e.win, HashEvaluator::value(ps[j]).win);
      EXPECT_FALSE(cache.lookup(ps[j], 1, e) && ps[j] != ps[i]);  // depth is part of the key
    }
    Evaluation e;
    EXPECT_TRUE(cache.lookup(ps[i], 0, e));  // the last store is always there
  }
  EXPECT_THROW(EvalCache(40), Error);
}

TEST(EvalCache, NewGenerationForgetsEverything) {
  EvalCache cache(8);
  const Position a = random_game_position(1, 12), b = random_game_position(2, 12);
  cache.store(a, 0, HashEvaluator::value(a));
  cache.store(b, 1, HashEvaluator::value(b));
  Evaluation e;
  EXPECT_TRUE(cache.lookup(a, 0, e));
  cache.new_generation();
  EXPECT_FALSE(cache.lookup(a, 0, e));
  EXPECT_FALSE(cache.lookup(b, 1, e));
  cache.store(a, 0, HashEvaluator::value(a));
  EXPECT_TRUE(cache.lookup(a, 0, e));
  EXPECT_EQ(e.win, HashEvaluator::value(a).win);
}

TEST(Search, ExactValuesAtTheEnd) {
  Rules rules;
  // A finished game: White has borne off all, Black none -> Black to move has lost a mars.
  const Position done = parse_pos("0,0,0,0,0,0,0,0,0,0,0,0,-15,0,0,0,0,0,0,0,0,0,0,0 b");
  auto e = exact_evaluation(done, rules);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->win, 0);
  EXPECT_EQ(e->lose_mars, 1);
  EXPECT_EQ(e->equity(), -2);
  // Under last_roll_draw the same board is Black's last turn: all 15 stand on Black's route
  // 1, so any roll bears off two or four — not all 15 (a loss), but no longer a mars, which
  // is judged after that turn.
  rules.last_roll_draw = true;
  e = exact_evaluation(done, rules);
  ASSERT_TRUE(e);
  EXPECT_NEAR(e->equity(), -1, 1e-6);
  EXPECT_NEAR(e->lose_mars, 0, 1e-6);
  // One Black checker on its route 2 (point 14): every roll bears it off -> a sure draw.
  const Position last = parse_pos("0,0,0,0,0,0,0,0,0,0,0,0,0,-1,0,0,0,0,0,0,0,0,0,0 b");
  e = exact_evaluation(last, rules);
  ASSERT_TRUE(e);
  EXPECT_NEAR(e->draw, 1.0, 1e-6);
  // Two Black checkers on route 6 (point 18): only some rolls bear both off; the draw
  // chance must equal a direct count over the 21 rolls.
  const Position two = parse_pos("0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,-2,0,0,0,0,0,0 b");
  double draws = 0;
  for (const auto& r : kDistinctRolls) {
    bool can = false;
    for (const auto& m : legal_moves(two, r.dice, rules))
      can |= m.position.off(Side::Black) == kNumCheckers;
    draws += can ? r.weight36 / 36.0 : 0;
  }
  e = exact_evaluation(two, rules);
  ASSERT_TRUE(e);
  EXPECT_NEAR(e->draw, draws, 1e-6);
  EXPECT_GT(draws, 0.0);
  EXPECT_LT(draws, 1.0);
  EXPECT_NEAR(e->win, 0, 1e-6);
  // Not decided: the start.
  EXPECT_FALSE(exact_evaluation(Position::start(), rules));
}

TEST(Search, BadOptionsAreErrors) {
  ConstantEvaluator c;
  SearchOptions o = uniform_search_options();
  o.filter_keep = 0;
  EXPECT_THROW(Search(c, Rules{}, o), Error);
  o.filter_keep = 3;
  o.filter_delta = -1;
  EXPECT_THROW(Search(c, Rules{}, o), Error);
  o.filter_delta = 0.1;
  o.inner_keep = 0;
  EXPECT_THROW(Search(c, Rules{}, o), Error);
  o.inner_keep = 1;
  o.inner_delta = -0.5;
  EXPECT_THROW(Search(c, Rules{}, o), Error);
}

}  // namespace
}  // namespace nardy
