#include "nn/encoder_extended.h"

#include <bit>
#include <cstdint>

#include "core/error.h"

namespace nardy::extended_v1 {
namespace {

// One side's checkers in its own route coordinates, and what the features need of them.
struct SideView {
  int count[kNumPoints + 1] = {};  // index q = own route 1..24
  int pips = 0, rearmost = 0, home = 0, held = 0, on_board = 0;
  uint32_t held_in_other = 0;  // bit p-1: the other side's route p is held by this side
  int lowest_in_other = 25;    // lowest other-side route coordinate holding this side's checker
};

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

class ExtendedEncoder final : public Encoder {
 public:
  std::string name() const override { return "extended"; }
  int version() const override { return 1; }
  int num_inputs() const override { return kNumInputs; }
  void fill(const Position& pos, std::span<float> out) const override {
    extended_v1::fill(pos, out.data());
  }
  std::string input_label(int i) const override { return label(i); }
};

}  // namespace

void fill(const Position& pos, float* out) {
  raw_v1::fill(pos, out);
  SideView side[2];  // 0 = me, 1 = opponent
  const auto& board = pos.mover_board();
  // Branch-free over the 24 points (a point is mine, the opponent's or empty; the empty case
  // adds zeros), so the loop does not mispredict on the board's pattern.
  for (int r = 1; r <= kNumPoints; ++r) {
    const int v = board[r - 1];
    const int q = opponent_route(r);  // the opponent's own route of this point
    const int mine = v > 0 ? v : 0;
    const int theirs = v < 0 ? -v : 0;
    SideView& me = side[0];
    SideView& op = side[1];
    me.count[r] = mine;
    op.count[q] = theirs;
    me.pips += r * mine;
    op.pips += q * theirs;
    me.rearmost = mine ? (r > me.rearmost ? r : me.rearmost) : me.rearmost;
    op.rearmost = theirs ? (q > op.rearmost ? q : op.rearmost) : op.rearmost;
    me.home += r <= kHomeSize ? mine : 0;
    op.home += q <= kHomeSize ? theirs : 0;
    me.held += mine != 0;
    op.held += theirs != 0;
    me.on_board += mine;
    op.on_board += theirs;
    // My point r is the opponent's route q, and vice versa.
    me.held_in_other |= static_cast<uint32_t>(mine != 0) << (q - 1);
    op.held_in_other |= static_cast<uint32_t>(theirs != 0) << (r - 1);
    me.lowest_in_other = mine && q < me.lowest_in_other ? q : me.lowest_in_other;
    op.lowest_in_other = theirs && r < op.lowest_in_other ? r : op.lowest_in_other;
  }
  constexpr float kInv15 = 1.0f / kNumCheckers;
  float behind[2];
  for (int s = 0; s < 2; ++s) {
    const SideView& me = side[s];
    const SideView& other = side[1 - s];
    // Blocks in front of the other side's rearmost checker, along its route.
    const int rear = other.rearmost;
    const uint32_t front = me.held_in_other & route_bits(1, rear - 1);
    const int run = longest_run(front);
    out[kMeBlockLongest + s] = (run > 6 ? 6 : run) / 6.0f;
    out[kMeBlockWithin6 + s] = std::popcount(front & route_bits(rear - 6, rear - 1)) / 6.0f;
    out[kMeBlockWithin12 + s] = std::popcount(front & route_bits(rear - 12, rear - 1)) / 12.0f;
    out[kMePips + s] = me.pips / static_cast<float>(kStartPips);
    out[kMeHome + s] = me.home * kInv15;
    out[kMePointsHeld + s] = me.held * kInv15;
    out[kMeAllHome + s] = me.home == me.on_board ? 1.0f : 0.0f;
    // Checkers still to pass an opposing checker: above the lowest opposing checker, in my
    // own route coordinates.
    int n_behind = 0;
    for (int q = other.lowest_in_other + 1; q <= kNumPoints; ++q) n_behind += me.count[q];
    behind[s] = n_behind * kInv15;
    out[kMeBehind + s] = behind[s];
  }
  out[kPipsDiff] = (side[1].pips - side[0].pips) / 120.0f;
  out[kContact] = behind[0] > 0.0f || behind[1] > 0.0f ? 1.0f : 0.0f;
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
