// Supervised fitting with LibTorch autograd and torch::optim (nn/supervised_fit.h).
#include <cmath>
#include <numeric>

#include "core/error.h"
#include "core/random.h"
#include "nn/supervised_fit.h"
#include "nn/value_net_impl_torch.h"

namespace nardy {
namespace {

void check_data(const ValueNet& net, const FitData& d, const char* what) {
  const int64_t rows = d.rows();
  if (static_cast<int64_t>(d.targets.size()) != rows * 4 ||
      static_cast<int64_t>(d.inputs.size()) != rows * net.num_inputs())
    throw Error(std::string("fit: ") + what + " data has " + std::to_string(d.inputs.size()) +
                " input floats and " + std::to_string(d.targets.size()) +
                " target floats, expected rows of " + std::to_string(net.num_inputs()) + " and 4");
}

torch::Tensor as_tensor(const std::vector<float>& v, int64_t rows, int64_t cols) {
  return torch::from_blob(const_cast<float*>(v.data()), {rows, cols}, torch::kFloat32).clone();
}

// Σ_k (y_k - t_k)² per row, averaged over rows.
torch::Tensor loss_of(torch::jit::Module& module, const torch::Tensor& x, const torch::Tensor& t) {
  torch::Tensor y = module.forward({x}).toTensor().narrow(1, 0, 4);
  return (y - t).pow(2).sum(1).mean();
}

double measure(torch::jit::Module& module, const torch::Tensor& x, const torch::Tensor& t) {
  torch::NoGradGuard no_grad;
  const int64_t n = x.size(0), chunk = 8192;
  double sum = 0;
  for (int64_t at = 0; at < n; at += chunk) {
    const int64_t m = std::min(chunk, n - at);
    sum += loss_of(module, x.narrow(0, at, m), t.narrow(0, at, m)).item<double>() * m;
  }
  return n > 0 ? sum / n : 0.0;
}

}  // namespace

std::vector<int64_t> epoch_order(int64_t n, uint64_t seed, int epoch) {
  std::vector<int64_t> order(static_cast<size_t>(n));
  std::iota(order.begin(), order.end(), int64_t{0});
  Rng rng(mix_seed(seed * 0x9E3779B97F4A7C15ULL + static_cast<uint64_t>(epoch)));
  for (int64_t i = n - 1; i > 0; --i)
    std::swap(order[static_cast<size_t>(i)], order[rng.below(static_cast<uint32_t>(i + 1))]);
  return order;
}

double fit_loss(const ValueNet& net, const FitData& data) {
  check_data(net, data, "evaluation");
  return measure(net.impl().module, as_tensor(data.inputs, data.rows(), net.num_inputs()),
                 as_tensor(data.targets, data.rows(), 4));
}

FitResult fit_value_net(ValueNet& net, const FitData& train, const FitData& heldout,
                        const FitOptions& o, const std::function<void(const FitEpoch&)>& on_epoch) {
  if (o.optimizer != "adam" && o.optimizer != "sgd")
    throw Error("fit: optimizer must be adam or sgd, got '" + o.optimizer + "'");
  if (!(o.lr > 0) || !std::isfinite(o.lr)) throw Error("fit: lr must be above 0");
  if (!(o.momentum >= 0 && o.momentum < 1)) throw Error("fit: momentum must be in [0, 1)");
  if (!(o.weight_decay >= 0) || !std::isfinite(o.weight_decay))
    throw Error("fit: weight decay must be >= 0");
  if (o.batch < 1 || o.max_epochs < 1 || o.patience < 1)
    throw Error("fit: batch, epochs and patience must be at least 1");
  if (o.lr_drops < 0) throw Error("fit: lr drops must be >= 0");
  if (!(o.lr_drop > 0 && o.lr_drop < 1)) throw Error("fit: lr drop factor must be in (0, 1)");
  check_data(net, train, "training");
  check_data(net, heldout, "held-out");
  if (train.rows() == 0) throw Error("fit: no training rows");
  if (heldout.rows() == 0) throw Error("fit: no held-out rows");

  auto& module = net.impl().module;
  std::vector<torch::Tensor> params = net.impl().parameters();
  for (auto& p : params) p.requires_grad_(true);
  const int64_t n = train.rows(), inputs = net.num_inputs();
  const torch::Tensor x = as_tensor(train.inputs, n, inputs), t = as_tensor(train.targets, n, 4);
  const torch::Tensor hx = as_tensor(heldout.inputs, heldout.rows(), inputs),
                      ht = as_tensor(heldout.targets, heldout.rows(), 4);

  std::unique_ptr<torch::optim::Optimizer> opt;
  if (o.optimizer == "adam")
    opt = std::make_unique<torch::optim::Adam>(
        params, torch::optim::AdamOptions(o.lr).weight_decay(o.weight_decay));
  else
    opt = std::make_unique<torch::optim::SGD>(
        params, torch::optim::SGDOptions(o.lr).momentum(o.momentum).weight_decay(o.weight_decay));

  FitResult r;
  auto keep_best = [&](std::vector<torch::Tensor>& best) {
    torch::NoGradGuard no_grad;
    best.clear();
    for (const auto& p : params) best.push_back(p.detach().clone());
  };
  std::vector<torch::Tensor> best;
  keep_best(best);
  FitEpoch e0{0, measure(module, x, t), measure(module, hx, ht), true, o.lr};
  r.epochs.push_back(e0);
  if (on_epoch) on_epoch(e0);

  int since_best = 0;
  double lr = o.lr;
  for (int epoch = 1; epoch <= o.max_epochs; ++epoch) {
    std::vector<int64_t> order = epoch_order(n, o.seed, epoch);
    const torch::Tensor perm = torch::from_blob(order.data(), {n}, torch::kInt64);
    double sum = 0;
    for (int64_t at = 0; at < n; at += o.batch) {
      const int64_t m = std::min<int64_t>(o.batch, n - at);
      const torch::Tensor idx = perm.narrow(0, at, m);
      opt->zero_grad();
      torch::Tensor loss = loss_of(module, x.index_select(0, idx), t.index_select(0, idx));
      loss.backward();
      opt->step();
      sum += loss.item<double>() * m;
    }
    FitEpoch e{epoch, sum / n, measure(module, hx, ht), false};
    if (e.heldout_loss < r.best_heldout()) {
      e.best = true;
      r.best_epoch = epoch;
      keep_best(best);
      since_best = 0;
    } else {
      ++since_best;
    }
    e.lr = lr;
    r.epochs.push_back(e);
    if (on_epoch) on_epoch(e);
    if (since_best >= o.patience) {
      if (r.lr_drops < o.lr_drops && epoch < o.max_epochs) {
        // A plateau: go on from the best epoch's parameters at a lower learning rate.
        torch::NoGradGuard no_grad;
        for (size_t i = 0; i < params.size(); ++i) params[i].copy_(best[i]);
        lr *= o.lr_drop;
        for (auto& group : opt->param_groups()) group.options().set_lr(lr);
        ++r.lr_drops;
        since_best = 0;
        continue;
      }
      r.stopped_early = epoch < o.max_epochs;
      break;
    }
  }
  torch::NoGradGuard no_grad;
  for (size_t i = 0; i < params.size(); ++i) params[i].copy_(best[i]);
  return r;
}

}  // namespace nardy
