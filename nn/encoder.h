// nn/encoder.h — versioned encodings of a position into network inputs.
//
// Every encoder sees the position from the side to move ("me"), whatever its colour, and
// writes exactly num_inputs() floats into a caller-provided span (no allocation, no throw).
// An encoder is identified by "<name>-v<version>" (e.g. "raw-v1"); checkpoints store that id
// and refuse to load under another. Changing a layout means a new version, never an edit.
//
// Encoders (layouts are documented slot by slot in their .cpp files' tables and checked by
// tests/nn/encoder_test.cpp):
//   raw-v1       TD-Gammon-style: per point and side, occupancy/count units; borne-off and
//                head counts; side to move.
//   extended-v1  raw-v1 plus Long Nardy features: pip counts and pip difference, blocks and the
//                longest run in front of the opponent's rearmost checkers, checkers on the
//                head, checkers home, race/contact phase.
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
  // Human-readable label of input i ("me.point[r=24].count>=1", "pips.diff", ...).
  virtual std::string input_label(int i) const = 0;
  std::string id() const { return name() + "-v" + std::to_string(version()); }
};

// The encoder with this name ("raw", "extended") or id ("raw-v1"). Throws Error naming the
// known encoders otherwise. The returned object is immutable and shared.
const Encoder& encoder_by_name(std::string_view name_or_id);
std::vector<std::string> encoder_ids();

}  // namespace nardy
