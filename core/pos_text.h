// core/pos_text.h — the POS text format and the board drawing.
//
// POS: 24 comma-separated signed integers for points 1..24 (positive White, negative Black),
// one space, then `w` or `b` for the side to move. Borne-off counts are 15 minus what is on the
// board. Start: "0,0,0,0,0,0,0,0,0,0,0,-15,0,0,0,0,0,0,0,0,0,0,0,15 w".
// parse_pos() validates fully (count of fields, integers, at most 15 checkers a side, no
// forbidden six-block, the side letter) and throws Error with a message naming the problem;
// format_pos() is its inverse.
#pragma once

#include <string>
#include <string_view>

#include "core/position.h"

namespace nardy {

Position parse_pos(std::string_view text);
std::string format_pos(const Position& pos);

// A position given either way: POS text (it has commas) or a 14-character position ID
// (core/position_id.h). What the command line and the HTTP API accept wherever they take a
// position; throws Error naming the text and the problem.
Position parse_position(std::string_view text);

// A text drawing of the board for terminals: points numbered, both colours (W/B with counts),
// borne-off counts and pip counts, the side to move.
std::string draw_board(const Position& pos);

}  // namespace nardy
