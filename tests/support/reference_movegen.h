// tests/support/reference_movegen.h — a deliberately simple legal-move generator for tests.
//
// Written from docs/rules.md alone, sharing no code with core/movegen.cpp (only the Position, Dice
// and Rules value types are reused to take input and return results). It works in absolute
// point numbers with each side's route as an explicit list of points (White 24..1, Black
// 12..1, 24..13), enumerates every single-step sequence recursively (both orders of a
// non-double, all four steps of a double), checks every rule naively after every step, and
// then applies the dice obligation. It is slow on purpose: the fast generator is compared
// against it on many sampled positions (tests/core/movegen_reference_test.cpp).
//
// Rule by rule (docs/rules.md "A turn"):
//  2. a step lands exactly die points further along the mover's route on a point without an
//     opposing checker; a checker never passes its own route end except by bearing off;
//  3. at most one checker leaves the head per turn; two under head_exception=standard when the
//     turn starts with all 15 on the head and the roll is 6-6, 4-4 or 3-3; under strict only if
//     a lone head checker stepping that number is stopped first by the opponent's head point;
//  4. after every step the mover may not hold six points in a row along the opponent's route
//     unless an opposing checker is further along that route than the block or one is off;
//  5. bearing off only while all of the mover's remaining checkers are home (re-checked after
//     each step): a die equal to the distance to the route end, or larger when the checker is
//     on the highest occupied home point;
//  6. as many dice as possible; a non-double with only one die playable plays the larger if
//     it can; bearing off the last checker ends the turn and counts as using every die;
//  7. results are the distinct resulting positions (opponent to move); none playable = pass.
#pragma once

#include <array>
#include <vector>

#include "core/position.h"
#include "core/rules.h"
#include "core/types.h"

namespace nardy::testing {

// Which rules decided something during one reference_results() call: the comparison tests
// add these up to show that their samples exercise every rule.
struct ReferenceNotes {
  long head_rule_stops = 0;      // steps refused because a checker already left the head
  long head_exception = 0;       // calls where two checkers could leave the head
  long block_stops = 0;          // steps refused because they would make a forbidden block
  long allowed_blocks = 0;       // steps that made a six-block allowed by a checker past it
  long closed_point_stops = 0;   // steps refused by an opposing checker
  long exact_bear_offs = 0;      // bear-offs with the die equal to the distance
  long overshoot_bear_offs = 0;  // bear-offs from the highest point with a larger die
  long overshoot_stops = 0;      // larger dice refused because a checker is further back
  long game_ends = 0;            // sequences that bore off the last checker
  long partial = 0;              // calls where fewer dice than rolled could be played (no end)
  long larger_die_only = 0;      // calls where the larger-die rule removed results
  long smaller_die_only = 0;     // calls where only the smaller die of a non-double could move
  long passes = 0;               // calls where nothing could be played
  void add(const ReferenceNotes& o);
};

// The distinct positions (opponent to move) that `dice` can lead to from `pos`, sorted by
// absolute board. A pass yields the one position with the same board and the other side to
// move. `pos` must be valid. `notes`, if given, is added to.
std::vector<Position> reference_results(const Position& pos, Dice dice, const Rules& rules,
                                        ReferenceNotes* notes = nullptr);

// How many checkers may leave the head this turn by the reference reading of rule 3.
int reference_head_allowance(const Position& pos, Dice dice, const Rules& rules);

// Whether side `s` holds a six-block that rule 4 forbids in `pos` (naive scan of all runs).
bool reference_has_forbidden_block(const Position& pos, Side s);

// The points of side s's route in order: element 0 is the head, 18..23 the home, 23 the last.
const std::array<int, kNumPoints>& reference_route(Side s);
// The index (0..23) of `point` in reference_route(s).
int route_index_of(Side s, int point);

}  // namespace nardy::testing
