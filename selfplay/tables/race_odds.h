// selfplay/tables/race_odds.h — win and mars odds of a race from the two sides' turn distributions.
//
// In a race (race.h) the sides' futures are independent, so with the side to move's distributions
// T_a (turns to finish) and F_a (turns to its first checker off), and the opponent's T_b, F_b
// (bearoff_table.h; the opponent's turns counted from its next roll, which comes after the
// mover's), the outcome probabilities follow exactly (docs/rules.md "End of the game and
// scoring"; mars = the loser has borne off none):
//   win        = Σ_t P(T_a = t) P(T_b >= t)        the mover finishes on its t-th turn, the
//                                                   opponent has had t - 1
//   win mars   = Σ_t P(T_a = t) P(F_b >= t)
//   lose mars  = Σ_t P(T_b = t) P(F_a >= t + 1)    the opponent finishes on its t-th turn, the
//                                                   mover has had t
// Under `last_roll_draw` Black plays one more turn after White finishes, and finishing in it is a
// draw; mars is judged after it. With White to move: win = Σ P(T_a = t) P(T_b >= t + 1), draw =
// Σ P(T_a = t) P(T_b = t), win mars = Σ P(T_a = t) P(F_b >= t + 1). With Black to move: lose =
// Σ P(T_b = s) P(T_a >= s + 2), draw = Σ P(T_b = s) P(T_a = s + 1), lose mars = Σ P(T_b = s)
// P(F_a >= s + 2).
//
// The one approximation: each side plays every roll to minimise its own expected number of turns
// (to finish, or to its first checker off for the mars distributions), not to maximise its
// equity against the particular opponent; this is gnubg's approximation for one-sided tables.
#pragma once

#include "core/position.h"
#include "core/rules.h"
#include "selfplay/tables/bearoff_table.h"

namespace nardy {

// Outcome probabilities for the side to move.
struct RaceOdds {
  double win = 0, win_mars = 0, lose_mars = 0, draw = 0;
  double lose() const { return 1.0 - win - draw; }
  double equity() const { return win + win_mars - lose() - lose_mars; }
};

// The odds from the four distributions; `mover_is_white` and `last_roll_draw` select the
// formulas above.
RaceOdds race_odds(const TurnDistribution& mover_finish, const TurnDistribution& mover_first_off,
                   const TurnDistribution& opp_finish, const TurnDistribution& opp_first_off,
                   bool mover_is_white, bool last_roll_draw);

// The odds of a position the table covers (BearoffTable::covers), or empty if it does not.
std::optional<RaceOdds> race_odds(const BearoffTable& table, const Position& pos,
                                  const Rules& rules);

}  // namespace nardy
