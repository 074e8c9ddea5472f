// selfplay/tables/race.h — when a position is a race.
//
// Definition (docs/rules.md "Board and coordinates", rules 2 and 4): a position is a *race* when
// no checker of either side can ever again be blocked by, or block, the other. Both sides move
// the same way round the board, so this holds exactly when every checker of each side stands at
// its own route coordinate r <= 12 (White on points 1..12, Black on points 13..24):
//  * White's checkers then only ever visit points below their own (1..12) and Black's only
//    points 13..(their own), so no checker can land on, or pass, a point the other side holds or
//    will hold; any checker at r >= 13 has the whole other half — with the opponent's checkers
//    or their future path — still ahead of it (or an opponent still has to pass it).
//  * The six-block rule (rule 4) never applies: each side's blocks lie in the other's route
//    13..24, and every opposing checker is already past them (r <= 12), so every block is
//    allowed; and because checkers only move forward, this stays true for the rest of the game.
// A finished game is not a race. In a race each side's future is independent of the other's,
// which is what the one-sided tables (bearoff_table.h) exploit.
#pragma once

#include "core/position.h"

namespace nardy {

// The highest route coordinate side `s` occupies (0 when it has no checker on the board).
int highest_route(const Position& pos, Side s);

// True when `pos` is a race (see above) and neither side has borne off all its checkers.
bool is_race(const Position& pos);

}  // namespace nardy
