// core/movegen.h — legal moves: the distinct positions a roll can lead to.
//
// Contract (docs/rules.md "A turn"):
//  * generate_moves() fills `out` with every distinct resulting position of playing `dice`
//    from `pos` (rule 7: two ways of playing that end alike are one move). Each result has
//    the opponent to move and carries one canonical step sequence for its notation.
//  * Results come in a deterministic order: that of their first appearance in a depth-first
//    search over the dice order (a non-double's larger die first, then its smaller die
//    first), then over the mover's checkers from the rearmost forward; each result carries the
//    steps of that first appearance. tests/core/movegen_order_test.cpp pins this output by
//    digest (the bench signature and seeded games depend on it). sort_by_position() gives an
//    order independent of the algorithm, which the CLI and Python use.
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
//
// Algorithm (core/movegen.cpp): one mutable board searched depth-first with apply/undo. The
// search keeps incrementally the mover's occupied points as bitmasks (a die's candidate steps
// are a few mask operations: rules 2, 3 and 5; rule 4 is a mask test against the six-runs
// forbidden this turn, position.h forbidden_windows(), computed once), the checkers outside
// home and on the board, the head allowance left, a key of the board and the board as the
// result will show it. The key is exact, not a hash (the mover's 24 counts as a 96-bit base-16
// number, updated by addition at every step): results are told apart by it. The last step's
// result is looked up by its key before it is played, and only new ones are written. Steps
// that only reorder a sequence met earlier are skipped before being played (a double's step
// from above its previous step, a non-double's larger die in the second dice order; the proof
// is at known_duplicates()). With those skips a double almost never meets a board twice
// before its last step (24 times in 5.0 million boards after two or three steps over the
// 20,500 games of `nardy bench movegen`), so there is no transposition set: a repeated board's
// results are all rejected by the results' key set. None of this changes which results come
// out, in which order, or with which steps.
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
