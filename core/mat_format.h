// core/mat_format.h — matches in the Jellyfish/gnubg `.mat` text format, as Long Nardy programs
// export them (docs/review.md ".mat files").
//
//   ; [Variation "LongNardy"]            (optional tags; nardy writes these three and reads
//   ; [Rules "opening=no_doubles ..."]    Rules and Player 1/2; other ';' lines are comments)
//   ; [Player 1 "alice"]
//
//    5 point match
//
//    Game 1
//    alice : 0                           bob : 0
//     1) 65: 24/13                       31: 24/20
//     2) 42: 24/20 13/11                 53: 24/19 20/17
//     ...
//    41) 66: 4/off 4/off 3/off 3/off
//                                       Wins 1 point
//
// Player 1 is the left column and nardy's player 0, player 2 the right column and player 1.
// Each turn is `DD: MOVES` (the dice as two digits, a colon, the checker paths; a pass is the
// dice alone). The paths are in the mover's own numbering — 24 its head, 1..6 its home, `off`
// borne off — which is nardy's route coordinate (core/types.h): White's numbers are the board's
// points, Black's point p is p + 12 (p <= 12) or p - 12. Paths may be written step by step
// (`24/18 18/13`), as chains (`24/18/13`) or with counts (`24/18(2)`); a `*` (a hit) or `bar`
// does not exist in Long Nardy.
//
// First turns: White always moves first (docs/rules.md), so in each game the player with the
// first move is White; the roll must obey the `opening` rule (a double first roll needs
// opening=any_roll) and who plays White must follow `next_game_starter`. Cube actions (Doubles,
// Takes, Drops) are refused: Long Nardy has no cube. A `Wins N point(s)` line is checked against
// the game's replayed outcome, the game header's scores against the match score. A draw
// (last_roll_draw) has no .mat form: writing one is an Error.
//
// Reading replays every move with the engine's move generation and throws Error naming the line
// and the reason for anything that does not replay legally under `rules` (the file's Rules tag
// wins over `rules` when present).
#pragma once

#include <string>
#include <string_view>

#include "core/match.h"

namespace nardy {

// True when `text` looks like a .mat file: its first line that is neither blank nor a ';'
// comment reads "N point match".
bool looks_like_mat(std::string_view text);

Match read_mat(std::string_view text, const Rules& rules = {});
std::string write_mat(const Match& match);

}  // namespace nardy
