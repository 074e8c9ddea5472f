// nn/side_masks.h — both sides' checkers as point masks, the encoders' raw material.
//
// The features of mobility-v1 and reach-v1 (nn/encoder_mobility.h, nn/encoder_reach.h) are
// counts over products of the two sides' points: each side's masks in its own route
// coordinates, bit r-1 for route r, make them shifts, ands and bit counts (nn/bit_count.h).
#pragma once

#include <cstdint>

namespace nardy {

// One side's checkers in its own route coordinates: `plane[k]` holds bit k of each point's
// count (the head's counted as at most one: rule 3 lets one leave per turn), `held` the points
// it holds, and `blocked` the points the other side holds.
struct SideMasks {
  uint32_t plane[4] = {0, 0, 0, 0};
  uint32_t held = 0, blocked = 0;
};

// The masks of the side to move (`me`) and of the other side (`op`) from the mover's board
// (Position::mover_board: index r-1 for the mover's route r, the mover's checkers positive).
void side_masks(const int8_t* board, SideMasks* me, SideMasks* op);

}  // namespace nardy
