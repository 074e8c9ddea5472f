#include "nn/delta_merge.h"

#include <vector>

#include "core/error.h"

namespace nardy {

size_t parameter_count(const ValueNet& net) {
  size_t n = 0;
  for (const auto& l : net.layers())
    n += static_cast<size_t>(l.in) * static_cast<size_t>(l.out) + static_cast<size_t>(l.out);
  return n;
}

void write_delta(const ValueNet& master, const ValueNet& copy, std::span<float> out) {
  if (!(copy.shape() == master.shape()))
    throw Error("write_delta: the copy's shape differs from the master's");
  if (out.size() != parameter_count(master))
    throw Error("write_delta: buffer of " + std::to_string(out.size()) + " floats for " +
                std::to_string(parameter_count(master)) + " parameters");
  const auto m = master.layers(), c = copy.layers();
  size_t k = 0;
  for (size_t l = 0; l < m.size(); ++l) {
    const size_t weights = static_cast<size_t>(m[l].in) * static_cast<size_t>(m[l].out);
    for (size_t i = 0; i < weights; ++i) out[k++] = c[l].weight[i] - m[l].weight[i];
    for (size_t i = 0; i < static_cast<size_t>(m[l].out); ++i)
      out[k++] = c[l].bias[i] - m[l].bias[i];
  }
}

void add_deltas(ValueNet& master, std::span<const float> deltas) {
  const size_t n = parameter_count(master);
  if (deltas.size() % n != 0)
    throw Error("add_deltas: " + std::to_string(deltas.size()) +
                " floats are not whole deltas of " + std::to_string(n) + " parameters");
  const size_t copies = deltas.size() / n;
  auto merge_array = [&](float* p, size_t count, size_t offset) {
    for (size_t i = 0; i < count; ++i) {
      float delta = 0.0f;
      for (size_t t = 0; t < copies; ++t) delta += deltas[t * n + offset + i];
      p[i] += delta;
    }
  };
  size_t offset = 0;
  for (auto& l : master.layers()) {
    const size_t weights = static_cast<size_t>(l.in) * static_cast<size_t>(l.out);
    merge_array(l.weight, weights, offset);
    offset += weights;
    merge_array(l.bias, static_cast<size_t>(l.out), offset);
    offset += static_cast<size_t>(l.out);
  }
}

void merge_deltas(ValueNet& master, std::span<const ValueNet> copies) {
  const size_t n = parameter_count(master);
  std::vector<float> deltas(copies.size() * n);
  for (size_t t = 0; t < copies.size(); ++t) {
    if (!(copies[t].shape() == master.shape()))
      throw Error("merge_deltas: a copy's shape differs from the master's");
    write_delta(master, copies[t], std::span<float>(deltas).subspan(t * n, n));
  }
  add_deltas(master, deltas);
}

}  // namespace nardy
