#include "nn/encoder_extended.h"

#include <bit>
#include <cstdint>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "core/error.h"
#include "nn/bit_count.h"
#include "nn/encoder_extension.h"

namespace nardy::extended_v1 {
namespace {

// One side's checkers, and what the features need of them.
struct SideView {
  int pips = 0, rearmost = 0, home = 0, held = 0, on_board = 0;
  uint32_t held_in_other = 0;  // bit p-1: the other side's route p is held by this side
  int lowest_in_other = 25;    // lowest other-side route coordinate holding this side's checker
};

// The integer sums over the 24 counts of a board: Σ w[i]·mine_i for four weights (my route,
// the opponent's route, my home, the opponent's home) and Σ w[i]·theirs_i likewise, where
// mine_i = max(v_i, 0) and theirs_i = max(-v_i, 0); and the held points as bit masks (bit i:
// board index i).
struct BoardSums {
  int me_pips, op_pips, me_home, op_home, me_on, op_on;
  uint32_t mine, theirs;
};
// Weights by board index i (route r = i + 1; the opponent's q = opponent_route(r)).
struct alignas(16) Weights {
  int16_t me_route[kNumPoints], op_route[kNumPoints], me_home[kNumPoints], op_home[kNumPoints],
      ones[kNumPoints];
};
constexpr Weights kWeights = [] {
  Weights w{};
  for (int i = 0; i < kNumPoints; ++i) {
    const int q = opponent_route(i + 1);
    w.me_route[i] = static_cast<int16_t>(i + 1);
    w.op_route[i] = static_cast<int16_t>(q);
    w.me_home[i] = i + 1 <= kHomeSize;
    w.op_home[i] = q <= kHomeSize;
    w.ones[i] = 1;
  }
  return w;
}();

#if defined(__SSE2__)
// Σ w[i]·x_i for x as 24 unsigned bytes (16 in lo, 8 in the low half of hi).
inline int weighted_sum(__m128i lo, __m128i hi, const int16_t* w) {
  const __m128i zero = _mm_setzero_si128();
  const auto* wv = reinterpret_cast<const __m128i*>(w);
  __m128i a = _mm_madd_epi16(_mm_unpacklo_epi8(lo, zero), _mm_loadu_si128(wv));
  a = _mm_add_epi32(a, _mm_madd_epi16(_mm_unpackhi_epi8(lo, zero), _mm_loadu_si128(wv + 1)));
  a = _mm_add_epi32(a, _mm_madd_epi16(_mm_unpacklo_epi8(hi, zero), _mm_loadu_si128(wv + 2)));
  a = _mm_add_epi32(a, _mm_shuffle_epi32(a, 0x4E));
  a = _mm_add_epi32(a, _mm_shuffle_epi32(a, 0xB1));
  return _mm_cvtsi128_si32(a);
}
#endif

BoardSums board_sums(const int8_t* board) {
  static_assert(kNumPoints == 24);
  BoardSums s;
#if defined(__SSE2__)
  const __m128i zero = _mm_setzero_si128();
  const __m128i lo = _mm_loadu_si128(reinterpret_cast<const __m128i*>(board));
  const __m128i hi = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(board + 16));
  const __m128i pos_lo = _mm_cmpgt_epi8(lo, zero), pos_hi = _mm_cmpgt_epi8(hi, zero);
  const __m128i neg_lo = _mm_cmpgt_epi8(zero, lo), neg_hi = _mm_cmpgt_epi8(zero, hi);
  const __m128i mine_lo = _mm_and_si128(lo, pos_lo), mine_hi = _mm_and_si128(hi, pos_hi);
  const __m128i theirs_lo = _mm_and_si128(_mm_sub_epi8(zero, lo), neg_lo);
  const __m128i theirs_hi = _mm_and_si128(_mm_sub_epi8(zero, hi), neg_hi);
  s.me_pips = weighted_sum(mine_lo, mine_hi, kWeights.me_route);
  s.op_pips = weighted_sum(theirs_lo, theirs_hi, kWeights.op_route);
  s.me_home = weighted_sum(mine_lo, mine_hi, kWeights.me_home);
  s.op_home = weighted_sum(theirs_lo, theirs_hi, kWeights.op_home);
  s.me_on = weighted_sum(mine_lo, mine_hi, kWeights.ones);
  s.op_on = weighted_sum(theirs_lo, theirs_hi, kWeights.ones);
  s.mine = static_cast<uint32_t>(_mm_movemask_epi8(pos_lo)) |
           (static_cast<uint32_t>(_mm_movemask_epi8(pos_hi)) & 0xFFu) << 16;
  s.theirs = static_cast<uint32_t>(_mm_movemask_epi8(neg_lo)) |
             (static_cast<uint32_t>(_mm_movemask_epi8(neg_hi)) & 0xFFu) << 16;
#else
  s = BoardSums{0, 0, 0, 0, 0, 0, 0, 0};
  for (int i = 0; i < kNumPoints; ++i) {
    const int v = board[i];
    const int mine = v > 0 ? v : 0;
    const int theirs = v < 0 ? -v : 0;
    s.me_pips += kWeights.me_route[i] * mine;
    s.op_pips += kWeights.op_route[i] * theirs;
    s.me_home += kWeights.me_home[i] * mine;
    s.op_home += kWeights.op_home[i] * theirs;
    s.me_on += mine;
    s.op_on += theirs;
    s.mine |= static_cast<uint32_t>(v > 0) << i;
    s.theirs |= static_cast<uint32_t>(v < 0) << i;
  }
#endif
  return s;
}

// out[0] = my checkers on my routes above `my_floor`, out[1] = the opponent's on its routes
// above `op_floor` (floors 1..25).
void behind_sums(const int8_t* board, int my_floor, int op_floor, int* out) {
#if defined(__SSE2__)
  // Per board index i: my route r - 1 = i and the opponent's q - 1 (= i ± 12); a lane counts
  // when that index is >= the floor (route > floor).
  static const __m128i kMeIdxLo =
      _mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
  static const __m128i kMeIdxHi =
      _mm_setr_epi8(16, 17, 18, 19, 20, 21, 22, 23, 0, 0, 0, 0, 0, 0, 0, 0);
  static const __m128i kOpIdxLo =
      _mm_setr_epi8(12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 0, 1, 2, 3);
  static const __m128i kOpIdxHi = _mm_setr_epi8(4, 5, 6, 7, 8, 9, 10, 11, 0, 0, 0, 0, 0, 0, 0, 0);
  const __m128i zero = _mm_setzero_si128();
  const __m128i lo = _mm_loadu_si128(reinterpret_cast<const __m128i*>(board));
  const __m128i hi = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(board + 16));
  const __m128i mine_lo = _mm_and_si128(lo, _mm_cmpgt_epi8(lo, zero));
  const __m128i mine_hi = _mm_and_si128(hi, _mm_cmpgt_epi8(hi, zero));
  const __m128i theirs_lo = _mm_and_si128(_mm_sub_epi8(zero, lo), _mm_cmpgt_epi8(zero, lo));
  const __m128i theirs_hi = _mm_and_si128(_mm_sub_epi8(zero, hi), _mm_cmpgt_epi8(zero, hi));
  const __m128i me_f = _mm_set1_epi8(static_cast<char>(my_floor - 1));
  const __m128i op_f = _mm_set1_epi8(static_cast<char>(op_floor - 1));
  // The high half's padding lanes hold no checkers (zero counts), whatever their index.
  const __m128i me_sum =
      _mm_add_epi64(_mm_sad_epu8(_mm_and_si128(mine_lo, _mm_cmpgt_epi8(kMeIdxLo, me_f)), zero),
                    _mm_sad_epu8(_mm_and_si128(mine_hi, _mm_cmpgt_epi8(kMeIdxHi, me_f)), zero));
  const __m128i op_sum =
      _mm_add_epi64(_mm_sad_epu8(_mm_and_si128(theirs_lo, _mm_cmpgt_epi8(kOpIdxLo, op_f)), zero),
                    _mm_sad_epu8(_mm_and_si128(theirs_hi, _mm_cmpgt_epi8(kOpIdxHi, op_f)), zero));
  out[0] = _mm_cvtsi128_si32(me_sum) + _mm_cvtsi128_si32(_mm_srli_si128(me_sum, 8));
  out[1] = _mm_cvtsi128_si32(op_sum) + _mm_cvtsi128_si32(_mm_srli_si128(op_sum, 8));
#else
  out[0] = out[1] = 0;
  for (int i = 0; i < kNumPoints; ++i) {
    const int v = board[i];
    if (v > 0 && i + 1 > my_floor) out[0] += v;
    if (v < 0 && opponent_route(i + 1) > op_floor) out[1] -= v;
  }
#endif
}

// Longest run of consecutive one-bits, capped at 6 (what the features use): six fixed steps,
// no branch on the board's pattern.
int longest_run6(uint32_t m) {
  int run = 0;
  for (int k = 0; k < 6; ++k) {
    run += m != 0;
    m &= m << 1;
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

// i / d for the integers i in [lo, lo + N) that the features divide, as a table: the same
// correctly rounded quotients (the compiler folds them exactly as the division would round at
// run time), without a division per feature (9 per position, a fifth of the features' time).
template <int N, int lo = 0>
struct Quotients {
  float by[N];
  constexpr explicit Quotients(float d) : by() {
    for (int i = 0; i < N; ++i) by[i] = static_cast<float>(i + lo) / d;
  }
  float operator()(int i) const { return by[i - lo]; }
};
constexpr Quotients<kNumPoints + 1> kSixths(6.0f), kTwelfths(12.0f);
constexpr Quotients<kStartPips + 1> kOfStartPips(static_cast<float>(kStartPips));
constexpr Quotients<2 * kStartPips + 1, -kStartPips> kOf120(120.0f);

// Writes the features of slots kMePips.. into f[0 .. kNumFeatures) (f[i] is slot kMePips + i).
void fill_features(const Position& pos, float* f) {
  // Integer summaries of the 24 counts (vectorised sums), the rest from bit masks of the points
  // each side holds (bit r-1 for the mover's route r, or bit q-1 for the opponent's route q).
  const int8_t* board = pos.mover_board().data();
  const BoardSums sums = board_sums(board);
  SideView side[2];  // 0 = me, 1 = opponent
  SideView& me = side[0];
  SideView& op = side[1];
  me.pips = sums.me_pips;
  op.pips = sums.op_pips;
  me.home = sums.me_home;
  op.home = sums.op_home;
  me.on_board = sums.me_on;
  op.on_board = sums.op_on;
  const uint32_t mine_r = sums.mine, theirs_r = sums.theirs;
  const uint32_t mine_q = to_other_route(mine_r), theirs_q = to_other_route(theirs_r);
  me.rearmost = 32 - std::countl_zero(mine_r);  // 0 when none
  op.rearmost = 32 - std::countl_zero(theirs_q);
  me.held = popcount24(mine_r);
  op.held = popcount24(theirs_r);
  me.held_in_other = mine_q;  // my point r is the opponent's route q, and vice versa
  op.held_in_other = theirs_r;
  me.lowest_in_other = mine_q ? std::countr_zero(mine_q) + 1 : 25;
  op.lowest_in_other = theirs_r ? std::countr_zero(theirs_r) + 1 : 25;
  // Checkers still to pass an opposing checker: above the lowest opposing checker, in their
  // own route coordinates.
  int n_behind[2];
  behind_sums(board, op.lowest_in_other, me.lowest_in_other, n_behind);
  constexpr float kInv15 = 1.0f / kNumCheckers;
  float behind[2];
  for (int s = 0; s < 2; ++s) {
    const SideView& me = side[s];
    const SideView& other = side[1 - s];
    // Blocks in front of the other side's rearmost checker, along its route.
    const int rear = other.rearmost;
    const uint32_t front = me.held_in_other & route_bits(1, rear - 1);
    f[kMeBlockLongest + s - kMePips] = kSixths(longest_run6(front));
    f[kMeBlockWithin6 + s - kMePips] = kSixths(popcount24(front & route_bits(rear - 6, rear - 1)));
    f[kMeBlockWithin12 + s - kMePips] =
        kTwelfths(popcount24(front & route_bits(rear - 12, rear - 1)));
    f[kMePips + s - kMePips] = kOfStartPips(me.pips);
    f[kMeHome + s - kMePips] = me.home * kInv15;
    f[kMePointsHeld + s - kMePips] = me.held * kInv15;
    f[kMeAllHome + s - kMePips] = me.home == me.on_board ? 1.0f : 0.0f;
    behind[s] = n_behind[s] * kInv15;
    f[kMeBehind + s - kMePips] = behind[s];
  }
  f[kPipsDiff - kMePips] = kOf120(side[1].pips - side[0].pips);
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
  static const ExtendingEncoder kEncoder(
      {"extended", 1, &raw_v1::encoder(), kNumFeatures, extended_v1::fill, fill_features, label});
  return kEncoder;
}

}  // namespace nardy::extended_v1
