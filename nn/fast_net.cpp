// FastNet and FastTd: bookkeeping around the kernels of nn/fast_kernels.h (chosen at run time
// per instruction set); the evaluation head and its Jacobian are computed here.
#include "nn/fast_net.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "core/error.h"
#include "nn/td_backend.h"

namespace nardy {
namespace {

constexpr int kMaxInputs = kMaxKernelInputs;
static_assert(kMaxHiddenLayers <= kMaxKernelUpperLayers && kMaxHiddenUnits <= kMaxKernelInputs,
              "nn/fast_kernels.h's stack buffers must hold every layer nn/value_net.h allows");

}  // namespace

bool fast_net_supports(const NetShape& shape) {
  return !shape.hidden.empty() && shape.hidden.size() <= static_cast<size_t>(kMaxHiddenLayers) &&
         (shape.num_outputs == 3 || shape.num_outputs == 4) &&
         encoder_by_name(shape.encoder).num_inputs() <= kMaxInputs;
}

FastNet::FastNet(const ValueNet& net, SimdPath path) : net_(net) {
  if (!fast_net_supports(net.shape()))
    throw Error("the fast kernels need 1.." + std::to_string(kMaxHiddenLayers) +
                " hidden layers, 3 or 4 outputs and at most " + std::to_string(kMaxInputs) +
                " inputs; this net has " + std::to_string(net.shape().hidden.size()) +
                " hidden layers and " + std::to_string(net.shape().num_outputs) +
                " outputs (use the libtorch backend)");
  kernels_ = &fast_kernels(path);
  const auto layers = net.layers();
  in_ = layers[0].in;
  hidden_ = layers[0].out;
  k_ = layers.back().out;
  activation_ = net.shape().activation;
  // KernelNet's W2, b2 are the output layer's for one hidden layer (the only case that reads
  // them).
  view_ = KernelNet{layers[0].weight,
                    layers[0].bias,
                    layers[1].weight,
                    layers[1].bias,
                    in_,
                    hidden_,
                    k_,
                    static_cast<uint8_t>(activation_)};
  act_size_ = hidden_;
  if (layers.size() > 2) {
    for (size_t l = 1; l < layers.size(); ++l) {
      upper_.push_back(KernelLayer{layers[l].weight, layers[l].bias, layers[l].in, layers[l].out});
      if (l + 1 < layers.size()) act_size_ += layers[l].out;
    }
    upper_view_ = KernelUpper{upper_.data(), static_cast<int>(upper_.size()),
                              static_cast<uint8_t>(activation_)};
  }
  base_.assign(in_, 0.0f);
  base_sums_.assign(hidden_, 0.0f);
  sums_.assign(hidden_, 0.0f);
  act_.assign(act_size_, 0.0f);
  sums2_.assign(hidden_, 0.0f);
  act2_.assign(act_size_, 0.0f);
}

void FastNet::hidden_sums(const float* x, float* sums) const {
  kernels_->hidden_sums(view_, x, sums);
}

void FastNet::hidden_sums_from_base(const float* base_sums, const float* base, const float* x,
                                    float* sums) const {
  kernels_->hidden_sums_from_base(view_, base_sums, base, x, sums);
}

void FastNet::logits_from_sums(const float* sums, float* hidden, float* z) const {
  if (deep())
    kernels_->upper_forward(upper_view_, sums, hidden, z);
  else
    kernels_->logits_from_sums(view_, sums, hidden, z);
}

Evaluation FastNet::evaluate_sums(const float* sums, float* hidden) const {
  float z[4];
  logits_from_sums(sums, hidden, z);
  return evaluation_from_logits(z, k_);
}

Evaluation FastNet::forward(const float* x) {
  hidden_sums(x, sums_.data());
  return evaluate_sums(sums_.data(), act_.data());
}

void FastNet::set_base(const float* base) {
  std::memcpy(base_.data(), base, sizeof(float) * in_);
  hidden_sums(base, base_sums_.data());
}

Evaluation FastNet::forward_from_base(const float* x) {
  hidden_sums_from_base(base_sums_.data(), base_.data(), x, sums_.data());
  return evaluate_sums(sums_.data(), act_.data());
}

Evaluation FastNet::forward_from_rows(const int* rows, const float* coef, int num_rows) {
  kernels_->hidden_sums_from_rows(view_, base_sums_.data(), rows, coef, num_rows, sums_.data());
  return evaluate_sums(sums_.data(), act_.data());
}

void FastNet::forward_from_rows(const int* rows, const float* coef, const int* offsets, int n,
                                Evaluation* out) {
  int c = 0;
  if (!deep()) {
    float* sums[2] = {sums_.data(), sums2_.data()};
    float* hidden[2] = {act_.data(), act2_.data()};
    for (; c + 2 <= n; c += 2) {
      for (int i = 0; i < 2; ++i)
        kernels_->hidden_sums_from_rows(view_, base_sums_.data(), rows + offsets[c + i],
                                        coef + offsets[c + i], offsets[c + i + 1] - offsets[c + i],
                                        sums[i]);
      float z[2][4];
      kernels_->logits_from_sums_pair(view_, sums, hidden, z);
      out[c] = evaluation_from_logits(z[0], k_);
      out[c + 1] = evaluation_from_logits(z[1], k_);
    }
  }
  for (; c < n; ++c)
    out[c] = forward_from_rows(rows + offsets[c], coef + offsets[c], offsets[c + 1] - offsets[c]);
}

void FastNet::evaluate_batch(const float* base, const float* inputs, int n, Evaluation* out) {
  if (base) set_base(base);
  for (int r = 0; r < n; ++r) {
    const float* x = inputs + static_cast<size_t>(r) * in_;
    out[r] = base ? forward_from_base(x) : forward(x);
  }
}

// ---------------------------------------------------------------------------------------------

FastTd::FastTd(ValueNet& net, float lambda, SimdPath path, Mode mode)
    : net_(net, path), lambda_(lambda), mode_(mode) {
  check_td_lambda(lambda);
  auto layers = net.layers();
  params_[0] = layers[0].weight;
  params_[1] = layers[0].bias;
  params_[2] = layers[1].weight;
  params_[3] = layers[1].bias;
  const size_t in = net_.in_, h = net_.hidden_, k = net_.k_;
  off_b1_ = in * h;
  trace_size_ = 0;  // W1, b1, W2, b2, ...; deeper nets list every tensor after W1 in dense_
  for (size_t l = 0; l < layers.size(); ++l) {
    const size_t w = static_cast<size_t>(layers[l].in) * layers[l].out;
    const size_t b = static_cast<size_t>(layers[l].out);
    if (net_.deep() && l > 0) dense_.push_back(DenseTensor{layers[l].weight, trace_size_, w});
    trace_size_ += w;
    if (net_.deep()) dense_.push_back(DenseTensor{layers[l].bias, trace_size_, b});
    trace_size_ += b;
  }
  const size_t act = net_.act_size_;
  traces_.assign(trace_size_ * k, 0.0f);
  grad_.assign(k * act, 0.0f);
  deriv_.assign(h, 0.0f);
  h_.assign(act, 0.0f);
  row_x_.assign(in, 0.0f);
  nonzero_.assign(in, 0);
  nonzero_x_.assign(in, 0.0f);
  touched_.assign(in, 0);
  touched_rows_.reserve(in);
  applied_.assign(in, 0);
  steps_.reserve(1024);
}

void FastTd::replay(int i) {
  const int from = applied_[i], to = static_cast<int>(steps_.size());
  net_.kernels_->td_replay_row(net_.view_, params_[0], KernelTraces{traces_.data(), trace_size_},
                               reinterpret_cast<const float(*)[4]>(steps_.data() + from), to - from,
                               i);
  applied_[i] = to;
}

void FastTd::sync() {
  if (mode_ != Mode::Deferred) return;
  for (int i : touched_rows_) catch_up(i);
}

void FastTd::set_lambda(float lambda) {
  check_td_lambda(lambda);
  lambda_ = lambda;
}

// Only the W1 rows of inputs that were non-zero at some state since clear() can hold non-zero
// traces ("touched" rows); clear, rescale and update visit those rows and the small rest.
template <class F>
void FastTd::for_each_live_range(F&& f) {
  const size_t hn = net_.hidden_;
  for (int i : touched_rows_) f(static_cast<size_t>(i) * hn, hn);
  f(off_b1_, trace_size_ - off_b1_);  // b1, W2, b2
}

void FastTd::drop_pending() const {
  if (!pending_) return;
  for (int r = 0; r < num_pending_; ++r) row_x_[nonzero_[r]] = 0.0f;
  pending_ = false;
}

void FastTd::add_gradient_and_step(const float* c, const int* rows, int num_rows) const {
  const FastKernels& kern = *net_.kernels_;
  const KernelTraces traces{traces_.data(), trace_size_};
  if (!net_.deep()) {
    kern.td_add_gradient_and_update(net_.view_, c ? params_ : nullptr, traces, c, rows, num_rows,
                                    KernelGradient{row_x_.data(), grad_.data(), jac_, h_.data()});
    return;
  }
  kern.td_rows(net_.view_, params_[0], traces, c, rows, num_rows, row_x_.data(), grad_.data(),
               static_cast<size_t>(net_.act_size_));
  kern.upper_add_gradient(net_.upper_view_, h_.data(), jac_, net_.k_, grad_.data(), traces,
                          off_b1_);
  if (c)
    for (const DenseTensor& d : dense_)
      kern.apply_traces(d.param, traces, d.offset, d.size, c, net_.k_);
}

void FastTd::step(const float* c, const int* rows, int num_rows) {
  const FastKernels& kern = *net_.kernels_;
  const KernelTraces traces{traces_.data(), trace_size_};
  if (!net_.deep()) {
    kern.td_update(net_.view_, params_, traces, c, rows, num_rows);
    return;
  }
  kern.td_rows(net_.view_, params_[0], traces, c, rows, num_rows, nullptr, nullptr, 0);
  for (const DenseTensor& d : dense_)
    kern.apply_traces(d.param, traces, d.offset, d.size, c, net_.k_);
}

void FastTd::add_pending() const {
  if (!pending_) return;
  add_gradient_and_step(nullptr, nonzero_.data(), num_pending_);
  drop_pending();
}

void FastTd::clear() {
  sync();
  steps_.clear();
  drop_pending();
  for (int k = 0; k < net_.k_; ++k) {
    float* t = traces_.data() + static_cast<size_t>(k) * trace_size_;
    for_each_live_range([&](size_t off, size_t n) { std::fill(t + off, t + off + n, 0.0f); });
  }
  for (int i : touched_rows_) touched_[i] = 0;
  touched_rows_.clear();
  scale_ = 1.0f;
}

void FastTd::rescale(float factor) {
  for (int k = 0; k < net_.k_; ++k) {
    float* t = traces_.data() + static_cast<size_t>(k) * trace_size_;
    for_each_live_range([&](size_t off, size_t n) {
      for (size_t i = 0; i < n; ++i) t[off + i] *= factor;
    });
  }
}

Evaluation FastTd::accumulate(const float* x, Side mover) {
  add_pending();  // two states without an update between them
  const int kn = net_.k_;
  const FastKernels& kern = *net_.kernels_;
  const int num_nonzero = kern.nonzero_inputs(x, net_.in_, nonzero_.data(), nonzero_x_.data());
  sync_rows(nonzero_.data(), num_nonzero);  // the rows the forward pass reads
  float* a = net_.sums_.data();
  float* h = net_.act_.data();
  net_.hidden_sums(x, a);
  float z[4] = {0, 0, 0, 0};
  net_.logits_from_sums(a, h, z);
  const Evaluation e = evaluation_from_logits(z, kn);

  // J[o][m] = ∂(mover's output o)/∂z_m, o = win, win_mars, lose_mars, draw (head of
  // nn/evaluation.h), then rows permuted into White's perspective.
  float p[4], s[4];
  for (int m = 0; m < 4; ++m) {
    p[m] = m < kn ? logistic(z[m]) : 0.0f;
    s[m] = p[m] * (1.0f - p[m]);
  }
  float win_d[4] = {s[0], 0, 0, 0};
  float draw_d[4] = {0, 0, 0, 0};
  if (kn == 4) {
    draw_d[0] = -s[0] * p[3];
    draw_d[3] = (1.0f - p[0]) * s[3];
  }
  float lose_d[4];
  for (int m = 0; m < 4; ++m) lose_d[m] = -win_d[m] - draw_d[m];
  const float lose = e.lose();
  float wm_d[4] = {s[0] * p[1], p[0] * s[1], 0, 0};
  float lm_d[4];
  for (int m = 0; m < 4; ++m) lm_d[m] = lose_d[m] * p[2];
  lm_d[2] += lose * s[2];
  float jac[4][4];
  const bool white = mover == Side::White;
  for (int m = 0; m < 4; ++m) {
    jac[0][m] = white ? win_d[m] : lose_d[m];
    jac[1][m] = white ? wm_d[m] : lm_d[m];
    jac[2][m] = white ? lm_d[m] : wm_d[m];
    jac[3][m] = draw_d[m];
  }

  // Decay: e <- λ e, as a change of scale; materialise when the scale gets tiny.
  scale_ *= lambda_;
  if (scale_ < 1e-12f) {
    if (scale_ == 0.0f) {
      clear();
    } else {
      sync();  // the deferred steps use the traces as they are
      rescale(scale_);
    }
    scale_ = 1.0f;
  }
  // The gradient is added pre-multiplied by 1/scale.
  const float inv = 1.0f / scale_;
  for (auto& row : jac)
    for (float& v : row) v *= inv;

  for (int r = 0; r < num_nonzero; ++r) {
    const int i = nonzero_[r];
    if (!touched_[i]) {
      touched_[i] = 1;
      touched_rows_.push_back(i);                     // capacity reserved: never reallocates
      applied_[i] = static_cast<int>(steps_.size());  // a zero trace: the steps so far did nothing
    }
  }
  if (mode_ == Mode::TwoPass && !net_.deep()) {
    kern.td_add_gradient(net_.view_, a, h, jac, nonzero_.data(), nonzero_x_.data(), num_nonzero,
                         deriv_.data(), grad_.data(), KernelTraces{traces_.data(), trace_size_});
    return white ? e : e.flipped();
  }
  if (net_.deep())
    kern.upper_backprop(net_.upper_view_, h, jac, kn, grad_.data());
  else
    kern.td_gradient(net_.view_, a, h, jac, deriv_.data(), grad_.data());
  std::memcpy(jac_, jac, sizeof jac_);
  std::memcpy(h_.data(), h, sizeof(float) * net_.act_size_);
  for (int r = 0; r < num_nonzero; ++r) row_x_[nonzero_[r]] = nonzero_x_[r];
  num_pending_ = num_nonzero;
  pending_ = true;
  if (mode_ == Mode::TwoPass) add_pending();  // deeper nets: the gradient added at once
  return white ? e : e.flipped();
}

void FastTd::update(const Evaluation& value, const Evaluation& target, float alpha) {
  const int kn = net_.k_;
  const auto v = value.as_array();
  const auto t = target.as_array();
  float c[4] = {0, 0, 0, 0};
  for (int k = 0; k < kn; ++k) c[k] = alpha * (t[k] - v[k]) * scale_;
  if (mode_ == Mode::Deferred) {
    // Step everything after W1 and the rows of the pending state (up to date since its
    // accumulate()); record the step for the other rows.
    steps_.push_back({c[0], c[1], c[2], c[3]});
    const int num_steps = static_cast<int>(steps_.size());
    if (pending_) {
      add_gradient_and_step(c, nonzero_.data(), num_pending_);
      for (int r = 0; r < num_pending_; ++r) applied_[nonzero_[r]] = num_steps;
      drop_pending();
    } else {
      step(c, nullptr, 0);
    }
    return;
  }
  if (pending_) {
    add_gradient_and_step(c, touched_rows_.data(), static_cast<int>(touched_rows_.size()));
    drop_pending();
    return;
  }
  step(c, touched_rows_.data(), static_cast<int>(touched_rows_.size()));
}

void FastTd::copy_trace(int k, std::span<float> out) const {
  add_pending();
  const float* t = traces_.data() + static_cast<size_t>(k) * trace_size_;
  for (size_t i = 0; i < trace_size_; ++i) out[i] = scale_ * t[i];
}

}  // namespace nardy
