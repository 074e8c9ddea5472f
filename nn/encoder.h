// nn/encoder.h — versioned encodings of a position into network inputs.
//
// Every encoder sees the position from the side to move ("me"), whatever its colour, and
// writes exactly num_inputs() floats into a caller-provided span (no allocation, no throw).
// An encoder is identified by "<name>-v<version>" (e.g. "raw-v1"); checkpoints store that id
// and refuse to load under another. Changing a layout means a new version, never an edit.
//
// Encoders (layouts are documented slot by slot, with named offsets, in nn/encoder_<name>.h,
// and checked by tests/nn/encoder_test.cpp):
//   raw-v1       (197 inputs) TD-Gammon-style: per point and side, count units >=1, >=2, >=3
//                and (n-3)/4; borne-off and head counts; whether the mover is White.
//   extended-v1  (215 inputs) raw-v1 plus Long Nardy features: pip counts and pip difference,
//                longest run and points held in front of the opponent's rearmost checker,
//                checkers home, points held, checkers still to pass, race/contact phase,
//                bear-off readiness.
//   mobility-v1  (233 inputs) extended-v1 plus, per side, the checkers each die can move, the
//                rolls that play no die or one of two, and the rolls that free the rearmost
//                checker.
//   reach-v1     (247 inputs) mobility-v1 plus, per side, the checkers facing runs of 3..6
//                opposing points, how far the rearmost checker gets on a roll, the rolls played
//                whole and the pips lost to unplayable dice.
//   zones-v1     (261 inputs) reach-v1 plus, per side, its open steps by quarter of its route,
//                its checkers with no open step, its head's checkers when no roll frees one,
//                and the pips of doubles it cannot play.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/position.h"

namespace nardy {

class Encoder {
 public:
  virtual ~Encoder() = default;
  virtual std::string name() const = 0;  // "raw"
  virtual int version() const = 0;       // 1
  virtual int num_inputs() const = 0;
  // Writes num_inputs() values for `pos` from the side to move. out.size() >= num_inputs().
  virtual void fill(const Position& pos, std::span<float> out) const = 0;
  // The inputs where fill(pos) differs from base_x = fill(base), for `base` with the same side
  // to move as `pos` (e.g. sibling results of one roll against the board before it, seen by the
  // same side): their indices in increasing order into rows[] and fill(pos)[i] - base_x[i] (one
  // float subtraction) into coef[]; returns their number. rows and coef hold num_inputs()
  // entries, scratch num_inputs() floats. The default fills pos into scratch and compares every
  // input; an encoder may override it with a cheaper way to the same result (raw-v1 compares
  // the boards). No allocation, no throw.
  virtual int fill_difference(const Position& base, std::span<const float> base_x,
                              const Position& pos, int* rows, float* coef,
                              std::span<float> scratch) const;
  // Writes fill(pos.with_side_to_move(~pos.side_to_move())) into `out` from x = fill(pos) and
  // returns true if the encoder can do that without the position (raw-v1: its halves swap, by
  // copying, so exactly the same values); returns false and leaves `out` alone otherwise (then
  // call fill()). The self-play trainer gets the board before a move, seen by the other side,
  // from the inputs it has already encoded. No allocation, no throw.
  virtual bool fill_other_side(std::span<const float> /*x*/, std::span<float> /*out*/) const {
    return false;
  }
  // The id of the encoder whose inputs are exactly this one's first inputs ("" if none):
  // extended-v1 extends raw-v1, mobility-v1 extends extended-v1, reach-v1 mobility-v1. A net
  // of that encoder becomes one of this with the same outputs (nn/net_widening.h,
  // with_encoder).
  virtual std::string extends() const { return ""; }
  // Human-readable label of input i ("me.point[r=24].count>=1", "pips.diff", ...).
  virtual std::string input_label(int i) const = 0;
  std::string id() const { return name() + "-v" + std::to_string(version()); }
};

// For an encoder's fill_difference: appends to rows[] and coef[] (from index `count`) each slot
// first + i, i < n, whose value f[i] differs from base_x[first + i], with the difference
// f[i] - base_x[first + i]; returns the new count. Branch-free: every slot is written, and
// kept only when it changed.
inline int append_changed_inputs(const float* f, int n, int first, const float* base_x, int* rows,
                                 float* coef, int count) {
  for (int i = 0; i < n; ++i) {
    const float d = f[i] - base_x[first + i];
    rows[count] = first + i;
    coef[count] = d;
    count += d != 0.0f;
  }
  return count;
}

// The encoder with this name ("raw", "extended") or id ("raw-v1"). Throws Error naming the
// known encoders otherwise. The returned object is immutable and shared.
const Encoder& encoder_by_name(std::string_view name_or_id);
std::vector<std::string> encoder_ids();
// Whether `e` is the encoder `base_id` or extends it, directly or through others.
bool encoder_extends(const Encoder& e, std::string_view base_id);

}  // namespace nardy
