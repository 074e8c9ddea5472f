// Encoders: sizes, labels, slot values on hand-built positions, mover-perspective symmetry,
// bounds and agreement with core's counts on positions from random games.
#include "nn/encoder.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <set>

#include "core/error.h"
#include "core/movegen.h"
#include "core/pos_text.h"
#include "nn/encoder_extended.h"
#include "nn/encoder_extension.h"
#include "nn/encoder_mobility.h"
#include "nn/encoder_raw.h"
#include "nn/encoder_reach.h"
#include "nn/encoder_zones.h"
#include "tests/nn/test_nets.h"
#include "tests/support/error_of.h"

namespace nardy {
namespace {

namespace raw = raw_v1;
namespace ext = extended_v1;
namespace mob = mobility_v1;
namespace rch = reach_v1;
namespace zon = zones_v1;
using testing::error_of;

std::vector<float> encode(const Encoder& enc, const Position& pos) {
  // NaN everywhere first: every slot must be written.
  std::vector<float> x(enc.num_inputs() + 1, std::numeric_limits<float>::quiet_NaN());
  x.back() = 12345.0f;  // one past the end stays untouched
  enc.fill(pos, x);
  EXPECT_EQ(x.back(), 12345.0f);
  x.pop_back();
  return x;
}

// The four units of a count n (see nn/encoder_raw.h).
std::array<float, 4> units(int n) {
  return {n >= 1 ? 1.0f : 0.0f, n >= 2 ? 1.0f : 0.0f, n >= 3 ? 1.0f : 0.0f,
          n > 3 ? (n - 3) / 4.0f : 0.0f};
}

TEST(Encoder, RegistryNamesIdsAndSizes) {
  EXPECT_EQ(encoder_by_name("raw").id(), "raw-v1");
  EXPECT_EQ(encoder_by_name("raw-v1").num_inputs(), 197);
  EXPECT_EQ(encoder_by_name("extended").id(), "extended-v1");
  EXPECT_EQ(encoder_by_name("extended-v1").num_inputs(), 215);
  EXPECT_EQ(encoder_by_name("mobility").id(), "mobility-v1");
  EXPECT_EQ(encoder_by_name("mobility-v1").num_inputs(), 233);
  EXPECT_EQ(encoder_by_name("reach").id(), "reach-v1");
  EXPECT_EQ(encoder_by_name("reach-v1").num_inputs(), 247);
  EXPECT_EQ(encoder_by_name("zones").id(), "zones-v1");
  EXPECT_EQ(encoder_by_name("zones-v1").num_inputs(), 261);
  EXPECT_EQ(&encoder_by_name("raw"), &encoder_by_name("raw-v1"));
  EXPECT_EQ(encoder_ids(), (std::vector<std::string>{"raw-v1", "extended-v1", "mobility-v1",
                                                     "reach-v1", "zones-v1"}));
  const std::string msg = error_of([] { encoder_by_name("raw-v2"); });
  EXPECT_EQ(msg,
            "unknown encoder 'raw-v2' (known: raw-v1, extended-v1, mobility-v1, reach-v1, "
            "zones-v1)");
}

TEST(Encoder, ExtensionChain) {
  EXPECT_EQ(raw::encoder().extends(), "");
  EXPECT_EQ(ext::encoder().extends(), "raw-v1");
  EXPECT_EQ(mob::encoder().extends(), "extended-v1");
  EXPECT_TRUE(encoder_extends(mob::encoder(), "raw-v1"));
  EXPECT_TRUE(encoder_extends(mob::encoder(), "extended-v1"));
  EXPECT_TRUE(encoder_extends(mob::encoder(), "mobility-v1"));
  EXPECT_FALSE(encoder_extends(ext::encoder(), "mobility-v1"));
  EXPECT_EQ(rch::encoder().extends(), "mobility-v1");
  EXPECT_TRUE(encoder_extends(rch::encoder(), "extended-v1"));
  EXPECT_FALSE(encoder_extends(mob::encoder(), "reach-v1"));
  EXPECT_FALSE(encoder_extends(raw::encoder(), "extended-v1"));
  // zones-v1 extends reach-v1 but computes reach-v1's features with its own (features_after
  // mobility-v1): still the same inputs, and a spec whose features end inside its base's is
  // refused.
  EXPECT_EQ(zon::encoder().extends(), "reach-v1");
  EXPECT_EQ(zon::encoder().num_inputs(), zon::kNumInputs);
  const auto fill = [](const Position&, float*) {};
  const auto label = [](int) { return std::string(); };
  EXPECT_NE(
      error_of([&] {
        ExtendingEncoder({"short", 1, &rch::encoder(), 14, fill, fill, label, &mob::encoder()});
      }).find("end inside its base's inputs"),
      std::string::npos);
  EXPECT_NO_THROW(
      ExtendingEncoder({"long", 1, &rch::encoder(), 15, fill, fill, label, &mob::encoder()}));
}

TEST(Encoder, LabelsAreUniqueAndNamed) {
  for (const std::string& id : encoder_ids()) {
    const Encoder& enc = encoder_by_name(id);
    std::set<std::string> labels;
    for (int i = 0; i < enc.num_inputs(); ++i) labels.insert(enc.input_label(i));
    EXPECT_EQ(static_cast<int>(labels.size()), enc.num_inputs()) << id;
    EXPECT_NE(error_of([&] { enc.input_label(enc.num_inputs()); }).find("no input"),
              std::string::npos);
  }
  const Encoder& e = encoder_by_name("extended-v1");
  EXPECT_EQ(e.input_label(0), "me.point[r=1].count>=1");
  EXPECT_EQ(e.input_label(raw::me_point_slot(24, 3)), "me.point[r=24].extra");
  EXPECT_EQ(e.input_label(raw::opp_point_slot(7, 1)), "opp.point[r=7].count>=2");
  EXPECT_EQ(e.input_label(raw::kMeOff), "me.off");
  EXPECT_EQ(e.input_label(raw::kOppHead), "opp.head");
  EXPECT_EQ(e.input_label(raw::kMoverIsWhite), "mover_is_white");
  EXPECT_EQ(e.input_label(ext::kPipsDiff), "pips.diff");
  EXPECT_EQ(e.input_label(ext::kOppBlockWithin12), "opp.block.within12");
  EXPECT_EQ(e.input_label(ext::kOppAllHome), "opp.all_home");
}

TEST(Encoder, StartPosition) {
  const auto x = encode(encoder_by_name("extended-v1"), Position::start());
  for (int r = 1; r <= kNumPoints; ++r)
    for (int u = 0; u < 4; ++u) {
      const float want = r == 24 ? units(15)[u] : 0.0f;
      EXPECT_EQ(x[raw::me_point_slot(r, u)], want) << r << "," << u;
      EXPECT_EQ(x[raw::opp_point_slot(r, u)], want) << r << "," << u;
    }
  EXPECT_EQ(x[raw::me_point_slot(24, 3)], 3.0f);  // (15 - 3) / 4
  EXPECT_EQ(x[raw::kMeOff], 0.0f);
  EXPECT_EQ(x[raw::kOppOff], 0.0f);
  EXPECT_EQ(x[raw::kMeHead], 1.0f);
  EXPECT_EQ(x[raw::kOppHead], 1.0f);
  EXPECT_EQ(x[raw::kMoverIsWhite], 1.0f);
  EXPECT_EQ(x[ext::kMePips], 1.0f);
  EXPECT_EQ(x[ext::kOppPips], 1.0f);
  EXPECT_EQ(x[ext::kPipsDiff], 0.0f);
  // My head is the opponent's route 12, in front of its rearmost checker (its head, 24):
  // a run of one, 12 pips ahead of it.
  EXPECT_FLOAT_EQ(x[ext::kMeBlockLongest], 1.0f / 6);
  EXPECT_EQ(x[ext::kMeBlockWithin6], 0.0f);
  EXPECT_FLOAT_EQ(x[ext::kMeBlockWithin12], 1.0f / 12);
  EXPECT_FLOAT_EQ(x[ext::kOppBlockWithin12], 1.0f / 12);
  EXPECT_EQ(x[ext::kMeHome], 0.0f);
  EXPECT_FLOAT_EQ(x[ext::kMePointsHeld], 1.0f / 15);
  EXPECT_EQ(x[ext::kMeBehind], 1.0f);
  EXPECT_EQ(x[ext::kOppBehind], 1.0f);
  EXPECT_EQ(x[ext::kContact], 1.0f);
  EXPECT_EQ(x[ext::kMeAllHome], 0.0f);
}

// docs/rules.md's bear-off example: White home 1:1 2:1 3:1 4:2 5:2 6:2 (6 off),
// Black 13:3 14:3 15:3 16:2 17:2 18:2 (Black's home, its routes 1..6); pips 36 and 48.
TEST(Encoder, BearOffRaceFromBothSides) {
  const Position white_to_move =
      parse_pos("1,1,1,2,2,2,0,0,0,0,0,0,-3,-3,-3,-2,-2,-2,0,0,0,0,0,0 w");
  const auto x = encode(encoder_by_name("extended-v1"), white_to_move);
  const int white[7] = {0, 1, 1, 1, 2, 2, 2};
  const int black[7] = {0, 3, 3, 3, 2, 2, 2};  // Black's route r = point - 12
  for (int r = 1; r <= 6; ++r)
    for (int u = 0; u < 4; ++u) {
      EXPECT_EQ(x[raw::me_point_slot(r, u)], units(white[r])[u]);
      EXPECT_EQ(x[raw::opp_point_slot(r, u)], units(black[r])[u]);
    }
  EXPECT_FLOAT_EQ(x[raw::kMeOff], 6.0f / 15);
  EXPECT_EQ(x[raw::kOppOff], 0.0f);
  EXPECT_EQ(x[raw::kMeHead], 0.0f);
  EXPECT_FLOAT_EQ(x[ext::kMePips], 36.0f / 360);
  EXPECT_FLOAT_EQ(x[ext::kOppPips], 48.0f / 360);
  EXPECT_FLOAT_EQ(x[ext::kPipsDiff], 12.0f / 120);
  EXPECT_EQ(x[ext::kContact], 0.0f);
  EXPECT_EQ(x[ext::kMeBehind], 0.0f);
  EXPECT_EQ(x[ext::kOppBehind], 0.0f);
  EXPECT_FLOAT_EQ(x[ext::kMeHome], 9.0f / 15);
  EXPECT_EQ(x[ext::kOppHome], 1.0f);
  EXPECT_EQ(x[ext::kMeAllHome], 1.0f);
  EXPECT_EQ(x[ext::kOppAllHome], 1.0f);
  EXPECT_FLOAT_EQ(x[ext::kMePointsHeld], 6.0f / 15);

  // Black to move: the same board from Black's side.
  const auto y =
      encode(encoder_by_name("extended-v1"), white_to_move.with_side_to_move(Side::Black));
  for (int r = 1; r <= 6; ++r) EXPECT_EQ(y[raw::me_point_slot(r, 0)], 1.0f);
  EXPECT_EQ(y[raw::me_point_slot(1, 2)], 1.0f);  // 3 on Black's route 1 (point 13)
  EXPECT_FLOAT_EQ(y[raw::kOppOff], 6.0f / 15);
  EXPECT_EQ(y[raw::kMoverIsWhite], 0.0f);
  EXPECT_FLOAT_EQ(y[ext::kPipsDiff], -12.0f / 120);
}

// White: 10 on its head (24) and a five-point run on points 20..16; Black: 14 on its head
// (point 12) and one on point 22.
//
//   Black's route:  point 20..16 are Black routes 8..4, White's head is Black route 12.
//   White's route:  Black's head is White route 12, point 22 is White route 22.
TEST(Encoder, BlocksInFrontOfTheRearmostChecker) {
  const Position pos = parse_pos("0,0,0,0,0,0,0,0,0,0,0,-14,0,0,0,1,1,1,1,1,0,-1,0,10 w");
  const auto x = encode(encoder_by_name("extended-v1"), pos);
  // Mine against Black's rearmost (its head, route 24): run 8..4 is 5 long; none within
  // routes 18..23; within 12..23 only my head (route 12).
  EXPECT_FLOAT_EQ(x[ext::kMeBlockLongest], 5.0f / 6);
  EXPECT_EQ(x[ext::kMeBlockWithin6], 0.0f);
  EXPECT_FLOAT_EQ(x[ext::kMeBlockWithin12], 1.0f / 12);
  // Black's against my rearmost (route 24): routes 12 and 22 held; 22 is within 6.
  EXPECT_FLOAT_EQ(x[ext::kOppBlockLongest], 1.0f / 6);
  EXPECT_FLOAT_EQ(x[ext::kOppBlockWithin6], 1.0f / 6);
  EXPECT_FLOAT_EQ(x[ext::kOppBlockWithin12], 2.0f / 12);
  // Behind: the lowest Black checker is my route 12, so all 15 of mine are above it; Black's
  // lowest-in-its-route of mine is point 16 = Black route 4: all 15 of Black's are above.
  EXPECT_EQ(x[ext::kMeBehind], 1.0f);
  EXPECT_EQ(x[ext::kOppBehind], 1.0f);
  EXPECT_FLOAT_EQ(x[ext::kMePointsHeld], 6.0f / 15);
  EXPECT_FLOAT_EQ(x[ext::kOppPointsHeld], 2.0f / 15);
  EXPECT_FLOAT_EQ(x[raw::kMeHead], 10.0f / 15);
  EXPECT_FLOAT_EQ(x[raw::kOppHead], 14.0f / 15);
  EXPECT_EQ(x[raw::opp_point_slot(10, 0)], 1.0f);  // point 22 is Black route 10
  EXPECT_EQ(x[raw::opp_point_slot(10, 1)], 0.0f);
}

// The mover's view makes colour irrelevant: a position and its colour-mirrored twin (same
// mover-relative board, the other colour to move) differ only in the colour unit.
TEST(Encoder, ColourMirroredTwinEncodesIdenticallyButTheColourUnit) {
  const auto positions = testing::sample_positions(12, 3);
  for (const std::string& id : encoder_ids()) {
    const Encoder& enc = encoder_by_name(id);
    for (const Position& p : positions) {
      const Position twin = Position::from_mover_board(p.mover_board(), ~p.side_to_move());
      ASSERT_TRUE(twin.is_ok());
      ASSERT_NE(twin.side_to_move(), p.side_to_move());
      const auto a = encode(enc, p), b = encode(enc, twin);
      for (int i = 0; i < enc.num_inputs(); ++i) {
        if (i == raw::kMoverIsWhite)
          EXPECT_EQ(a[i] + b[i], 1.0f);
        else
          EXPECT_EQ(a[i], b[i]) << id << " " << enc.input_label(i) << " " << format_pos(p);
      }
    }
  }
}

TEST(Encoder, ValuesAreBoundedAndAgreeWithCoreCounts) {
  const auto positions = testing::sample_positions(77, 6);
  const Encoder& enc = encoder_by_name("extended-v1");
  int contact = 0, race = 0;
  for (const Position& p : positions) {
    const auto x = encode(enc, p);
    for (int i = 0; i < enc.num_inputs(); ++i) {
      ASSERT_TRUE(std::isfinite(x[i])) << enc.input_label(i);
      EXPECT_GE(x[i], i == ext::kPipsDiff ? -3.0f : 0.0f) << enc.input_label(i);
      EXPECT_LE(x[i], 3.0f) << enc.input_label(i);
      if (i >= ext::kMePips && i != ext::kPipsDiff) {
        EXPECT_LE(x[i], 1.0f) << enc.input_label(i);
      }
    }
    const Side me = p.side_to_move(), opp = ~me;
    float held = 0, checkers = 0;
    for (int r = 1; r <= kNumPoints; ++r) {
      held += x[raw::me_point_slot(r, 0)];
      const float* u = &x[raw::opp_point_slot(r, 0)];
      const float n = u[0] + u[1] + u[2] + 4 * u[3];  // inverts the count units
      checkers += n;
      EXPECT_EQ(n, p.count(opp, r));
    }
    EXPECT_FLOAT_EQ(held / 15, x[ext::kMePointsHeld]);
    EXPECT_EQ(checkers, p.on_board(opp));
    EXPECT_FLOAT_EQ(x[ext::kMePips] * 360, p.pips(me));
    EXPECT_FLOAT_EQ(x[ext::kOppPips] * 360, p.pips(opp));
    EXPECT_FLOAT_EQ(x[raw::kOppOff] * 15, p.off(opp));
    EXPECT_FLOAT_EQ(x[raw::kMeHead] * 15, p.on_head(me));
    EXPECT_EQ(x[raw::kMoverIsWhite], me == Side::White ? 1.0f : 0.0f);
    // Raw is a prefix of extended.
    const auto r = encode(encoder_by_name("raw-v1"), p);
    for (int i = 0; i < raw::kNumInputs; ++i) EXPECT_EQ(r[i], x[i]);
    (x[ext::kContact] > 0 ? contact : race)++;
  }
  EXPECT_GT(contact, 10);
  EXPECT_GT(race, 0);
}

// fill_difference of every legal result against the board before the move seen by the same side
// (the training loop's use), for every roll: raw-v1's board comparison gives exactly the rows and
// coefficients of comparing the full encodings (Encoder's default), and those are x - base at
// every input where they differ and nowhere else. A base with the other side to move falls back
// to the default.
TEST(Encoder, FillDifferenceListsExactlyTheChangedInputs) {
  for (const Encoder* enc : {&raw::encoder(), &ext::encoder(), &mob::encoder(), &rch::encoder()}) {
    const int n = enc->num_inputs();
    std::vector<float> base_x(n), x(n), scratch(n), coef_a(n), coef_b(n);
    std::vector<int> rows_a(n), rows_b(n);
    MoveList moves;
    int results = 0, max_changed = 0;
    for (const Position& pos : testing::sample_positions(11, 3)) {
      for (int d1 = 1; d1 <= 6; d1 += 2)
        for (int d2 = d1; d2 <= 6; d2 += 3) {
          generate_moves(pos, Dice{static_cast<uint8_t>(d1), static_cast<uint8_t>(d2)}, Rules{},
                         moves);
          const Position base = pos.with_side_to_move(~pos.side_to_move());
          enc->fill(base, base_x);
          for (const MoveResult& m : moves) {
            const int ka = enc->fill_difference(base, base_x, m.position, rows_a.data(),
                                                coef_a.data(), scratch);
            const int kb = enc->Encoder::fill_difference(base, base_x, m.position, rows_b.data(),
                                                         coef_b.data(), scratch);
            ASSERT_EQ(ka, kb) << enc->id() << " " << format_pos(m.position);
            for (int t = 0; t < ka; ++t) {
              ASSERT_EQ(rows_a[t], rows_b[t]) << enc->id() << " " << format_pos(m.position);
              ASSERT_EQ(std::memcmp(&coef_a[t], &coef_b[t], sizeof(float)), 0);
            }
            enc->fill(m.position, x);
            int t = 0;
            for (int i = 0; i < n; ++i) {
              if (x[i] == base_x[i]) continue;
              ASSERT_LT(t, ka);
              ASSERT_EQ(rows_a[t], i);
              ASSERT_EQ(coef_a[t], x[i] - base_x[i]);
              ++t;
            }
            ASSERT_EQ(t, ka);
            max_changed = std::max(max_changed, ka);
            ++results;
          }
          // Another side to move: every input is compared.
          const int k = enc->fill_difference(pos, base_x, moves[0].position, rows_a.data(),
                                             coef_a.data(), scratch);
          const int k2 = enc->Encoder::fill_difference(pos, base_x, moves[0].position,
                                                       rows_b.data(), coef_b.data(), scratch);
          ASSERT_EQ(k, k2);
        }
    }
    EXPECT_GT(results, 2000) << enc->id();
    EXPECT_GT(max_changed, 4) << enc->id();
  }
}

// extended-v1's features as first written (a pass over the 24 points building each side's
// counts in its own route coordinates), the reference for the encoder's bit-mask version.
std::vector<float> reference_extended_features(const Position& pos) {
  struct SideView {
    int count[kNumPoints + 1] = {};
    int pips = 0, rearmost = 0, home = 0, held = 0, on_board = 0;
    uint32_t held_in_other = 0;
    int lowest_in_other = 25;
  };
  auto longest_run = [](uint32_t m) {
    int run = 0;
    for (; m; m &= m << 1) ++run;
    return run;
  };
  auto route_bits = [](int lo, int hi) -> uint32_t {
    if (lo < 1) lo = 1;
    if (hi < lo) return 0;
    const uint32_t upto_hi = hi >= 32 ? ~0u : (1u << hi) - 1;
    return upto_hi & ~((1u << (lo - 1)) - 1);
  };
  SideView side[2];
  const auto& board = pos.mover_board();
  for (int r = 1; r <= kNumPoints; ++r) {
    const int v = board[r - 1];
    const int q = opponent_route(r);
    const int mine = v > 0 ? v : 0, theirs = v < 0 ? -v : 0;
    SideView& me = side[0];
    SideView& op = side[1];
    me.count[r] = mine;
    op.count[q] = theirs;
    me.pips += r * mine;
    op.pips += q * theirs;
    if (mine) me.rearmost = std::max(me.rearmost, r);
    if (theirs) op.rearmost = std::max(op.rearmost, q);
    me.home += r <= kHomeSize ? mine : 0;
    op.home += q <= kHomeSize ? theirs : 0;
    me.held += mine != 0;
    op.held += theirs != 0;
    me.on_board += mine;
    op.on_board += theirs;
    me.held_in_other |= static_cast<uint32_t>(mine != 0) << (q - 1);
    op.held_in_other |= static_cast<uint32_t>(theirs != 0) << (r - 1);
    if (mine) me.lowest_in_other = std::min(me.lowest_in_other, q);
    if (theirs) op.lowest_in_other = std::min(op.lowest_in_other, r);
  }
  std::vector<float> out(ext::kNumInputs - ext::kMePips);
  auto at = [&](int slot) -> float& { return out[static_cast<size_t>(slot - ext::kMePips)]; };
  constexpr float kInv15 = 1.0f / kNumCheckers;
  float behind[2];
  for (int s = 0; s < 2; ++s) {
    const SideView& me = side[s];
    const SideView& other = side[1 - s];
    const int rear = other.rearmost;
    const uint32_t front = me.held_in_other & route_bits(1, rear - 1);
    const int run = longest_run(front);
    at(ext::kMeBlockLongest + s) = (run > 6 ? 6 : run) / 6.0f;
    at(ext::kMeBlockWithin6 + s) = std::popcount(front & route_bits(rear - 6, rear - 1)) / 6.0f;
    at(ext::kMeBlockWithin12 + s) = std::popcount(front & route_bits(rear - 12, rear - 1)) / 12.0f;
    at(ext::kMePips + s) = me.pips / static_cast<float>(kStartPips);
    at(ext::kMeHome + s) = me.home * kInv15;
    at(ext::kMePointsHeld + s) = me.held * kInv15;
    at(ext::kMeAllHome + s) = me.home == me.on_board ? 1.0f : 0.0f;
    int n_behind = 0;
    for (int q = other.lowest_in_other + 1; q <= kNumPoints; ++q) n_behind += me.count[q];
    behind[s] = n_behind * kInv15;
    at(ext::kMeBehind + s) = behind[s];
  }
  at(ext::kPipsDiff) = (side[1].pips - side[0].pips) / 120.0f;
  at(ext::kContact) = behind[0] > 0.0f || behind[1] > 0.0f ? 1.0f : 0.0f;
  return out;
}

// The encoder's features (computed from bit masks of the held points) equal the reference bit
// for bit on sampled positions of every phase and on every legal result of a few rolls.
TEST(Encoder, ExtendedFeaturesEqualTheReferenceBitForBit) {
  std::vector<float> x(ext::kNumInputs);
  int checked = 0, contact = 0, race = 0;
  auto check = [&](const Position& p) {
    ext::fill(p, x.data());
    const std::vector<float> want = reference_extended_features(p);
    for (size_t i = 0; i < want.size(); ++i)
      ASSERT_EQ(std::memcmp(&x[ext::kMePips + i], &want[i], sizeof(float)), 0)
          << format_pos(p) << " " << ext::label(ext::kMePips + static_cast<int>(i));
    ++checked;
    (x[ext::kContact] != 0 ? contact : race) += 1;
  };
  MoveList moves;
  for (const Position& pos : testing::sample_positions(23, 4)) {
    check(pos);
    generate_moves(pos, Dice{6, 3}, Rules{}, moves);
    for (const MoveResult& m : moves) check(m.position);
  }
  check(Position::start());
  EXPECT_GT(checked, 2000);
  EXPECT_GT(contact, 100);
  EXPECT_GT(race, 100);
}

// fill_other_side: raw-v1 gives exactly the encoding of the same board seen by the other side
// (what the self-play trainer uses for the next turn's base); an encoder without it says so and
// leaves the output alone.
TEST(Encoder, FillOtherSideIsTheOtherSidesEncoding) {
  const int n = raw::encoder().num_inputs();
  std::vector<float> x(n), other(n), expected(n);
  int positions = 0, white = 0;
  for (const Position& pos : testing::sample_positions(12, 3)) {
    raw::encoder().fill(pos, x);
    std::fill(other.begin(), other.end(), -7.0f);
    ASSERT_TRUE(raw::encoder().fill_other_side(x, other));
    raw::encoder().fill(pos.with_side_to_move(~pos.side_to_move()), expected);
    ASSERT_EQ(std::memcmp(other.data(), expected.data(), sizeof(float) * n), 0) << format_pos(pos);
    ++positions;
    white += pos.side_to_move() == Side::White;
  }
  EXPECT_GT(positions, 100);
  EXPECT_GT(white, 0);
  EXPECT_LT(white, positions);
  const int m = ext::encoder().num_inputs();
  std::vector<float> y(m, 0.5f), out(m, -7.0f);
  EXPECT_FALSE(ext::encoder().fill_other_side(y, out));
  EXPECT_EQ(out, std::vector<float>(m, -7.0f));
}

// mobility-v1's features written plainly: per side, its counts in its own route coordinates,
// every die's open steps checker by checker, and the 36 rolls one by one.
std::vector<float> reference_mobility_features(const Position& pos) {
  int count[2][kNumPoints + 1] = {};     // [side][its route r]
  bool blocked[2][kNumPoints + 1] = {};  // [side][its route r]: the other side holds it
  const auto& board = pos.mover_board();
  for (int r = 1; r <= kNumPoints; ++r) {
    const int v = board[r - 1], q = opponent_route(r);
    if (v > 0) {
      count[0][r] = v;
      blocked[1][q] = true;
    }
    if (v < 0) {
      count[1][q] = -v;
      blocked[0][r] = true;
    }
  }
  std::vector<float> out(mob::kNumInputs - mob::kMeOpen);
  auto at = [&](int slot) -> float& { return out[static_cast<size_t>(slot - mob::kMeOpen)]; };
  for (int s = 0; s < 2; ++s) {
    bool playable[7] = {}, rear_free[7] = {};
    int rear = 0;
    for (int r = 1; r <= kNumPoints; ++r)
      if (count[s][r] > 0) rear = r;
    for (int d = 1; d <= 6; ++d) {
      int n = 0;
      for (int r = d + 1; r <= kNumPoints; ++r)
        if (count[s][r] > 0 && !blocked[s][r - d]) n += r == kHeadRoute ? 1 : count[s][r];
      at(mob::kMeOpen + 6 * s + d - 1) = n / 15.0f;
      playable[d] = n > 0;
      rear_free[d] = rear > d && !blocked[s][rear - d];
    }
    int dead = 0, half = 0, free = 0;
    for (int a = 1; a <= 6; ++a)
      for (int b = 1; b <= 6; ++b) {
        dead += !playable[a] && !playable[b];
        half += a != b && playable[a] != playable[b];
        free += rear_free[a] || rear_free[b];
      }
    at(mob::kMeRollsDead + s) = dead / 36.0f;
    at(mob::kMeRollsHalf + s) = half / 36.0f;
    at(mob::kMeRearFree + s) = free / 36.0f;
  }
  return out;
}

// mobility-v1 is extended-v1 followed by its features, which equal the plain reference bit for
// bit on positions of every phase and on every result of a few rolls, with the popcnt
// instruction (where the CPU has it) and without.
TEST(Encoder, MobilityFeaturesEqualTheReferenceAndExtendExtended) {
  std::vector<float> x(mob::kNumInputs), y(mob::kNumInputs), e(ext::kNumInputs);
  int checked = 0, some_dead = 0, some_half = 0, rear_stuck = 0;
  auto check = [&](const Position& p) {
    mob::fill(p, x.data());
    mob::fill_portable(p, y.data());
    ASSERT_EQ(std::memcmp(x.data(), y.data(), sizeof(float) * x.size()), 0) << format_pos(p);
    ext::fill(p, e.data());
    ASSERT_EQ(std::memcmp(x.data(), e.data(), sizeof(float) * e.size()), 0) << format_pos(p);
    const std::vector<float> want = reference_mobility_features(p);
    for (size_t i = 0; i < want.size(); ++i)
      ASSERT_EQ(std::memcmp(&x[mob::kMeOpen + i], &want[i], sizeof(float)), 0)
          << format_pos(p) << " " << mob::label(mob::kMeOpen + static_cast<int>(i));
    ++checked;
    some_dead += x[mob::kMeRollsDead] > 0 || x[mob::kOppRollsDead] > 0;
    some_half += x[mob::kMeRollsHalf] > 0 || x[mob::kOppRollsHalf] > 0;
    rear_stuck += x[mob::kMeRearFree] < 1 || x[mob::kOppRearFree] < 1;
  };
  MoveList moves;
  for (const Position& pos : testing::sample_positions(29, 4)) {
    check(pos);
    generate_moves(pos, Dice{5, 2}, Rules{}, moves);
    for (const MoveResult& m : moves) check(m.position);
  }
  check(Position::start());
  EXPECT_GT(checked, 2000);
  // The features vary on these positions: not all zero, not all one.
  EXPECT_GT(some_dead, 10);
  EXPECT_GT(some_half, 100);
  EXPECT_GT(rear_stuck, 100);
}

// Hand-counted cases: the start, and a lone White checker on 10 behind Black's five points
// 9..5 (White's route; Black's routes 21..17).
TEST(Encoder, MobilityByHand) {
  auto x = encode(mob::encoder(), Position::start());
  for (int d = 1; d <= 6; ++d) {
    // One checker leaves the head per turn; 24 - d is empty.
    EXPECT_FLOAT_EQ(x[mob::kMeOpen + d - 1], 1.0f / 15) << d;
    EXPECT_FLOAT_EQ(x[mob::kOppOpen + d - 1], 1.0f / 15) << d;
  }
  EXPECT_EQ(x[mob::kMeRollsDead], 0.0f);
  EXPECT_EQ(x[mob::kMeRollsHalf], 0.0f);
  EXPECT_EQ(x[mob::kMeRearFree], 1.0f);
  EXPECT_EQ(x[mob::kOppRearFree], 1.0f);
  EXPECT_EQ(mob::label(mob::kMeOpen), "me.open[1]");
  EXPECT_EQ(mob::label(mob::kOppOpen + 5), "opp.open[6]");
  EXPECT_EQ(mob::label(mob::kOppRearFree), "opp.rear.free");

  std::array<int, kNumPoints> points{};
  points[10 - 1] = 1;
  for (int p = 5; p <= 9; ++p) points[p - 1] = -2;
  const Position blocked = Position::from_points(points, Side::White);
  x = encode(mob::encoder(), blocked);
  for (int d = 1; d <= 5; ++d) EXPECT_EQ(x[mob::kMeOpen + d - 1], 0.0f) << d;
  EXPECT_FLOAT_EQ(x[mob::kMeOpen + 5], 1.0f / 15);    // 10 -> 4
  EXPECT_FLOAT_EQ(x[mob::kMeRollsDead], 25.0f / 36);  // both dice in 1..5
  EXPECT_FLOAT_EQ(x[mob::kMeRollsHalf], 10.0f / 36);  // a 6 with one of 1..5
  EXPECT_FLOAT_EQ(x[mob::kMeRearFree], 11.0f / 36);   // any roll with a 6
  for (int d = 1; d <= 6; ++d) EXPECT_FLOAT_EQ(x[mob::kOppOpen + d - 1], 10.0f / 15) << d;
  EXPECT_EQ(x[mob::kOppRollsDead], 0.0f);
  EXPECT_EQ(x[mob::kOppRearFree], 1.0f);
  // Seen by Black to move, the sides swap.
  const auto y = encode(mob::encoder(), blocked.with_side_to_move(Side::Black));
  for (int i = 0; i < 6; ++i) {
    EXPECT_EQ(y[mob::kMeOpen + i], x[mob::kOppOpen + i]);
    EXPECT_EQ(y[mob::kOppOpen + i], x[mob::kMeOpen + i]);
  }
  EXPECT_EQ(y[mob::kOppRollsDead], x[mob::kMeRollsDead]);
  EXPECT_EQ(y[mob::kOppRearFree], x[mob::kMeRearFree]);
}

// reach-v1's features written plainly: per side, its counts in its own route coordinates, and
// every roll checker by checker and step by step.
struct ReachSide {
  int count[kNumPoints + 1] = {};
  bool blocked[kNumPoints + 1] = {};
  bool all_home = true;
  int rear = 0;
  bool open(int r) const { return r >= 1 ? !blocked[r] : all_home; }
  int movers(int r) const { return r == kHeadRoute ? std::min(count[r], 1) : count[r]; }
  int chain(int r, int d) const {  // steps of d in a row from r, at most 4
    int k = 0;
    for (int t = r - d; k < 4 && open(t); t -= d) {
      ++k;
      if (t < 1) break;
    }
    return k;
  }
  int reach(int r, int a, int b) const {
    if (a == b) return a * chain(r, a);
    int best = 0;
    if (open(r - a)) best = a;
    if (open(r - b)) best = std::max(best, b);
    if (((r - a >= 1 && open(r - a)) || (r - b >= 1 && open(r - b))) && open(r - a - b))
      best = a + b;
    return best;
  }
  int lost(int a, int b) const {
    if (a == b) {
      int steps = 0;
      for (int r = 1; r <= kNumPoints; ++r) steps += movers(r) * chain(r, a);
      return a * (4 - std::min(steps, 4));
    }
    int with_a = 0, with_b = 0, at_a = 0, at_b = 0;
    bool chained = false;
    for (int r = 1; r <= kNumPoints; ++r) {
      if (count[r] == 0) continue;
      if (open(r - a)) with_a += movers(r), at_a = r;
      if (open(r - b)) with_b += movers(r), at_b = r;
      if (((r - a >= 1 && open(r - a)) || (r - b >= 1 && open(r - b))) && open(r - a - b))
        chained = true;
    }
    if (chained || (with_a >= 1 && with_b >= 1 && !(with_a == 1 && with_b == 1 && at_a == at_b)))
      return 0;
    if ((a > b ? with_a : with_b) > 0) return std::min(a, b);
    if ((a > b ? with_b : with_a) > 0) return std::max(a, b);
    return a + b;
  }
};

// Both sides of `pos`, the side to move's first.
std::array<ReachSide, 2> reference_sides(const Position& pos) {
  std::array<ReachSide, 2> side;
  const auto& board = pos.mover_board();
  for (int r = 1; r <= kNumPoints; ++r) {
    const int v = board[r - 1], q = opponent_route(r);
    if (v > 0) side[0].count[r] = v, side[1].blocked[q] = true;
    if (v < 0) side[1].count[q] = -v, side[0].blocked[r] = true;
  }
  for (ReachSide& v : side)
    for (int r = 1; r <= kNumPoints; ++r)
      if (v.count[r] > 0) v.rear = r, v.all_home = v.all_home && r <= 6;
  return side;
}

std::vector<float> reference_reach_features(const Position& pos) {
  std::array<ReachSide, 2> side = reference_sides(pos);
  std::vector<float> out(rch::kNumInputs - rch::kMeTrapped);
  auto at = [&](int slot) -> float& { return out[static_cast<size_t>(slot - rch::kMeTrapped)]; };
  for (int s = 0; s < 2; ++s) {
    const ReachSide& v = side[s];
    int run[kNumPoints + 1] = {};
    for (int t = 1; t <= kNumPoints; ++t) run[t] = v.blocked[t] ? run[t - 1] + 1 : 0;
    for (int k = 3; k <= 6; ++k) {
      int n = 0;
      for (int r = 2; r <= kNumPoints; ++r) {
        int front = 0;
        for (int t = std::max(1, r - 6); t < r; ++t) front = std::max(front, run[t]);
        if (front >= k) n += v.count[r];
      }
      at(rch::kMeTrapped + 4 * s + k - 3) = static_cast<float>(n) / 15;
    }
    int reach = 0, full = 0, lost = 0;
    for (int a = 1; a <= 6; ++a)
      for (int b = 1; b <= 6; ++b) {
        if (v.rear > 0) reach += v.reach(v.rear, a, b);
        full += v.lost(a, b) == 0;
        lost += v.lost(a, b);
      }
    at(rch::kMeRearReach + s) = static_cast<float>(reach) / (36.0f * 24);
    at(rch::kMeRollsFull + s) = static_cast<float>(full) / 36.0f;
    at(rch::kMePipsLost + s) = static_cast<float>(lost) / 36.0f / (49.0f / 6);
  }
  return out;
}

// reach-v1 is mobility-v1 followed by its 14 features, which equal the plain reference bit for
// bit (with the popcnt instruction where the CPU has it, and without), each in [0, 1], the two
// sides' swapping when the other side is to move; they vary on positions from random games.
TEST(Encoder, ReachExtendsMobilityAndSwapsWithTheSideToMove) {
  std::vector<float> x(rch::kNumInputs), y(rch::kNumInputs), m(mob::kNumInputs);
  int checked = 0, trapped = 0, not_full = 0, lost = 0;
  MoveList moves;
  std::vector<Position> positions = testing::sample_positions(31, 4);
  for (size_t i = 0, n = positions.size(); i < n; ++i) {
    generate_moves(positions[i], Dice{6, 3}, Rules{}, moves);
    for (const MoveResult& r : moves) positions.push_back(r.position);
  }
  for (const Position& p : positions) {
    rch::fill(p, x.data());
    rch::fill_portable(p, y.data());
    ASSERT_EQ(std::memcmp(x.data(), y.data(), sizeof(float) * x.size()), 0) << format_pos(p);
    mob::fill(p, m.data());
    ASSERT_EQ(std::memcmp(x.data(), m.data(), sizeof(float) * m.size()), 0) << format_pos(p);
    const std::vector<float> want = reference_reach_features(p);
    for (size_t i = 0; i < want.size(); ++i)
      ASSERT_EQ(std::memcmp(&x[rch::kMeTrapped + i], &want[i], sizeof(float)), 0)
          << format_pos(p) << " " << rch::label(rch::kMeTrapped + static_cast<int>(i)) << " "
          << x[rch::kMeTrapped + i] << " " << want[i];
    rch::fill(p.with_side_to_move(~p.side_to_move()), y.data());
    for (int i = rch::kMeTrapped; i < rch::kNumInputs; ++i) {
      EXPECT_GE(x[i], 0.0f) << rch::label(i);
      EXPECT_LE(x[i], 1.0f) << rch::label(i);
    }
    for (int k = 0; k < 4; ++k) {
      EXPECT_EQ(y[rch::kMeTrapped + k], x[rch::kOppTrapped + k]);
      EXPECT_EQ(y[rch::kOppTrapped + k], x[rch::kMeTrapped + k]);
      if (k > 0) EXPECT_LE(x[rch::kMeTrapped + k], x[rch::kMeTrapped + k - 1]);  // k+1 => k
    }
    for (int slot : {rch::kMeRearReach, rch::kMeRollsFull, rch::kMePipsLost}) {
      EXPECT_EQ(y[slot], x[slot + 1]) << rch::label(slot);
      EXPECT_EQ(y[slot + 1], x[slot]) << rch::label(slot);
    }
    // A roll is played whole exactly when it loses no pips.
    EXPECT_EQ(x[rch::kMeRollsFull] == 1.0f, x[rch::kMePipsLost] == 0.0f) << format_pos(p);
    ++checked;
    trapped += x[rch::kMeTrapped] > 0 || x[rch::kOppTrapped] > 0;
    not_full += x[rch::kMeRollsFull] < 1 || x[rch::kOppRollsFull] < 1;
    lost += x[rch::kMePipsLost] > 0.05f || x[rch::kOppPipsLost] > 0.05f;
  }
  EXPECT_GT(checked, 2000);
  EXPECT_GT(trapped, 100);
  EXPECT_GT(not_full, 10);
  EXPECT_GT(lost, 5);
}

// Hand-counted cases: the start, a lone White checker on 10 behind Black's five points 9..5,
// and a bear-off where steps past the board are open.
TEST(Encoder, ReachByHand) {
  auto x = encode(rch::encoder(), Position::start());
  for (int k = 0; k < 4; ++k) EXPECT_EQ(x[rch::kMeTrapped + k], 0.0f) << k;
  // One checker may leave the head, and the opponent's head on my 12 stops it: 6-6 plays one
  // step (18 pips lost), 4-4 two (8 lost), 3-3 three (3 lost); every other roll plays whole.
  EXPECT_FLOAT_EQ(x[rch::kMeRollsFull], 33.0f / 36);
  EXPECT_FLOAT_EQ(x[rch::kMePipsLost], (18 + 8 + 3) / 36.0f / (49.0f / 6));
  // The head checker's reach: a + b on every non-double (none sums to 12), 6, 8, 9 on 6-6, 4-4,
  // 3-3 and 4d on the other doubles.
  EXPECT_FLOAT_EQ(x[rch::kMeRearReach], (2 * 105 + 6 + 8 + 9 + 4 * (1 + 2 + 5)) / (36.0f * 24));
  EXPECT_EQ(x[rch::kOppRollsFull], x[rch::kMeRollsFull]);
  EXPECT_EQ(rch::label(rch::kMeTrapped), "me.trapped[3]");
  EXPECT_EQ(rch::label(rch::kOppTrapped + 3), "opp.trapped[6]");
  EXPECT_EQ(rch::label(rch::kOppPipsLost), "opp.pips.lost");
  EXPECT_NE(error_of([] { rch::label(rch::kNumInputs); }).find("reach-v1 has 247 inputs"),
            std::string::npos);

  std::array<int, kNumPoints> points{};
  points[10 - 1] = 1;
  for (int p = 5; p <= 9; ++p) points[p - 1] = -2;
  x = encode(rch::encoder(), Position::from_points(points, Side::White));
  // The run 9..5 starts one pip in front of the checker: five long.
  EXPECT_FLOAT_EQ(x[rch::kMeTrapped + 0], 1.0f / 15);
  EXPECT_FLOAT_EQ(x[rch::kMeTrapped + 2], 1.0f / 15);
  EXPECT_EQ(x[rch::kMeTrapped + 3], 0.0f);
  // Only 10 -> 4 is open; then 4 -> 3, 2, 1 (not 0 or below: the checker is not home).
  // Reach 7, 8, 9 with 6-1, 6-2, 6-3; 6 with 6-4, 6-5, 6-6; 0 otherwise.
  EXPECT_FLOAT_EQ(x[rch::kMeRearReach], (2 * (7 + 8 + 9 + 6 + 6) + 6) / (36.0f * 24));
  EXPECT_FLOAT_EQ(x[rch::kMeRollsFull], 6.0f / 36);
  // Lost: a + b for the ten rolls in 1..5 (120 pips over the ordered rolls), 4 and 5 with 6-4 and
  // 6-5, 4d for the doubles 1..5 and 18 for 6-6.
  EXPECT_FLOAT_EQ(x[rch::kMePipsLost], (120 + 2 * (4 + 5) + 60 + 18) / 36.0f / (49.0f / 6));
  // Black's ten checkers (its routes 17..21) face only my one point: free, every roll played.
  for (int k = 0; k < 4; ++k) EXPECT_EQ(x[rch::kOppTrapped + k], 0.0f);
  EXPECT_EQ(x[rch::kOppRollsFull], 1.0f);
  EXPECT_EQ(x[rch::kOppPipsLost], 0.0f);

  // Bearing off: steps past the board are open, so four checkers home play every roll; with
  // one checker left, on 1, a roll plays one die (the smaller lost) or one step of a double.
  points = {};
  for (int p = 1; p <= 4; ++p) points[p - 1] = 1;
  points[20 - 1] = -15;
  x = encode(rch::encoder(), Position::from_points(points, Side::White));
  EXPECT_EQ(x[rch::kMeRollsFull], 1.0f);
  EXPECT_EQ(x[rch::kMePipsLost], 0.0f);
  // From 4: a + b, except max(a, b) when both dice exceed 3 (no point to pass through); the
  // doubles 1..6 reach 4, 4, 6, 4, 5, 6.
  EXPECT_FLOAT_EQ(x[rch::kMeRearReach], (2 * (105 - 30 + 17) + 29) / (36.0f * 24));
  points = {};
  points[1 - 1] = 1;
  points[20 - 1] = -15;
  x = encode(rch::encoder(), Position::from_points(points, Side::White));
  EXPECT_EQ(x[rch::kMeRollsFull], 0.0f);
  EXPECT_FLOAT_EQ(x[rch::kMePipsLost], (70 + 3 * 21) / 36.0f / (49.0f / 6));
}

// zones-v1's features written plainly from the same sides: every checker's single steps die by
// die, the head's reach roll by roll, every double's lost pips.
std::vector<float> reference_zones_features(const Position& pos) {
  std::array<ReachSide, 2> side = reference_sides(pos);
  std::vector<float> out(zon::kNumInputs - zon::kMeOpenZone);
  auto at = [&](int slot) -> float& { return out[static_cast<size_t>(slot - zon::kMeOpenZone)]; };
  for (int s = 0; s < 2; ++s) {
    const ReachSide& v = side[s];
    int zone[4] = {}, stuck = 0;
    for (int r = 1; r <= kNumPoints; ++r) {
      if (v.count[r] == 0) continue;
      int steps = 0;
      for (int d = 1; d <= 6; ++d) steps += v.open(r - d);
      zone[(kNumPoints - r) / 6] += steps * v.movers(r);
      if (steps == 0) stuck += v.movers(r);
    }
    for (int z = 0; z < 4; ++z) at(zon::kMeOpenZone + 4 * s + z) = static_cast<float>(zone[z]) / 90;
    at(zon::kMeStuck + s) = static_cast<float>(stuck) / 15;
    int blocked = 0, lost = 0;
    for (int a = 1; a <= 6; ++a) {
      for (int b = 1; b <= 6; ++b) blocked += v.reach(kHeadRoute, a, b) == 0;
      lost += v.lost(a, a);
    }
    const int head = v.count[kHeadRoute];
    at(zon::kMeHeadBlocked + s) =
        head == 0 ? 0.0f : static_cast<float>(head) / 15 * (static_cast<float>(blocked) / 36.0f);
    at(zon::kMeDoublesLost + s) = static_cast<float>(lost) / 84;
  }
  return out;
}

// zones-v1 is reach-v1 followed by its 14 features, which equal the plain reference bit for bit
// (with the popcnt instruction where the CPU has it, and without), each in [0, 1], the two
// sides' swapping when the other side is to move; they vary on positions from random games.
TEST(Encoder, ZonesExtendReachAndSwapWithTheSideToMove) {
  std::vector<float> x(zon::kNumInputs), y(zon::kNumInputs), r(rch::kNumInputs);
  int checked = 0, stuck = 0, head_blocked = 0, doubles_lost = 0, rear_zone = 0;
  MoveList moves;
  std::vector<Position> positions = testing::sample_positions(37, 4);
  for (size_t i = 0, n = positions.size(); i < n; ++i) {
    generate_moves(positions[i], Dice{5, 2}, Rules{}, moves);
    for (const MoveResult& m : moves) positions.push_back(m.position);
  }
  for (const Position& p : positions) {
    zon::fill(p, x.data());
    zon::fill_portable(p, y.data());
    ASSERT_EQ(std::memcmp(x.data(), y.data(), sizeof(float) * x.size()), 0) << format_pos(p);
    rch::fill(p, r.data());
    ASSERT_EQ(std::memcmp(x.data(), r.data(), sizeof(float) * r.size()), 0) << format_pos(p);
    const std::vector<float> want = reference_zones_features(p);
    for (size_t i = 0; i < want.size(); ++i)
      ASSERT_EQ(std::memcmp(&x[zon::kMeOpenZone + i], &want[i], sizeof(float)), 0)
          << format_pos(p) << " " << zon::label(zon::kMeOpenZone + static_cast<int>(i)) << " "
          << x[zon::kMeOpenZone + i] << " " << want[i];
    zon::fill(p.with_side_to_move(~p.side_to_move()), y.data());
    for (int i = zon::kMeOpenZone; i < zon::kNumInputs; ++i) {
      EXPECT_GE(x[i], 0.0f) << zon::label(i);
      EXPECT_LE(x[i], 1.0f) << zon::label(i);
    }
    for (int z = 0; z < zon::kNumZones; ++z) {
      EXPECT_EQ(y[zon::kMeOpenZone + z], x[zon::kOppOpenZone + z]);
      EXPECT_EQ(y[zon::kOppOpenZone + z], x[zon::kMeOpenZone + z]);
    }
    for (int slot : {zon::kMeHeadBlocked, zon::kMeStuck, zon::kMeDoublesLost}) {
      EXPECT_EQ(y[slot], x[slot + 1]) << zon::label(slot);
      EXPECT_EQ(y[slot + 1], x[slot]) << zon::label(slot);
    }
    // The doubles' lost pips are part of all rolls' (reach-v1's mean over the 36, / 49/6).
    EXPECT_LE(x[zon::kMeDoublesLost] * 84, x[rch::kMePipsLost] * 36 * (49.0f / 6) + 1e-3f);
    ++checked;
    stuck += x[zon::kMeStuck] > 0 || x[zon::kOppStuck] > 0;
    head_blocked += x[zon::kMeHeadBlocked] > 0 || x[zon::kOppHeadBlocked] > 0;
    doubles_lost += x[zon::kMeDoublesLost] > 0 || x[zon::kOppDoublesLost] > 0;
    rear_zone += x[zon::kMeOpenZone + 1] > 0 && x[zon::kMeOpenZone + 3] > 0;
  }
  EXPECT_GT(checked, 2000);
  EXPECT_GT(stuck, 100);
  EXPECT_GT(head_blocked, 10);
  EXPECT_GT(doubles_lost, 100);
  EXPECT_GT(rear_zone, 100);
}

// Hand-counted cases: the start, and a lone White checker on 10 behind Black's five points 9..5.
TEST(Encoder, ZonesByHand) {
  auto x = encode(zon::encoder(), Position::start());
  // The head (one checker that may move) steps onto 23..18 with any die: six open steps, all
  // from zone 0; the head is never blocked; 6-6, 4-4 and 3-3 lose 18, 8 and 3 pips (reach-v1).
  EXPECT_FLOAT_EQ(x[zon::kMeOpenZone + 0], 6.0f / 90);
  for (int z = 1; z < 4; ++z) EXPECT_EQ(x[zon::kMeOpenZone + z], 0.0f) << z;
  EXPECT_EQ(x[zon::kMeHeadBlocked], 0.0f);
  EXPECT_EQ(x[zon::kMeStuck], 0.0f);
  EXPECT_FLOAT_EQ(x[zon::kMeDoublesLost], 29.0f / 84);
  EXPECT_EQ(x[zon::kOppDoublesLost], x[zon::kMeDoublesLost]);
  EXPECT_EQ(zon::label(zon::kMeOpenZone), "me.open.zone[0]");
  EXPECT_EQ(zon::label(zon::kOppOpenZone + 3), "opp.open.zone[3]");
  EXPECT_EQ(zon::label(zon::kOppDoublesLost), "opp.doubles.lost");
  EXPECT_EQ(encoder_by_name("zones").id(), "zones-v1");
  EXPECT_TRUE(encoder_extends(zon::encoder(), "reach-v1"));
  EXPECT_NE(error_of([] { zon::label(zon::kNumInputs); }).find("zones-v1 has 261 inputs"),
            std::string::npos);

  std::array<int, kNumPoints> points{};
  points[10 - 1] = 1;
  for (int p = 5; p <= 9; ++p) points[p - 1] = -2;
  x = encode(zon::encoder(), Position::from_points(points, Side::White));
  // Only 10 -> 4 is open: one step, from zone 2 (7..12); doubles 1..5 lose 4d, 6-6 loses 18.
  EXPECT_FLOAT_EQ(x[zon::kMeOpenZone + 2], 1.0f / 90);
  EXPECT_EQ(x[zon::kMeStuck], 0.0f);
  EXPECT_FLOAT_EQ(x[zon::kMeDoublesLost], (60 + 18) / 84.0f);
  // Black's two checkers on each of its routes 17..21 step freely: 19..21 in zone 0, 17..18 in
  // zone 1, six dice each.
  EXPECT_FLOAT_EQ(x[zon::kOppOpenZone + 0], 36.0f / 90);
  EXPECT_FLOAT_EQ(x[zon::kOppOpenZone + 1], 24.0f / 90);
  EXPECT_EQ(x[zon::kOppDoublesLost], 0.0f);

  // Three of my checkers on the head facing Black's points on my 23..18: none can leave, on any
  // roll; the head counts as one stuck checker.
  points = {};
  points[24 - 1] = 3;
  for (int p = 18; p <= 23; ++p) points[p - 1] = -2;
  points[2 - 1] = 12;  // these step to 1 with a 1
  points[13 - 1] = -3;
  x = encode(zon::encoder(), Position::from_points(points, Side::White));
  EXPECT_FLOAT_EQ(x[zon::kMeHeadBlocked], 3.0f / 15);
  EXPECT_FLOAT_EQ(x[zon::kMeStuck], 1.0f / 15);
}

}  // namespace
}  // namespace nardy
