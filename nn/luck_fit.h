// nn/luck_fit.h — minibatch training of a luck MLP: from a position's inputs to the luck of
// each of the 21 distinct rolls (selfplay/evaluation/luck_head.h uses the result).
//
// The MLP: inputs (an encoder's, nn/encoder.h) -> hidden layers of ReLU units -> 21 x 4 linear
// outputs p[r][o] (o = win, win_mars, lose_mars, draw, the mover's view), centred over the
// rolls: c[r] = p[r] − Σ_r' w(r') p[r'], w = kDistinctRolls' 36ths. Loss of a row, against its
// targets t[r][o] (each roll's deviation of the mover's best value from the mean over the
// rolls):
//     Σ_r w(r) ( Σ_o (c[r][o] − t[r][o])² + (Δeq(c[r]) − Δeq(t[r]))² ),
//     Δeq = 2 Δwin + Δwin_mars + Δdraw − Δlose_mars  (the equity's change, nn/evaluation.h)
// averaged over rows. LibTorch's autograd and Adam; every epoch visits the training rows in an
// order shuffled by an Rng seeded from (seed, epoch); after each epoch the held-out loss is
// measured and the best epoch's parameters are kept; `patience` epochs without improvement stop
// the fit. Reproducible for the same seed and LibTorch thread count.
//
// Torch-free header; the implementation is nn/luck_fit_torch.cpp.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

namespace nardy {

constexpr int kLuckRolls = 21;
constexpr int kLuckOutputs = 4;  // win, win_mars, lose_mars, draw
constexpr int kLuckTargets = kLuckRolls * kLuckOutputs;

struct LuckFitData {
  int num_inputs = 0;
  std::vector<float> inputs;   // rows of num_inputs
  std::vector<float> targets;  // rows of kLuckTargets, roll-major (r * 4 + o)
  int64_t rows() const { return static_cast<int64_t>(targets.size() / kLuckTargets); }
};

// The trained MLP's parameters, layer after layer (the last maps to kLuckTargets outputs, not
// yet centred): weight[l] is [in_l][out_l] row-major (input-major, as nn/value_net.h), bias[l]
// is [out_l].
struct LuckMlp {
  int num_inputs = 0;
  std::vector<int> hidden;
  std::vector<std::vector<float>> weight, bias;
};

struct LuckTrainOptions {
  std::vector<int> hidden = {256, 256};
  double lr = 1e-3;
  int batch = 512;
  int max_epochs = 30;
  int patience = 3;
  uint64_t seed = 1;
};

struct LuckEpoch {
  int epoch = 0;          // 1, 2, ...
  double train_loss = 0;  // mean over the epoch's minibatches as trained
  double heldout_loss = 0;
  double heldout_explained = 0;  // 1 − Σ w (Δeq error)² / Σ w Δeq² on the held-out rows
  bool best = false;
};

// Trains an MLP on `train`, keeping the epoch best on `heldout` (non-empty). Calls `on_epoch`
// after every epoch (may be empty). Throws Error for bad options or mismatched data.
LuckMlp train_luck_mlp(const LuckFitData& train, const LuckFitData& heldout,
                       const LuckTrainOptions& options, std::vector<LuckEpoch>* epochs = nullptr,
                       const std::function<void(const LuckEpoch&)>& on_epoch = {});

}  // namespace nardy
