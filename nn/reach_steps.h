// nn/reach_steps.h — what one side's dice can do on the board, the raw material of reach-v1's
// and zones-v1's features (nn/encoder_reach.h, nn/encoder_zones.h).
//
// Each side in its own route coordinates (nn/side_masks.h): a step of d goes from r to r - d,
// onto a point the other side does not hold, or past the board (r - d <= 0) when all the side's
// checkers are home. These are features for a net, not the legal moves (core/movegen.h): the
// head counts as one checker (rule 3), the six-block rule and the order of bearing off are
// ignored. Internal to the encoders; header-only so that their popcnt twins inline it.
#pragma once

#include <algorithm>
#include <cstdint>

#include "core/position.h"
#include "nn/bit_count.h"
#include "nn/side_masks.h"

namespace nardy::reach_steps {

// One side's masks (nn/side_masks.h) and what its steps may end on. Those points are 64-bit
// masks, bit r-1+kOff for r in [1-kOff, 24], so that the steps past the board (r <= 0) keep
// their bits and a shift left by d tests r - d for every r at once.
constexpr int kOff = 32;
struct ReachSide : SideMasks {
  uint32_t multi = 0;       // points with two or more checkers that may move
  int head = 0;             // checkers on the head (route 24)
  uint64_t open = 0;        // a step may end there: not blocked, or past the board
  uint64_t open_board = 0;  // ... and on the board: a step may go on from there
};

inline void reach_sides(const Position& pos, ReachSide* me, ReachSide* op) {
  const int8_t* board = pos.mover_board().data();
  side_masks(board, me, op);
  me->head = std::max<int>(board[kHeadRoute - 1], 0);
  op->head = std::max<int>(-board[opponent_route(kHeadRoute) - 1], 0);
  for (ReachSide* s : {me, op}) {
    s->multi = s->plane[1] | s->plane[2] | s->plane[3];
    const bool all_home = (s->held >> kHomeSize) == 0;
    s->open_board = static_cast<uint64_t>(~s->blocked & 0xFFFFFFu) << kOff;
    s->open = s->open_board | (all_home ? (uint64_t{1} << kOff) - 1 : 0);
  }
}

// Checkers that may move on the points of m (a subset of held).
template <bool kPopcnt>
[[gnu::always_inline]] inline int movers(const ReachSide& s, uint32_t m) {
  int n = 0;
  for (int k = 0; k < 4; ++k) n += count_bits<kPopcnt>(s.plane[k] & m) << k;
  return n;
}
inline uint32_t to_points(uint64_t m) {  // a shifted mask of the side's checkers as route bits
  return static_cast<uint32_t>(m >> kOff) & 0xFFFFFFu;
}
inline bool open_at(const ReachSide& s, int r) {  // r >= 1 - kOff
  return (s.open >> (r - 1 + kOff)) & 1u;
}

// How far the side's checker on r can move with the roll (a, b).
[[gnu::always_inline]] inline int reach(const ReachSide& s, int r, int a, int b) {
  if (a == b) {
    int k = 0;
    for (int t = r - a; k < 4 && open_at(s, t); t -= a) {
      ++k;
      if (t < 1) break;
    }
    return a * k;
  }
  int best = 0;
  if (open_at(s, r - a)) best = a;
  if (open_at(s, r - b)) best = std::max(best, b);
  const bool via = (r - a >= 1 && open_at(s, r - a)) || (r - b >= 1 && open_at(s, r - b));
  if (via && open_at(s, r - a - b)) best = a + b;
  return best;
}

// What each die can do for the side: can[d] the points whose checkers can make a step of d,
// several[d] whether two or more checkers can.
struct DieSteps {
  uint32_t can[7];
  bool several[7];
};

inline DieSteps die_steps(const ReachSide& s) {
  DieSteps st{};
  const uint64_t held = static_cast<uint64_t>(s.held) << kOff;
  for (int d = 1; d <= 6; ++d) {
    st.can[d] = to_points(held & (s.open << d));
    st.several[d] = (st.can[d] & (st.can[d] - 1)) != 0 || (st.can[d] & s.multi) != 0;
  }
  return st;
}

// The pips of the roll (a, b) the side cannot play (0 when it plays the whole roll).
template <bool kPopcnt>
[[gnu::always_inline]] inline int pips_lost(const ReachSide& s, const DieSteps& st, int a, int b) {
  const uint64_t held = static_cast<uint64_t>(s.held) << kOff;
  if (a == b) {
    // Four checkers (one per point at least) can each make a step: the double plays whole.
    if (count_bits<kPopcnt>(st.can[a]) >= 4) return 0;
    // Steps of a in a row from each checker: the k-th term counts those that can make k.
    int steps = movers<kPopcnt>(s, st.can[a]);
    uint64_t prefix = held & (s.open_board << a);
    for (int k = 2; k <= 4 && steps < 4; ++k) {
      steps += movers<kPopcnt>(s, to_points(prefix & (s.open << (k * a))));
      prefix &= s.open_board << (k * a);
    }
    return a * (4 - std::min(steps, 4));
  }
  // Two checkers play the dice unless the only checker that can play either is one and the
  // same; or one plays both through the point between.
  if (st.can[a] != 0 && st.can[b] != 0 && (st.can[a] != st.can[b] || st.several[a])) return 0;
  if ((held & ((s.open_board << a) | (s.open_board << b)) & (s.open << (a + b))) != 0) return 0;
  const bool can_hi = st.can[std::max(a, b)] != 0, can_lo = st.can[std::min(a, b)] != 0;
  if (can_hi) return std::min(a, b);
  if (can_lo) return std::max(a, b);
  return a + b;
}

// An encoder's features computed from both sides' ReachSide by a body compiled twice
// (bit_count.h PopcntTwins): fill() with the popcnt instruction where the CPU has it (chosen
// once), fill_portable() without, the same values.
template <void (*kPlainBody)(const ReachSide*, float*),
          void (*kPopcntBody)(const ReachSide*, float*)>
struct ReachFeatures {
  using Twins = PopcntTwins<ReachSide, kPlainBody, kPopcntBody>;
  static void fill_with(const Position& pos, float* f, typename Twins::Fn body) {
    ReachSide side[2];
    reach_sides(pos, &side[0], &side[1]);
    body(side, f);
  }
  static void fill(const Position& pos, float* f) {
    static const typename Twins::Fn body = Twins::pick();
    fill_with(pos, f, body);
  }
  static void fill_portable(const Position& pos, float* f) { fill_with(pos, f, Twins::plain); }
};

}  // namespace nardy::reach_steps
