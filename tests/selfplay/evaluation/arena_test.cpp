// Arena: mirrored dice, thread independence, statistics recomputed from raw games, SPRT.
#include "selfplay/evaluation/arena.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <nlohmann/json.hpp>

#include "core/error.h"
#include "selfplay/evaluation/stats.h"
#include "tests/selfplay/test_agents.h"
#include "tests/support/error_of.h"

namespace nardy {
namespace {

using testing::error_of;
using testing::racer;

// Records which side it was asked to move for, then plays the first result.
class SideRecorder final : public Agent {
 public:
  std::vector<Side> sides;
  size_t choose(const Position& pos, Dice, const MoveList&, Rng&) override {
    sides.push_back(pos.side_to_move());
    return 0;
  }
  std::string spec() const override { return "test-recorder"; }
};

AgentMaker random_agent() {
  return [] { return std::make_unique<RandomAgent>(); };
}

TEST(Arena, MirroredPairReplaysTheSameDiceWithColoursSwapped) {
  SideRecorder a, b;
  Game records[2] = {Game(Rules{}), Game(Rules{})};
  PairPlay p = play_pair(a, b, Rules{}, 7, 3, records);
  // Given the recorded games, when comparing their dice turn by turn, then they agree on the
  // common length (the same stream), and A moved only as White in game 0, only as Black in 1.
  const auto& h0 = records[0].history();
  const auto& h1 = records[1].history();
  ASSERT_GT(h0.size(), 10u);
  ASSERT_GT(h1.size(), 10u);
  for (size_t t = 0; t < std::min(h0.size(), h1.size()); ++t)
    EXPECT_EQ(h0[t].dice, h1[t].dice) << "turn " << t;
  size_t a_turns_game0 = (h0.size() + 1) / 2;  // White moves first
  ASSERT_GE(a.sides.size(), a_turns_game0);
  for (size_t t = 0; t < a.sides.size(); ++t)
    EXPECT_EQ(a.sides[t], t < a_turns_game0 ? Side::White : Side::Black) << "A's move " << t;
  for (size_t t = 0; t < b.sides.size(); ++t)
    EXPECT_EQ(b.sides[t], t < h0.size() / 2 ? Side::Black : Side::White) << "B's move " << t;
  // The points are A's: game 0 from White's side, game 1 from Black's.
  EXPECT_EQ(p.a_points[0], records[0].outcome()->points_for(Side::White));
  EXPECT_EQ(p.a_points[1], records[1].outcome()->points_for(Side::Black));
  // Other pairs use other dice.
  Rng d3 = arena_dice_rng(7, 3), d4 = arena_dice_rng(7, 4);
  EXPECT_NE(d3.next(), d4.next());
}

TEST(Arena, ResultsDoNotDependOnThreadCount) {
  ArenaOptions o;
  o.games = 24;
  o.seed = 11;
  o.threads = 1;
  ArenaResult one = run_arena(random_agent(), random_agent(), o);
  o.threads = 3;
  ArenaResult three = run_arena(random_agent(), random_agent(), o);
  EXPECT_EQ(one.game_points, three.game_points);
  EXPECT_EQ(one.turns, three.turns);
  EXPECT_EQ(one.to_json(), three.to_json());
  o.seed = 12;
  ArenaResult other = run_arena(random_agent(), random_agent(), o);
  EXPECT_NE(one.game_points, other.game_points);
}

TEST(Arena, GamesAreRoundedUpToPairs) {
  ArenaOptions o;
  o.games = 5;
  ArenaResult r = run_arena(racer(), random_agent(), o);
  EXPECT_EQ(r.games, 6);
  EXPECT_EQ(r.pairs, 3);
  EXPECT_EQ(r.game_points.size(), 6u);
}

TEST(Arena, JsonStatisticsEqualARecomputationFromRawGames) {
  ArenaOptions o;
  o.games = 40;
  o.threads = 2;
  o.seed = 5;
  ArenaResult r = run_arena(racer(), random_agent(), o);
  auto j = nlohmann::json::parse(r.to_json());
  const std::vector<int> g = j["game_points"].get<std::vector<int>>();
  ASSERT_EQ(g.size(), 40u);
  ASSERT_EQ(j["games"].get<int>(), 40);
  ASSERT_EQ(j["a_spec"], "test-racer");
  // Counts.
  int aw = 0, ao = 0, am = 0, bw = 0, bo = 0, bm = 0, dr = 0;
  double pts = 0, score = 0;
  for (int p : g) {
    pts += p;
    if (p == 1) ++aw, ++ao;
    if (p == 2) ++aw, ++am;
    if (p == -1) ++bw, ++bo;
    if (p == -2) ++bw, ++bm;
    if (p == 0) ++dr;
    score += p > 0 ? 1 : (p == 0 ? 0.5 : 0);
  }
  EXPECT_EQ(j["a_wins"].get<int>(), aw);
  EXPECT_EQ(j["a_oin"].get<int>(), ao);
  EXPECT_EQ(j["a_mars"].get<int>(), am);
  EXPECT_EQ(j["b_wins"].get<int>(), bw);
  EXPECT_EQ(j["b_oin"].get<int>(), bo);
  EXPECT_EQ(j["b_mars"].get<int>(), bm);
  EXPECT_EQ(j["draws"].get<int>(), dr);
  EXPECT_DOUBLE_EQ(j["a_points_per_game"].get<double>(), pts / 40);
  EXPECT_DOUBLE_EQ(j["a_win_rate"].get<double>(), score / 40);
  // CI from the 20 pair means with Student's t, 19 degrees of freedom (table: 2.093024).
  std::vector<double> m;
  for (size_t i = 0; i < 20; ++i) m.push_back((g[2 * i] + g[2 * i + 1]) / 2.0);
  double mean = 0, var = 0;
  for (double x : m) mean += x / 20;
  for (double x : m) var += (x - mean) * (x - mean) / 19;
  const double half = 2.093024 * std::sqrt(var / 20);
  EXPECT_NEAR(j["ci95_low"].get<double>(), mean - half, 1e-3);
  EXPECT_NEAR(j["ci95_high"].get<double>(), mean + half, 1e-3);
  const double p = score / 40;
  EXPECT_NEAR(j["elo"].get<double>(), -400 * std::log10(1 / p - 1), 1e-9);
  EXPECT_LT(j["elo_ci95_low"].get<double>(), j["elo"].get<double>());
  EXPECT_GT(j["elo_ci95_high"].get<double>(), j["elo"].get<double>());
  // The racer should be clearly better than random.
  EXPECT_GT(j["a_points_per_game"].get<double>(), 0.3);
}

// The one match-result format reads back to the same result, with and without the per-game
// lists, SPRT included; text that is not a result is a clear error.
TEST(Arena, JsonReadsBackToTheSameResult) {
  ArenaOptions o;
  o.games = 30;
  o.seed = 9;
  o.sprt = SprtOptions{};
  const ArenaResult r = run_arena(racer(), random_agent(), o);
  const ArenaResult back = ArenaResult::from_json(r.to_json(), "test");
  EXPECT_EQ(back.to_json(), r.to_json());
  EXPECT_EQ(back.game_points, r.game_points);
  EXPECT_EQ(back.sprt_verdict, r.sprt_verdict);
  const std::string summary = r.to_json(/*per_game=*/false);
  EXPECT_FALSE(nlohmann::json::parse(summary).contains("game_points"));
  EXPECT_EQ(ArenaResult::from_json(summary, "test").to_json(false), summary);
  // One pair: the CI is infinite, written as null and read back as infinite.
  o.games = 2;
  o.sprt.reset();
  const ArenaResult one = run_arena(racer(), random_agent(), o);
  EXPECT_TRUE(nlohmann::json::parse(one.to_json())["ci95_low"].is_null());
  EXPECT_EQ(ArenaResult::from_json(one.to_json(), "test").ci95_high, one.ci95_high);
  EXPECT_EQ(error_of([] { ArenaResult::from_json("[1, 2]", "x.json"); }),
            "x.json: a match result must be a JSON object");
  EXPECT_NE(error_of([] {
              ArenaResult::from_json("{\"games\": \"many\"}", "x.json");
            }).find("x.json: not a match result"),
            std::string::npos);
}

TEST(Arena, SprtAcceptsH1ForTheClearlyBetterAgentAndH0ForTheWorse) {
  ArenaOptions o;
  o.games = 2000;
  o.seed = 3;
  o.threads = 2;
  o.sprt = SprtOptions{0, 30, 0.05, 0.05};
  ArenaResult better = run_arena(racer(), random_agent(), o);
  EXPECT_EQ(better.sprt_verdict, "H1");
  EXPECT_LT(better.games, 2000);
  EXPECT_GE(better.sprt_llr, better.sprt_upper);
  ArenaResult worse = run_arena(random_agent(), racer(), o);
  EXPECT_EQ(worse.sprt_verdict, "H0");
  EXPECT_LT(worse.games, 2000);
  EXPECT_LE(worse.sprt_llr, worse.sprt_lower);
  // The stopping point is the same on one thread.
  o.threads = 1;
  ArenaResult again = run_arena(racer(), random_agent(), o);
  EXPECT_EQ(again.game_points, better.game_points);
  // And arena_statistics on the raw games reproduces the verdict.
  ArenaResult re = arena_statistics(better.game_points, o.sprt);
  EXPECT_EQ(re.sprt_verdict, "H1");
  EXPECT_DOUBLE_EQ(re.sprt_llr, better.sprt_llr);
}

TEST(Arena, SprtOnEqualAgentsIsNotH1Quickly) {
  ArenaOptions o;
  o.games = 200;
  o.seed = 9;
  o.sprt = SprtOptions{0, 30, 0.05, 0.05};
  ArenaResult r = run_arena(random_agent(), random_agent(), o);
  EXPECT_NE(r.sprt_verdict, "H1");
}

// The first `pairs` pairs of a finished match, as arena_statistics reports them.
ArenaResult first_pairs(const ArenaResult& full, int64_t pairs) {
  const std::vector<int> g(full.game_points.begin(), full.game_points.begin() + 2 * pairs);
  return arena_statistics(g, std::nullopt);
}

// Statistics a stopped match must share with the same pairs of an unstopped one.
void expect_same_statistics(const ArenaResult& stopped, const ArenaResult& expected) {
  EXPECT_EQ(stopped.games, expected.games);
  EXPECT_EQ(stopped.pairs, expected.pairs);
  EXPECT_EQ(stopped.game_points, expected.game_points);
  EXPECT_EQ(stopped.pair_points, expected.pair_points);
  EXPECT_EQ(stopped.a_wins + stopped.b_wins + stopped.draws, stopped.games);
  EXPECT_EQ(stopped.a_wins, expected.a_wins);
  EXPECT_EQ(stopped.b_wins, expected.b_wins);
  EXPECT_DOUBLE_EQ(stopped.a_points, expected.a_points);
  EXPECT_DOUBLE_EQ(stopped.a_points_per_game, expected.a_points_per_game);
  EXPECT_DOUBLE_EQ(stopped.ci95_low, expected.ci95_low);
  EXPECT_DOUBLE_EQ(stopped.ci95_high, expected.ci95_high);
  EXPECT_DOUBLE_EQ(stopped.elo, expected.elo);
}

TEST(Arena, AStopAfterKPairsReportsThoseKPairs) {
  ArenaOptions o;
  o.games = 40;
  o.seed = 21;
  const ArenaResult full = run_arena(racer(), random_agent(), o);
  ASSERT_FALSE(full.stopped);
  // Given a hook that asks to stop once 6 pairs (12 games) have finished, on one thread,
  // when the match runs, then it plays exactly those 6 pairs and reports them.
  std::atomic<int64_t> games_done{0};
  o.progress = [&](int64_t done) { games_done = done; };
  o.should_stop = [&] { return games_done.load() >= 12; };
  const ArenaResult stopped = run_arena(racer(), random_agent(), o);
  EXPECT_TRUE(stopped.stopped);
  EXPECT_EQ(stopped.games, 12);
  expect_same_statistics(stopped, first_pairs(full, 6));
  EXPECT_EQ(stopped.a_spec, "test-racer");
  EXPECT_GT(stopped.turns, 0);
  EXPECT_LT(stopped.turns, full.turns);
  EXPECT_TRUE(nlohmann::json::parse(stopped.to_json())["stopped"].get<bool>());
  EXPECT_NE(stopped.to_text().find("stopped on request"), std::string::npos);
}

TEST(Arena, AStopMidPairDropsThatPairOnAnyThreadCount) {
  ArenaOptions o;
  o.games = 60;
  o.seed = 4;
  const ArenaResult full = run_arena(racer(), random_agent(), o);
  for (int threads : {1, 3}) {
    // Given a hook that turns true at its 500th poll — the agents poll it before every move,
    // so inside some pair — when the match runs, then the result is a gap-free run of
    // finished pairs from pair 0: the first pairs of the full match.
    o.threads = threads;
    std::atomic<int> polls{0};
    o.should_stop = [&] { return polls.fetch_add(1) >= 500; };
    const ArenaResult stopped = run_arena(racer(), random_agent(), o);
    EXPECT_TRUE(stopped.stopped) << threads;
    EXPECT_EQ(stopped.games % 2, 0);
    EXPECT_LT(stopped.games, full.games);
    expect_same_statistics(stopped, first_pairs(full, stopped.pairs));
  }
  // A hook that never fires changes nothing.
  o.should_stop = [] { return false; };
  const ArenaResult unstopped = run_arena(racer(), random_agent(), o);
  EXPECT_FALSE(unstopped.stopped);
  EXPECT_EQ(unstopped.to_json(), full.to_json());
}

TEST(Arena, AStopBeforeTheFirstPairPlaysNothing) {
  ArenaOptions o;
  o.games = 10;
  o.should_stop = [] { return true; };
  const ArenaResult r = run_arena(racer(), random_agent(), o);
  EXPECT_TRUE(r.stopped);
  EXPECT_EQ(r.games, 0);
  EXPECT_TRUE(r.game_points.empty());
}

TEST(Arena, BadOptionsAndSpecsAreClearErrors) {
  ArenaOptions o;
  o.games = 0;
  EXPECT_THROW(run_arena(racer(), random_agent(), o), Error);
  o.games = 2;
  o.sprt = SprtOptions{10, 5};
  EXPECT_THROW(run_arena(racer(), random_agent(), o), Error);
  o.sprt.reset();
  try {
    run_arena(std::string("random"), std::string("bogus:x"), o);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("bogus"), std::string::npos) << e.what();
  }
}

TEST(Stats, QuantilesMatchTables) {
  EXPECT_NEAR(normal_quantile(0.975), 1.959964, 1e-6);
  EXPECT_NEAR(normal_quantile(0.5), 0.0, 1e-12);
  EXPECT_NEAR(normal_quantile(0.01), -2.326348, 1e-6);
  EXPECT_NEAR(student_t_quantile(0.975, 1), 12.7062, 1e-3);
  EXPECT_NEAR(student_t_quantile(0.975, 2), 4.302653, 1e-5);
  EXPECT_NEAR(student_t_quantile(0.975, 3), 3.182446, 5e-3);
  EXPECT_NEAR(student_t_quantile(0.975, 10), 2.228139, 1e-3);
  EXPECT_NEAR(student_t_quantile(0.975, 30), 2.042272, 1e-4);
}

TEST(Stats, EloRoundTripsAndSprtSigns) {
  for (double e : {-300.0, -20.0, 0.0, 55.0, 400.0})
    EXPECT_NEAR(elo_from_score(score_from_elo(e)), e, 1e-9);
  EXPECT_NEAR(score_from_elo(400), 10.0 / 11.0, 1e-12);
  // Pair scores averaging 0.75 favour H1 (elo >= 30) over H0 (elo <= 0), 0.25 the reverse.
  // Scores {1, 1, 0.5, 0.5}: Σ 3, Σ² 2.5; scores {0, 0, 0.5, 0.5}: Σ 1, Σ² 0.5.
  EXPECT_GT(sprt_llr(4, 3.0, 2.5, 0, 30), 0);
  EXPECT_LT(sprt_llr(4, 1.0, 0.5, 0, 30), 0);
  SprtBounds b = sprt_bounds(0.05, 0.05);
  EXPECT_NEAR(b.upper, std::log(19.0), 1e-12);
  EXPECT_NEAR(b.lower, -std::log(19.0), 1e-12);
}

TEST(Stats, LeastSquaresRatingsAreAnchoredAtTheFirstPlayer) {
  std::vector<PairwiseResult> r = {{0, 1, 100, 10}, {1, 2, 50, 10}, {0, 2, 150, 10}};
  auto ratings = least_squares_ratings(4, r);  // player 3 played nobody
  EXPECT_DOUBLE_EQ(ratings[0].elo, 0);
  EXPECT_NEAR(ratings[1].elo, -100, 1e-9);
  EXPECT_NEAR(ratings[2].elo, -150, 1e-9);
  EXPECT_GT(ratings[1].se, 0);
  EXPECT_LT(ratings[1].se, 10);  // two paths reduce the error below one measurement's
  EXPECT_TRUE(std::isnan(ratings[3].elo));
  // Inconsistent results are reconciled by their weights.
  std::vector<PairwiseResult> r2 = {{0, 1, 100, 10}, {0, 1, 0, 10}};
  EXPECT_NEAR(least_squares_ratings(2, r2)[1].elo, -50, 1e-9);
}

}  // namespace
}  // namespace nardy
