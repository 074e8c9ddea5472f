// Luck MLP training with LibTorch autograd and Adam (nn/luck_fit.h).
#include <torch/torch.h>

#include <cmath>

#include "core/error.h"
#include "core/types.h"
#include "nn/luck_fit.h"
#include "nn/supervised_fit.h"

namespace nardy {
namespace {

torch::Tensor as_tensor(const std::vector<float>& v, int64_t rows, int64_t cols) {
  return torch::from_blob(const_cast<float*>(v.data()), {rows, cols}, torch::kFloat32).clone();
}

torch::Tensor roll_weights() {
  std::vector<float> w(kLuckRolls);
  for (int r = 0; r < kLuckRolls; ++r)
    w[static_cast<size_t>(r)] = kDistinctRolls[r].weight36 / 36.0f;
  return torch::from_blob(w.data(), {1, kLuckRolls}, torch::kFloat32).clone();
}

struct Mlp : torch::nn::Module {
  std::vector<torch::nn::Linear> layers;
  Mlp(int in, const std::vector<int>& hidden) {
    int d = in;
    for (size_t l = 0; l <= hidden.size(); ++l) {
      const int out = l < hidden.size() ? hidden[l] : kLuckTargets;
      layers.push_back(register_module("l" + std::to_string(l), torch::nn::Linear(d, out)));
      d = out;
    }
  }
  // Centred predictions [N, 21, 4].
  torch::Tensor forward(torch::Tensor x, const torch::Tensor& w) {
    for (size_t l = 0; l + 1 < layers.size(); ++l) x = torch::relu(layers[l]->forward(x));
    torch::Tensor p = layers.back()->forward(x).view({-1, kLuckRolls, kLuckOutputs});
    return p - (p * w.unsqueeze(2)).sum(1, true);
  }
};

torch::Tensor equity_change(const torch::Tensor& v) {  // [N, 21, 4] -> [N, 21]
  return 2 * v.select(2, 0) + v.select(2, 1) + v.select(2, 3) - v.select(2, 2);
}

// Per-row loss of nn/luck_fit.h, summed over rows; and Σ w (Δeq error)², Σ w Δeq².
struct Losses {
  torch::Tensor sum, eq_err, eq_total;
};
Losses losses(const torch::Tensor& c, const torch::Tensor& t, const torch::Tensor& w) {
  const torch::Tensor d = c - t;
  const torch::Tensor deq = equity_change(c) - equity_change(t);
  const torch::Tensor per_roll = d.pow(2).sum(2) + deq.pow(2);  // [N, 21]
  return {(per_roll * w).sum(), (deq.pow(2) * w).sum(), (equity_change(t).pow(2) * w).sum()};
}

void check(const LuckFitData& d, const char* what) {
  if (d.num_inputs < 1 || static_cast<int64_t>(d.inputs.size()) != d.rows() * d.num_inputs ||
      d.targets.size() % kLuckTargets != 0)
    throw Error(std::string("luck fit: ") + what + " data has " + std::to_string(d.inputs.size()) +
                " input floats and " + std::to_string(d.targets.size()) +
                " target floats, expected rows of " + std::to_string(d.num_inputs) + " and " +
                std::to_string(kLuckTargets));
}

}  // namespace

LuckMlp train_luck_mlp(const LuckFitData& train, const LuckFitData& heldout,
                       const LuckTrainOptions& o, std::vector<LuckEpoch>* epochs,
                       const std::function<void(const LuckEpoch&)>& on_epoch) {
  if (!(o.lr > 0) || !std::isfinite(o.lr)) throw Error("luck fit: lr must be above 0");
  if (o.batch < 1 || o.max_epochs < 1 || o.patience < 1)
    throw Error("luck fit: batch, epochs and patience must be at least 1");
  if (o.hidden.empty() || o.hidden.size() > 4)
    throw Error("luck fit: 1 to 4 hidden layers, got " + std::to_string(o.hidden.size()));
  for (int h : o.hidden)
    if (h < 1 || h > 4096) throw Error("luck fit: hidden layers of 1..4096 units");
  check(train, "training");
  check(heldout, "held-out");
  if (train.num_inputs != heldout.num_inputs)
    throw Error("luck fit: training and held-out rows differ in width");
  if (train.rows() == 0 || heldout.rows() == 0)
    throw Error("luck fit: no training or no held-out rows (play more games)");

  torch::manual_seed(o.seed);
  Mlp mlp(train.num_inputs, o.hidden);
  const torch::Tensor w = roll_weights();
  const int64_t n = train.rows(), in = train.num_inputs;
  const torch::Tensor x = as_tensor(train.inputs, n, in),
                      t = as_tensor(train.targets, n, kLuckTargets)
                              .view({n, kLuckRolls, kLuckOutputs});
  const int64_t hn = heldout.rows();
  const torch::Tensor hx = as_tensor(heldout.inputs, hn, in),
                      ht = as_tensor(heldout.targets, hn, kLuckTargets)
                               .view({hn, kLuckRolls, kLuckOutputs});
  torch::optim::Adam opt(mlp.parameters(), torch::optim::AdamOptions(o.lr));

  auto measure = [&](double& loss, double& explained) {
    torch::NoGradGuard no_grad;
    double sum = 0, err = 0, total = 0;
    for (int64_t at = 0; at < hn; at += 8192) {
      const int64_t m = std::min<int64_t>(8192, hn - at);
      const Losses l = losses(mlp.forward(hx.narrow(0, at, m), w), ht.narrow(0, at, m), w);
      sum += l.sum.item<double>();
      err += l.eq_err.item<double>();
      total += l.eq_total.item<double>();
    }
    loss = sum / static_cast<double>(hn);
    explained = total > 0 ? 1 - err / total : 0;
  };
  auto snapshot = [&] {
    torch::NoGradGuard no_grad;
    std::vector<torch::Tensor> s;
    for (const auto& p : mlp.parameters()) s.push_back(p.detach().clone());
    return s;
  };
  std::vector<torch::Tensor> best = snapshot();
  double best_loss = INFINITY;
  int since_best = 0;
  for (int epoch = 1; epoch <= o.max_epochs; ++epoch) {
    std::vector<int64_t> order = epoch_order(n, o.seed, epoch);
    const torch::Tensor perm = torch::from_blob(order.data(), {n}, torch::kInt64);
    double sum = 0;
    for (int64_t at = 0; at < n; at += o.batch) {
      const int64_t m = std::min<int64_t>(o.batch, n - at);
      const torch::Tensor idx = perm.narrow(0, at, m);
      opt.zero_grad();
      const Losses l = losses(mlp.forward(x.index_select(0, idx), w), t.index_select(0, idx), w);
      torch::Tensor loss = l.sum / static_cast<double>(m);
      loss.backward();
      opt.step();
      sum += l.sum.item<double>();
    }
    LuckEpoch e;
    e.epoch = epoch;
    e.train_loss = sum / static_cast<double>(n);
    measure(e.heldout_loss, e.heldout_explained);
    if (e.heldout_loss < best_loss) {
      best_loss = e.heldout_loss;
      e.best = true;
      best = snapshot();
      since_best = 0;
    } else {
      ++since_best;
    }
    if (epochs) epochs->push_back(e);
    if (on_epoch) on_epoch(e);
    if (since_best >= o.patience) break;
  }

  LuckMlp out;
  out.num_inputs = train.num_inputs;
  out.hidden = o.hidden;
  // parameters() lists each Linear's weight [out][in] then bias [out]; ours are [in][out].
  for (size_t l = 0; l < mlp.layers.size(); ++l) {
    const torch::Tensor wt = best[2 * l].t().contiguous(), b = best[2 * l + 1].contiguous();
    out.weight.emplace_back(wt.data_ptr<float>(), wt.data_ptr<float>() + wt.numel());
    out.bias.emplace_back(b.data_ptr<float>(), b.data_ptr<float>() + b.numel());
  }
  return out;
}

}  // namespace nardy
