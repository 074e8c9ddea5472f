// nn/encoder_extension.h — an encoder whose inputs are another encoder's followed by features
// of its own: extended-v1 (raw-v1's), mobility-v1 (extended-v1's), reach-v1 (mobility-v1's) and
// zones-v1 (reach-v1's).
//
// The base's inputs come first, so a net of the base becomes one of the extension with the same
// outputs by zero weights on the new inputs (nn/net_widening.h, with_encoder). fill_difference
// is the base's difference for its slots, then the features of `pos` compared with base_x's:
// the same rows and coefficients as comparing the full encodings (Encoder::fill_difference's
// contract), with the base's cheaper way for its part. An extension of an extension may instead
// compute its base's features with its own in one pass (`features_after`: zones-v1 computes
// reach-v1's with its own from the same die steps); its difference then takes that earlier
// encoder's way for the slots before them.
#pragma once

#include <string>

#include "core/error.h"
#include "nn/encoder.h"

namespace nardy {

class ExtendingEncoder final : public Encoder {
 public:
  struct Spec {
    const char* name;  // "mobility"
    int version;       // 1
    const Encoder* base;
    int num_features;                           // inputs after features_after's
    void (*fill)(const Position&, float*);      // all num_inputs() values
    void (*features)(const Position&, float*);  // the num_features values after those
    std::string (*label)(int);                  // of input i; throws Error out of range
    // The encoder whose inputs come before `features` (base or one it extends; null: base).
    const Encoder* features_after = nullptr;
  };
  // Throws Error when the spec has more features than fill_difference's buffer holds, or when
  // features_after's inputs and the features end inside the base's inputs (no features of its
  // own). That features_after is the base or an encoder it extends is the spec's to keep.
  explicit ExtendingEncoder(const Spec& spec) : s_(spec) {
    if (!s_.features_after) s_.features_after = s_.base;
    if (s_.num_features < 1 || s_.num_features > kMaxFeatures)
      throw Error(std::string("encoder ") + s_.name + ": " + std::to_string(s_.num_features) +
                  " features after its base's inputs; 1.." + std::to_string(kMaxFeatures) + " fit");
    if (s_.features_after->num_inputs() + s_.num_features <= s_.base->num_inputs())
      throw Error(std::string("encoder ") + s_.name +
                  ": its features end inside its base's inputs");
  }

  std::string name() const override { return s_.name; }
  int version() const override { return s_.version; }
  int num_inputs() const override { return s_.features_after->num_inputs() + s_.num_features; }
  std::string extends() const override { return s_.base->id(); }
  void fill(const Position& pos, std::span<float> out) const override { s_.fill(pos, out.data()); }
  int fill_difference(const Position& base, std::span<const float> base_x, const Position& pos,
                      int* rows, float* coef, std::span<float> scratch) const override {
    if (base.side_to_move() != pos.side_to_move())
      return Encoder::fill_difference(base, base_x, pos, rows, coef, scratch);
    int count = s_.features_after->fill_difference(base, base_x, pos, rows, coef, scratch);
    float f[kMaxFeatures];
    s_.features(pos, f);
    return append_changed_inputs(f, s_.num_features, s_.features_after->num_inputs(), base_x.data(),
                                 rows, coef, count);
  }
  std::string input_label(int i) const override { return s_.label(i); }

  static constexpr int kMaxFeatures = 64;

 private:
  Spec s_;
};

}  // namespace nardy
