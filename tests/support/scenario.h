// tests/support/scenario.h — helpers for Given/When/Then scenario tests.
//
// board({{24, 14}, {13, 1}}, {{12, 15}}, Side::Black) builds a position from White's and
// Black's {point, count} lists (absolute points 1..24; checkers not listed are borne off),
// and checks that it is valid. legal_notations() and legal_positions() give the legal results
// of a roll as sorted text, so a test states the exact expected set.
#pragma once

#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "core/position.h"
#include "core/rules.h"
#include "core/types.h"

namespace nardy::testing {

using PointCounts = std::initializer_list<std::pair<int, int>>;

// A valid position with the given White and Black checkers; throws Error if it is invalid.
Position board(PointCounts white, PointCounts black, Side to_move);

// Rules with one variant changed from the defaults, e.g. with_rule("head_exception", "strict").
Rules with_rule(const std::string& key, const std::string& value);

// The canonical notations of all legal results, sorted ("pass" for a pass).
std::vector<std::string> legal_notations(const Position& pos, Dice dice, const Rules& rules = {});

// The POS text of all legal results, sorted.
std::vector<std::string> legal_positions(const Position& pos, Dice dice, const Rules& rules = {});

// The position after the legal move written as `notation` (throws Error if it is not legal).
Position after(const Position& pos, Dice dice, const std::string& notation,
               const Rules& rules = {});

// Whether `notation` is a legal move of `dice` from `pos`.
bool is_legal(const Position& pos, Dice dice, const std::string& notation, const Rules& rules = {});

}  // namespace nardy::testing
