// nn/net_widening.h — a net made wider without changing what it computes.
//
// widen_net(net, hidden, seed) returns a new net with the same encoder, activation and outputs
// and the same number of hidden layers, hidden layer i having hidden[i] >= its old width. The
// old units keep their weights and biases. A new unit takes fresh weights on its inputs (those
// ValueNet::create(shape, seed) gives the wider shape) and sends weight 0 into every old unit of
// the next layer and into the outputs, so the wider net's outputs equal the original's for every
// input: the extra terms are exact zeros. Fitting it (nardy fit --init CKPT --widen W) then uses
// the new units from where the original stands (Net2Net's function-preserving widening; here
// with zero outgoing weights instead of split units, so no unit's role is duplicated).
//
// The result carries the original's CheckpointInfo. Throws Error naming the widths when
// `hidden` has another number of layers than the net, or a width below the net's or above
// kMaxHiddenUnits.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "nn/value_net.h"

namespace nardy {

ValueNet widen_net(const ValueNet& net, const std::vector<int>& hidden, uint64_t seed);

// The net with inputs of `encoder` (a name or id), which must extend the net's encoder
// (nn/encoder.h, Encoder::extends: the old inputs are the new one's first ones): every weight
// and bias kept, the new inputs with weight 0 into every first-layer unit, so the outputs equal
// the original's for every position and a fit (nardy fit --init CKPT --encoder E) starts from
// its values. The same net when it already has that encoder. Throws Error naming both encoders
// otherwise.
ValueNet with_encoder(const ValueNet& net, const std::string& encoder);

// A net of 3 outputs (no draws) given the draw output of rules with last_roll_draw
// (nn/evaluation.h: draw = (1 - win) s(z3)): every weight and bias kept, the new logit z3 with
// zero weights and bias `draw_bias`, so win, win_mars and the equity's other terms stay the
// original's and the draw probability starts at (1 - win) s(draw_bias) everywhere (-6: 0.25%
// of the side's non-wins, which a fit to draw-rule labels then learns). Throws Error unless
// the net has 3 outputs.
ValueNet with_draw_output(const ValueNet& net, float draw_bias = -6.0f);

}  // namespace nardy
