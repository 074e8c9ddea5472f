// nn/bit_count.h — the encoders' 24-bit point masks (bit i for board index i, or for a route
// coordinate r at bit r-1): counting their bits, and seeing them along the other side's route.
#pragma once

#include <cstdint>

#include "core/types.h"

namespace nardy {

// Number of one-bits of m (any 32-bit mask; the encoders' masks have 24). Written out because
// the baseline x86-64 target has no popcnt instruction: std::popcount would call a library
// function on every feature.
inline int popcount24(uint32_t m) {
  m = m - ((m >> 1) & 0x55555555u);
  m = (m & 0x33333333u) + ((m >> 2) & 0x33333333u);
  return static_cast<int>((((m + (m >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24);
}

// A mask of route bits r-1 (one side's coordinates) as the other side's route bits q-1, with
// q = opponent_route(r) = r ± 12: the two halves of the board swap.
constexpr uint32_t to_other_route(uint32_t m) {
  static_assert(kNumPoints == 24 && opponent_route(1) == 13);
  return ((m << 12) | (m >> 12)) & 0xFFFFFFu;
}

}  // namespace nardy
