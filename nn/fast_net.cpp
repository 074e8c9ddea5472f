// Float kernels: plain loops written for the auto-vectoriser (nn/ builds with -O3 and
// -march=x86-64-v3); fixed-width inner blocks keep accumulators in registers.
#include "nn/fast_net.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>

#if defined(__AVX__)
#include <immintrin.h>
#endif

#include "core/error.h"
#include "nn/td_backend.h"

namespace nardy {
namespace {

// e^x for x in float range, Cephes' expf polynomial with Cody-Waite range reduction
// (relative error below 1e-7 over [-87, 88]); branch-free so that loops over it vectorise.
inline float exp_approx(float x) {
  x = x < -87.0f ? -87.0f : (x > 88.0f ? 88.0f : x);
  // Round to nearest by the 1.5 * 2^23 trick (std::floor would be a libm call and stop the
  // vectoriser; |x * log2 e| < 128 keeps it exact).
  constexpr float kRound = 12582912.0f;
  const float n = (x * 1.44269504088896341f + kRound) - kRound;
  float r = x - n * 0.693359375f;
  r = r - n * -2.12194440e-4f;
  float p = 1.9875691500e-4f;
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  p = p * r * r + r + 1.0f;
  const int32_t bits = (static_cast<int32_t>(n) + 127) << 23;
  return p * std::bit_cast<float>(bits);
}

inline float sigmoid_approx(float a) {
  return 1.0f / (1.0f + exp_approx(-a));
}

template <Activation A>
void activate(const float* a, float* h, int n) {
  for (int j = 0; j < n; ++j) {
    if constexpr (A == Activation::Sigmoid) {
      h[j] = sigmoid_approx(a[j]);
    } else if constexpr (A == Activation::Tanh) {
      h[j] = 2.0f / (1.0f + exp_approx(-2.0f * a[j])) - 1.0f;
    } else {
      h[j] = a[j] > 0.0f ? a[j] : 0.0f;
    }
  }
}

// z[k] = b[k] + Σ_j h[j] w[j*K + k], with 8 partial sums per output so it vectorises.
template <int K>
void output_layer(const float* h, const float* w, const float* b, int n, float* z) {
  float part[K][8] = {};
  int j = 0;
  for (; j + 8 <= n; j += 8)
    for (int c = 0; c < 8; ++c)
      for (int k = 0; k < K; ++k) part[k][c] += h[j + c] * w[(j + c) * K + k];
  for (int k = 0; k < K; ++k) {
    float s = b[k];
    for (int c = 0; c < 8; ++c) s += part[k][c];
    for (int jj = j; jj < n; ++jj) s += h[jj] * w[jj * K + k];
    z[k] = s;
  }
}

// Eight floats as one value (GCC/Clang vector extension: AVX with -march=x86-64-v3, pairs of
// SSE registers otherwise). aligned(4) allows loads from any float address.
typedef float F8 __attribute__((vector_size(32), aligned(4)));

inline F8 load8(const float* p) {
  return *reinterpret_cast<const F8*>(p);
}
inline void store8(float* p, F8 v) {
  *reinterpret_cast<F8*>(p) = v;
}

// out[0..n) = init[0..n) + Σ_t coef[t] * w[rows[t] * n .. + n), in blocks of 64 units whose
// sums stay in eight registers while the rows stream past.
void add_rows(const float* init, const float* w, int n, const int* rows, const float* coef,
              int num_rows, float* out) {
  constexpr int kBlock = 64;
  int j = 0;
  for (; j + kBlock <= n; j += kBlock) {
    F8 a0 = load8(init + j), a1 = load8(init + j + 8), a2 = load8(init + j + 16),
       a3 = load8(init + j + 24), a4 = load8(init + j + 32), a5 = load8(init + j + 40),
       a6 = load8(init + j + 48), a7 = load8(init + j + 56);
    for (int t = 0; t < num_rows; ++t) {
      const float d = coef[t];
      const float* row = w + static_cast<size_t>(rows[t]) * n + j;
      a0 += d * load8(row);
      a1 += d * load8(row + 8);
      a2 += d * load8(row + 16);
      a3 += d * load8(row + 24);
      a4 += d * load8(row + 32);
      a5 += d * load8(row + 40);
      a6 += d * load8(row + 48);
      a7 += d * load8(row + 56);
    }
    store8(out + j, a0);
    store8(out + j + 8, a1);
    store8(out + j + 16, a2);
    store8(out + j + 24, a3);
    store8(out + j + 32, a4);
    store8(out + j + 40, a5);
    store8(out + j + 48, a6);
    store8(out + j + 56, a7);
  }
  for (; j + 8 <= n; j += 8) {
    F8 acc = load8(init + j);
    for (int t = 0; t < num_rows; ++t)
      acc += coef[t] * load8(w + static_cast<size_t>(rows[t]) * n + j);
    store8(out + j, acc);
  }
  for (; j < n; ++j) {
    float s = init[j];
    for (int t = 0; t < num_rows; ++t) s += coef[t] * w[static_cast<size_t>(rows[t]) * n + j];
    out[j] = s;
  }
}

// Bit c set iff lane c of v is non-zero.
inline unsigned nonzero_lanes(F8 v) {
#if defined(__AVX__)
  __m256 m;
  std::memcpy(&m, &v, sizeof m);
  return static_cast<unsigned>(
      _mm256_movemask_ps(_mm256_cmp_ps(m, _mm256_setzero_ps(), _CMP_NEQ_UQ)));
#else
  unsigned m = 0;
  for (int c = 0; c < 8; ++c) m |= (v[c] != 0.0f ? 1u : 0u) << c;
  return m;
#endif
}

// Lists the inputs where x differs from base (rows[], coef[] = x - base) and returns their
// number. Blocks of eight are compared at once and only their differing lanes visited.
int changed_inputs(const float* x, const float* base, int n, int* rows, float* coef) {
  int count = 0;
  int i = 0;
  for (; i + 8 <= n; i += 8) {
    const F8 d = load8(x + i) - load8(base + i);
    for (unsigned m = nonzero_lanes(d); m; m &= m - 1) {
      const int c = std::countr_zero(m);
      rows[count] = i + c;
      coef[count] = d[c];
      ++count;
    }
  }
  for (; i < n; ++i) {
    const float d = x[i] - base[i];
    rows[count] = i;
    coef[count] = d;
    count += d != 0.0f;
  }
  return count;
}

// Lists the non-zero inputs of x (rows[], coef[] = x) and returns their number.
int nonzero_inputs(const float* x, int n, int* rows, float* coef) {
  int count = 0;
  int i = 0;
  for (; i + 8 <= n; i += 8) {
    const F8 v = load8(x + i);
    for (unsigned m = nonzero_lanes(v); m; m &= m - 1) {
      const int c = std::countr_zero(m);
      rows[count] = i + c;
      coef[count] = v[c];
      ++count;
    }
  }
  for (; i < n; ++i) {
    rows[count] = i;
    coef[count] = x[i];
    count += x[i] != 0.0f;
  }
  return count;
}

// Largest input count handled with stack buffers for the changed-row lists.
constexpr int kMaxInputs = 4096;

}  // namespace

bool fast_net_supports(const NetShape& shape) {
  return shape.hidden.size() == 1 && (shape.num_outputs == 3 || shape.num_outputs == 4) &&
         encoder_by_name(shape.encoder).num_inputs() <= kMaxInputs;
}

FastNet::FastNet(const ValueNet& net) : net_(net) {
  if (!fast_net_supports(net.shape()))
    throw Error("the fast kernels need exactly one hidden layer, 3 or 4 outputs and at most " +
                std::to_string(kMaxInputs) + " inputs; this net has " +
                std::to_string(net.shape().hidden.size()) + " hidden layers and " +
                std::to_string(net.shape().num_outputs) + " outputs (use the libtorch backend)");
  const auto layers = net.layers();
  w1_ = layers[0].weight;
  b1_ = layers[0].bias;
  w2_ = layers[1].weight;
  b2_ = layers[1].bias;
  in_ = layers[0].in;
  hidden_ = layers[0].out;
  k_ = layers[1].out;
  activation_ = net.shape().activation;
  base_.assign(in_, 0.0f);
  base_sums_.assign(hidden_, 0.0f);
  sums_.assign(hidden_, 0.0f);
  act_.assign(hidden_, 0.0f);
}

void FastNet::hidden_sums(const float* x, float* sums) const {
  int rows[kMaxInputs];
  float coef[kMaxInputs];
  const int n = nonzero_inputs(x, in_, rows, coef);
  add_rows(b1_, w1_, hidden_, rows, coef, n, sums);
}

void FastNet::hidden_sums_from_base(const float* base_sums, const float* base, const float* x,
                                    float* sums) const {
  int rows[kMaxInputs];
  float coef[kMaxInputs];
  const int n = changed_inputs(x, base, in_, rows, coef);
  add_rows(base_sums, w1_, hidden_, rows, coef, n, sums);
}

void FastNet::logits_from_sums(const float* sums, float* hidden, float* z) const {
  switch (activation_) {
    case Activation::Sigmoid:
      activate<Activation::Sigmoid>(sums, hidden, hidden_);
      break;
    case Activation::Tanh:
      activate<Activation::Tanh>(sums, hidden, hidden_);
      break;
    case Activation::Relu:
      activate<Activation::Relu>(sums, hidden, hidden_);
      break;
  }
  if (k_ == 3)
    output_layer<3>(hidden, w2_, b2_, hidden_, z);
  else
    output_layer<4>(hidden, w2_, b2_, hidden_, z);
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

void FastNet::evaluate_batch(const float* base, const float* inputs, int n, Evaluation* out) {
  if (base) set_base(base);
  for (int r = 0; r < n; ++r) {
    const float* x = inputs + static_cast<size_t>(r) * in_;
    out[r] = base ? forward_from_base(x) : forward(x);
  }
}

// ---------------------------------------------------------------------------------------------

FastTd::FastTd(ValueNet& net, float lambda) : net_(net), lambda_(lambda) {
  check_td_lambda(lambda);
  auto layers = net.layers();
  w1_ = layers[0].weight;
  b1_ = layers[0].bias;
  w2_ = layers[1].weight;
  b2_ = layers[1].bias;
  const size_t in = net_.in_, h = net_.hidden_, k = net_.k_;
  off_b1_ = in * h;
  off_w2_ = off_b1_ + h;
  off_b2_ = off_w2_ + h * k;
  trace_size_ = off_b2_ + k;
  traces_.assign(trace_size_ * k, 0.0f);
  grad_.assign(k * h, 0.0f);
  deriv_.assign(h, 0.0f);
  nonzero_.assign(in, 0);
  nonzero_x_.assign(in, 0.0f);
  touched_.assign(in, 0);
  touched_rows_.reserve(in);
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

void FastTd::clear() {
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
  const int in = net_.in_, hn = net_.hidden_, kn = net_.k_;
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
    if (scale_ == 0.0f)
      clear();
    else
      rescale(scale_);
    scale_ = 1.0f;
  }
  const float inv = 1.0f / scale_;

  // g_k[j] = act'(a_j) Σ_m J[k][m] W2[j][m], pre-multiplied by 1/scale.
  float* deriv = deriv_.data();
  switch (net_.activation_) {
    case Activation::Sigmoid:
      for (int j = 0; j < hn; ++j) deriv[j] = h[j] * (1.0f - h[j]);
      break;
    case Activation::Tanh:
      for (int j = 0; j < hn; ++j) deriv[j] = 1.0f - h[j] * h[j];
      break;
    case Activation::Relu:
      for (int j = 0; j < hn; ++j) deriv[j] = a[j] > 0.0f ? 1.0f : 0.0f;
      break;
  }
  for (int k = 0; k < kn; ++k) {
    float* g = grad_.data() + static_cast<size_t>(k) * hn;
    float jk[4];
    for (int m = 0; m < 4; ++m) jk[m] = jac[k][m] * inv;
    if (kn == 3) {
      for (int j = 0; j < hn; ++j)
        g[j] = deriv[j] * (jk[0] * net_.w2_[j * 3] + jk[1] * net_.w2_[j * 3 + 1] +
                           jk[2] * net_.w2_[j * 3 + 2]);
    } else {
      for (int j = 0; j < hn; ++j)
        g[j] = deriv[j] * (jk[0] * net_.w2_[j * 4] + jk[1] * net_.w2_[j * 4 + 1] +
                           jk[2] * net_.w2_[j * 4 + 2] + jk[3] * net_.w2_[j * 4 + 3]);
    }
  }

  const int num_nonzero = nonzero_inputs(x, in, nonzero_.data(), nonzero_x_.data());
  for (int r = 0; r < num_nonzero; ++r) {
    const int i = nonzero_[r];
    if (!touched_[i]) {
      touched_[i] = 1;
      touched_rows_.push_back(i);  // capacity reserved: never reallocates
    }
  }
  for (int k = 0; k < kn; ++k) {
    float* t = traces_.data() + static_cast<size_t>(k) * trace_size_;
    const float* g = grad_.data() + static_cast<size_t>(k) * hn;
    for (int r = 0; r < num_nonzero; ++r) {
      const int i = nonzero_[r];
      const float xi = nonzero_x_[r];
      float* row = t + static_cast<size_t>(i) * hn;
      for (int j = 0; j < hn; ++j) row[j] += xi * g[j];
    }
    float* tb1 = t + off_b1_;
    for (int j = 0; j < hn; ++j) tb1[j] += g[j];
    float* tw2 = t + off_w2_;
    for (int j = 0; j < hn; ++j)
      for (int m = 0; m < kn; ++m) tw2[j * kn + m] += jac[k][m] * inv * h[j];
    float* tb2 = t + off_b2_;
    for (int m = 0; m < kn; ++m) tb2[m] += jac[k][m] * inv;
  }
  return white ? e : e.flipped();
}

void FastTd::update(const Evaluation& value, const Evaluation& target, float alpha) {
  const int kn = net_.k_;
  const auto v = value.as_array();
  const auto t = target.as_array();
  float c[4] = {0, 0, 0, 0};
  for (int k = 0; k < kn; ++k) c[k] = alpha * (t[k] - v[k]) * scale_;
  const float* e0 = traces_.data();
  const float* e1 = e0 + trace_size_;
  const float* e2 = e1 + trace_size_;
  const float* e3 = kn == 4 ? e2 + trace_size_ : nullptr;
  auto apply = [&](float* theta, size_t offset, size_t n) {
    const float* t0 = e0 + offset;
    const float* t1 = e1 + offset;
    const float* t2 = e2 + offset;
    if (e3) {
      const float* t3 = e3 + offset;
      for (size_t i = 0; i < n; ++i)
        theta[i] += c[0] * t0[i] + c[1] * t1[i] + c[2] * t2[i] + c[3] * t3[i];
    } else {
      for (size_t i = 0; i < n; ++i) theta[i] += c[0] * t0[i] + c[1] * t1[i] + c[2] * t2[i];
    }
  };
  const size_t hn = net_.hidden_;
  for (int i : touched_rows_) {
    const size_t row = static_cast<size_t>(i) * hn;
    apply(w1_ + row, row, hn);
  }
  apply(b1_, off_b1_, hn);
  apply(w2_, off_w2_, hn * kn);
  apply(b2_, off_b2_, kn);
}

void FastTd::copy_trace(int k, std::span<float> out) const {
  const float* t = traces_.data() + static_cast<size_t>(k) * trace_size_;
  for (size_t i = 0; i < trace_size_; ++i) out[i] = scale_ * t[i];
}

}  // namespace nardy
