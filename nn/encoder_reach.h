// nn/encoder_reach.h — the reach-v1 encoding: mobility-v1 plus what a whole roll can do.
//
// mobility-v1 (nn/encoder_mobility.h) counts the single steps of each die. A roll is more than
// its dice apart: a checker can jump a block with both dice, a double needs four steps, and the
// dice a side cannot play are pips lost, its timing. And a block matters by whom it holds: the
// opposing checkers facing a run of k held points. Those are again products of the two sides'
// points, which the net's one layer can only approximate; here they are inputs. Slots 0..232
// are exactly mobility-v1, so a net of that encoder becomes one of this with the same outputs
// by zero weights on the new inputs (nn/net_widening.h, with_encoder). The rest, for "me" (the
// side to move) and "opp", each in its own route coordinates r (a step of d goes from r to
// r - d; docs/rules.md "A turn"), a point "open" to the side when the other side does not hold
// it, and the points past the board (r - d <= 0) open when all the side's checkers are home:
//
// | slot      | label              | value                                                    |
// |-----------|--------------------|----------------------------------------------------------|
// | 233..236  | me.trapped[k]      | k = 3..6: my checkers (the head's all) with a run of at  |
// |           |                    | least k points the opponent holds, consecutive along my  |
// |           |                    | route, starting 1..6 pips in front of them / 15  (0..1)  |
// | 237..240  | opp.trapped[k]     | the same for the opponent's checkers                     |
// | 241       | me.rear.reach      | how far my rearmost checker can move on a roll, using    |
// |           |                    | both dice (or up to four steps of a double) through open |
// |           |                    | points, averaged over the 36 rolls / 24          (0..1)  |
// | 242       | opp.rear.reach     | the same for the opponent                                |
// | 243       | me.rolls.full      | the fraction of the 36 rolls whose every die I can play  |
// |           |                    | (approximately, below)                           (0..1)  |
// | 244       | opp.rolls.full     | the same for the opponent                                |
// | 245       | me.pips.lost       | the pips of a roll I cannot play, averaged over the 36   |
// |           |                    | rolls, / 49/6 (the mean pips of a roll)          (0..1)  |
// | 246       | opp.pips.lost      | the same for the opponent                                |
//
// 247 inputs, all in [-3, 3]. The roll features judge a roll from the position before it,
// counting the head as one checker (rule 3): a double plays as many of its four steps as the
// chains of open points from each checker allow; other rolls play both dice when two checkers
// (or one through an open point) can, else the larger die that one can (rule 6),
// else none. They ignore the six-block rule and the order of bearing off (any checker home may
// leave with any die, and a side with fewer checkers than a double's four steps loses the rest):
// features for the net, not the legal moves (core/movegen.h).
#pragma once

#include <string>

#include "core/position.h"
#include "nn/encoder.h"
#include "nn/encoder_mobility.h"

namespace nardy::reach_v1 {

constexpr int kMeTrapped = mobility_v1::kNumInputs;  // 233: me.trapped[3], ..., me.trapped[6]
constexpr int kOppTrapped = kMeTrapped + 4;          // 237
constexpr int kMeRearReach = kOppTrapped + 4;        // 241
constexpr int kOppRearReach = kMeRearReach + 1;
constexpr int kMeRollsFull = kOppRearReach + 1;  // 243
constexpr int kOppRollsFull = kMeRollsFull + 1;
constexpr int kMePipsLost = kOppRollsFull + 1;  // 245
constexpr int kOppPipsLost = kMePipsLost + 1;
constexpr int kNumInputs = kOppPipsLost + 1;  // 247

void fill(const Position& pos, float* out);
// fill's values computed without the popcnt instruction, which fill uses where the CPU has it:
// tests check that the two paths agree bit for bit on any machine.
void fill_portable(const Position& pos, float* out);
std::string label(int i);
const Encoder& encoder();

}  // namespace nardy::reach_v1
