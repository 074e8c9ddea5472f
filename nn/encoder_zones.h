// nn/encoder_zones.h — the zones-v1 encoding: reach-v1 plus where each side's mobility lies,
// its stuck checkers, its blocked head and its doubles.
//
// mobility-v1 counts a side's open steps over the whole board; a step of a rear checker that
// still has to pass the other side is worth more than one in the home. reach-v1 judges the
// rearmost checker alone, while the head holds up to 15 that leave one per turn. Those are
// again products of the two sides' points; here they are inputs. Slots 0..246 are exactly
// reach-v1, so a net of that encoder becomes one of this with the same outputs by zero weights
// on the new inputs (nn/net_widening.h, with_encoder). The rest, for "me" (the side to move) and
// "opp", each in its own route coordinates r, a step of d open when it ends on a point the other
// side does not hold, or past the board when all the side's checkers are home
// (nn/reach_steps.h):
//
// | slot      | label              | value                                                    |
// |-----------|--------------------|----------------------------------------------------------|
// | 247..250  | me.open.zone[z]    | z = 0..3 for r in 19..24, 13..18, 7..12, 1..6: the open  |
// |           |                    | single steps of my checkers there, summed over the dice  |
// |           |                    | d = 1..6 (the head counting as one checker) / 90 (0..1)  |
// | 251..254  | opp.open.zone[z]   | the same for the opponent                                |
// | 255       | me.head.blocked    | my checkers on the head / 15 times the fraction of the   |
// |           |                    | 36 rolls with which none can leave it, using both dice   |
// |           |                    | or a double's steps through open points        (0..1)    |
// | 256       | opp.head.blocked   | the same for the opponent                                |
// | 257       | me.stuck           | my checkers (the head as one) with no open step of any   |
// |           |                    | die / 15                                       (0..1)    |
// | 258       | opp.stuck          | the same for the opponent                                |
// | 259       | me.doubles.lost    | the pips of the six doubles I cannot play (reach-v1's    |
// |           |                    | pips lost), summed / 84 (all six doubles' pips) (0..1)   |
// | 260       | opp.doubles.lost   | the same for the opponent                                |
//
// 261 inputs, all in [-3, 3]. As reach-v1's, these ignore the six-block rule and the order of
// bearing off: features for the net, not the legal moves (core/movegen.h).
#pragma once

#include <string>

#include "core/position.h"
#include "nn/encoder.h"
#include "nn/encoder_reach.h"

namespace nardy::zones_v1 {

constexpr int kNumZones = 4;
constexpr int kMeOpenZone = reach_v1::kNumInputs;         // 247: me.open.zone[0..3]
constexpr int kOppOpenZone = kMeOpenZone + kNumZones;     // 251
constexpr int kMeHeadBlocked = kOppOpenZone + kNumZones;  // 255
constexpr int kOppHeadBlocked = kMeHeadBlocked + 1;
constexpr int kMeStuck = kOppHeadBlocked + 1;  // 257
constexpr int kOppStuck = kMeStuck + 1;
constexpr int kMeDoublesLost = kOppStuck + 1;  // 259
constexpr int kOppDoublesLost = kMeDoublesLost + 1;
constexpr int kNumInputs = kOppDoublesLost + 1;  // 261

void fill(const Position& pos, float* out);
// fill's values computed without the popcnt instruction, which fill uses where the CPU has it:
// tests check that the two paths agree bit for bit on any machine.
void fill_portable(const Position& pos, float* out);
std::string label(int i);
const Encoder& encoder();

}  // namespace nardy::zones_v1
