// core/movegen.h — legal moves: the distinct positions a roll can lead to.
//
// Contract (docs/rules.md "A turn"):
//  * generate_moves() fills `out` with every distinct resulting position of playing `dice`
//    from `pos` (rule 7: two ways of playing that end alike are one move). Each result has
//    the opponent to move and carries one canonical step sequence for its notation.
//  * Results come in a deterministic order (depth-first over dice order, then from the
//    mover's rearmost checker forward); sorted_by_position() gives an order independent of the
//    algorithm, which the CLI and Python use.
//  * There is always at least one result: when nothing can be played the single result is the
//    same board with the other side to move (a pass, zero steps). A position whose mover has
//    no checkers left also yields a pass.
//  * The head rule (3), the six-block rule after every step (4), bearing off with overshoot
//    and the re-check after every step (5), the dice obligation (6) and the immediate end of
//    the turn when the last checker leaves (6) are all applied here.
//  * No allocation once `out` has grown to its working size; no exceptions. `pos` must be
//    valid (Position::is_ok()).
//
// Bound on results: a non-double has at most 15 * 15 * 2 step pairs; a double distributes four
// steps over at most 15 occupied points, so at most C(15 + 4 - 1, 4) = 3060 multisets of
// starting points. MoveList grows dynamically and is meant to be reused across calls.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/position.h"
#include "core/rules.h"
#include "core/types.h"

namespace nardy {

// One die played by one checker, in the mover's route coordinates: from r (1..24) to
// r - die, with to == 0 meaning borne off (an overshooting die also writes to == 0).
struct Step {
  uint8_t from = 0, to = 0;
  bool operator==(const Step&) const = default;
};

// The steps of one turn in the order played; num_steps == 0 is a pass.
struct Move {
  std::array<Step, 4> steps{};
  uint8_t num_steps = 0;
  Side side = Side::White;  // the mover, to translate route coordinates to points
};

struct MoveResult {
  Position position;  // after the move, opponent to move
  Move move;
};

using MoveList = std::vector<MoveResult>;

// Clears `out` and fills it with the legal results (see the contract above).
void generate_moves(const Position& pos, Dice dice, const Rules& rules, MoveList& out);

// Convenience for callers off the hot path.
MoveList legal_moves(const Position& pos, Dice dice, const Rules& rules);

// Orders results by their absolute board, then side (a canonical, algorithm-free order).
void sort_by_position(MoveList& moves);

// How many checkers may leave the head this turn (docs/rules.md rule 3, with `head_exception`).
int head_allowance(const Position& pos, Dice dice, const Rules& rules);

}  // namespace nardy
