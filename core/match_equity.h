// core/match_equity.h — match winning chances by dynamic programming, and what each outcome of a
// game is worth at a given match score.
//
// With no doubling cube, a game of a match ends in one of five outcomes (White oin, White mars,
// Black oin, Black mars, draw under last_roll_draw), and the match score after it is fixed by
// the outcome (core/match.h). Given a per-game outcome model — the probabilities of the five
// outcomes of a whole game from the start, from White's view — the chance that player 0 wins
// the match from any score is exact by dynamic programming over the states
//     (half points player 0 needs, half points player 1 needs, who plays White next)
// with MWC(state) = Σ_outcomes P(outcome) · MWC(state after the outcome), 1 or 0 once the match
// is decided. Every outcome lowers the needs, so the recursion ends, except for draws once both
// players are tied at the target (docs: core/match.h): there the next decisive game wins, and
// the two states (who is White) solve a 2×2 linear system in closed form.
//
// Score-aware play (selfplay/search/net_agent.h): during a game, the chance of winning the match
// is linear in the game's outcome probabilities, Σ_o P(o) · MWC(score after o). GameStakes holds
// those five MWCs for each colour, so a net agent chooses moves by MWC instead of equity (points)
// with no change to its evaluation. Where it matters: a player who needs one point or less gains
// nothing from a mars; at 2-away vs 1-away, the trailer's mars wins the match while an oin only
// ties it at 1-away each, and the leader's lost oin ties while a lost mars loses the match.
//
// The default outcome model (GameOutcomeModel::self_play()) is the measured outcome frequencies
// of strong self-play; its figures and the command that measures them are in the definition.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "core/match.h"

namespace nardy {

// Probabilities of the outcomes of one game from the start, from White's view. Non-negative,
// summing to 1 (draw = 0 when rules have no last_roll_draw).
struct GameOutcomeModel {
  double white_oin = 0, white_mars = 0, black_oin = 0, black_mars = 0, draw = 0;

  // Measured outcome frequencies of strong self-play (see match_equity.cpp for the figures and
  // the command). Without last_roll_draw, draw is 0.
  static GameOutcomeModel self_play(const Rules& rules = {});
  // Throws Error naming the problem unless the probabilities are >= 0, sum to 1 (±1e-6) and
  // draw < 1.
  void validate() const;
  std::string to_string() const;  // "white_oin=0.4 white_mars=0.1 ..."
};

// What each outcome of the current game is worth to one side: its player's match winning chance
// after the outcome. A money game (score-blind, points) is {1, 2, -1, -2, 0}.
struct OutcomeValues {
  double win_oin = 1, win_mars = 2, lose_oin = -1, lose_mars = -2, draw = 0;
  // The value of a game with these outcome probabilities (for the same side): win, win_mars
  // (<= win), lose_mars (<= lose = 1 - win - draw) and draw, as in nn/evaluation.h.
  double value(double win, double win_mars, double lose_mars, double draw) const {
    const double lose = 1.0 - win - draw;
    return (win - win_mars) * win_oin + win_mars * this->win_mars + (lose - lose_mars) * lose_oin +
           lose_mars * this->lose_mars + draw * this->draw;
  }
  bool operator==(const OutcomeValues&) const = default;
};

// The stakes of the current game of a match, for each colour.
struct GameStakes {
  OutcomeValues white, black;
  const OutcomeValues& for_side(Side s) const { return s == Side::White ? white : black; }
};

class MatchEquityTable {
 public:
  // Every state of a match to `target` (1..kMaxMatchTarget). Throws Error on a bad model.
  MatchEquityTable(int target, const GameOutcomeModel& model, const Rules& rules);

  int target() const { return target_; }
  const GameOutcomeModel& model() const { return model_; }
  // Player 0's chance to win the match from `score` (before the next game; 1 or 0 when over).
  // The score's target must be this table's.
  double player0_wins(const MatchScore& score) const;
  // `player`'s chance to win the match from `score`.
  double wins(const MatchScore& score, int player) const;
  // What the outcomes of the game about to be played at `score` are worth to each colour.
  GameStakes stakes(const MatchScore& score) const;

 private:
  double state(int need0, int need1, int white) const;
  int target_;
  GameOutcomeModel model_;
  Rules rules_;
  std::array<double, 2> tied_;  // both tied at the target, by who plays White next
  std::vector<double> table_;   // [need0][need1][white], needs 1..2·target
};

}  // namespace nardy
