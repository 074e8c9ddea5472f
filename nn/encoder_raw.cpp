#include "nn/encoder_raw.h"

#include <array>
#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "core/error.h"

namespace nardy::raw_v1 {
namespace {

// The four point units for a count n = 0..15 (see the table in encoder_raw.h).
struct PointUnits {
  std::array<std::array<float, kUnitsPerPoint>, kNumCheckers + 1> by_count{};
  constexpr PointUnits() {
    for (int n = 0; n <= kNumCheckers; ++n) {
      by_count[n][0] = n >= 1 ? 1.0f : 0.0f;
      by_count[n][1] = n >= 2 ? 1.0f : 0.0f;
      by_count[n][2] = n >= 3 ? 1.0f : 0.0f;
      by_count[n][3] = n > 3 ? static_cast<float>(n - 3) / 4.0f : 0.0f;
    }
  }
};
constexpr PointUnits kPointUnits;

class RawEncoder final : public Encoder {
 public:
  std::string name() const override { return "raw"; }
  int version() const override { return 1; }
  int num_inputs() const override { return kNumInputs; }
  void fill(const Position& pos, std::span<float> out) const override {
    raw_v1::fill(pos, out.data());
  }
  int fill_difference(const Position& base, std::span<const float> base_x, const Position& pos,
                      int* rows, float* coef, std::span<float> scratch) const override {
    if (base.side_to_move() != pos.side_to_move())
      return Encoder::fill_difference(base, base_x, pos, rows, coef, scratch);
    return raw_v1::fill_difference(base, base_x.data(), pos, rows, coef);
  }
  bool fill_other_side(std::span<const float> x, std::span<float> out) const override {
    raw_v1::fill_other_side(x.data(), out.data());
    return true;
  }
  std::string input_label(int i) const override { return label(i); }
};

// The five values from kMeOff on (off and head counts, the colour unit).
void fill_counts(const Position& pos, float* out) {
  const auto& board = pos.mover_board();
  constexpr float kInv15 = 1.0f / kNumCheckers;
  out[0] = pos.own_off() * kInv15;
  out[1] = pos.opp_off() * kInv15;
  const int head_me = board[kHeadRoute - 1];
  const int head_opp = board[opponent_route(kHeadRoute) - 1];
  out[2] = (head_me > 0 ? head_me : 0) * kInv15;
  out[3] = (head_opp < 0 ? -head_opp : 0) * kInv15;
  out[4] = pos.side_to_move() == Side::White ? 1.0f : 0.0f;
}
static_assert(kOppOff == kMeOff + 1 && kMeHead == kMeOff + 2 && kOppHead == kMeOff + 3 &&
              kMoverIsWhite == kMeOff + 4 && kNumInputs == kMeOff + 5);

// The units that differ between counts `was` and `now` of a point: num of them, in increasing
// unit order u[], with the differences d[] = units(now) - units(was) (the one float subtraction
// fill_difference makes, since base_x holds units(was) there).
struct UnitChange {
  int num = 0;
  int u[kUnitsPerPoint] = {};
  float d[kUnitsPerPoint] = {};
};
struct UnitChanges {
  UnitChange by[kNumCheckers + 1][kNumCheckers + 1];
  constexpr UnitChanges() : by() {
    for (int was = 0; was <= kNumCheckers; ++was)
      for (int now = 0; now <= kNumCheckers; ++now) {
        UnitChange& c = by[was][now];
        for (int u = 0; u < kUnitsPerPoint; ++u) {
          const float d = kPointUnits.by_count[now][u] - kPointUnits.by_count[was][u];
          if (d == 0.0f) continue;
          c.u[c.num] = u;
          c.d[c.num] = d;
          ++c.num;
        }
      }
  }
};
constexpr UnitChanges kUnitChanges;

// Appends the units at slots first..first+3 that differ between counts was and now. Writes
// four entries (the unused ones are overwritten later or lie past the returned count).
inline int add_units(int first, int was, int now, int* rows, float* coef, int count) {
  const UnitChange& c = kUnitChanges.by[was][now];
  for (int i = 0; i < kUnitsPerPoint; ++i) {
    rows[count + i] = first + c.u[i];
    coef[count + i] = c.d[i];
  }
  return count + c.num;
}

// Bit i of me / opp: the mover's / the opponent's count at board index i differs between boards
// a and b (24 signed counts each).
inline void changed_points(const int8_t* a, const int8_t* b, uint32_t& me, uint32_t& opp) {
  static_assert(kNumPoints == 24);
#if defined(__SSE2__)
  // Two 16-byte halves (the second holds indices 16..23 in its low 8 bytes); each count split
  // into its positive and negative part (x & (x > 0), x & (x < 0)) and compared bytewise.
  const __m128i zero = _mm_setzero_si128();
  const auto half = [&](__m128i x, __m128i y, uint32_t& m_me, uint32_t& m_opp) {
    const __m128i px = _mm_and_si128(x, _mm_cmpgt_epi8(x, zero));
    const __m128i py = _mm_and_si128(y, _mm_cmpgt_epi8(y, zero));
    const __m128i nx = _mm_and_si128(x, _mm_cmplt_epi8(x, zero));
    const __m128i ny = _mm_and_si128(y, _mm_cmplt_epi8(y, zero));
    m_me = ~static_cast<uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(px, py))) & 0xFFFFu;
    m_opp = ~static_cast<uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(nx, ny))) & 0xFFFFu;
  };
  uint32_t me_lo, opp_lo, me_hi, opp_hi;
  half(_mm_loadu_si128(reinterpret_cast<const __m128i*>(a)),
       _mm_loadu_si128(reinterpret_cast<const __m128i*>(b)), me_lo, opp_lo);
  half(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(a + 16)),
       _mm_loadl_epi64(reinterpret_cast<const __m128i*>(b + 16)), me_hi, opp_hi);
  me = me_lo | (me_hi & 0xFFu) << 16;
  opp = opp_lo | (opp_hi & 0xFFu) << 16;
#else
  me = opp = 0;
  for (int i = 0; i < kNumPoints; ++i) {
    const int was = a[i], v = b[i];
    me |= static_cast<uint32_t>((was > 0 ? was : 0) != (v > 0 ? v : 0)) << i;
    opp |= static_cast<uint32_t>((was < 0 ? -was : 0) != (v < 0 ? -v : 0)) << i;
  }
#endif
}

}  // namespace

int fill_difference(const Position& base, const float* base_x, const Position& pos, int* rows,
                    float* coef) {
  const auto& a = base.mover_board();
  const auto& b = pos.mover_board();
  // Bit r-1: my count on route point r changed; bit q-1 of opp: the opponent's count on its
  // route point q. Found without branches (a move changes a few points at unpredictable
  // places), then visited in increasing r and q, which is increasing input order (my slots come
  // before the opponent's).
  uint32_t me, opp;
  changed_points(a.data(), b.data(), me, opp);
  static_assert(kNumPoints == 24 && opponent_route(1) == 13);
  opp = ((opp << 12) | (opp >> 12)) & 0xFFFFFFu;  // board index r-1 to q-1, q = opponent_route(r)
  // base_x = fill(base) (Encoder::fill_difference's contract): its point units are those of
  // base's counts, so the differences come from a table of count pairs.
  int count = 0;
  for (; me; me &= me - 1) {
    const int r = __builtin_ctz(me) + 1;
    const int was = a[r - 1], now = b[r - 1];
    count = add_units(me_point_slot(r, 0), was > 0 ? was : 0, now > 0 ? now : 0, rows, coef, count);
  }
  for (; opp; opp &= opp - 1) {
    const int q = __builtin_ctz(opp) + 1;
    const int was = a[opponent_route(q) - 1], now = b[opponent_route(q) - 1];
    count =
        add_units(opp_point_slot(q, 0), was < 0 ? -was : 0, now < 0 ? -now : 0, rows, coef, count);
  }
  float counts[5];
  fill_counts(pos, counts);
  for (int i = 0; i < 5; ++i) {
    const float d = counts[i] - base_x[kMeOff + i];
    rows[count] = kMeOff + i;
    coef[count] = d;
    count += d != 0.0f;
  }
  return count;
}

void fill(const Position& pos, float* out) {
  const auto& board = pos.mover_board();
  // Board index r fills my units of route r and the opponent's units of its route
  // q = opponent_route(r); both maps are bijections, so every point slot is written once.
  for (int r = 1; r <= kNumPoints; ++r) {
    const int v = board[r - 1];
    const int n_me = v > 0 ? v : 0;
    const int n_opp = v < 0 ? -v : 0;
    std::memcpy(out + me_point_slot(r, 0), kPointUnits.by_count[n_me].data(),
                sizeof(float) * kUnitsPerPoint);
    std::memcpy(out + opp_point_slot(opponent_route(r), 0), kPointUnits.by_count[n_opp].data(),
                sizeof(float) * kUnitsPerPoint);
  }
  fill_counts(pos, out + kMeOff);
}

void fill_other_side(const float* x, float* out) {
  // My units of my route r are the other side's opponent units of its opponent's route r.
  static_assert(kOppPoints - kMePoints == kMeOff - kOppPoints);
  constexpr size_t kHalf = sizeof(float) * (kOppPoints - kMePoints);
  std::memcpy(out + kMePoints, x + kOppPoints, kHalf);
  std::memcpy(out + kOppPoints, x + kMePoints, kHalf);
  out[kMeOff] = x[kOppOff];
  out[kOppOff] = x[kMeOff];
  out[kMeHead] = x[kOppHead];
  out[kOppHead] = x[kMeHead];
  out[kMoverIsWhite] = x[kMoverIsWhite] == 1.0f ? 0.0f : 1.0f;
}

std::string label(int i) {
  static const char* kUnitNames[kUnitsPerPoint] = {"count>=1", "count>=2", "count>=3", "extra"};
  if (i >= kMePoints && i < kMeOff) {
    const bool opp = i >= kOppPoints;
    const int k = i - (opp ? kOppPoints : kMePoints);
    return std::string(opp ? "opp" : "me") + ".point[r=" + std::to_string(k / kUnitsPerPoint + 1) +
           "]." + kUnitNames[k % kUnitsPerPoint];
  }
  switch (i) {
    case kMeOff:
      return "me.off";
    case kOppOff:
      return "opp.off";
    case kMeHead:
      return "me.head";
    case kOppHead:
      return "opp.head";
    case kMoverIsWhite:
      return "mover_is_white";
    default:
      throw Error("encoder raw-v1 has " + std::to_string(kNumInputs) + " inputs; no input " +
                  std::to_string(i));
  }
}

const Encoder& encoder() {
  static const RawEncoder kEncoder;
  return kEncoder;
}

}  // namespace nardy::raw_v1
