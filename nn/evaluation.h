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
// with s the logistic sigmoid. The TD(λ) kernels differentiate through this head. It is written
// twice, side by side below: evaluation_from_logits() for the float kernels, and the TorchScript
// text kEvaluationHeadTorchScript, from which the LibTorch module (nn/value_net_torch.cpp) and
// the Python interop (nardy.torch_interop.evaluation_head, through nardy._nardy) are compiled;
// tests/nn/value_net_test.cpp checks that the two agree.
#pragma once

#include <array>
#include <cmath>
#include <string>
#include <string_view>

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

// The head in TorchScript: the body of a function of logits `z` [N, K] (K = 3 or 4) returning
// [N, 5] = win, win_mars, lose_mars, draw, equity (the columns of a module's forward()).
inline constexpr std::string_view kEvaluationHeadTorchScript =
    "    win = torch.sigmoid(z[:, 0])\n"
    "    if z.size(1) >= 4:\n"
    "        draw = (1.0 - win) * torch.sigmoid(z[:, 3])\n"
    "    else:\n"
    "        draw = torch.zeros_like(win)\n"
    "    lose = 1.0 - win - draw\n"
    "    win_mars = win * torch.sigmoid(z[:, 1])\n"
    "    lose_mars = lose * torch.sigmoid(z[:, 2])\n"
    "    equity = win + win_mars - lose - lose_mars\n"
    "    return torch.stack([win, win_mars, lose_mars, draw, equity], dim=1)\n";

// A TorchScript definition of the head: `def SIGNATURE:` and the body above, e.g. signature
// "head(self, z: Tensor) -> Tensor" for a module method.
inline std::string evaluation_head_torchscript(std::string_view signature) {
  return "def " + std::string(signature) + ":\n" + std::string(kEvaluationHeadTorchScript);
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
