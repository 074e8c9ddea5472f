// nn/delta_merge.h — folds the changes of private net copies back into the master net.
//
// Synchronous data-parallel training (selfplay/training/td_workers.h): every worker starts a round
// from a copy of the master parameters θ, trains its copy to θ_t, and at the end of the round
//   θ ← θ + Σ_t (θ_t − θ)          element-wise, t in the order given
// so every worker's updates count in full, as if applied one after the other to θ. The sum
// runs in a fixed order, so the merged net does not depend on which worker finished first.
#pragma once

#include <span>

#include "nn/value_net.h"

namespace nardy {

// Adds each copy's difference to `master` into `master`; the copies are not changed.
// Throws Error if a copy's shape differs from the master's.
void merge_deltas(ValueNet& master, std::span<const ValueNet> copies);

}  // namespace nardy
