#include "nn/encoder_raw.h"

#include <array>
#include <cstring>

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
  std::string input_label(int i) const override { return label(i); }
};

}  // namespace

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
  constexpr float kInv15 = 1.0f / kNumCheckers;
  out[kMeOff] = pos.own_off() * kInv15;
  out[kOppOff] = pos.opp_off() * kInv15;
  const int head_me = board[kHeadRoute - 1];
  const int head_opp = board[opponent_route(kHeadRoute) - 1];
  out[kMeHead] = (head_me > 0 ? head_me : 0) * kInv15;
  out[kOppHead] = (head_opp < 0 ? -head_opp : 0) * kInv15;
  out[kMoverIsWhite] = pos.side_to_move() == Side::White ? 1.0f : 0.0f;
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
