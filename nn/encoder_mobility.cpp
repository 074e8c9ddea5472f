#include "nn/encoder_mobility.h"

#include <bit>
#include <cstdint>

#include "core/error.h"
#include "nn/bit_count.h"
#include "nn/encoder_extension.h"
#include "nn/side_masks.h"

namespace nardy::mobility_v1 {
namespace {

constexpr int kNumFeatures = kNumInputs - kMeOpen;  // the slots after extended-v1's

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

// Its bit counts with the popcnt instruction where the CPU has it: 48 per position take ~13%
// off a 1-ply move (docs/performance.md).
using BothSides = PopcntTwins<SideMasks, both_sides<false>, both_sides<true>>;

// Writes the features of slots kMeOpen.. into f[0 .. kNumFeatures).
void fill_features(const Position& pos, float* f, BothSides::Fn both) {
  SideMasks side[2];
  side_masks(pos.mover_board().data(), &side[0], &side[1]);
  both(side, f);
}
void fill_features(const Position& pos, float* f) {
  static const BothSides::Fn both = BothSides::pick();
  fill_features(pos, f, both);
}

}  // namespace

void fill(const Position& pos, float* out) {
  extended_v1::fill(pos, out);
  fill_features(pos, out + kMeOpen);
}

void fill_portable(const Position& pos, float* out) {
  extended_v1::fill(pos, out);
  fill_features(pos, out + kMeOpen, BothSides::plain);
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
  static const ExtendingEncoder kEncoder(
      {"mobility", 1, &extended_v1::encoder(), kNumFeatures, mobility_v1::fill,
       [](const Position& pos, float* f) { fill_features(pos, f); }, label});
  return kEncoder;
}

}  // namespace nardy::mobility_v1
