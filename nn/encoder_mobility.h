// nn/encoder_mobility.h — the mobility-v1 encoding: extended-v1 plus what each side's dice can
// move.
//
// In Long Nardy nothing is hit: a side loses by being blocked, so what a position is worth
// depends on how many of its checkers each die can move and how often a roll plays nothing.
// Those are sums of products of two sides' point contents (a checker on r and no opposing
// checker on r - d), which a one-layer net of the board's units can only approximate; here they
// are inputs. Slots 0..214 are exactly extended-v1 (nn/encoder_extended.h), so a net of that
// encoder becomes one of this with the same outputs by zero weights on the new inputs
// (nn/net_widening.h, with_encoder). The rest, for "me" (the side to move) and "opp", each in
// its own route coordinates r (a step of d goes from r to r - d; docs/rules.md "A turn"):
//
// | slot      | label              | value                                                    |
// |-----------|--------------------|----------------------------------------------------------|
// | 215..220  | me.open[d]         | d = 1..6: my checkers that a single step of d can move   |
// |           |                    | inside the board (from r > d to r - d, a point with no   |
// |           |                    | opposing checker) / 15, the head counting as one checker |
// |           |                    | (rule 3: one checker leaves the head per turn)  (0 .. 1) |
// | 221..226  | opp.open[d]        | the same for the opponent                                |
// | 227       | me.rolls.dead      | of the 36 rolls, the fraction where no die has an open   |
// |           |                    | step (me.open[d] = 0 for each die d of the roll)          |
// | 228       | opp.rolls.dead     | the same for the opponent                                |
// | 229       | me.rolls.half      | the fraction of the 36 rolls that are not doubles and    |
// |           |                    | have an open step for exactly one of their two dice      |
// | 230       | opp.rolls.half     | the same for the opponent                                |
// | 231       | me.rear.free       | the fraction of the 36 rolls where my rearmost checker   |
// |           |                    | has an open step for one of the dice (0 with no checker  |
// |           |                    | on the board)                                            |
// | 232       | opp.rear.free      | the same for the opponent                                |
//
// 233 inputs, all in [-3, 3]. The counts ignore the six-block rule and bearing off (steps that
// leave the board): they are features for the net, not the legal moves (core/movegen.h).
#pragma once

#include <string>

#include "core/position.h"
#include "nn/encoder.h"
#include "nn/encoder_extended.h"

namespace nardy::mobility_v1 {

constexpr int kMeOpen = extended_v1::kNumInputs;  // 215: me.open[1], ..., me.open[6]
constexpr int kOppOpen = kMeOpen + 6;             // 221
constexpr int kMeRollsDead = kOppOpen + 6;        // 227
constexpr int kOppRollsDead = kMeRollsDead + 1;
constexpr int kMeRollsHalf = kOppRollsDead + 1;  // 229
constexpr int kOppRollsHalf = kMeRollsHalf + 1;
constexpr int kMeRearFree = kOppRollsHalf + 1;  // 231
constexpr int kOppRearFree = kMeRearFree + 1;
constexpr int kNumInputs = kOppRearFree + 1;  // 233

void fill(const Position& pos, float* out);
// fill's values computed without the popcnt instruction, which fill uses where the CPU has it:
// tests check that the two paths agree bit for bit on any machine.
void fill_portable(const Position& pos, float* out);
std::string label(int i);
const Encoder& encoder();

}  // namespace nardy::mobility_v1
