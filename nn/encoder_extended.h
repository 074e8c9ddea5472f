// nn/encoder_extended.h — the extended-v1 encoding: raw-v1 plus cheap Long Nardy features.
//
// Slots 0..196 are exactly raw-v1 (nn/encoder_raw.h). The rest, from the side to move ("me"),
// with "opp" the same feature for the opponent (in its own route coordinates):
//
// | slot | label                 | value                                                       |
// |------|-----------------------|-------------------------------------------------------------|
// | 197  | me.pips               | my pip count / 360                        (0 .. 1)          |
// | 198  | opp.pips              | opponent's pip count / 360                (0 .. 1)          |
// | 199  | pips.diff             | (opp pips - my pips) / 120, my race lead  (-3 .. 3)         |
// | 200  | me.block.longest      | longest run of points I hold, consecutive along the         |
// |      |                       | opponent's route and in front of (below, in its route) its  |
// |      |                       | rearmost checker; min(run, 6) / 6          (0 .. 1)         |
// | 201  | opp.block.longest     | the same for the opponent against my rearmost checker       |
// | 202  | me.block.within6      | points I hold 1..6 pips in front of the opponent's rearmost |
// |      |                       | checker (along its route) / 6              (0 .. 1)         |
// | 203  | opp.block.within6     | the same for the opponent                                   |
// | 204  | me.block.within12     | points I hold 1..12 pips in front of it / 12  (0 .. 1)      |
// | 205  | opp.block.within12    | the same for the opponent                                   |
// | 206  | me.home               | my checkers in my home (r <= 6) / 15       (0 .. 1)         |
// | 207  | opp.home              | the opponent's checkers in its home / 15                    |
// | 208  | me.points_held        | points holding my checkers / 15            (0 .. 1)         |
// | 209  | opp.points_held       | points holding the opponent's checkers / 15                 |
// | 210  | me.behind             | my checkers that still have to pass an opposing checker     |
// |      |                       | (my route r above the lowest my-route of any opposing       |
// |      |                       | checker) / 15                              (0 .. 1)         |
// | 211  | opp.behind            | the same for the opponent                                   |
// | 212  | contact               | 1 if me.behind or opp.behind is non-zero, else 0 (race)     |
// | 213  | me.all_home           | 1 if all my checkers left on the board are home (I may bear |
// |      |                       | off), else 0                                                |
// | 214  | opp.all_home          | the same for the opponent                                   |
//
// 215 inputs, all in [-3, 3]. Checkers on the head are raw-v1's me.head / opp.head.
// "Contact" is judged on the current board: once both sides have all their checkers on their
// own routes 1..12 (each past the other's head half), neither can meet the other again.
#pragma once

#include <string>

#include "core/position.h"
#include "nn/encoder.h"
#include "nn/encoder_raw.h"

namespace nardy::extended_v1 {

constexpr int kMePips = raw_v1::kNumInputs;  // 197
constexpr int kOppPips = kMePips + 1;
constexpr int kPipsDiff = kOppPips + 1;
constexpr int kMeBlockLongest = kPipsDiff + 1;  // 200
constexpr int kOppBlockLongest = kMeBlockLongest + 1;
constexpr int kMeBlockWithin6 = kOppBlockLongest + 1;
constexpr int kOppBlockWithin6 = kMeBlockWithin6 + 1;
constexpr int kMeBlockWithin12 = kOppBlockWithin6 + 1;
constexpr int kOppBlockWithin12 = kMeBlockWithin12 + 1;
constexpr int kMeHome = kOppBlockWithin12 + 1;  // 206
constexpr int kOppHome = kMeHome + 1;
constexpr int kMePointsHeld = kOppHome + 1;
constexpr int kOppPointsHeld = kMePointsHeld + 1;
constexpr int kMeBehind = kOppPointsHeld + 1;  // 210
constexpr int kOppBehind = kMeBehind + 1;
constexpr int kContact = kOppBehind + 1;
constexpr int kMeAllHome = kContact + 1;
constexpr int kOppAllHome = kMeAllHome + 1;  // 214
constexpr int kNumInputs = kOppAllHome + 1;  // 215

void fill(const Position& pos, float* out);
std::string label(int i);
const Encoder& encoder();

}  // namespace nardy::extended_v1
