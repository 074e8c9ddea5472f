// Entering a move one checker step at a time (core/move_builder.h): orders of play, errors,
// and that every legal result of many positions and rolls can be clicked to completion.
#include "core/move_builder.h"

#include <gtest/gtest.h>

#include <cstdio>

#include "core/error.h"
#include "core/notation.h"
#include "core/pos_text.h"
#include "tests/support/error_of.h"
#include "tests/support/position_sampler.h"

namespace nardy {
namespace {

const Position kStart = Position::start();

bool has_step(const MoveInProgress& m, CheckerStep s) {
  for (const auto& c : m.next)
    if (c == s) return true;
  return false;
}

TEST(MoveBuilder, StartSixFiveEitherOrderEndsIn24To13) {
  const Dice d{6, 5};
  const MoveInProgress m0 = build_move(kStart, d, {}, {});
  // Only one checker may leave the head (docs/rules.md rule 3): 24/18 with the 6 or 24/19 with
  // the 5; nothing else is on the board.
  ASSERT_EQ(m0.next.size(), 2u);
  EXPECT_TRUE(has_step(m0, {24, 18, 6}));
  EXPECT_TRUE(has_step(m0, {24, 19, 5}));
  EXPECT_FALSE(m0.complete);
  ASSERT_EQ(m0.results.size(), 1u);

  const MoveInProgress a = build_move(kStart, d, {}, {{24, 18, 0}, {18, 13, 0}});
  const MoveInProgress b = build_move(kStart, d, {}, {{24, 19, 5}, {19, 13, 6}});
  ASSERT_TRUE(a.complete && b.complete);
  EXPECT_EQ(format_move(a.results[*a.complete].move), "24/13");
  EXPECT_EQ(a.complete, b.complete);
  EXPECT_TRUE(a.dice_left.empty());
  EXPECT_EQ(a.board.at_point(13), 1);
  EXPECT_EQ(a.board.side_to_move(), Side::White);  // the mover, until the move is sent

  // After 24/18 the head is used up: the 5 must move the checker on 18.
  const MoveInProgress half = build_move(kStart, d, {}, {{24, 18, 6}});
  ASSERT_EQ(half.next.size(), 1u);
  EXPECT_EQ(half.next[0], (CheckerStep{18, 13, 5}));
  EXPECT_EQ(half.dice_left, std::vector<int>{5});
}

TEST(MoveBuilder, RejectsAStepThatMayNotBePlayedNamingIt) {
  const std::string e = testing::error_of([] {
    build_move(kStart, {6, 5}, {}, {{24, 18, 0}, {24, 19, 0}});
  });
  EXPECT_NE(e.find("step 2 '24/19'"), std::string::npos) << e;
  EXPECT_NE(e.find("allowed: 18/13:5"), std::string::npos) << e;
  // A step the dice do not give.
  EXPECT_THROW(build_move(kStart, {6, 5}, {}, {{24, 20, 0}}), Error);
  // A wrong die for the points.
  EXPECT_THROW(build_move(kStart, {6, 5}, {}, {{24, 18, 5}}), Error);
}

TEST(MoveBuilder, BearingOffPicksTheSmallestDieThatWorks) {
  // docs/rules.md "Checks anyone can do by hand": White home 1:1 2:1 3:1 4:2 5:2 6:2.
  const Position p = parse_pos("1,1,1,2,2,2,0,0,0,0,0,0,-3,-3,-3,-2,-2,-2,0,0,0,0,0,0 w");
  const MoveInProgress m = build_move(p, {6, 5}, {}, {{6, 0, 0}, {5, 0, 0}});
  ASSERT_TRUE(m.complete);
  EXPECT_EQ(format_move(m.results[*m.complete].move), "6/off 5/off");
  EXPECT_EQ(m.board.off(Side::White), 8);
  // 4/off with the 5 is not allowed while 5 and 6 hold checkers (rule 5).
  EXPECT_THROW(build_move(p, {6, 5}, {}, {{4, 0, 5}}), Error);
}

TEST(MoveBuilder, APassIsCompleteWithoutSteps) {
  // White's last checker on 24 faces Black's points 18 and 19 (a 6-5 blocks it), nothing else.
  std::array<int, kNumPoints> pts{};
  pts[23] = 1;
  pts[17] = -1;
  pts[18] = -1;
  pts[11] = -13;
  const Position p = Position::from_points(pts, Side::White);
  ASSERT_TRUE(p.is_ok());
  const MoveInProgress m = build_move(p, {6, 5}, {}, {});
  ASSERT_EQ(m.results.size(), 1u);
  EXPECT_EQ(m.results[0].move.num_steps, 0);
  EXPECT_TRUE(m.next.empty());
  ASSERT_TRUE(m.complete);
  EXPECT_EQ(*m.complete, 0u);
}

TEST(MoveBuilder, ParsesAndFormatsSteps) {
  const auto s = parse_checker_steps("24/18:6, 6/off 3/0:5");
  ASSERT_EQ(s.size(), 3u);
  EXPECT_EQ(s[0], (CheckerStep{24, 18, 6}));
  EXPECT_EQ(s[1], (CheckerStep{6, 0, 0}));
  EXPECT_EQ(s[2], (CheckerStep{3, 0, 5}));
  EXPECT_EQ(format_checker_step(s[0]), "24/18:6");
  EXPECT_EQ(format_checker_step(s[1]), "6/off");
  EXPECT_TRUE(parse_checker_steps("").empty());
  for (const char* bad : {"24", "24/x", "25/18", "24/18:7", "a/b", "1/2,1/2,1/2,1/2,1/2"})
    EXPECT_THROW(parse_checker_steps(bad), Error) << bad;
}

// Every legal result of sampled positions and all 21 rolls can be entered step by step, and
// entering steps never completes anything but a legal result.
TEST(MoveBuilder, EveryLegalResultCanBeClickedToCompletion) {
  Rng rng(7);
  int positions = 0, results = 0;
  for (auto policy : testing::kAllPolicies) {
    const auto game = testing::game_positions(rng, Rules{}, policy);
    for (size_t g = 0; g < game.size(); g += 40) {
      const Position& pos = game[g];
      ++positions;
      for (const auto& wr : kDistinctRolls) {
        const MoveInProgress root = build_move(pos, wr.dice, {}, {});
        ASSERT_EQ(root.reachable.size(), root.results.size()) << format_pos(pos);
        for (size_t target = 0; target < root.results.size(); ++target) {
          std::vector<CheckerStep> steps;
          MoveInProgress m = root;
          while (m.complete != target) {
            ASSERT_FALSE(m.next.empty()) << format_pos(pos) << " " << format_dice(wr.dice);
            bool advanced = false;
            for (const CheckerStep& c : m.next) {
              steps.push_back(c);
              MoveInProgress child = build_move(pos, wr.dice, {}, steps);
              if (std::binary_search(child.reachable.begin(), child.reachable.end(), target)) {
                m = std::move(child);
                advanced = true;
                break;
              }
              steps.pop_back();
            }
            ASSERT_TRUE(advanced) << format_pos(pos) << " " << format_dice(wr.dice);
          }
          EXPECT_EQ(m.board.with_side_to_move(~pos.side_to_move()), root.results[target].position);
          ++results;
        }
      }
    }
  }
  std::printf("%d positions, %d results\n", positions, results);
  EXPECT_GT(positions, 6);
  EXPECT_GT(results, 500);
}

}  // namespace
}  // namespace nardy
