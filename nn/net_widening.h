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
#include <vector>

#include "nn/value_net.h"

namespace nardy {

ValueNet widen_net(const ValueNet& net, const std::vector<int>& hidden, uint64_t seed);

}  // namespace nardy
