// core/record.h — game records: save a game as text and replay it.
//
// Format (one game; lines starting with '#' and blank lines are ignored):
//
//   nardy-record 1
//   rules opening=no_doubles head_exception=standard last_roll_draw=false next_game_starter=...
//   start 0,0,0,0,0,0,0,0,0,0,0,-15,0,0,0,0,0,0,0,0,0,0,0,15 w     (optional; default: the start)
//   white default:ply=1                          (optional: the players' names, rest of the line)
//   black heuristic
//   6-5 24/13
//   3-1 12/9 9/8
//   4-4 pass
//   ...
//   result white 2                                                   (optional; checked if present)
//
// One line per turn: the dice, a space, the move notation (core/notation.h). Replaying checks
// every move against the legal set; a result line must agree with the replayed game. Several
// records may follow each other in one file (read_records).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/game.h"

namespace nardy {

std::string write_record(const Game& game);
// Replays one record. Throws Error naming the line number and the problem; `line_offset` is
// added to the line numbers (for a record inside a larger file, e.g. a match record).
Game read_record(std::string_view text, int line_offset = 0);
// Splits a file of concatenated records at each "nardy-record" header and replays them all.
std::vector<Game> read_records(std::string_view text);

}  // namespace nardy
