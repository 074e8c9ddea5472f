// docs/rules.md "A turn", rule 4 (the six-block rule) as Given/When/Then scenarios: blocks along
// the opponent's route (with White's 1/24 seam and Black's 13/12 adjacency), before and after
// an opposing checker passes, checked after every single step, each six-run separately.
#include <gtest/gtest.h>

#include "core/movegen.h"
#include "core/pos_text.h"
#include "core/error.h"
#include "core/random.h"
#include "tests/support/scenario.h"

namespace nardy::testing {
namespace {

// Given White on 10-9-8-7-6 and a spare on 13, every Black checker on its head (none past):
//  13  14  15  16  17  18  |  19  20  21  22  23  24
//  W1   .   .   .   .   .  |   .   .   .   .   .  W9
//  --------------------------------------------------
// B15   .  W1  W1  W1  W1  |  W1   .   .   .   .   .
//  12  11  10   9   8   7  |   6   5   4   3   2   1
//   off: White 0, Black 0
// When White rolls 6-2, Then 13/11 would make 11..6, six points in a row along Black's route
// with no Black checker past them: illegal, in any combination; so is 13/7/5 (10..5).
TEST(SixBlock, ForbiddenWhileNoOpposingCheckerIsPast) {
  Position pos =
      board({{24, 9}, {13, 1}, {10, 1}, {9, 1}, {8, 1}, {7, 1}, {6, 1}}, {{12, 15}}, Side::White);
  EXPECT_FALSE(is_legal(pos, {6, 2}, "13/11 24/18"));
  EXPECT_FALSE(is_legal(pos, {6, 2}, "13/5"));
  EXPECT_TRUE(is_legal(pos, {6, 2}, "13/7 24/22"));
  for (const MoveResult& m : legal_moves(pos, {6, 2}, {}))
    EXPECT_TRUE(m.position.is_ok()) << format_pos(m.position);
}

// Given the same White checkers and one Black checker on 5, already past point 6 on its route:
//  13  14  15  16  17  18  |  19  20  21  22  23  24
//  W1   .   .   .   .   .  |   .   .   .   .   .  W9
//  --------------------------------------------------
// B14   .  W1  W1  W1  W1  |  W1  B1   .   .   .   .
//  12  11  10   9   8   7  |   6   5   4   3   2   1
//   off: White 0, Black 0
// When White rolls 6-2, Then 13/11 makes the same six points, now allowed.
TEST(SixBlock, AllowedOnceAnOpposingCheckerIsPast) {
  Position pos = board({{24, 9}, {13, 1}, {10, 1}, {9, 1}, {8, 1}, {7, 1}, {6, 1}},
                       {{12, 14}, {5, 1}}, Side::White);
  EXPECT_TRUE(is_legal(pos, {6, 2}, "13/11 24/18"));
}

// Given the same White checkers, Black with 14 on its head and one borne off:
//  13  14  15  16  17  18  |  19  20  21  22  23  24
//  W1   .   .   .   .   .  |   .   .   .   .   .  W9
//  --------------------------------------------------
// B14   .  W1  W1  W1  W1  |  W1   .   .   .   .   .
//  12  11  10   9   8   7  |   6   5   4   3   2   1
//   off: White 0, Black 1
// When White rolls 6-2, Then the block is allowed: a borne-off checker counts as past it.
TEST(SixBlock, AllowedOnceAnOpposingCheckerIsBorneOff) {
  Position pos =
      board({{24, 9}, {13, 1}, {10, 1}, {9, 1}, {8, 1}, {7, 1}, {6, 1}}, {{12, 14}}, Side::White);
  EXPECT_TRUE(is_legal(pos, {6, 2}, "13/11 24/18"));
}

// Given White on 3-2-1 and 24-23 (Black's route runs ..., 2, 1, 24, 23, ...), Black all on 12:
//  13  14  15  16  17  18  |  19  20  21  22  23  24
//  W1   .   .   .   .   .  |   .  W1   .   .  W1  W9
//  --------------------------------------------------
// B15   .   .   .   .   .  |   .   .   .  W1  W1  W1
//  12  11  10   9   8   7  |   6   5   4   3   2   1
//   off: White 0, Black 0
// When White rolls 2-1, Then 24/22 would complete 3-2-1-24-23-22, a six-block across the seam:
// illegal. The same checker may still reach 21 by way of 23.
TEST(SixBlock, WhiteBlockAcrossTheOneTwentyFourSeam) {
  Position pos =
      board({{24, 9}, {23, 1}, {20, 1}, {13, 1}, {3, 1}, {2, 1}, {1, 1}}, {{12, 15}}, Side::White);
  EXPECT_FALSE(is_legal(pos, {2, 1}, "24/22 20/19"));
  EXPECT_FALSE(is_legal(pos, {2, 1}, "24/22 13/12"));
  EXPECT_TRUE(is_legal(pos, {2, 1}, "24/21"));
  EXPECT_TRUE(is_legal(pos, {2, 1}, "24/23 20/18"));
  // And the finished block is rejected as a position.
  try {
    board({{24, 8}, {23, 1}, {22, 1}, {20, 1}, {13, 1}, {3, 1}, {2, 1}, {1, 1}}, {{12, 15}},
          Side::Black);
    FAIL() << "expected an Error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("White holds a forbidden six-block"), std::string::npos)
        << e.what();
  }
}

// Given the seam position with one Black checker on 18, past 22 along Black's route:
//  13  14  15  16  17  18  |  19  20  21  22  23  24
//  W1   .   .   .   .  B1  |   .  W1   .   .  W1  W9
//  --------------------------------------------------
// B14   .   .   .   .   .  |   .   .   .  W1  W1  W1
//  12  11  10   9   8   7  |   6   5   4   3   2   1
//   off: White 0, Black 0
// When White rolls 2-1, Then 24/22 is allowed.
TEST(SixBlock, SeamBlockAllowedOnceBlackIsPast) {
  Position pos = board({{24, 9}, {23, 1}, {20, 1}, {13, 1}, {3, 1}, {2, 1}, {1, 1}},
                       {{12, 14}, {18, 1}}, Side::White);
  EXPECT_TRUE(is_legal(pos, {2, 1}, "24/22 20/19"));
}

// Given Black on 16-15-14-13 and its head on 12, White all on 24:
//  13  14  15  16  17  18  |  19  20  21  22  23  24
//  B1  B1  B1  B1   .   .  |   .   .   .   .   . W15
//  --------------------------------------------------
// B10   .   .  B1   .   .  |   .   .   .   .   .   .
//  12  11  10   9   8   7  |   6   5   4   3   2   1
//   off: White 0, Black 0
// When Black rolls 2-1, Then 12/11 would make 16..11, six in a row along White's route 24..1
// (13 and 12 are neighbours there, though not on Black's route): illegal.
TEST(SixBlock, BlackBlockAcrossThirteenTwelve) {
  Position pos =
      board({{24, 15}}, {{16, 1}, {15, 1}, {14, 1}, {13, 1}, {12, 10}, {9, 1}}, Side::Black);
  EXPECT_FALSE(is_legal(pos, {2, 1}, "12/11 9/7"));
  EXPECT_TRUE(is_legal(pos, {2, 1}, "12/10 9/8"));
  // 12/11 stays possible once the run is broken first (16/14 12/11).
  EXPECT_TRUE(is_legal(pos, {2, 1}, "16/14 12/11"));
  for (const MoveResult& m : legal_moves(pos, {2, 1}, {}))
    EXPECT_TRUE(m.position.is_ok()) << format_pos(m.position);
}

// Given the same Black checkers and a White checker on 10, past point 11 on White's route:
//  13  14  15  16  17  18  |  19  20  21  22  23  24
//  B1  B1  B1  B1   .   .  |   .   .   .   .   . W14
//  --------------------------------------------------
// B10   .  W1  B1   .   .  |   .   .   .   .   .   .
//  12  11  10   9   8   7  |   6   5   4   3   2   1
//   off: White 0, Black 0
// When Black rolls 2-1, Then 12/11 is allowed.
TEST(SixBlock, BlackBlockAllowedOnceWhiteIsPast) {
  Position pos = board({{24, 14}, {10, 1}}, {{16, 1}, {15, 1}, {14, 1}, {13, 1}, {12, 10}, {9, 1}},
                       Side::Black);
  EXPECT_TRUE(is_legal(pos, {2, 1}, "12/11 9/7"));
}

// Given White on 10-9-8-7-6 with a spare on 13 and Black all on its head:
//  13  14  15  16  17  18  |  19  20  21  22  23  24
//  W1   .   .   .   .   .  |   .   .   .   .   .  W9
//  --------------------------------------------------
// B15   .  W1  W1  W1  W1  |  W1   .   .   .   .   .
//  12  11  10   9   8   7  |   6   5   4   3   2   1
//   off: White 0, Black 0
// When White rolls 2-1, Then 13/11/10 is illegal although it ends without a block: the first
// step makes the forbidden block (and 13/12 is closed by Black's head, so no other order exists).
TEST(SixBlock, CheckedAfterEveryStep) {
  Position pos =
      board({{24, 9}, {13, 1}, {10, 1}, {9, 1}, {8, 1}, {7, 1}, {6, 1}}, {{12, 15}}, Side::White);
  Position target =
      board({{24, 9}, {10, 2}, {9, 1}, {8, 1}, {7, 1}, {6, 1}}, {{12, 15}}, Side::Black);
  EXPECT_TRUE(target.is_ok());
  EXPECT_FALSE(is_legal(pos, {2, 1}, "13/10"));
  for (const MoveResult& m : legal_moves(pos, {2, 1}, {})) EXPECT_NE(m.position, target);
}

// Given White holding 10..5, allowed because Black's checker on 4 is past it, and also 3-2-1,
// 24-23; Black's other checkers on its head:
//  13  14  15  16  17  18  |  19  20  21  22  23  24
//  W1   .   .   .   .   .  |   .   .   .   .  W1  W4
//  --------------------------------------------------
// B14   .  W1  W1  W1  W1  |  W1  W1  B1  W1  W1  W1
//  12  11  10   9   8   7  |   6   5   4   3   2   1
//   off: White 0, Black 0
// When White rolls 2-1, Then 24/22 (making 3..22) is illegal: the Black checker on 4 is past the
// first block but not the second, and each six-run is judged on its own.
TEST(SixBlock, EachSixRunJudgedSeparately) {
  Position pos = board({{24, 4},
                        {23, 1},
                        {13, 1},
                        {10, 1},
                        {9, 1},
                        {8, 1},
                        {7, 1},
                        {6, 1},
                        {5, 1},
                        {3, 1},
                        {2, 1},
                        {1, 1}},
                       {{12, 14}, {4, 1}}, Side::White);
  EXPECT_FALSE(is_legal(pos, {2, 1}, "24/22 10/9"));
  EXPECT_FALSE(is_legal(pos, {2, 1}, "24/22 6/5"));
  EXPECT_TRUE(is_legal(pos, {2, 1}, "24/21"));
  for (const MoveResult& m : legal_moves(pos, {2, 1}, {}))
    EXPECT_TRUE(m.position.is_ok()) << format_pos(m.position);
}

// Given White on 11-10-9-8-7 and 5-4 with a spare on 13, Black all on its head:
//  13  14  15  16  17  18  |  19  20  21  22  23  24
//  W1   .   .   .   .   .  |   .   .   .   .   .  W7
//  --------------------------------------------------
// B15  W1  W1  W1  W1  W1  |   .  W1  W1   .   .   .
//  12  11  10   9   8   7  |   6   5   4   3   2   1
//   off: White 0, Black 0
// When White rolls 6-1, Then 13/7/6 (or 7/6 then 13/7) would make 11..4, a run of eight: it
// contains six-runs with no Black checker past them, so it is forbidden like a six-run.
TEST(SixBlock, LongerRunsAreForbiddenToo) {
  Position pos = board({{24, 7}, {13, 1}, {11, 1}, {10, 1}, {9, 1}, {8, 1}, {7, 1}, {5, 1}, {4, 1}},
                       {{12, 15}}, Side::White);
  EXPECT_FALSE(is_legal(pos, {6, 1}, "13/6"));
  EXPECT_FALSE(is_legal(pos, {6, 1}, "13/7 7/6"));
  EXPECT_TRUE(is_legal(pos, {6, 1}, "13/7 24/23"));
  for (const MoveResult& m : legal_moves(pos, {6, 1}, {}))
    EXPECT_TRUE(m.position.is_ok()) << format_pos(m.position);
}

// Given White on 10-9-8-7-6 with a spare on 13, and one Black checker on 11, behind the points
// (Black's route runs 12, 11, 10, ...):
//  13  14  15  16  17  18  |  19  20  21  22  23  24
//  W1   .   .   .   .   .  |   .   .   .   .   .  W9
//  --------------------------------------------------
// B14  B1  W1  W1  W1  W1  |  W1   .   .   .   .   .
//  12  11  10   9   8   7  |   6   5   4   3   2   1
//   off: White 0, Black 0
// When White rolls 6-2, Then 13/7/5 (making 10..5) is illegal: a checker behind a block is not
// past it. With that Black checker on 4 instead, beyond point 5, the same move is legal.
TEST(SixBlock, PastMeansFurtherAlongTheOpponentsRoute) {
  Position behind = board({{24, 9}, {13, 1}, {10, 1}, {9, 1}, {8, 1}, {7, 1}, {6, 1}},
                          {{12, 14}, {11, 1}}, Side::White);
  EXPECT_FALSE(is_legal(behind, {6, 2}, "13/5"));
  Position past = board({{24, 9}, {13, 1}, {10, 1}, {9, 1}, {8, 1}, {7, 1}, {6, 1}},
                        {{12, 14}, {4, 1}}, Side::White);
  EXPECT_TRUE(is_legal(past, {6, 2}, "13/5"));
}

// The bitmask form of rule 4 that core/movegen.cpp keeps per turn (six_runs() of the held
// points against forbidden_windows(), computed once) against the rule spelled out run by run,
// on random masks, opposing checkers and borne-off counts.
TEST(SixBlock, MaskFormEqualsTheRuleRunByRun) {
  Rng rng(7);
  int forbidden = 0;
  for (int n = 0; n < 200000; ++n) {
    // Dense masks, so that six-runs are common.
    const uint32_t occ = static_cast<uint32_t>(rng.next() | rng.next()) & 0xffffffu;
    const int opp_lowest = 1 + static_cast<int>(rng.below(25));  // 25: no opposing checker
    const int opp_off = rng.below(4) == 0 ? static_cast<int>(rng.below(15)) + 1 : 0;
    bool expected = false;
    for (int s = 0; s + 6 <= 24; ++s) {  // the run of opponent routes s+1..s+6
      bool held = true;
      for (int k = 0; k < 6; ++k) held = held && ((occ >> (s + k)) & 1u);
      const bool some_past = opp_lowest <= s;  // an opposing checker on a route below s+1
      if (held && !some_past && opp_off == 0) expected = true;
    }
    ASSERT_EQ(forbidden_block(occ, opp_lowest, opp_off), expected)
        << "occ " << occ << " opp_lowest " << opp_lowest << " opp_off " << opp_off;
    ASSERT_EQ((six_runs(occ) & forbidden_windows(opp_lowest, opp_off)) != 0, expected);
    forbidden += expected;
  }
  EXPECT_GT(forbidden, 1000);  // the sample exercises both answers
}

}  // namespace
}  // namespace nardy::testing
