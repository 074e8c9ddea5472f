// nn/evaluation.h — outcome probabilities and equity, and how network outputs map to them.
//
// An Evaluation is always from one side's point of view (the side to move unless a function
// says otherwise). Probabilities are consistent by construction:
//   0 <= win_mars <= win,   0 <= lose_mars <= lose = 1 - win - draw.
// Equity is the expected points for that side: a single win (oin) +1, mars +2, draw 0.
//
// Network head (shared by the LibTorch module and the float kernels): the last layer gives
// logits z[0..K-1], K = 3 (no draws) or 4 (rules with last_roll_draw):
//   win       = s(z0)
//   draw      = (1 - win) * s(z3)            (K = 4; else 0)
//   lose      = 1 - win - draw
//   win_mars  = win  * s(z1)
//   lose_mars = lose * s(z2)
// with s the logistic sigmoid. The TD(λ) kernels differentiate through this head.
#pragma once

#include <array>
#include <cmath>

#include "core/game.h"

namespace nardy {

struct Evaluation {
  float win = 0.5f;
  float win_mars = 0.0f;
  float lose_mars = 0.0f;
  float draw = 0.0f;

  float lose() const { return 1.0f - win - draw; }
  // Expected points: (win - win_mars) + 2 win_mars - (lose - lose_mars) - 2 lose_mars.
  float equity() const { return win + win_mars - lose() - lose_mars; }
  // The same evaluation from the other side's point of view.
  Evaluation flipped() const { return Evaluation{lose(), lose_mars, win_mars, draw}; }
  // The four probabilities as a vector (win, win_mars, lose_mars, draw).
  std::array<float, 4> as_array() const { return {win, win_mars, lose_mars, draw}; }
};

inline float logistic(float z) {
  return 1.0f / (1.0f + std::exp(-z));
}

// Applies the head to K logits (K = 3 or 4).
inline Evaluation evaluation_from_logits(const float* z, int k) {
  Evaluation e;
  e.win = logistic(z[0]);
  e.draw = k >= 4 ? (1.0f - e.win) * logistic(z[3]) : 0.0f;
  const float lose = 1.0f - e.win - e.draw;
  e.win_mars = e.win * logistic(z[1]);
  e.lose_mars = lose * logistic(z[2]);
  return e;
}

// The finished game as a target in White's perspective (TD(λ)'s last target): 1 for what
// happened, 0 for the rest.
inline Evaluation outcome_target(const Outcome& outcome) {
  Evaluation t{0.0f, 0.0f, 0.0f, 0.0f};
  if (outcome.is_draw()) {
    t.draw = 1.0f;
  } else if (*outcome.winner == Side::White) {
    t.win = 1.0f;
    t.win_mars = outcome.is_mars() ? 1.0f : 0.0f;
  } else {
    t.lose_mars = outcome.is_mars() ? 1.0f : 0.0f;
  }
  return t;
}

}  // namespace nardy
