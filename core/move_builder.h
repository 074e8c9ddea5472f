// core/move_builder.h — entering a legal move one checker step at a time (a clicking UI).
//
// A player who clicks checkers plays one die at a time: "24/18" with the 6, then "18/13" with
// the 5. build_move() takes the steps played so far and answers what may come next:
//  * every step is checked as a step of a turn (docs/rules.md "A turn": rule 2 no landing on
//    an opposing point, rule 3 the head allowance of the turn, rule 4 the six-block rule after
//    every step, rule 5 bearing off once all are home, overshoot only from the highest point),
//    exactly as core/movegen.cpp checks them;
//  * a step is offered only if the turn can still end in one of the legal results of the roll
//    (legal_moves(): rule 6, the dice obligation, and rule 7, results are distinct positions),
//    so the steps can be played in any order that the rules allow and nothing illegal can be
//    entered;
//  * the move is complete when the board equals a legal result; a pass is complete with no
//    steps. Every legal result can be reached this way (tests/core/move_builder_test.cpp).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/movegen.h"
#include "core/rules.h"

namespace nardy {

// One die played by one checker, in absolute points: `to` == 0 is borne off.
struct CheckerStep {
  int from = 0, to = 0, die = 0;
  bool operator==(const CheckerStep&) const = default;
};

struct MoveInProgress {
  Position board;                  // after the steps so far; the mover is still to move
  std::vector<int> dice_left;      // unplayed dice, highest first
  std::vector<CheckerStep> next;   // the steps that may be played now
  MoveList results;                // legal results of the roll, sorted by position
  std::vector<size_t> reachable;   // indices into `results` the turn can still end in
  std::optional<size_t> complete;  // index of the result equal to `board`, if any
};

// The state after playing `steps` from `pos` with `dice`. A step with die 0 takes the die
// implied by its points (for bearing off: the smallest unplayed die that is allowed). Throws
// Error for an invalid position or dice, or for a step that may not be played, naming the
// step ("step 2 '18/12': ...") and listing the steps that may. The opening rule is the
// caller's (Game::legal, opening_excludes_doubles).
MoveInProgress build_move(const Position& pos, Dice dice, const Rules& rules,
                          const std::vector<CheckerStep>& steps);

// Parses "24/18,18/13" or "24/18:6 6/off:5" (comma- or space-separated, optional ":DIE")
// into steps. Throws Error naming the bad item.
std::vector<CheckerStep> parse_checker_steps(std::string_view text);
std::string format_checker_step(const CheckerStep& s);  // "24/18:6", "3/off:5"

}  // namespace nardy
