#include "nn/delta_merge.h"

#include <cstddef>
#include <vector>

#include "core/error.h"

namespace nardy {

namespace {

void merge_array(float* master, std::span<const float* const> copies, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    const float m = master[i];
    float delta = 0.0f;
    for (const float* c : copies) delta += c[i] - m;
    master[i] = m + delta;
  }
}

}  // namespace

void merge_deltas(ValueNet& master, std::span<const ValueNet> copies) {
  auto layers = master.layers();
  std::vector<std::vector<ValueNet::LayerView>> copy_layers;
  for (const ValueNet& c : copies) {
    if (!(c.shape() == master.shape()))
      throw Error("merge_deltas: a copy's shape differs from the master's");
    copy_layers.push_back(c.layers());
  }
  std::vector<const float*> ptrs(copies.size());
  for (size_t l = 0; l < layers.size(); ++l) {
    const size_t in = static_cast<size_t>(layers[l].in), out = static_cast<size_t>(layers[l].out);
    for (size_t t = 0; t < copies.size(); ++t) ptrs[t] = copy_layers[t][l].weight;
    merge_array(layers[l].weight, ptrs, in * out);
    for (size_t t = 0; t < copies.size(); ++t) ptrs[t] = copy_layers[t][l].bias;
    merge_array(layers[l].bias, ptrs, out);
  }
}

}  // namespace nardy
