#include "nn/encoder_reach.h"

#include <algorithm>
#include <bit>
#include <cstdint>

#include "core/error.h"
#include "nn/bit_count.h"
#include "nn/encoder_extension.h"
#include "nn/reach_steps.h"

namespace nardy::reach_v1 {
namespace {

using namespace reach_steps;

constexpr int kNumFeatures = kNumInputs - kMeTrapped;  // the slots after mobility-v1's
constexpr float kMeanRollPips = 49.0f / 6.0f;

// The side's checkers (the head's all) facing a run of >= k points the other side holds,
// starting 1..6 pips in front of them: trapped[k - 3] for k = 3..6.
template <bool kPopcnt>
[[gnu::always_inline]] inline void trapped_counts(const ReachSide& s, int* trapped) {
  const uint32_t b = s.blocked;
  uint32_t run = b & (b << 1) & (b << 2);  // bit t-1: t, t-1, t-2 all blocked
  for (int k = 3; k <= 6; ++k) {
    if (k > 3) run &= b << (k - 1);
    uint32_t facing = 0;  // bit r-1: a run starts at one of r-1 .. r-6
    for (int j = 1; j <= 6; ++j) facing |= run << j;
    const uint32_t m = facing & s.held;
    trapped[k - 3] =
        m == 0 ? 0 : movers<kPopcnt>(s, m) + ((m >> (kHeadRoute - 1)) & 1u ? s.head - 1 : 0);
  }
}

// Writes the side's trapped[4] and its rear reach, full rolls and lost pips.
template <bool kPopcnt>
[[gnu::always_inline]] inline void side_features(const ReachSide& s, float* trapped,
                                                 float* rear_reach, float* full, float* lost) {
  int t[4];
  trapped_counts<kPopcnt>(s, t);
  for (int k = 0; k < 4; ++k) trapped[k] = static_cast<float>(t[k]) / kNumCheckers;
  const int rear = 32 - std::countl_zero(s.held);  // 0 with no checker on the board
  const DieSteps st = die_steps(s);
  int reach_sum = 0, full_rolls = 0, lost_sum = 0;  // over the 36 ordered rolls
  // Unrolled, every roll's shifts are constants.
#pragma GCC unroll 6
  for (int a = 1; a <= 6; ++a)
#pragma GCC unroll 6
    for (int b = a; b <= 6; ++b) {
      const int weight = a == b ? 1 : 2;
      if (rear > 0) reach_sum += weight * reach(s, rear, a, b);
      const int l = pips_lost<kPopcnt>(s, st, a, b);
      full_rolls += weight * (l == 0);
      lost_sum += weight * l;
    }
  *rear_reach = static_cast<float>(reach_sum) / (36.0f * kNumPoints);
  *full = static_cast<float>(full_rolls) / 36.0f;
  *lost = static_cast<float>(lost_sum) / 36.0f / kMeanRollPips;
}

// Both sides' features into f[0 .. kNumFeatures).
template <bool kPopcnt>
[[gnu::always_inline]] inline void both_sides(const ReachSide* side, float* f) {
  for (int s = 0; s < 2; ++s)
    side_features<kPopcnt>(side[s], f + 4 * s, f + (kMeRearReach - kMeTrapped) + s,
                           f + (kMeRollsFull - kMeTrapped) + s, f + (kMePipsLost - kMeTrapped) + s);
}

// Its bit counts with the popcnt instruction where the CPU has it.
using Features = ReachFeatures<both_sides<false>, both_sides<true>>;

}  // namespace

void fill(const Position& pos, float* out) {
  mobility_v1::fill(pos, out);
  Features::fill(pos, out + kMeTrapped);
}

void fill_portable(const Position& pos, float* out) {
  mobility_v1::fill_portable(pos, out);
  Features::fill_portable(pos, out + kMeTrapped);
}

std::string label(int i) {
  if (i >= 0 && i < mobility_v1::kNumInputs) return mobility_v1::label(i);
  if (i >= kMeTrapped && i < kMeRearReach) {
    const int side = (i - kMeTrapped) / 4, k = (i - kMeTrapped) % 4 + 3;
    return std::string(side == 0 ? "me" : "opp") + ".trapped[" + std::to_string(k) + "]";
  }
  static const char* const kRollLabels[] = {"me.rear.reach",  "opp.rear.reach", "me.rolls.full",
                                            "opp.rolls.full", "me.pips.lost",   "opp.pips.lost"};
  static_assert(kMeRearReach + 6 == kNumInputs);
  if (i >= kMeRearReach && i < kNumInputs) return kRollLabels[i - kMeRearReach];
  throw Error("encoder reach-v1 has " + std::to_string(kNumInputs) + " inputs; no input " +
              std::to_string(i));
}

const Encoder& encoder() {
  static const ExtendingEncoder kEncoder(
      {"reach", 1, &mobility_v1::encoder(), kNumFeatures, reach_v1::fill, Features::fill, label});
  return kEncoder;
}

}  // namespace nardy::reach_v1
