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

// Bits of a point mask: the popcnt instruction in functions compiled for it (an encoder's
// [[gnu::target("popcnt")]] twin, chosen when cpu_has_popcnt()), else popcount24. The same
// counts either way.
template <bool kPopcnt>
[[gnu::always_inline]] inline int count_bits(uint32_t m) {
  if constexpr (kPopcnt) return __builtin_popcount(m);
  return popcount24(m);
}

// Whether the encoders may call their popcnt twins on this CPU.
inline bool cpu_has_popcnt() {
#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
  __builtin_cpu_init();  // may run before the constructors that would do it
  return __builtin_cpu_supports("popcnt");
#else
  return false;
#endif
}

// An encoder's feature body compiled twice: kPlainBody (its count_bits<false> instantiation)
// as it is, and kPopcntBody (count_bits<true>) inlined into a function compiled for the popcnt
// instruction. pick() chooses once for this CPU; plain() is the path tests compare it with.
template <class Arg, void (*kPlainBody)(const Arg*, float*),
          void (*kPopcntBody)(const Arg*, float*)>
struct PopcntTwins {
  using Fn = void (*)(const Arg*, float*);
  static void plain(const Arg* a, float* f) { kPlainBody(a, f); }
#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
  [[gnu::target("popcnt")]] static void popcnt(const Arg* a, float* f) {
    kPopcntBody(a, f);
  }
  static Fn pick() {
    return cpu_has_popcnt() ? popcnt : plain;
  }
#else
  static Fn pick() {
    return plain;
  }
#endif
};

// A mask of route bits r-1 (one side's coordinates) as the other side's route bits q-1, with
// q = opponent_route(r) = r ± 12: the two halves of the board swap.
constexpr uint32_t to_other_route(uint32_t m) {
  static_assert(kNumPoints == 24 && opponent_route(1) == 13);
  return ((m << 12) | (m >> 12)) & 0xFFFFFFu;
}

}  // namespace nardy
