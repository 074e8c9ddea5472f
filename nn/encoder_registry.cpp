#include <array>
#include <string>

#include "core/error.h"
#include "nn/encoder.h"
#include "nn/encoder_extended.h"
#include "nn/encoder_mobility.h"
#include "nn/encoder_raw.h"
#include "nn/encoder_reach.h"
#include "nn/encoder_zones.h"

namespace nardy {
namespace {

// A function, not a namespace-scope array, so that other translation units' static
// initialisers may already look encoders up.
const std::array<const Encoder*, 5>& all_encoders() {
  static const std::array<const Encoder*, 5> kEncoders = {
      &raw_v1::encoder(), &extended_v1::encoder(), &mobility_v1::encoder(), &reach_v1::encoder(),
      &zones_v1::encoder()};
  return kEncoders;
}

}  // namespace

int Encoder::fill_difference(const Position&, std::span<const float> base_x, const Position& pos,
                             int* rows, float* coef, std::span<float> scratch) const {
  fill(pos, scratch);
  const int n = num_inputs();
  int count = 0;
  for (int i = 0; i < n; ++i) {
    const float d = scratch[i] - base_x[i];
    if (d != 0.0f) {
      rows[count] = i;
      coef[count] = d;
      ++count;
    }
  }
  return count;
}

const Encoder& encoder_by_name(std::string_view name_or_id) {
  for (const Encoder* e : all_encoders())
    if (name_or_id == e->name() || name_or_id == e->id()) return *e;
  std::string known;
  for (const Encoder* e : all_encoders()) known += (known.empty() ? "" : ", ") + e->id();
  throw Error("unknown encoder " + quote(name_or_id) + " (known: " + known + ")");
}

std::vector<std::string> encoder_ids() {
  std::vector<std::string> ids;
  for (const Encoder* e : all_encoders()) ids.push_back(e->id());
  return ids;
}

bool encoder_extends(const Encoder& e, std::string_view base_id) {
  for (const Encoder* x = &e;;) {
    if (x->id() == base_id) return true;
    const std::string next = x->extends();
    if (next.empty()) return false;
    x = &encoder_by_name(next);
  }
}

}  // namespace nardy
