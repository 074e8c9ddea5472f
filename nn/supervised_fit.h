// nn/supervised_fit.h — minibatch supervised training of a ValueNet on target probabilities.
//
// The net's forward() (nn/value_net.h: win, win_mars, lose_mars, draw, equity through the head of
// nn/evaluation.h) is fitted to target rows (win, win_mars, lose_mars, draw, for the side to
// move of each input row) with LibTorch's autograd and a torch::optim optimizer (Adam or SGD
// with momentum). Loss of a row: Σ_k (output_k - target_k)² over the four probabilities; an
// epoch's loss is the mean over its rows.
//
// Sibling groups (FitData::group: consecutive rows with the same id; nardy label --top writes
// a roll's best results as one): with sibling_weight = w > 0, each row's loss adds
// w · ((E - Ē) - (T - T̄))², E its output equity, T its target's, Ē and T̄ their means over
// its group: the error in how the row ranks against its siblings, which is all a move choice
// sees (a group of one adds 0). Minibatches then never split a group (the epoch's order
// shuffles groups, not rows), so a batch holds about `batch` rows.
//
// Each epoch visits the training rows once in an order shuffled by an Rng seeded from
// (seed, epoch) (core/random.h), so a fit is reproducible. After every epoch the held-out loss is
// measured; the parameters of the best held-out epoch (epoch 0 = the initial net) are kept, and
// the fit stops after `patience` epochs without improvement (early stopping) or `max_epochs`.
// With lr_drops = N > 0, the first N such plateaus do not stop it: training goes on from the
// best epoch's parameters with the learning rate multiplied by `lr_drop` (the optimizer's
// moments kept), `patience` epochs again.
// The net's parameters are updated in place (their storage never moves, so fast kernels bound
// to the net stay valid) and end as the best epoch's.
//
// Data parallelism (`nardy fit` on several ranks): with shards = S > 1 every minibatch is cut
// into S contiguous parts (whole sibling groups; block_of's split of its rows or groups), the
// gradient of each part's share of the batch loss ((rows of the part / rows of the batch) times
// its mean loss) is computed on its own, and the S gradients are added in part order before the
// optimizer's step. One process with shards = S computes every part in turn; S processes with
// `gather` each compute their `shard` and all-gather the others', then take the same step: the
// same weights, bit for bit, given the same LibTorch threads and BLAS threads per process
// (OpenBLAS's come from OMP_NUM_THREADS, which torchrun sets to 1 for each rank). (S = 1 is the plain
// fit; S > 1 differs from it only by the rounding of the parts' sum.) The held-out loss, and so
// early stopping, is measured in full by every process.
//
// Torch-free header; the implementation is nn/supervised_fit_torch.cpp.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "nn/value_net.h"

namespace nardy {

struct FitData {
  std::vector<float> inputs;   // rows of net.num_inputs()
  std::vector<float> targets;  // rows of 4: win, win_mars, lose_mars, draw
  std::vector<int64_t> group;  // per row, non-decreasing: sibling groups (empty: none)
  int64_t rows() const { return static_cast<int64_t>(targets.size() / 4); }
};

struct FitOptions {
  std::string optimizer = "adam";  // adam | sgd
  double lr = 1e-3;                // learning rate, > 0
  double momentum = 0.9;           // SGD momentum, [0, 1)
  double weight_decay = 0;         // L2 penalty, >= 0
  int batch = 256;                 // rows per minibatch, >= 1
  int max_epochs = 50;             // >= 1
  int patience = 3;                // epochs without a better held-out loss before stopping, >= 1
  int lr_drops = 0;                // plateaus met by lowering the lr instead of stopping, >= 0
  double lr_drop = 0.1;            // the lr's factor at each drop, (0, 1)
  double sibling_weight = 0;       // weight of the within-group equity term (see above), >= 0
  uint64_t seed = 1;               // minibatch order
  // ---- Data parallelism (see below) ----
  int shards = 1;  // parts of every minibatch, each with its own gradient, >= 1
  int shard = 0;   // with `gather`: the part this process computes, 0 .. shards - 1
  // An all-gather in part order (World::all_gather): every process passes its part's floats
  // and receives every part's. Empty: this process computes every part.
  std::function<void(std::span<const float> mine, std::span<float> all)> gather;
};

struct FitEpoch {
  int epoch = 0;          // 0: the initial net (no training)
  double train_loss = 0;  // mean over the epoch's minibatches as trained (epoch 0: measured)
  double heldout_loss = 0;
  bool best = false;  // the best held-out loss so far
  double lr = 0;      // the learning rate the epoch trained at
};

struct FitResult {
  std::vector<FitEpoch> epochs;  // epoch 0 first
  int best_epoch = 0;
  bool stopped_early = false;
  int lr_drops = 0;  // plateaus met by a lower learning rate
  double best_heldout() const { return epochs.at(static_cast<size_t>(best_epoch)).heldout_loss; }
};

// Fits `net` (any shape) to `train`, choosing the parameters by `heldout` (which must be
// non-empty). Calls `on_epoch` after every epoch (may be empty). Throws Error for bad options
// or data whose row sizes do not match the net.
FitResult fit_value_net(ValueNet& net, const FitData& train, const FitData& heldout,
                        const FitOptions& options,
                        const std::function<void(const FitEpoch&)>& on_epoch = {});

// The order in which epoch `epoch` (1, 2, ...) visits rows 0..n-1: a Fisher-Yates shuffle by an
// Rng seeded from (seed, epoch). Shared by every minibatch fit (this one, nn/luck_fit.h).
std::vector<int64_t> epoch_order(int64_t n, uint64_t seed, int epoch);

// The loss (as above, mean over rows) of `net` on `data`, through LibTorch.
double fit_loss(const ValueNet& net, const FitData& data);

}  // namespace nardy
