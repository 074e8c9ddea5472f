// The fast move generator (core/movegen.cpp) against the deliberately simple reference
// (tests/support/reference_movegen.cpp) on many sampled positions: the sets of resulting
// positions must be equal, and every fast result's recorded steps must lead to its position.
//
// Sources (over 100,000 positions in all, fixed seeds):
//  * positions met in games from the start under every rule combination that matters to move
//    generation or to how games end, played uniformly at random, racing, building blocks, or
//    mixing the three; each compared with a fresh random roll (doubles included);
//  * scattered positions by theme (anything, bearing off with opposing checkers in the home,
//    all on the head, a run next to a free point), each under every head_exception variant;
//  * all 21 rolls on a smaller set of positions, and on every bear-off endgame with the
//    mover's last 1..3 checkers on its last ten points and up to two opposing checkers in its
//    home (8,118 positions, both colours); and every all-on-the-head position with one or two
//    opposing checkers off their head, every double under every head_exception variant.
// Each test prints which rules its sample exercised (ReferenceNotes) and the endgame test
// asserts that the larger-die rule, overshoot refusals and game ends all occur.
#include <gtest/gtest.h>

#include <set>
#include <sstream>
#include <string>

#include "core/movegen.h"
#include "core/notation.h"
#include "core/pos_text.h"
#include "tests/support/position_sampler.h"
#include "tests/support/reference_movegen.h"

namespace nardy::testing {
namespace {

std::string describe(const std::vector<Position>& v) {
  std::string s;
  for (const Position& p : v) s += "    " + format_pos(p) + "\n";
  return s;
}

// Plays the steps of a fast result on the mover's board (no legality check): they must lead to
// the result's position.
Position replay_steps(const Position& pos, const Move& move) {
  std::array<int8_t, kNumPoints> b = pos.mover_board();
  for (int i = 0; i < move.num_steps; ++i) {
    --b[move.steps[i].from - 1];
    if (move.steps[i].to > 0) ++b[move.steps[i].to - 1];
  }
  return Position::from_mover_board(b, pos.side_to_move()).with_side_to_move(~pos.side_to_move());
}

::testing::AssertionResult matches_reference(const Position& pos, Dice dice, const Rules& rules,
                                             ReferenceNotes* notes = nullptr) {
  MoveList fast = legal_moves(pos, dice, rules);
  std::vector<Position> fast_positions;
  for (const MoveResult& m : fast) {
    fast_positions.push_back(m.position);
    Position replayed = replay_steps(pos, m.move);
    if (!(replayed == m.position))
      return ::testing::AssertionFailure()
             << "steps '" << format_move(m.move) << "' do not lead to " << format_pos(m.position)
             << " from " << format_pos(pos) << " with " << format_dice(dice);
  }
  std::vector<Position> ref = reference_results(pos, dice, rules, notes);
  auto key = [](const Position& a, const Position& b) { return a.points() < b.points(); };
  std::sort(fast_positions.begin(), fast_positions.end(), key);
  if (fast_positions == ref) return ::testing::AssertionSuccess();
  std::vector<Position> only_fast, only_ref;
  std::set_difference(fast_positions.begin(), fast_positions.end(), ref.begin(), ref.end(),
                      std::back_inserter(only_fast), key);
  std::set_difference(ref.begin(), ref.end(), fast_positions.begin(), fast_positions.end(),
                      std::back_inserter(only_ref), key);
  return ::testing::AssertionFailure()
         << "\n  position " << format_pos(pos) << "  dice " << format_dice(dice) << "  rules "
         << rules.to_string() << "\n  fast " << fast_positions.size() << " results, reference "
         << ref.size() << (fast_positions.size() != fast.size() ? " (fast has duplicates)" : "")
         << "\n  only fast:\n"
         << describe(only_fast) << "  only reference:\n"
         << describe(only_ref);
}

void print_notes(const ReferenceNotes& n) {
  std::printf(
      "rules exercised: head stops %ld, head exception %ld, block stops %ld, allowed blocks %ld, "
      "closed points %ld, exact bear-offs %ld, overshoot bear-offs %ld, overshoot stops %ld, "
      "game ends %ld, partial %ld, larger die only %ld, smaller die only %ld, passes %ld\n",
      n.head_rule_stops, n.head_exception, n.block_stops, n.allowed_blocks, n.closed_point_stops,
      n.exact_bear_offs, n.overshoot_bear_offs, n.overshoot_stops, n.game_ends, n.partial,
      n.larger_die_only, n.smaller_die_only, n.passes);
}

// Stops a test after a few reported mismatches so one bug does not print thousands.
constexpr int kMaxFailures = 5;

struct GameCase {
  HeadException head;
  Opening opening;
  bool last_roll_draw;
};

std::string case_name(const ::testing::TestParamInfo<GameCase>& info) {
  Rules r;
  r.head_exception = info.param.head;
  r.opening = info.param.opening;
  r.last_roll_draw = info.param.last_roll_draw;
  std::string s =
      r.get("head_exception") + "_" + r.get("opening") + (info.param.last_roll_draw ? "_lrd" : "");
  return s;
}

class GamePositions : public ::testing::TestWithParam<GameCase> {};

// 12 rule combinations x 4 policies x 1,800 positions = 86,400 positions.
TEST_P(GamePositions, FastEqualsReference) {
  Rules rules;
  rules.head_exception = GetParam().head;
  rules.opening = GetParam().opening;
  rules.last_roll_draw = GetParam().last_roll_draw;
  constexpr int kPerPolicy = 1800;
  int failures = 0, compared = 0;
  ReferenceNotes notes;
  for (Policy policy : kAllPolicies) {
    Rng rng(1000 + 17 * static_cast<int>(policy) + 101 * static_cast<int>(rules.head_exception) +
            7 * static_cast<int>(rules.opening) + (rules.last_roll_draw ? 3 : 0));
    int n = 0;
    while (n < kPerPolicy && failures < kMaxFailures) {
      std::vector<Position> game = game_positions(rng, rules, policy);
      for (const Position& pos : game) {
        if (n >= kPerPolicy || failures >= kMaxFailures) break;
        // Every position of the game's first turns (head rule, opening), then a sample.
        if (n > 40 && rng.below(3) != 0 && &pos != &game.front()) continue;
        Dice dice = random_dice(rng);
        auto r = matches_reference(pos, dice, rules, &notes);
        EXPECT_TRUE(r);
        failures += !r;
        ++n;
        ++compared;
      }
    }
  }
  EXPECT_GE(compared, failures ? 0 : 4 * kPerPolicy);
  print_notes(notes);
}

INSTANTIATE_TEST_SUITE_P(
    AllRules, GamePositions,
    ::testing::Values(GameCase{HeadException::Standard, Opening::NoDoubles, false},
                      GameCase{HeadException::Standard, Opening::AnyRoll, false},
                      GameCase{HeadException::Strict, Opening::NoDoubles, false},
                      GameCase{HeadException::Strict, Opening::AnyRoll, false},
                      GameCase{HeadException::None, Opening::NoDoubles, false},
                      GameCase{HeadException::None, Opening::AnyRoll, false},
                      GameCase{HeadException::Standard, Opening::NoDoubles, true},
                      GameCase{HeadException::Standard, Opening::AnyRoll, true},
                      GameCase{HeadException::Strict, Opening::NoDoubles, true},
                      GameCase{HeadException::Strict, Opening::AnyRoll, true},
                      GameCase{HeadException::None, Opening::NoDoubles, true},
                      GameCase{HeadException::None, Opening::AnyRoll, true}),
    case_name);

class ScatteredPositions : public ::testing::TestWithParam<Scatter> {};

// 4 themes x 4,000 positions, each under all three head_exception variants.
TEST_P(ScatteredPositions, FastEqualsReferenceUnderEveryHeadVariant) {
  constexpr int kPositions = 4000;
  Rng rng(77 + static_cast<int>(GetParam()));
  int failures = 0;
  ReferenceNotes notes;
  for (int i = 0; i < kPositions && failures < kMaxFailures; ++i) {
    Position pos = scattered_position(rng, GetParam());
    Dice dice = random_dice(rng);
    // The head exception needs its doubles: give them to head positions often.
    if (GetParam() == Scatter::Head && rng.below(2)) {
      static constexpr uint8_t kExceptionDoubles[] = {3, 4, 6};
      uint8_t d = kExceptionDoubles[rng.below(3)];
      dice = Dice{d, d};
    }
    for (HeadException head :
         {HeadException::Standard, HeadException::Strict, HeadException::None}) {
      Rules rules;
      rules.head_exception = head;
      auto r = matches_reference(pos, dice, rules, &notes);
      EXPECT_TRUE(r);
      failures += !r;
    }
  }
  print_notes(notes);
}

std::string theme_name(const ::testing::TestParamInfo<Scatter>& info) {
  static const char* kNames[] = {"Any", "BearOff", "Head", "Blocks"};
  return kNames[static_cast<int>(info.param)];
}

INSTANTIATE_TEST_SUITE_P(Themes, ScatteredPositions, ::testing::ValuesIn(kAllScatters), theme_name);

// Every one of the 21 rolls on 400 positions of mixed origin.
TEST(AllRolls, FastEqualsReferenceForEveryRoll) {
  Rng rng(4242);
  Rules rules;
  int failures = 0;
  for (int i = 0; i < 400 && failures < kMaxFailures; ++i) {
    Position pos = scattered_position(rng, kAllScatters[i % 4]);
    for (const WeightedRoll& roll : kDistinctRolls) {
      auto r = matches_reference(pos, roll.dice, rules);
      EXPECT_TRUE(r);
      failures += !r;
    }
  }
}

// Exhaustive bear-off endgames: the mover's last 1..3 checkers anywhere on its last ten points,
// 0..2 opposing checkers closing points of the mover's home (the rest on the opponent's head),
// either colour to move, every one of the 21 rolls.
TEST(BearOffEndgames, FastEqualsReferenceExhaustively) {
  const Rules rules;
  ReferenceNotes notes;
  int failures = 0, positions = 0;
  for (Side me : {Side::White, Side::Black}) {
    const auto& route = reference_route(me);
    const auto& opp_route = reference_route(~me);
    std::vector<std::vector<int>> mine;  // multisets of route indices 14..23
    for (int a = 14; a < 24; ++a) {
      mine.push_back({a});
      for (int b = a; b < 24; ++b) {
        mine.push_back({a, b});
        for (int c = b; c < 24; ++c) mine.push_back({a, b, c});
      }
    }
    std::vector<std::vector<int>> closers = {
        {}};  // points of the mover's home held by the opponent
    for (int x = 18; x < 24; ++x) {
      closers.push_back({route[x]});
      for (int y = x + 1; y < 24; ++y) closers.push_back({route[x], route[y]});
    }
    for (const auto& m : mine) {
      for (const auto& c : closers) {
        std::array<int, kNumPoints> points{};
        const int sign = me == Side::White ? 1 : -1;
        bool clash = false;
        for (int i : m) points[route[i] - 1] += sign;
        for (int p : c) {
          clash = clash || points[p - 1] != 0;
          points[p - 1] -= sign;
        }
        const int head = opp_route[0];
        clash = clash || points[head - 1] * sign > 0;
        if (clash) continue;
        points[head - 1] -= sign * (kNumCheckers - static_cast<int>(c.size()));
        Position pos = Position::from_points(points, me);
        if (!pos.is_ok()) continue;
        ++positions;
        for (const WeightedRoll& roll : kDistinctRolls) {
          auto r = matches_reference(pos, roll.dice, rules, &notes);
          EXPECT_TRUE(r);
          failures += !r;
          if (failures >= kMaxFailures) return;
        }
      }
    }
  }
  print_notes(notes);
  EXPECT_GT(positions, 8000);  // 8,118 positions x 21 rolls
  EXPECT_GT(notes.larger_die_only, 0);
  EXPECT_GT(notes.overshoot_stops, 0);
  EXPECT_GT(notes.game_ends, 0);
}

// Exhaustive first-turn-like positions: the mover's 15 on its head, the opponent's on its own
// head except one or two checkers anywhere else, either colour to move, every double under
// every head_exception variant (where the exception and the strict reading decide).
TEST(HeadPositions, FastEqualsReferenceExhaustively) {
  ReferenceNotes notes;
  int failures = 0, positions = 0;
  for (Side me : {Side::White, Side::Black}) {
    const int my_head = reference_route(me)[0], opp_head = reference_route(~me)[0];
    const int sign = me == Side::White ? 1 : -1;
    for (int p = 1; p <= kNumPoints; ++p) {
      for (int q = p; q <= kNumPoints; ++q) {
        if (p == my_head || q == my_head) continue;
        std::array<int, kNumPoints> points{};
        points[my_head - 1] = sign * kNumCheckers;
        points[p - 1] -= sign;
        points[q - 1] -= sign;
        points[opp_head - 1] -= sign * (kNumCheckers - 2);
        Position pos = Position::from_points(points, me);
        if (!pos.is_ok()) continue;
        ++positions;
        for (int d = 1; d <= 6; ++d) {
          for (HeadException head :
               {HeadException::Standard, HeadException::Strict, HeadException::None}) {
            Rules rules;
            rules.head_exception = head;
            Dice dice{static_cast<uint8_t>(d), static_cast<uint8_t>(d)};
            auto r = matches_reference(pos, dice, rules, &notes);
            EXPECT_TRUE(r);
            failures += !r;
            if (failures >= kMaxFailures) return;
          }
        }
      }
    }
  }
  print_notes(notes);
  EXPECT_GT(positions, 500);
  EXPECT_GT(notes.head_exception, 1000);
}

// The head allowance itself, on all-on-head positions, under every variant.
TEST(HeadAllowance, FastEqualsReference) {
  Rng rng(99);
  for (int i = 0; i < 3000; ++i) {
    Position pos = scattered_position(rng, Scatter::Head);
    Dice dice = random_dice(rng);
    if (rng.below(2)) {
      uint8_t d = static_cast<uint8_t>(3 + rng.below(4));
      dice = Dice{d, d};
    }
    for (HeadException head :
         {HeadException::Standard, HeadException::Strict, HeadException::None}) {
      Rules rules;
      rules.head_exception = head;
      ASSERT_EQ(head_allowance(pos, dice, rules), reference_head_allowance(pos, dice, rules))
          << format_pos(pos) << " " << format_dice(dice) << " " << rules.to_string();
    }
  }
}

// The six-block check of Position::validation_error against the reference's naive scan, on
// boards built around runs of 5..7 points with the opposing checkers behind, past or off.
TEST(SixBlock, ValidationAgreesWithReferenceScan) {
  Rng rng(5);
  int forbidden = 0, allowed = 0;
  for (int i = 0; i < 20000; ++i) {
    std::array<int, kNumPoints> points{};
    int placed[2] = {0, 0};
    auto put = [&](Side s, int p) {
      int sign = s == Side::White ? 1 : -1;
      if (points[p - 1] * sign < 0 || placed[index_of(s)] >= kNumCheckers) return;
      points[p - 1] += sign;
      ++placed[index_of(s)];
    };
    const Side blocker = rng.below(2) ? Side::Black : Side::White;
    const auto& opp_route = reference_route(~blocker);
    const int len = 5 + static_cast<int>(rng.below(3));
    const int first = static_cast<int>(rng.below(kNumPoints - len + 1));
    for (int k = 0; k < len; ++k) put(blocker, opp_route[first + k]);
    // The opponent: all 15 behind the block (some may end up past it when the points behind
    // are taken), sometimes one past it, sometimes fewer than 15 (some borne off).
    const int opponents = rng.below(4) ? kNumCheckers : static_cast<int>(rng.below(15));
    if (rng.below(3) == 0 && first + len < kNumPoints)
      put(~blocker, opp_route[first + len + static_cast<int>(rng.below(kNumPoints - first - len))]);
    for (int tries = 0; placed[index_of(~blocker)] < opponents && tries < 100; ++tries)
      put(~blocker, opp_route[first > 0 && tries < 60 ? rng.below(first) : rng.below(kNumPoints)]);
    for (int k = 0; k < 8; ++k) put(blocker, 1 + static_cast<int>(rng.below(24)));
    Position pos = Position::from_points(points, rng.below(2) ? Side::Black : Side::White);
    bool ref = reference_has_forbidden_block(pos, Side::White) ||
               reference_has_forbidden_block(pos, Side::Black);
    forbidden += ref;
    allowed += !ref;
    ASSERT_EQ(pos.validation_error().has_value(), ref) << format_pos(pos);
  }
  // The sample does exercise both answers.
  EXPECT_GT(forbidden, 1000);
  EXPECT_GT(allowed, 1000);
}

}  // namespace
}  // namespace nardy::testing
