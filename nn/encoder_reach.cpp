#include "nn/encoder_reach.h"

#include <algorithm>
#include <bit>
#include <cstdint>

#include "core/error.h"
#include "nn/bit_count.h"
#include "nn/encoder_extension.h"
#include "nn/side_masks.h"

namespace nardy::reach_v1 {
namespace {

constexpr int kNumFeatures = kNumInputs - kMeTrapped;  // the slots after mobility-v1's
constexpr float kMeanRollPips = 49.0f / 6.0f;

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

void reach_sides(const Position& pos, ReachSide* me, ReachSide* op) {
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
uint32_t to_points(uint64_t m) {  // a shifted mask of the side's checkers as route bits
  return static_cast<uint32_t>(m >> kOff) & 0xFFFFFFu;
}
bool open_at(const ReachSide& s, int r) {  // r >= 1 - kOff
  return (s.open >> (r - 1 + kOff)) & 1u;
}

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

DieSteps die_steps(const ReachSide& s) {
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
using BothSides = PopcntTwins<ReachSide, both_sides<false>, both_sides<true>>;

// Writes the features of slots kMeTrapped.. into f[0 .. kNumFeatures).
void fill_features(const Position& pos, float* f, BothSides::Fn both) {
  ReachSide side[2];
  reach_sides(pos, &side[0], &side[1]);
  both(side, f);
}
void fill_features(const Position& pos, float* f) {
  static const BothSides::Fn both = BothSides::pick();
  fill_features(pos, f, both);
}

}  // namespace

void fill(const Position& pos, float* out) {
  mobility_v1::fill(pos, out);
  fill_features(pos, out + kMeTrapped);
}

void fill_portable(const Position& pos, float* out) {
  mobility_v1::fill_portable(pos, out);
  fill_features(pos, out + kMeTrapped, BothSides::plain);
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
      {"reach", 1, &mobility_v1::encoder(), kNumFeatures, reach_v1::fill,
       [](const Position& pos, float* f) { fill_features(pos, f); }, label});
  return kEncoder;
}

}  // namespace nardy::reach_v1
