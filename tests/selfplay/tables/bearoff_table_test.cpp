// Race tables: the index, the race test, the table against an independent brute-force
// expectimax, the file format, and the odds formulas against a two-sided brute force.
#include "selfplay/tables/bearoff_table.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <unistd.h>

#include "core/error.h"
#include "core/game.h"
#include "core/movegen.h"
#include "core/pos_text.h"
#include "selfplay/tables/race.h"
#include "selfplay/tables/race_odds.h"
#include "tests/selfplay/race_position.h"
#include "tests/support/position_sampler.h"

namespace nardy {
namespace {

using testing::race_position;

TEST(BearoffIndex, IsABijectionOntoItsSize) {
  for (int n : {1, 3, 6}) {
    BearoffIndex index(n);
    uint64_t expected = 1;  // C(n + 15, n)
    for (int k = 1; k <= n; ++k) expected = expected * (15 + k) / k;
    ASSERT_EQ(index.size(), expected) << n;
    for (uint32_t i = 0; i < index.size(); ++i) {
      const Arrangement a = index.unrank(i);
      int sum = 0;
      for (int r = 0; r < kMaxBearoffPoints; ++r) {
        sum += a[static_cast<size_t>(r)];
        if (r >= n) {
          ASSERT_EQ(a[static_cast<size_t>(r)], 0);
        }
      }
      ASSERT_LE(sum, 15);
      ASSERT_EQ(index.rank(a), i);
    }
  }
  EXPECT_THROW(BearoffIndex(0), Error);
  EXPECT_THROW(BearoffIndex(13), Error);
}

TEST(Race, DefinitionMatchesTheRoutes) {
  EXPECT_FALSE(is_race(Position::start()));
  EXPECT_TRUE(is_race(race_position({3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 12}, {15})));
  // A White checker on point 13 (route 13) still meets Black's checkers on 13..24.
  EXPECT_FALSE(is_race(race_position({0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1}, {15})));
  // A Black checker on its route 13 (point 1) must pass White's home.
  std::vector<int> b(13, 0);
  b[12] = 1;
  EXPECT_FALSE(is_race(race_position({15}, b)));
  // A finished game is not a race.
  EXPECT_FALSE(is_race(race_position({}, {15})));
}

// highest_route reads the board directly: the same as the highest r with count(s, r) > 0, for
// both sides and either side to move, over the positions of whole games.
TEST(Race, HighestRouteIsTheRearmostCheckersRoute) {
  Rng rng(8);
  int positions = 0, below_13 = 0;
  for (testing::Policy policy : testing::kAllPolicies) {
    for (const Position& pos : testing::game_positions(rng, Rules{}, policy)) {
      for (const Position& p : {pos, pos.with_side_to_move(~pos.side_to_move())}) {
        for (Side s : {Side::White, Side::Black}) {
          int expected = 0;
          for (int r = 1; r <= kNumPoints; ++r)
            if (p.count(s, r) > 0) expected = r;
          ASSERT_EQ(highest_route(p, s), expected) << format_pos(p);
          below_13 += expected <= 12;
        }
      }
      ++positions;
    }
  }
  EXPECT_GT(positions, 200);
  EXPECT_GT(below_13, 20);  // races and bear-offs were met, not only the opening
  EXPECT_EQ(highest_route(race_position({}, {15}), Side::White), 0);
}

// is_race reads the mover's board directly; the definition is by highest_route. They agree on
// every position of seeded random games, from either side to move.
TEST(Race, AgreesWithHighestRoutesAlongRandomGames) {
  const Rules rules;
  uint64_t state = 12345;
  auto next = [&](uint64_t n) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return (state >> 33) % n;
  };
  int races = 0, positions = 0;
  MoveList moves;
  for (int game = 0; game < 40; ++game) {
    Position pos = Position::start();
    while (!game_outcome(pos, rules)) {
      for (const Position& p : {pos, pos.with_side_to_move(~pos.side_to_move())}) {
        const bool finished =
            p.off(Side::White) == kNumCheckers || p.off(Side::Black) == kNumCheckers;
        const bool expected =
            !finished && highest_route(p, Side::White) <= 12 && highest_route(p, Side::Black) <= 12;
        ASSERT_EQ(is_race(p), expected) << format_pos(p);
        races += expected;
        ++positions;
      }
      const Dice dice{static_cast<uint8_t>(1 + next(6)), static_cast<uint8_t>(1 + next(6))};
      generate_moves(pos, dice, rules, moves);
      pos = moves[next(moves.size())].position;
    }
  }
  EXPECT_GT(races, 100);
  EXPECT_GT(positions, 2000);
}

// ---- Brute force: one side alone, memoised by arrangement, from the engine's moves ----

struct Dist {
  std::map<int, double> p;
  double mean() const {
    double m = 0;
    for (auto [t, q] : p) m += t * q;
    return m;
  }
};

class BruteForce {
 public:
  explicit BruteForce(int points) : points_(points) {}
  // Turns to finish (first_off = false) or to the first checker off, minimising the expectation.
  const Dist& solve(const std::vector<int>& counts, bool first_off) {
    auto key = std::make_pair(counts, first_off);
    if (auto it = memo_.find(key); it != memo_.end()) return it->second;
    int on = 0;
    for (int c : counts) on += c;
    Dist d;
    if (on == 0 || (first_off && on < 15)) {
      d.p[0] = 1;
      return memo_[key] = d;
    }
    // Black waits on its route 1 (point 13), out of White's way (a race).
    const Position pos = race_position(counts, {15});
    for (const auto& wr : kDistinctRolls) {
      const MoveList moves = legal_moves(pos, wr.dice, Rules{});
      const Dist* best = nullptr;
      for (const auto& m : moves) {
        std::vector<int> c(static_cast<size_t>(points_));
        for (int r = 1; r <= points_; ++r) {
          c[static_cast<size_t>(r - 1)] = m.position.count(Side::White, r);
        }
        const Dist& child = solve(c, first_off);
        if (!best || child.mean() < best->mean() - 1e-12) best = &child;
      }
      for (auto [t, q] : best->p) d.p[t + 1] += q * wr.weight36 / 36.0;
    }
    return memo_[key] = d;
  }

 private:
  int points_;
  std::map<std::pair<std::vector<int>, bool>, Dist> memo_;
};

void expect_same(const TurnDistribution& table, const Dist& brute, const std::string& what) {
  double sum = 0;
  for (int t = 0; t <= std::max(table.last(), brute.p.empty() ? 0 : brute.p.rbegin()->first); ++t) {
    const double b = brute.p.count(t) ? brute.p.at(t) : 0.0;
    ASSERT_NEAR(table.probability(t), b, 2e-6) << what << " t=" << t;
    sum += table.probability(t);
  }
  EXPECT_NEAR(sum, 1.0, 1e-5) << what;
}

// index_of reads the mover's board directly: the rank of the side's counts by count(), or none
// when a checker is beyond the table's points, for both sides and either side to move (whole
// games, and every 3-point arrangement of White against a few of Black's).
TEST(BearoffTable, IndexOfIsTheRankOfTheSidesCounts) {
  const BearoffTable table = BearoffTable::build(3);
  std::vector<Position> positions;
  Rng rng(9);
  for (testing::Policy policy : testing::kAllPolicies)
    for (const Position& pos : testing::game_positions(rng, Rules{}, policy))
      positions.push_back(pos);
  for (uint32_t i = 0; i < table.size(); i += 7) {
    const Arrangement a = table.index().unrank(i);
    positions.push_back(race_position({a[0], a[1], a[2]}, {1, 0, 2, 0, 1}));
  }
  int indexed = 0;
  for (const Position& pos : positions) {
    for (const Position& p : {pos, pos.with_side_to_move(~pos.side_to_move())}) {
      for (Side s : {Side::White, Side::Black}) {
        Arrangement a{};
        bool beyond = false;
        for (int r = 1; r <= kNumPoints; ++r) {
          const int c = p.count(s, r);
          if (c > 0 && r > table.points()) beyond = true;
          if (c > 0 && r <= table.points()) a[static_cast<size_t>(r - 1)] = static_cast<uint8_t>(c);
        }
        const std::optional<uint32_t> expected =
            beyond ? std::nullopt : std::optional<uint32_t>(table.index().rank(a));
        ASSERT_EQ(table.index_of(p, s), expected)
            << format_pos(p) << (s == Side::White ? " White" : " Black");
        indexed += expected.has_value();
      }
    }
  }
  EXPECT_GT(indexed, 200);
}

TEST(BearoffTable, MatchesBruteForceExpectimaxOnThreePoints) {
  // Every arrangement of up to 15 checkers on the last 3 points (816), both distributions,
  // against a memoised recursion over the engine's legal moves keyed by arrangement.
  const BearoffTable table = BearoffTable::build(3);
  BruteForce brute(3);
  for (uint32_t i = 0; i < table.size(); ++i) {
    const Arrangement a = table.index().unrank(i);
    const std::vector<int> c = {a[0], a[1], a[2]};
    const std::string name =
        std::to_string(c[0]) + "," + std::to_string(c[1]) + "," + std::to_string(c[2]);
    expect_same(table.finish(i), brute.solve(c, false), "finish " + name);
    expect_same(table.first_off(i), brute.solve(c, true), "first off " + name);
  }
}

// ---- The file format ----

class TableFile : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = (std::filesystem::temp_directory_path() /
             ("nardy_bearoff_test_" + std::to_string(::getpid()) + ".nbt"))
                .string();
  }
  void TearDown() override { std::filesystem::remove(path_); }
  std::string path_;
};

TEST_F(TableFile, RoundTripsAndRejectsDamage) {
  const BearoffTable table = BearoffTable::build(4);
  table.save(path_);
  const BearoffTable back = BearoffTable::load(path_);
  ASSERT_EQ(back.points(), 4);
  ASSERT_EQ(back.size(), table.size());
  EXPECT_EQ(back.checksum(), table.checksum());
  for (uint32_t i = 0; i < table.size(); i += 7) {
    EXPECT_EQ(back.finish(i).first, table.finish(i).first);
    ASSERT_EQ(back.finish(i).p.size(), table.finish(i).p.size());
    for (size_t k = 0; k < table.finish(i).p.size(); ++k)
      EXPECT_EQ(back.finish(i).p[k], table.finish(i).p[k]);
  }
  auto expect_error = [&](const std::string& needle) {
    try {
      BearoffTable::load(path_);
      FAIL() << "no error, expected '" << needle << "'";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find(path_), std::string::npos) << e.what();
    }
  };
  const auto size = std::filesystem::file_size(path_);
  {  // one flipped bit in the data
    std::fstream f(path_, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(static_cast<std::streamoff>(size - 5));
    f.put('\x5a');
  }
  expect_error("checksum");
  table.save(path_);
  std::filesystem::resize_file(path_, size - 4);
  expect_error("truncated");
  {
    std::ofstream f(path_, std::ios::binary | std::ios::trunc);
    f << "not a table at all, just some text here";
  }
  expect_error("magic");
  std::filesystem::remove(path_);
  expect_error("cannot open");
}

// ---- Odds against a two-sided brute force of the real game ----

// The mover's expected points in a race, both sides maximising their own equity, from the
// engine's moves and game ends (including Black's extra turn under last_roll_draw).
class GameBruteForce {
 public:
  explicit GameBruteForce(const Rules& rules) : rules_(rules) {}
  double equity(const Position& pos) {
    if (auto o = game_outcome(pos, rules_)) return o->points_for(pos.side_to_move());
    if (auto it = memo_.find(pos.hash()); it != memo_.end()) return it->second;
    double v = 0;
    for (const auto& wr : kDistinctRolls) {
      double best = -std::numeric_limits<double>::infinity();
      for (const auto& m : legal_moves(pos, wr.dice, rules_))
        best = std::max(best, -equity(m.position));
      v += best * wr.weight36 / 36.0;
    }
    return memo_[pos.hash()] = v;
  }

 private:
  Rules rules_;
  std::map<uint64_t, double> memo_;
};

TEST(RaceOdds, MatchTwoSidedBruteForce) {
  const BearoffTable table = BearoffTable::build(3);
  for (bool draw_rule : {false, true}) {
    Rules rules;
    rules.last_roll_draw = draw_rule;
    GameBruteForce brute(rules);
    const std::vector<std::pair<std::vector<int>, std::vector<int>>> cases = {
        {{1, 1}, {0, 2}},
        {{0, 0, 3}, {2, 1, 1}},
        {{4, 0, 1}, {0, 3}},
        {{0, 1, 2}, {1, 0, 2}},
        // 15 checkers a side (on two points, to keep the brute force small): mars is possible.
        {{0, 15}, {0, 15}},
        {{7, 8}, {3, 12}},
        {{0, 15}, {15}}};
    for (const auto& [w, b] : cases) {
      for (Side s : {Side::White, Side::Black}) {
        const Position pos = race_position(w, b, s);
        ASSERT_TRUE(table.covers(pos)) << format_pos(pos);
        const RaceOdds o = *race_odds(table, pos, rules);
        EXPECT_NEAR(o.win + o.draw + o.lose(), 1.0, 1e-9);
        EXPECT_LE(o.win_mars, o.win + 1e-12);
        EXPECT_NEAR(o.equity(), brute.equity(pos), 2e-3)
            << format_pos(pos) << " last_roll_draw=" << draw_rule;
        if (!draw_rule) {
          EXPECT_EQ(o.draw, 0.0);
        }
      }
    }
  }
}

TEST(RaceOdds, KnownValues) {
  // One checker each on route 1: the mover bears off at once and wins.
  const BearoffTable table = BearoffTable::build(2);
  const RaceOdds o = *race_odds(table, race_position({1}, {1}), Rules{});
  EXPECT_DOUBLE_EQ(o.win, 1.0);
  EXPECT_DOUBLE_EQ(o.win_mars, 0.0);
  // Under last_roll_draw White's win gives Black its last turn, which also bears off: a draw.
  Rules r;
  r.last_roll_draw = true;
  const RaceOdds d = *race_odds(table, race_position({1}, {1}), r);
  EXPECT_NEAR(d.draw, 1.0, 1e-9);
  const RaceOdds bl = *race_odds(table, race_position({1}, {1}, Side::Black), r);
  EXPECT_NEAR(bl.win, 1.0, 1e-9);  // Black finishes first: no extra turn for White
  // Not covered: contact, or checkers beyond the table's points.
  EXPECT_FALSE(race_odds(table, Position::start(), Rules{}));
  EXPECT_FALSE(race_odds(table, race_position({0, 0, 1}, {1}), Rules{}));
}

}  // namespace
}  // namespace nardy
