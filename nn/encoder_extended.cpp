#include "nn/encoder_extended.h"

#include <bit>
#include <cstdint>

#include "core/error.h"

namespace nardy::extended_v1 {
namespace {

// One side's checkers, and what the features need of them.
struct SideView {
  int pips = 0, rearmost = 0, home = 0, held = 0, on_board = 0;
  uint32_t held_in_other = 0;  // bit p-1: the other side's route p is held by this side
  int lowest_in_other = 25;    // lowest other-side route coordinate holding this side's checker
};

// Board index r-1 bits to the opponent's route bits q-1 (q = opponent_route(r) = r ± 12).
constexpr uint32_t to_other_route(uint32_t m) {
  static_assert(kNumPoints == 24 && opponent_route(1) == 13);
  return ((m << 12) | (m >> 12)) & 0xFFFFFFu;
}

// Longest run of consecutive one-bits.
int longest_run(uint32_t m) {
  int run = 0;
  while (m) {
    m &= m << 1;
    ++run;
  }
  return run;
}

// Bits for routes lo..hi (1-based, inclusive; empty when hi < lo).
uint32_t route_bits(int lo, int hi) {
  if (lo < 1) lo = 1;
  if (hi < lo) return 0;
  const uint32_t upto_hi = hi >= 32 ? ~0u : (1u << hi) - 1;
  return upto_hi & ~((1u << (lo - 1)) - 1);
}

constexpr int kNumFeatures = kNumInputs - kMePips;  // the slots after raw-v1's

// Writes the features of slots kMePips.. into f[0 .. kNumFeatures) (f[i] is slot kMePips + i).
void fill_features(const Position& pos, float* f);

class ExtendedEncoder final : public Encoder {
 public:
  std::string name() const override { return "extended"; }
  int version() const override { return 1; }
  int num_inputs() const override { return kNumInputs; }
  void fill(const Position& pos, std::span<float> out) const override {
    extended_v1::fill(pos, out.data());
  }
  // raw-v1's board comparison for slots 0..196 (they are raw-v1's), then the 18 features of
  // `pos` against base_x's: the same rows and coefficients as comparing the full encodings.
  int fill_difference(const Position& base, std::span<const float> base_x, const Position& pos,
                      int* rows, float* coef, std::span<float> scratch) const override {
    if (base.side_to_move() != pos.side_to_move())
      return Encoder::fill_difference(base, base_x, pos, rows, coef, scratch);
    int count = raw_v1::fill_difference(base, base_x.data(), pos, rows, coef);
    float f[kNumFeatures];
    fill_features(pos, f);
    for (int i = 0; i < kNumFeatures; ++i) {
      const float d = f[i] - base_x[kMePips + i];
      rows[count] = kMePips + i;
      coef[count] = d;
      count += d != 0.0f;
    }
    return count;
  }
  std::string input_label(int i) const override { return label(i); }
};

void fill_features(const Position& pos, float* f) {
  // Integer summaries of the 24 counts: sums in one branch-free pass, the rest from bit masks
  // of the points each side holds (bit r-1 for the mover's route r, or bit q-1 for the
  // opponent's own route q).
  const int8_t* board = pos.mover_board().data();
  SideView side[2];  // 0 = me, 1 = opponent
  SideView& me = side[0];
  SideView& op = side[1];
  uint32_t mine_r = 0, theirs_r = 0;
  for (int i = 0; i < kNumPoints; ++i) {
    const int v = board[i];
    const int mine = v > 0 ? v : 0;
    const int theirs = v < 0 ? -v : 0;
    me.pips += (i + 1) * mine;
    op.pips += opponent_route(i + 1) * theirs;
    me.on_board += mine;
    op.on_board += theirs;
    me.home += i < kHomeSize ? mine : 0;
    op.home += opponent_route(i + 1) <= kHomeSize ? theirs : 0;
    mine_r |= static_cast<uint32_t>(v > 0) << i;
    theirs_r |= static_cast<uint32_t>(v < 0) << i;
  }
  const uint32_t mine_q = to_other_route(mine_r), theirs_q = to_other_route(theirs_r);
  me.rearmost = 32 - std::countl_zero(mine_r);  // 0 when none
  op.rearmost = 32 - std::countl_zero(theirs_q);
  me.held = std::popcount(mine_r);
  op.held = std::popcount(theirs_r);
  me.held_in_other = mine_q;  // my point r is the opponent's route q, and vice versa
  op.held_in_other = theirs_r;
  me.lowest_in_other = mine_q ? std::countr_zero(mine_q) + 1 : 25;
  op.lowest_in_other = theirs_r ? std::countr_zero(theirs_r) + 1 : 25;
  // Checkers still to pass an opposing checker: above the lowest opposing checker, in their
  // own route coordinates (routes 1..L are the bits below index L).
  int n_behind[2] = {0, 0};
  for (uint32_t m = mine_r & ~((1u << op.lowest_in_other) - 1); m; m &= m - 1)
    n_behind[0] += board[std::countr_zero(m)];
  for (uint32_t m = theirs_r & ~to_other_route((1u << me.lowest_in_other) - 1); m; m &= m - 1)
    n_behind[1] -= board[std::countr_zero(m)];
  constexpr float kInv15 = 1.0f / kNumCheckers;
  float behind[2];
  for (int s = 0; s < 2; ++s) {
    const SideView& me = side[s];
    const SideView& other = side[1 - s];
    // Blocks in front of the other side's rearmost checker, along its route.
    const int rear = other.rearmost;
    const uint32_t front = me.held_in_other & route_bits(1, rear - 1);
    const int run = longest_run(front);
    f[kMeBlockLongest + s - kMePips] = (run > 6 ? 6 : run) / 6.0f;
    f[kMeBlockWithin6 + s - kMePips] = std::popcount(front & route_bits(rear - 6, rear - 1)) / 6.0f;
    f[kMeBlockWithin12 + s - kMePips] = std::popcount(front & route_bits(rear - 12, rear - 1)) / 12.0f;
    f[kMePips + s - kMePips] = me.pips / static_cast<float>(kStartPips);
    f[kMeHome + s - kMePips] = me.home * kInv15;
    f[kMePointsHeld + s - kMePips] = me.held * kInv15;
    f[kMeAllHome + s - kMePips] = me.home == me.on_board ? 1.0f : 0.0f;
    behind[s] = n_behind[s] * kInv15;
    f[kMeBehind + s - kMePips] = behind[s];
  }
  f[kPipsDiff - kMePips] = (side[1].pips - side[0].pips) / 120.0f;
  f[kContact - kMePips] = behind[0] > 0.0f || behind[1] > 0.0f ? 1.0f : 0.0f;
}

}  // namespace

void fill(const Position& pos, float* out) {
  raw_v1::fill(pos, out);
  fill_features(pos, out + kMePips);
}

std::string label(int i) {
  if (i >= 0 && i < raw_v1::kNumInputs) return raw_v1::label(i);
  switch (i) {
    case kMePips:
      return "me.pips";
    case kOppPips:
      return "opp.pips";
    case kPipsDiff:
      return "pips.diff";
    case kMeBlockLongest:
      return "me.block.longest";
    case kOppBlockLongest:
      return "opp.block.longest";
    case kMeBlockWithin6:
      return "me.block.within6";
    case kOppBlockWithin6:
      return "opp.block.within6";
    case kMeBlockWithin12:
      return "me.block.within12";
    case kOppBlockWithin12:
      return "opp.block.within12";
    case kMeHome:
      return "me.home";
    case kOppHome:
      return "opp.home";
    case kMePointsHeld:
      return "me.points_held";
    case kOppPointsHeld:
      return "opp.points_held";
    case kMeBehind:
      return "me.behind";
    case kOppBehind:
      return "opp.behind";
    case kContact:
      return "contact";
    case kMeAllHome:
      return "me.all_home";
    case kOppAllHome:
      return "opp.all_home";
    default:
      throw Error("encoder extended-v1 has " + std::to_string(kNumInputs) + " inputs; no input " +
                  std::to_string(i));
  }
}

const Encoder& encoder() {
  static const ExtendedEncoder kEncoder;
  return kEncoder;
}

}  // namespace nardy::extended_v1
