// core/position_id.h — a short, URL-safe ID that round-trips a position exactly.
//
// Layout (79 bits, written as 14 base64url characters A-Z a-z 0-9 - _ ):
//   bit 0          side to move (0 White, 1 Black)
//   then White     for points in White's route order 24..1: n one-bits then a zero-bit
//   then Black     for points in Black's route order (route 24..1): n one-bits then a zero
//   then zero padding to 84 bits.
// Each side takes 24 zeros plus at most 15 ones, so at most 1 + 2 * 39 = 79 bits. Bits are
// packed six to a character, least significant first. Borne-off counts are implicit.
// parse_position_id() validates (alphabet, length, 24 points per side, at most 15 checkers,
// no point held by both colours, zero padding, no forbidden block) and throws Error.
#pragma once

#include <string>
#include <string_view>

#include "core/position.h"

namespace nardy {

std::string position_id(const Position& pos);
Position parse_position_id(std::string_view id);

}  // namespace nardy
