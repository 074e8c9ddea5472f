#include "nn/encoder_reach.h"

#include "core/error.h"
#include "nn/encoder_extension.h"
#include "nn/reach_features.h"

namespace nardy::reach_v1 {
namespace {

using namespace reach_steps;

constexpr int kNumFeatures = kNumInputs - kMeTrapped;  // the slots after mobility-v1's

// Both sides' features into f[0 .. kNumFeatures).
template <bool kPopcnt>
[[gnu::always_inline]] inline void both_sides(const ReachSide* side, float* f) {
  for (int s = 0; s < 2; ++s)
    reach_side_features<kPopcnt>(
        side[s], die_steps(side[s]),
        {f + 4 * s, f + (kMeRearReach - kMeTrapped) + s, f + (kMeRollsFull - kMeTrapped) + s,
         f + (kMePipsLost - kMeTrapped) + s});
}

// Its bit counts with the popcnt instruction where the CPU has it.
using Features = ReachFeatures<both_sides<false>, both_sides<true>>;

}  // namespace

void fill(const Position& pos, float* out) {
  mobility_v1::fill(pos, out);
  Features::fill(pos, out + kMeTrapped);
}

void fill_portable(const Position& pos, float* out) {
  mobility_v1::fill_portable(pos, out);
  Features::fill_portable(pos, out + kMeTrapped);
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
      {"reach", 1, &mobility_v1::encoder(), kNumFeatures, reach_v1::fill, Features::fill, label});
  return kEncoder;
}

}  // namespace nardy::reach_v1
