// core/notation.h — move notation in absolute point numbers.
//
// Canonical form written by format_move() (docs/rules.md rule 7):
//  * each checker's path is written from its first to its last point, intermediate landings
//    dropped: 24/18 then 18/13 by the same checker is `24/13`;
//  * bearing off is `6/off`;
//  * paths are ordered along the mover's route (rearmost first), and n identical paths are
//    written once with a count: `24/18(2)`;
//  * a turn with no legal step is `pass`.
// parse_notation() also accepts chains (`24/18/13`), any order and repeated paths written out;
// find_move() matches notation to a legal result by the position it produces, so every way of
// writing the same move is accepted.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/movegen.h"

namespace nardy {

std::string format_move(const Move& move);

// A checker's path in absolute points: from -> to, to == 0 means borne off.
struct PathMove {
  int from = 0, to = 0;
};

// Parses notation into paths (`pass` gives none). Throws Error on malformed text.
std::vector<PathMove> parse_notation(std::string_view text);

// The legal result of playing `notation` with `dice` from `pos`. Throws Error if the notation
// is malformed or does not describe a legal move (the message lists the legal moves when
// there are few).
MoveResult find_move(const Position& pos, Dice dice, const Rules& rules, std::string_view notation);

// Parses dice as "6-5", "65", "6 5" or "6,5". Throws Error naming the text otherwise.
Dice parse_dice(std::string_view text);
// Parses one die written as a single digit "1".."6" (a command-line or protocol field).
// Throws Error "die 'TEXT' is not 1..6" otherwise.
int parse_die(std::string_view text);
// Validates two die values (1..6). Throws Error naming the bad value otherwise.
Dice make_dice(int d1, int d2);
std::string format_dice(Dice dice);  // "6-5"

}  // namespace nardy
