// nn/reach_features.h — reach-v1's own features of one side (nn/encoder_reach.h, slots
// 233..246), as an inline body: reach-v1 computes them alone, zones-v1 in the same pass as its
// own (nn/encoder_zones.cpp), sharing the side's masks and die steps. Internal to the encoders.
#pragma once

#include <bit>

#include "nn/reach_steps.h"

namespace nardy::reach_steps {

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

// Where reach-v1's features of one side go: trapped[0..3], rear.reach, rolls.full, pips.lost.
struct ReachSlots {
  float* trapped;
  float* rear_reach;
  float* full;
  float* lost;
};

// Writes the side's reach-v1 features from its masks `s` and die steps `st` (die_steps(s)), and
// returns the pips of the six doubles it cannot play (zones-v1's doubles.lost, before scaling).
template <bool kPopcnt>
[[gnu::always_inline]] inline int reach_side_features(const ReachSide& s, const DieSteps& st,
                                                      const ReachSlots& out) {
  constexpr float kMeanRollPips = 49.0f / 6.0f;
  int t[4];
  trapped_counts<kPopcnt>(s, t);
  for (int k = 0; k < 4; ++k) out.trapped[k] = static_cast<float>(t[k]) / kNumCheckers;
  const int rear = 32 - std::countl_zero(s.held);   // 0 with no checker on the board
  int reach_sum = 0, full_rolls = 0, lost_sum = 0;  // over the 36 ordered rolls
  int doubles_lost = 0;
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
      if (a == b) doubles_lost += l;
    }
  *out.rear_reach = static_cast<float>(reach_sum) / (36.0f * kNumPoints);
  *out.full = static_cast<float>(full_rolls) / 36.0f;
  *out.lost = static_cast<float>(lost_sum) / 36.0f / kMeanRollPips;
  return doubles_lost;
}

}  // namespace nardy::reach_steps
