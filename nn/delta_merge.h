// nn/delta_merge.h — folds the changes of private net copies back into the master net.
//
// Synchronous data-parallel training (selfplay/training/td_workers.h): every worker starts a round
// from a copy of the master parameters θ, trains its copy to θ_t, and at the end of the round
//   θ ← θ + Σ_t (θ_t − θ)          element-wise, t in the order given
// so every worker's updates count in full, as if applied one after the other to θ. The sum
// runs in a fixed order, so the merged net does not depend on which worker finished first.
//
// The changes can also travel as flat float buffers (workers in other processes send theirs,
// selfplay/distributed/world.h): write_delta() lays out θ_t − θ, parameters in layer order
// (w0, b0, w1, b1, ...; weights [in][out]), and add_deltas() sums such buffers in order with
// exactly the float operations of merge_deltas(), so both give the same bits.
#pragma once

#include <cstddef>
#include <span>

#include "nn/value_net.h"

namespace nardy {

// Adds each copy's difference to `master` into `master`; the copies are not changed.
// Throws Error if a copy's shape differs from the master's.
void merge_deltas(ValueNet& master, std::span<const ValueNet> copies);

// Number of parameters of `net` (the length of one delta buffer).
size_t parameter_count(const ValueNet& net);
// out = copy − master, element-wise, in layer order. Throws Error if the shapes differ or
// out.size() != parameter_count(master).
void write_delta(const ValueNet& master, const ValueNet& copy, std::span<float> out);
// master ← master + Σ_t deltas_t for the deltas laid one after another in `deltas`
// (k · parameter_count(master) floats for k deltas), t in order. Throws Error if the size is not
// a multiple of parameter_count(master).
void add_deltas(ValueNet& master, std::span<const float> deltas);

}  // namespace nardy
