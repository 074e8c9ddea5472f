// nn/fast_net.h — hand-written float kernels for value nets (1..kMaxHiddenLayers hidden layers).
//
// The self-play hot path: they read (FastNet) and write (FastTd) the ValueNet's own LibTorch
// parameter storage in place through ValueNet::layers(), so there is no copy to keep in sync.
// Layout (nn/value_net.h): W1 [in][hidden], b1 [hidden], W2 [hidden][K], b2 [K].
//
//   a = b1 + x W1          hidden sums; zero inputs are skipped (gnubg's Evaluate), and
//                          hidden_sums_from_base() adds only the rows of inputs that differ from a
//                          base whose sums are known (gnubg's EvaluateFromBase, Stockfish's
//                          NNUE accumulator): sibling candidates after a roll differ in few slots
//   h = act(a)             sigmoid / tanh / relu, with a vectorisable exp (rel. error < 1e-7
//                          on [-87, 88], measured against double exp)
//   z = b2 + h W2          K = 3 or 4 logits, then the head of nn/evaluation.h
//
// Deeper nets (two or more hidden layers): the first layer is as above (sparse and incremental
// sums: that is where the inputs are many); each further layer is a small dense mat-vec of the
// previous activations, h_l = act(b_l + h_{l-1} W_l), and z = b_out + h_L W_out
// (FastKernels::upper_forward). The TD(λ) gradient back-propagates through them
// (FastKernels::upper_backprop: g_{l-1}[i] = act'(h_{l-1,i}) Σ_j W_l[i][j] g_l[j], starting from
// the last hidden layer's g as below) and every parameter has its trace entries (W1's rows, then
// b1, W_l, b_l, ..., W_out, b_out). The W1 rows go through the same row passes (fused and
// deferred modes included); everything after W1 is small and stepped at every update. A
// one-hidden-layer net takes exactly the kernels it took before deeper nets were supported.
//
// TD(λ) exactly as nn/td_backend.h documents: one eligibility trace per White-perspective
// output k (win, win_mars, lose_mars[, draw]), each shaped like the parameters. The gradient
// of V_k = V_White,k(s) goes through the evaluation head and, for Black to move, through the
// perspective flip (White's win is the mover's lose, White's win_mars the mover's lose_mars):
//   ∂V_k/∂b2[m]    = J[k][m]                  J = ∂V/∂z, the head's K x K Jacobian
//   ∂V_k/∂W2[j][m] = J[k][m] h_j
//   ∂V_k/∂b1[j]    = g_k[j] = act'(a_j) Σ_m J[k][m] W2[j][m]
//   ∂V_k/∂W1[i][j] = x_i g_k[j]
// Traces are stored scaled (e = c·ẽ, c shrinking by λ per step and renormalised when tiny), so
// a step touches only the rows of non-zero inputs; the update is one pass over the W1 rows of
// inputs that were non-zero at some state of the game (the others' traces are zero) and over
// b1, W2, b2. accumulate() computes the state's gradient and leaves it pending; the next
// update() adds it to the traces in the same pass over the rows as the step (each trace row is
// read once per turn instead of twice), with the same operations on every number as adding it
// at once, so the same bits. Anything else that reads the traces (accumulate, copy_trace) adds
// a pending gradient first; clear() drops it.
// Deferred rows (FastTd::Mode::Deferred, the self-play trainer's): a W1 row's scaled trace
// changes only when its input is non-zero, so update() steps at once only b1, W2, b2 and the
// rows of the last state's non-zero inputs, and records its coefficients; every other touched
// row is stepped later through the recorded steps in order (the same operations, so the same
// bits), when sync_rows() names it before a read or sync() brings the whole net up to date. A
// row left for m turns then costs one trip from L2 and m passes in L1 instead of m trips.
//
// Objects own their scratch (no allocation per call, nothing throws after construction) and
// belong to one thread. They share the net's parameters (a ValueNet copy), so they keep working
// on that net even if the caller's ValueNet variable is later assigned another net.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "core/types.h"
#include "nn/evaluation.h"
#include "nn/fast_kernels.h"
#include "nn/value_net.h"

namespace nardy {

// Whether the fast kernels cover `shape`: 1..kMaxHiddenLayers hidden layers, any activation,
// K = 3 or 4 (and an encoder of at most kMaxKernelInputs inputs).
bool fast_net_supports(const NetShape& shape);

class FastNet {
 public:
  // Binds to `net`'s parameters, computing with the kernels of `path` (nn/fast_kernels.h).
  // Throws Error if fast_net_supports(net.shape()) is false or the path is not supported.
  explicit FastNet(const ValueNet& net, SimdPath path = active_simd_path());

  int num_inputs() const { return in_; }
  // Units of the first hidden layer: the length of the hidden sums below.
  int num_hidden() const { return hidden_; }
  // Units of all hidden layers together: the length of the `hidden` scratch of
  // logits_from_sums() and evaluate_sums() (num_hidden() for a one-hidden-layer net).
  int activation_size() const { return act_size_; }
  int num_hidden_layers() const { return upper_.empty() ? 1 : static_cast<int>(upper_.size()); }
  int num_outputs() const { return k_; }
  SimdPath simd_path() const { return kernels_->path; }

  // ---- Building blocks (const, caller-owned buffers) ----
  // Lists x's non-zero inputs (indices increasing) and their values; returns their number.
  int nonzero_inputs(const float* x, int* rows, float* values) const {
    return kernels_->nonzero_inputs(x, in_, rows, values);
  }
  // sums[0..hidden) = b1 + x W1, skipping zero inputs.
  void hidden_sums(const float* x, float* sums) const;
  // sums of x given base_sums = hidden_sums(base): adds (x_i - base_i) W1[i] for i with
  // x_i != base_i only. Equals hidden_sums(x) up to float rounding.
  void hidden_sums_from_base(const float* base_sums, const float* base, const float* x,
                             float* sums) const;
  // hidden[0..activation_size()) = the activations of every hidden layer given the first one's
  // sums, and z[0..K) = the logits (b2 + hidden W2 for one hidden layer).
  void logits_from_sums(const float* sums, float* hidden, float* z) const;
  // The evaluation (from x's side to move) for hidden sums; `hidden` is scratch.
  Evaluation evaluate_sums(const float* sums, float* hidden) const;

  // ---- Conveniences on the object's scratch ----
  // Dense forward of one input row.
  Evaluation forward(const float* x);
  // Remembers `base` (num_inputs floats, copied) and its hidden sums for forward_from_base().
  void set_base(const float* base);
  // Incremental forward of x relative to the last set_base().
  Evaluation forward_from_base(const float* x);
  // Incremental forward of the input that differs from the last set_base() by coef[t] at
  // rows[t] (t < num_rows, rows increasing: Encoder::fill_difference's list); the same bits as
  // forward_from_base() of that input.
  Evaluation forward_from_rows(const int* rows, const float* coef, int num_rows);
  // forward_from_rows() of n candidates, candidate c's list at rows/coef[offsets[c] ..
  // offsets[c + 1]), into out[0..n): the same bits, two candidates at a time through one pass
  // over the output layer where the net has one hidden layer.
  void forward_from_rows(const int* rows, const float* coef, const int* offsets, int n,
                         Evaluation* out);
  // n rows of `inputs`; incremental from `base` when base is non-null, dense otherwise.
  void evaluate_batch(const float* base, const float* inputs, int n, Evaluation* out);

 private:
  friend class FastTd;
  ValueNet net_;  // shares (keeps alive) the parameter storage view_ points into
  const FastKernels* kernels_;
  KernelNet view_;
  int in_, hidden_, k_;
  int act_size_;  // units of all hidden layers
  Activation activation_;
  // Two or more hidden layers: the layers after the first, output layer included (empty for one
  // hidden layer), and their kernel view.
  std::vector<KernelLayer> upper_;
  KernelUpper upper_view_{};
  bool deep() const { return !upper_.empty(); }
  std::vector<float> base_, base_sums_, sums_, act_, sums2_, act2_;  // *2_: a pair's second
};

class FastTd {
 public:
  // Binds to `net` (fast_net_supports(); throws Error otherwise); lambda in [0, 1]; the kernels
  // of `path` (nn/fast_kernels.h).
  // How updates reach the parameters (see the header comment); every mode gives the same bits.
  enum class Mode : uint8_t {
    TwoPass,   // each gradient added at once, then every update over all touched rows
    Fused,     // the gradient added in the next update's pass (the default)
    Deferred,  // Fused, and rows not being read stepped only when synced: the net is up to
               // date only after sync(), and W1 rows only after sync_rows() names them
  };
  FastTd(ValueNet& net, float lambda, SimdPath path = active_simd_path(), Mode mode = Mode::Fused);

  // Clears the traces (start of a game).
  void clear();
  // The trace decay from the next accumulate() on; throws Error outside [0, 1].
  void set_lambda(float lambda);
  // Forward of x (from `mover`'s view), adds ∇θ V_White(x) to the traces (after decaying them
  // by λ), returns V_White(x).
  Evaluation accumulate(const float* x, Side mover);
  // θ += alpha Σ_k (target_k - value_k) e_k, value and target from White's view.
  void update(const Evaluation& value, const Evaluation& target, float alpha);

  // Deferred mode: brings the W1 rows rows[0..n) / every row up to date (no-ops otherwise).
  // Call sync_rows() for the rows a forward pass reads before it, sync() before anything else
  // reads the net (the end of a game, a search, a merge). clear() syncs first.
  void sync_rows(const int* rows, int n) {
    if (mode_ == Mode::Deferred)
      for (int r = 0; r < n; ++r) catch_up(rows[r]);
  }
  void sync();

  int num_traces() const { return net_.k_; }
  // Number of floats in one trace: the parameters in layer order (W1, b1, W2, b2, ...).
  size_t trace_size() const { return trace_size_; }
  // Trace k (unscaled) into out[0 .. trace_size()).
  void copy_trace(int k, std::span<float> out) const;
  const FastNet& net() const { return net_; }

 private:
  void rescale(float factor);
  // Deferred mode: steps W1 row i through the recorded steps it has not had.
  void catch_up(int i) {
    if (touched_[i] && applied_[i] < static_cast<int>(steps_.size())) replay(i);
  }
  void replay(int i);
  // Adds the pending gradient to the traces, if any (a const reader may need it).
  void add_pending() const;
  void drop_pending() const;
  // Adds the pending gradient (its rows must be among rows[0..num_rows)) to the traces and, if c
  // is non-null, steps those W1 rows and everything after W1.
  void add_gradient_and_step(const float* c, const int* rows, int num_rows) const;
  // Steps the W1 rows rows[0..num_rows) and everything after W1 (no pending gradient).
  void step(const float* c, const int* rows, int num_rows);
  template <class F>
  void for_each_live_range(F&& f);
  FastNet net_;
  float* params_[4];  // W1, b1, W2, b2 (one hidden layer); deeper nets use only W1 here
  // Deeper nets: every tensor after W1 (b1, then W and b of each further layer) with its trace
  // offset, stepped by FastKernels::apply_traces.
  struct DenseTensor {
    float* param;
    size_t offset, size;
  };
  std::vector<DenseTensor> dense_;
  float lambda_;
  float scale_ = 1.0f;  // the traces are scale_ * traces_
  size_t trace_size_;
  size_t off_b1_;
  Mode mode_;
  // Traces and the pending gradient are mutable: copy_trace() (const) adds the gradient first.
  mutable std::vector<float> traces_;  // num_traces() blocks of trace_size_
  mutable bool pending_ = false;       // grad_, jac_, h_ and row_x_ hold a gradient to add
  std::vector<float> grad_;            // g_k[j], num_traces() x activation_size()
  float jac_[4][4] = {};               // ... its Jacobian (already divided by the scale)
  std::vector<float> h_;               // ... and activations
  mutable std::vector<float> row_x_;   // per input: x_i if row i gets x_i g_k, else 0
  int num_pending_ = 0;                // its rows: nonzero_[0 .. num_pending_)
  std::vector<float> deriv_;           // act'(a_j)
  std::vector<int> nonzero_;           // indices of the non-zero inputs of the last state
  std::vector<float> nonzero_x_;       // ... and their values
  std::vector<uint8_t> touched_;       // per input: W1 row may have a non-zero trace
  std::vector<int> touched_rows_;
  // Deferred mode: every update's coefficients since clear(), and per input the number of them
  // that its W1 row has had (meaningful for touched rows).
  std::vector<std::array<float, 4>> steps_;
  std::vector<int> applied_;
};

}  // namespace nardy
