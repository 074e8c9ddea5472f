#include "nn/encoder_zones.h"

#include "core/error.h"
#include "nn/bit_count.h"
#include "nn/encoder_extension.h"
#include "nn/reach_features.h"

namespace nardy::zones_v1 {
namespace {

using namespace reach_steps;

// reach-v1's features and these, computed in one pass: the slots after mobility-v1's.
constexpr int kNumFeatures = kNumInputs - reach_v1::kMeTrapped;
constexpr int kFirst = reach_v1::kMeTrapped;                       // f[i - kFirst] is slot i
constexpr float kAllDoublesPips = 4.0f * (1 + 2 + 3 + 4 + 5 + 6);  // 84

// One side's features: its open steps per zone (zone[0..3]), head.blocked, stuck and
// doubles.lost (from `lost`, the pips of the six doubles it cannot play).
template <bool kPopcnt>
[[gnu::always_inline]] inline void side_features(const ReachSide& s, const DieSteps& st, int lost,
                                                 float* zone, float* head_blocked, float* stuck,
                                                 float* doubles_lost) {
  int open[kNumZones] = {0, 0, 0, 0};
  uint32_t any_step = 0;
  for (int d = 1; d <= 6; ++d) {
    any_step |= st.can[d];
    for (int z = 0; z < kNumZones; ++z) {
      const uint32_t zone_bits = 0x3Fu << (kNumPoints - 6 * (z + 1));  // r in 19-6z .. 24-6z
      open[z] += movers<kPopcnt>(s, st.can[d] & zone_bits);
    }
  }
  for (int z = 0; z < kNumZones; ++z) zone[z] = static_cast<float>(open[z]) / 90.0f;
  *stuck = static_cast<float>(movers<kPopcnt>(s, s.held & ~any_step)) / kNumCheckers;
  // A head checker moves on a roll unless both dice's first steps, onto 23..18, are blocked
  // (reach_steps.h reach: with one open it makes at least that step): with c of the six
  // blocked, c * c of the 36 ordered rolls (c doubles, c (c - 1) others) free none.
  const int closed = count_bits<kPopcnt>((s.blocked >> (kHeadRoute - 7)) & 0x3Fu);
  const int blocked_rolls = s.head > 0 ? closed * closed : 0;
  *head_blocked =
      static_cast<float>(s.head) / kNumCheckers * (static_cast<float>(blocked_rolls) / 36.0f);
  *doubles_lost = static_cast<float>(lost) / kAllDoublesPips;
}

// Both sides' reach-v1 features and these into f[0 .. kNumFeatures), slot i at f[i - kFirst].
template <bool kPopcnt>
[[gnu::always_inline]] inline void both_sides(const ReachSide* side, float* f) {
  using namespace reach_v1;
  for (int s = 0; s < 2; ++s) {
    const DieSteps st = die_steps(side[s]);
    const int lost = reach_side_features<kPopcnt>(
        side[s], st,
        {f + (kMeTrapped - kFirst) + 4 * s, f + (kMeRearReach - kFirst) + s,
         f + (kMeRollsFull - kFirst) + s, f + (kMePipsLost - kFirst) + s});
    side_features<kPopcnt>(side[s], st, lost, f + (kMeOpenZone - kFirst) + kNumZones * s,
                           f + (kMeHeadBlocked - kFirst) + s, f + (kMeStuck - kFirst) + s,
                           f + (kMeDoublesLost - kFirst) + s);
  }
}

// Its bit counts with the popcnt instruction where the CPU has it.
using Features = ReachFeatures<both_sides<false>, both_sides<true>>;

}  // namespace

void fill(const Position& pos, float* out) {
  mobility_v1::fill(pos, out);
  Features::fill(pos, out + kFirst);
}

void fill_portable(const Position& pos, float* out) {
  mobility_v1::fill_portable(pos, out);
  Features::fill_portable(pos, out + kFirst);
}

std::string label(int i) {
  if (i >= 0 && i < reach_v1::kNumInputs) return reach_v1::label(i);
  if (i >= kMeOpenZone && i < kMeHeadBlocked) {
    const int side = (i - kMeOpenZone) / kNumZones, z = (i - kMeOpenZone) % kNumZones;
    return std::string(side == 0 ? "me" : "opp") + ".open.zone[" + std::to_string(z) + "]";
  }
  static const char* const kLabels[] = {"me.head.blocked", "opp.head.blocked", "me.stuck",
                                        "opp.stuck",       "me.doubles.lost",  "opp.doubles.lost"};
  static_assert(kMeHeadBlocked + 6 == kNumInputs);
  if (i >= kMeHeadBlocked && i < kNumInputs) return kLabels[i - kMeHeadBlocked];
  throw Error("encoder zones-v1 has " + std::to_string(kNumInputs) + " inputs; no input " +
              std::to_string(i));
}

const Encoder& encoder() {
  // Extends reach-v1; computes its features with its own (features_after mobility-v1).
  static const ExtendingEncoder kEncoder({"zones", 1, &reach_v1::encoder(), kNumFeatures,
                                          zones_v1::fill, Features::fill, label,
                                          &mobility_v1::encoder()});
  return kEncoder;
}

}  // namespace nardy::zones_v1
