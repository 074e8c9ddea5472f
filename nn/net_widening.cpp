// nn/net_widening.cpp — see net_widening.h.
#include "nn/net_widening.h"

#include <algorithm>
#include <string>

#include "core/error.h"
#include "core/printable.h"
#include "nn/encoder.h"

namespace nardy {

ValueNet widen_net(const ValueNet& net, const std::vector<int>& hidden, uint64_t seed) {
  const NetShape& old_shape = net.shape();
  const std::string what = "widen: hidden widths '" + hidden_name(hidden) + "' for a net of '" +
                           hidden_name(old_shape.hidden) + "'";
  if (hidden.size() != old_shape.hidden.size())
    throw Error(what + ": give one width per hidden layer (" +
                std::to_string(old_shape.hidden.size()) + ")");
  for (size_t i = 0; i < hidden.size(); ++i) {
    if (hidden[i] < old_shape.hidden[i])
      throw Error(what + ": layer " + std::to_string(i + 1) + " cannot shrink");
    if (hidden[i] > kMaxHiddenUnits)
      throw Error(what + ": at most " + std::to_string(kMaxHiddenUnits) + " units per layer");
  }
  NetShape shape = old_shape;
  shape.hidden = hidden;
  ValueNet wide = ValueNet::create(shape, seed);
  const auto from = net.layers();
  auto to = wide.layers();
  for (size_t l = 0; l < to.size(); ++l) {
    const auto& f = from[l];
    auto& t = to[l];
    // Rows are inputs (old ones first), columns units. Old unit <- old input: the original
    // weight; old unit <- new input: 0; new unit <- any input: the fresh weight.
    for (int i = 0; i < t.in; ++i)
      for (int j = 0; j < f.out; ++j)
        t.weight[static_cast<size_t>(i) * t.out + j] =
            i < f.in ? f.weight[static_cast<size_t>(i) * f.out + j] : 0.0f;
    std::copy(f.bias, f.bias + f.out, t.bias);
  }
  wide.set_info(net.info());
  return wide;
}

ValueNet with_encoder(const ValueNet& net, const std::string& encoder) {
  const Encoder& to_encoder = encoder_by_name(encoder);
  const std::string from = net.shape().encoder;
  if (to_encoder.id() == from) return net;
  if (!encoder_extends(to_encoder, from))
    throw Error("encoder " + quote(to_encoder.id()) + " does not extend the net's encoder " +
                quote(from) + ", so the net's weights cannot carry over (a fresh net can have " +
                "any encoder)");
  NetShape shape = net.shape();
  shape.encoder = to_encoder.id();
  ValueNet out = ValueNet::create(shape, 1);
  const auto old_layers = net.layers();
  auto new_layers = out.layers();
  for (size_t l = 0; l < new_layers.size(); ++l) {
    const auto& f = old_layers[l];
    auto& t = new_layers[l];
    // Rows are inputs: the old inputs' rows as they were, the new inputs' rows zero.
    const size_t kept = static_cast<size_t>(f.in) * f.out;
    std::copy(f.weight, f.weight + kept, t.weight);
    std::fill(t.weight + kept, t.weight + static_cast<size_t>(t.in) * t.out, 0.0f);
    std::copy(f.bias, f.bias + f.out, t.bias);
  }
  out.set_info(net.info());
  return out;
}

ValueNet with_draw_output(const ValueNet& net, float draw_bias) {
  if (net.shape().num_outputs != 3)
    throw Error("draw output: the net has " + std::to_string(net.shape().num_outputs) +
                " outputs already (expected 3)");
  NetShape shape = net.shape();
  shape.num_outputs = 4;
  ValueNet out = ValueNet::create(shape, 1);
  const auto from = net.layers();
  auto to = out.layers();
  for (size_t l = 0; l < to.size(); ++l) {
    const auto& f = from[l];
    auto& t = to[l];
    for (int i = 0; i < t.in; ++i)
      for (int j = 0; j < t.out; ++j)
        t.weight[static_cast<size_t>(i) * t.out + j] =
            j < f.out ? f.weight[static_cast<size_t>(i) * f.out + j] : 0.0f;
    for (int j = 0; j < t.out; ++j) t.bias[j] = j < f.out ? f.bias[j] : draw_bias;
  }
  out.set_info(net.info());
  return out;
}

}  // namespace nardy
