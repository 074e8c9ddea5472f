#include "nn/encoder_mobility.h"

#include <bit>
#include <cstdint>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "core/error.h"
#include "nn/bit_count.h"

namespace nardy::mobility_v1 {
namespace {

constexpr int kNumFeatures = kNumInputs - kMeOpen;  // the slots after extended-v1's

// One side's checkers in its own route coordinates, bit r-1 for route r: `plane[k]` holds bit k
// of each point's count (the head's counted as at most one), `held` the points it holds, and
// `blocked` the points the other side holds.
struct SideMasks {
  uint32_t plane[4] = {0, 0, 0, 0};
  uint32_t held = 0, blocked = 0;
};

void side_masks(const int8_t* board, SideMasks* me, SideMasks* op) {
  static_assert(kNumCheckers < 16, "counts must fit the four planes");
  // The head (route 24, of either side) moves one checker per turn: my head is board index 23,
  // the opponent's (its route 24 = my route 12) board index 11.
  constexpr int kMyHead = kHeadRoute - 1, kTheirHead = opponent_route(kHeadRoute) - 1;
#if defined(__SSE2__)
  const __m128i zero = _mm_setzero_si128();
  const __m128i lo = _mm_loadu_si128(reinterpret_cast<const __m128i*>(board));
  const __m128i hi = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(board + 16));
  const __m128i pos_lo = _mm_cmpgt_epi8(lo, zero), pos_hi = _mm_cmpgt_epi8(hi, zero);
  const __m128i neg_lo = _mm_cmpgt_epi8(zero, lo), neg_hi = _mm_cmpgt_epi8(zero, hi);
  // Counts per board index, each head capped at one (min with 1 in its lane, 127 elsewhere):
  // my head is hi's lane 7 (index 23), the opponent's lo's lane 11.
  static_assert(kMyHead == 16 + 7 && kTheirHead == 11);
  constexpr char M = 127;
  const __m128i cap_hi = _mm_setr_epi8(M, M, M, M, M, M, M, 1, M, M, M, M, M, M, M, M);
  const __m128i cap_lo = _mm_setr_epi8(M, M, M, M, M, M, M, M, M, M, M, 1, M, M, M, M);
  const __m128i mine_lo = _mm_and_si128(lo, pos_lo);
  const __m128i mine_hi = _mm_min_epu8(_mm_and_si128(hi, pos_hi), cap_hi);
  const __m128i theirs_lo = _mm_min_epu8(_mm_and_si128(_mm_sub_epi8(zero, lo), neg_lo), cap_lo);
  const __m128i theirs_hi = _mm_and_si128(_mm_sub_epi8(zero, hi), neg_hi);
  auto mask = [](__m128i l, __m128i h) {
    return static_cast<uint32_t>(_mm_movemask_epi8(l)) |
           (static_cast<uint32_t>(_mm_movemask_epi8(h)) & 0xFFu) << 16;
  };
  uint32_t mine_plane[4], theirs_plane[4];
  for (int k = 0; k < 4; ++k) {
    const __m128i bit = _mm_set1_epi8(static_cast<char>(1 << k));
    mine_plane[k] = mask(_mm_cmpeq_epi8(_mm_and_si128(mine_lo, bit), bit),
                         _mm_cmpeq_epi8(_mm_and_si128(mine_hi, bit), bit));
    theirs_plane[k] = mask(_mm_cmpeq_epi8(_mm_and_si128(theirs_lo, bit), bit),
                           _mm_cmpeq_epi8(_mm_and_si128(theirs_hi, bit), bit));
  }
  const uint32_t mine = mask(pos_lo, pos_hi), theirs = mask(neg_lo, neg_hi);
#else
  uint32_t mine_plane[4] = {0, 0, 0, 0}, theirs_plane[4] = {0, 0, 0, 0};
  uint32_t mine = 0, theirs = 0;
  for (int i = 0; i < kNumPoints; ++i) {
    const int v = board[i];
    const uint32_t mine_n = v > 0 ? static_cast<uint32_t>(i == kMyHead ? 1 : v) : 0;
    const uint32_t theirs_n = v < 0 ? static_cast<uint32_t>(i == kTheirHead ? 1 : -v) : 0;
    for (int k = 0; k < 4; ++k) {
      mine_plane[k] |= ((mine_n >> k) & 1u) << i;
      theirs_plane[k] |= ((theirs_n >> k) & 1u) << i;
    }
    mine |= static_cast<uint32_t>(v > 0) << i;
    theirs |= static_cast<uint32_t>(v < 0) << i;
  }
#endif
  for (int k = 0; k < 4; ++k) {
    me->plane[k] = mine_plane[k];
    op->plane[k] = to_other_route(theirs_plane[k]);
  }
  me->held = mine;
  me->blocked = theirs;
  op->held = to_other_route(theirs);
  op->blocked = to_other_route(mine);
}

// Bits of a point mask: the popcnt instruction in the functions compiled for it, else
// popcount24 (the baseline x86-64 target has no popcnt). The same counts either way.
template <bool kPopcnt>
[[gnu::always_inline]] inline int count_bits(uint32_t m) {
  if constexpr (kPopcnt) return __builtin_popcount(m);
  return popcount24(m);
}

// Writes the side's 6 open-step counts / 15 to open[0..6), and its dead, half and rear-free
// fractions of the 36 rolls.
template <bool kPopcnt>
[[gnu::always_inline]] inline void side_features(const SideMasks& s, float* open, float* dead,
                                                 float* half, float* rear_free) {
  uint32_t playable = 0, rear_open = 0;            // bit d-1: die d has an open step
  const int rear = 32 - std::countl_zero(s.held);  // 0 with no checker on the board
  for (int d = 1; d <= 6; ++d) {
    // From r > d to r - d with no opposing checker there: bit r-1 of blocked << d is r - d.
    const uint32_t from = s.held & ~(s.blocked << d) & ~((1u << d) - 1);
    int n = 0;
    for (int k = 0; k < 4; ++k) n += count_bits<kPopcnt>(s.plane[k] & from) << k;
    open[d - 1] = static_cast<float>(n) / static_cast<float>(kNumCheckers);
    playable |= static_cast<uint32_t>(n > 0) << (d - 1);
    rear_open |= static_cast<uint32_t>(rear > d && ((from >> (rear - 1)) & 1u)) << (d - 1);
  }
  // Over the 36 ordered rolls (a, b): neither die playable in (6 - p)^2 of them; exactly one
  // of two different dice in 2 p (6 - p); the rear checker free unless neither die frees it.
  const int p = count_bits<kPopcnt>(playable), f = count_bits<kPopcnt>(rear_open);
  *dead = static_cast<float>((6 - p) * (6 - p)) / 36.0f;
  *half = static_cast<float>(2 * p * (6 - p)) / 36.0f;
  *rear_free = static_cast<float>(36 - (6 - f) * (6 - f)) / 36.0f;
}

// Both sides' features into f[0 .. kNumFeatures).
template <bool kPopcnt>
[[gnu::always_inline]] inline void both_sides(const SideMasks* side, float* f) {
  for (int s = 0; s < 2; ++s)
    side_features<kPopcnt>(side[s], f + 6 * s, f + (kMeRollsDead - kMeOpen) + s,
                           f + (kMeRollsHalf - kMeOpen) + s, f + (kMeRearFree - kMeOpen) + s);
}

using BothSides = void (*)(const SideMasks*, float*);
void both_sides_plain(const SideMasks* side, float* f) {
  both_sides<false>(side, f);
}
#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
// 48 counts per position: the instruction takes ~13% off a 1-ply move (docs/performance.md).
[[gnu::target("popcnt")]] void both_sides_popcnt(const SideMasks* side, float* f) {
  both_sides<true>(side, f);
}
BothSides pick_both_sides() {
  __builtin_cpu_init();  // may run before the constructors that would do it
  return __builtin_cpu_supports("popcnt") ? both_sides_popcnt : both_sides_plain;
}
#else
BothSides pick_both_sides() {
  return both_sides_plain;
}
#endif

// Writes the features of slots kMeOpen.. into f[0 .. kNumFeatures).
void fill_features(const Position& pos, float* f, BothSides both) {
  SideMasks side[2];
  side_masks(pos.mover_board().data(), &side[0], &side[1]);
  both(side, f);
}
void fill_features(const Position& pos, float* f) {
  static const BothSides both = pick_both_sides();
  fill_features(pos, f, both);
}

class MobilityEncoder final : public Encoder {
 public:
  std::string name() const override { return "mobility"; }
  int version() const override { return 1; }
  int num_inputs() const override { return kNumInputs; }
  std::string extends() const override { return extended_v1::encoder().id(); }
  void fill(const Position& pos, std::span<float> out) const override {
    mobility_v1::fill(pos, out.data());
  }
  // extended-v1's difference for slots 0..214 (they are extended-v1's), then the features of
  // `pos` against base_x's: the same rows and coefficients as comparing the full encodings.
  int fill_difference(const Position& base, std::span<const float> base_x, const Position& pos,
                      int* rows, float* coef, std::span<float> scratch) const override {
    if (base.side_to_move() != pos.side_to_move())
      return Encoder::fill_difference(base, base_x, pos, rows, coef, scratch);
    int count = extended_v1::encoder().fill_difference(base, base_x, pos, rows, coef, scratch);
    float f[kNumFeatures];
    fill_features(pos, f);
    return append_changed_inputs(f, kNumFeatures, kMeOpen, base_x.data(), rows, coef, count);
  }
  std::string input_label(int i) const override { return label(i); }
};

}  // namespace

void fill(const Position& pos, float* out) {
  extended_v1::fill(pos, out);
  fill_features(pos, out + kMeOpen);
}

void fill_portable(const Position& pos, float* out) {
  extended_v1::fill(pos, out);
  fill_features(pos, out + kMeOpen, both_sides_plain);
}

std::string label(int i) {
  if (i >= 0 && i < extended_v1::kNumInputs) return extended_v1::label(i);
  if (i >= kMeOpen && i < kMeRollsDead) {
    const int side = (i - kMeOpen) / 6, d = (i - kMeOpen) % 6 + 1;
    return std::string(side == 0 ? "me" : "opp") + ".open[" + std::to_string(d) + "]";
  }
  static const char* const kRollLabels[] = {"me.rolls.dead",  "opp.rolls.dead", "me.rolls.half",
                                            "opp.rolls.half", "me.rear.free",   "opp.rear.free"};
  static_assert(kMeRollsDead + 6 == kNumInputs);
  if (i >= kMeRollsDead && i < kNumInputs) return kRollLabels[i - kMeRollsDead];
  throw Error("encoder mobility-v1 has " + std::to_string(kNumInputs) + " inputs; no input " +
              std::to_string(i));
}

const Encoder& encoder() {
  static const MobilityEncoder kEncoder;
  return kEncoder;
}

}  // namespace nardy::mobility_v1
