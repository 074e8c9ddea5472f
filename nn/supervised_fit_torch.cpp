// Supervised fitting with LibTorch autograd and torch::optim (nn/supervised_fit.h).
#include <algorithm>
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

// The rows' sibling groups within a batch: group[i] in 0..count-1 (see the header).
struct BatchGroups {
  torch::Tensor group;  // int64 [rows]; undefined: no sibling term
  int64_t count = 0;
  double weight = 0;
};

// Σ_k (y_k - t_k)² per row, plus the sibling term, averaged over rows.
torch::Tensor loss_of(torch::jit::Module& module, const torch::Tensor& x, const torch::Tensor& t,
                      const BatchGroups& g = {}) {
  torch::Tensor out = module.forward({x}).toTensor();
  torch::Tensor loss = (out.narrow(1, 0, 4) - t).pow(2).sum(1).mean();
  if (!g.group.defined()) return loss;
  // E - T per row (target equity as nn/evaluation.h: win + win_mars - lose - lose_mars), less
  // its mean over the row's group.
  const torch::Tensor win = t.select(1, 0), draw = t.select(1, 3);
  const torch::Tensor target_equity = win + t.select(1, 1) - (1 - win - draw) - t.select(1, 2);
  const torch::Tensor d = out.select(1, 4) - target_equity;
  const auto opts = torch::TensorOptions().dtype(torch::kFloat32);
  const torch::Tensor sums = torch::zeros({g.count}, opts).index_add(0, g.group, d);
  const torch::Tensor counts =
      torch::zeros({g.count}, opts).index_add(0, g.group, torch::ones_like(d));
  const torch::Tensor relative = d - (sums / counts).index_select(0, g.group);
  return loss + g.weight * relative.pow(2).mean();
}

// The units a fit shuffles and batches: rows [unit_start[u], unit_start[u + 1]). Without a
// sibling term every row is a unit; with one, every group.
std::vector<int64_t> unit_starts(const FitData& d, bool grouped) {
  std::vector<int64_t> starts;
  const int64_t n = d.rows();
  for (int64_t i = 0; i < n; ++i)
    if (!grouped || i == 0 ||
        d.group[static_cast<size_t>(i)] != d.group[static_cast<size_t>(i - 1)])
      starts.push_back(i);
  starts.push_back(n);
  return starts;
}

// Rows of `units` (in that order) cut into batches of at least `batch` rows (the last may be
// smaller), never splitting a unit; each batch's row indices and, if grouped, its groups.
struct Batch {
  torch::Tensor rows;  // int64
  BatchGroups groups;
};
std::vector<Batch> make_batches(const std::vector<int64_t>& starts,
                                const std::vector<int64_t>& units, int64_t batch, bool grouped,
                                double weight) {
  std::vector<Batch> out;
  std::vector<int64_t> rows, group;
  auto flush = [&] {
    if (rows.empty()) return;
    Batch b;
    b.rows = torch::tensor(rows, torch::kInt64);
    if (grouped) {
      b.groups.group = torch::tensor(group, torch::kInt64);
      b.groups.count = group.back() + 1;
      b.groups.weight = weight;
    }
    out.push_back(std::move(b));
    rows.clear();
    group.clear();
  };
  for (size_t k = 0; k < units.size(); ++k) {
    const auto u = static_cast<size_t>(units[k]);
    const int64_t g = group.empty() ? 0 : group.back() + 1;
    for (int64_t i = starts[u]; i < starts[u + 1]; ++i) {
      rows.push_back(i);
      group.push_back(g);
    }
    if (static_cast<int64_t>(rows.size()) >= batch) flush();
  }
  flush();
  return out;
}

// The mean loss over `x`'s rows, in chunks of about 8192 rows that keep groups whole.
double measure(torch::jit::Module& module, const torch::Tensor& x, const torch::Tensor& t,
               const std::vector<Batch>& chunks) {
  torch::NoGradGuard no_grad;
  double sum = 0;
  int64_t n = 0;
  for (const Batch& c : chunks) {
    const int64_t m = c.rows.size(0);
    sum += loss_of(module, x.index_select(0, c.rows), t.index_select(0, c.rows), c.groups)
               .item<double>() *
           m;
    n += m;
  }
  return n > 0 ? sum / n : 0.0;
}

// In-order chunks of `d` for measure().
std::vector<Batch> in_order_chunks(const FitData& d, bool grouped, double weight) {
  const std::vector<int64_t> starts = unit_starts(d, grouped);
  std::vector<int64_t> units(starts.size() - 1);
  std::iota(units.begin(), units.end(), int64_t{0});
  return make_batches(starts, units, 8192, grouped, weight);
}

// The batch's gradient as the sum, in part order, of its o.shards parts' gradients (see the
// header), left in the parameters' .grad; returns the batch's loss times its rows. Computes the
// parts of this process (all of them without o.gather) and gathers the others'.
double sharded_gradient(torch::jit::Module& module, std::vector<torch::Tensor>& params,
                        const torch::Tensor& x, const torch::Tensor& t, const torch::Tensor& idx,
                        const BatchGroups& groups, const FitOptions& o) {
  const int64_t rows = idx.size(0);
  const int parts = o.shards;
  // Row offsets of the parts: block_of's split of the rows, or of the groups (kept whole).
  std::vector<int64_t> bounds(static_cast<size_t>(parts) + 1, rows);
  std::vector<int64_t> group;
  if (groups.group.defined())
    group.assign(groups.group.data_ptr<int64_t>(), groups.group.data_ptr<int64_t>() + rows);
  for (int s = 0; s < parts; ++s) {
    const int64_t units = group.empty() ? rows : groups.count;
    // block_of(units, s, parts).begin (selfplay/distributed/world.h): the first units % parts
    // parts one unit longer.
    const int64_t first = (units / parts) * s + std::min<int64_t>(s, units % parts);
    bounds[static_cast<size_t>(s)] =
        group.empty() ? first : std::lower_bound(group.begin(), group.end(), first) - group.begin();
  }
  int64_t size = 1;  // the part's loss times its rows, then every gradient
  for (const auto& p : params) size += p.numel();
  std::vector<float> mine(static_cast<size_t>(size), 0.0f);
  std::vector<float> all(static_cast<size_t>(size) * parts, 0.0f);
  auto compute = [&](int s, float* out) {
    const int64_t b = bounds[static_cast<size_t>(s)], m = bounds[static_cast<size_t>(s) + 1] - b;
    std::fill(out, out + size, 0.0f);
    if (m == 0) return;
    const torch::Tensor part = idx.narrow(0, b, m);
    BatchGroups g = groups;
    if (g.group.defined()) {
      g.group = groups.group.narrow(0, b, m) - group[static_cast<size_t>(b)];
      g.count = group[static_cast<size_t>(b + m - 1)] - group[static_cast<size_t>(b)] + 1;
    }
    for (auto& p : params)
      if (p.grad().defined()) p.mutable_grad().zero_();
    const torch::Tensor loss = loss_of(module, x.index_select(0, part), t.index_select(0, part), g);
    (loss * (static_cast<double>(m) / static_cast<double>(rows))).backward();
    out[0] = static_cast<float>(loss.item<double>() * static_cast<double>(m));
    int64_t at = 1;
    for (const auto& p : params) {
      const torch::Tensor grad = p.grad().contiguous();
      std::copy(grad.data_ptr<float>(), grad.data_ptr<float>() + grad.numel(), out + at);
      at += grad.numel();
    }
  };
  if (o.gather) {
    compute(o.shard, mine.data());
    o.gather(mine, all);
  } else {
    for (int s = 0; s < parts; ++s) compute(s, all.data() + static_cast<size_t>(s) * size);
  }
  // Sum in part order, the same on every process.
  std::vector<float> total(static_cast<size_t>(size), 0.0f);
  double loss_rows = 0;
  for (int s = 0; s < parts; ++s) {
    const float* part = all.data() + static_cast<size_t>(s) * size;
    loss_rows += part[0];
    for (int64_t i = 1; i < size; ++i) total[static_cast<size_t>(i)] += part[i];
  }
  int64_t at = 1;
  torch::NoGradGuard no_grad;
  for (auto& p : params) {
    const int64_t k = p.numel();
    const torch::Tensor g = torch::from_blob(total.data() + at, p.sizes(), torch::kFloat32).clone();
    if (p.grad().defined())
      p.mutable_grad().copy_(g);
    else
      p.mutable_grad() = g;
    at += k;
  }
  return loss_rows;
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
                 as_tensor(data.targets, data.rows(), 4), in_order_chunks(data, false, 0));
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
  if (o.shards < 1 || o.shard < 0 || o.shard >= o.shards)
    throw Error("fit: shards must be >= 1 and the shard in 0 .. shards - 1");
  if (!(o.lr_drop > 0 && o.lr_drop < 1)) throw Error("fit: lr drop factor must be in (0, 1)");
  check_data(net, train, "training");
  check_data(net, heldout, "held-out");
  if (train.rows() == 0) throw Error("fit: no training rows");
  if (heldout.rows() == 0) throw Error("fit: no held-out rows");
  if (!(o.sibling_weight >= 0) || !std::isfinite(o.sibling_weight))
    throw Error("fit: sibling weight must be >= 0");
  const bool grouped = o.sibling_weight > 0;
  if (grouped)
    for (const FitData* d : {&train, &heldout})
      if (static_cast<int64_t>(d->group.size()) != d->rows() ||
          !std::is_sorted(d->group.begin(), d->group.end()))
        throw Error(std::string("fit: a sibling weight needs every row's sibling group (") +
                    (d == &train ? "training" : "held-out") + " data has " +
                    std::to_string(d->group.size()) + " group ids for " +
                    std::to_string(d->rows()) + " rows, or they decrease)");

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
  const std::vector<Batch> train_chunks = in_order_chunks(train, grouped, o.sibling_weight),
                           heldout_chunks = in_order_chunks(heldout, grouped, o.sibling_weight);
  const std::vector<int64_t> starts = unit_starts(train, grouped);
  const int64_t num_units = static_cast<int64_t>(starts.size()) - 1;
  FitEpoch e0{0, measure(module, x, t, train_chunks), measure(module, hx, ht, heldout_chunks), true,
              o.lr};
  r.epochs.push_back(e0);
  if (on_epoch) on_epoch(e0);

  int since_best = 0;
  double lr = o.lr;
  for (int epoch = 1; epoch <= o.max_epochs; ++epoch) {
    std::vector<int64_t> order = epoch_order(grouped ? num_units : n, o.seed, epoch);
    double sum = 0;
    auto step = [&](const torch::Tensor& idx, const BatchGroups& groups) {
      opt->zero_grad();
      if (o.shards > 1) {
        sum += sharded_gradient(module, params, x, t, idx, groups, o);
        opt->step();
        return;
      }
      torch::Tensor loss = loss_of(module, x.index_select(0, idx), t.index_select(0, idx), groups);
      loss.backward();
      opt->step();
      sum += loss.item<double>() * static_cast<double>(idx.size(0));
    };
    if (grouped) {
      for (const Batch& b : make_batches(starts, order, o.batch, true, o.sibling_weight))
        step(b.rows, b.groups);
    } else {
      const torch::Tensor perm = torch::from_blob(order.data(), {n}, torch::kInt64);
      for (int64_t at = 0; at < n; at += o.batch)
        step(perm.narrow(0, at, std::min<int64_t>(o.batch, n - at)), {});
    }
    FitEpoch e{epoch, sum / n, measure(module, hx, ht, heldout_chunks), false};
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
