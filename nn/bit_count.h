// nn/bit_count.h — counting the set bits of a board's 24-bit point masks.
#pragma once

#include <cstdint>

namespace nardy {

// Number of one-bits of m (any 32-bit mask; the encoders' masks have 24). Written out because
// the baseline x86-64 target has no popcnt instruction: std::popcount would call a library
// function on every feature.
inline int popcount24(uint32_t m) {
  m = m - ((m >> 1) & 0x55555555u);
  m = (m & 0x33333333u) + ((m >> 2) & 0x33333333u);
  return static_cast<int>((((m + (m >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24);
}

}  // namespace nardy
