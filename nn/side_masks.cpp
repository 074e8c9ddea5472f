#include "nn/side_masks.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "nn/bit_count.h"

namespace nardy {

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

}  // namespace nardy
