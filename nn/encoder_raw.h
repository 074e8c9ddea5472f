// nn/encoder_raw.h — the raw-v1 encoding: TD-Gammon's board units adapted to Long Nardy.
//
// Everything is seen from the side to move ("me"); the opponent's checkers are indexed by the
// opponent's OWN route coordinate q (q = 24 its head, 1..6 its home), so both halves of the
// board encoding read alike and a position and its colour-mirrored twin encode identically
// (except the colour unit).
//
// | slots       | label                              | value                                    |
// |-------------|------------------------------------|------------------------------------------|
// | 0 + 4(r-1)  | me.point[r=R].count>=1             | 1 if I have >= 1 checker on my route r    |
// | 1 + 4(r-1)  | me.point[r=R].count>=2             | 1 if >= 2                                |
// | 2 + 4(r-1)  | me.point[r=R].count>=3             | 1 if >= 3                                |
// | 3 + 4(r-1)  | me.point[r=R].extra                | max(0, n - 3) / 4   (0 .. 3)             |
// | 96 + 4(q-1) | opp.point[r=Q].{...}               | the same four units for the opponent's    |
// |             |                                    | checkers on its own route q              |
// | 192         | me.off                             | my borne-off checkers / 15               |
// | 193         | opp.off                            | opponent's borne-off checkers / 15       |
// | 194         | me.head                            | my checkers on my head (r = 24) / 15     |
// | 195         | opp.head                           | opponent's checkers on its head / 15     |
// | 196         | mover_is_white                     | 1 if the side to move is White, else 0   |
//
// 197 inputs, all in [0, 3]. TD-Gammon (Tesauro 1992) used (n - 3) / 2 for the fourth unit;
// Long Nardy stacks up to 15 on the head, so the slope is halved to keep it within [0, 3].
// The colour unit matters only under last_roll_draw (White finishing first gives Black one
// more turn); the board units are colour-blind.
#pragma once

#include <span>
#include <string>

#include "core/position.h"
#include "nn/encoder.h"

namespace nardy::raw_v1 {

constexpr int kUnitsPerPoint = 4;
constexpr int kMePoints = 0;                                         // 96 slots
constexpr int kOppPoints = kMePoints + kNumPoints * kUnitsPerPoint;  // 96 slots
constexpr int kMeOff = kOppPoints + kNumPoints * kUnitsPerPoint;     // 192
constexpr int kOppOff = kMeOff + 1;
constexpr int kMeHead = kOppOff + 1;
constexpr int kOppHead = kMeHead + 1;
constexpr int kMoverIsWhite = kOppHead + 1;    // 196
constexpr int kNumInputs = kMoverIsWhite + 1;  // 197

// Slot of unit u (0..3) of my point r / the opponent's point q (own route coordinates).
constexpr int me_point_slot(int r, int u) {
  return kMePoints + (r - 1) * kUnitsPerPoint + u;
}
constexpr int opp_point_slot(int q, int u) {
  return kOppPoints + (q - 1) * kUnitsPerPoint + u;
}

// Writes kNumInputs values into out[0 .. kNumInputs).
void fill(const Position& pos, float* out);
// Encoder::fill_difference for raw-v1: only the units of points whose count changed between
// `base` and `pos` (their differences from a table of count pairs) and the five counts from
// kMeOff on are compared (a move changes a few points). The same rows and coefficients as
// comparing fill(pos) with base_x = fill(base) input by input.
int fill_difference(const Position& base, const float* base_x, const Position& pos, int* rows,
                    float* coef);
// Encoder::fill_other_side for raw-v1: out = fill(pos seen by the other side) from x = fill(pos):
// the two sides' point units, off and head counts swap places and the colour unit flips.
void fill_other_side(const float* x, float* out);
std::string label(int i);
// The shared Encoder object (name "raw", version 1).
const Encoder& encoder();

}  // namespace nardy::raw_v1
