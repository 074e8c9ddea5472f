// nn/td_backend.h — evaluation and TD(λ) learning on a ValueNet, with two backends.
//
//   "fast"     hand-written float kernels on the net's own parameter storage (nn/fast_net.h):
//              dense and incremental forward, TD(λ) with eligibility traces. Covers nets with
//              1..kMaxHiddenLayers hidden layers (any activation); the self-play hot path.
//   "libtorch" the same operations through LibTorch forward and autograd: any architecture,
//              and the reference the fast kernels are tested against.
//
// TD(λ) (Sutton 1988; Tesauro's TD-Gammon 1992/1995) with one trace per output, all in a fixed
// perspective (White's) so that successive states of a game, which alternate the side to
// move, share one set of traces:
//   at each state s_t:  V_t = V_White(s_t);  e_k <- λ e_k + ∇θ V_t,k      (accumulate)
//   when s_{t+1} is known:  θ <- θ + α Σ_k (target_k - V_t,k) e_k         (update)
// where target = V_White(s_{t+1}) or, at the end, the game's outcome. The outputs k are the
// Evaluation's win, win_mars, lose_mars (and draw for 4-output nets).
//
// A backend instance and the ValueNet it trains belong to one thread; several training threads
// each train a private copy of the net (selfplay/training/td_workers.h merges them). All spans are
// caller-owned; nothing here allocates per call after the first.
#pragma once

#include <cstddef>
#include <memory>
#include <span>
#include <string_view>

#include "core/types.h"
#include "nn/value_net.h"

namespace nardy {

class TdBackend {
 public:
  virtual ~TdBackend() = default;

  // Evaluates n candidate input rows (each from its own side to move). `base` is an input row
  // that all candidates differ from in few slots (e.g. the current board seen from the
  // opponent); the fast backend reuses its hidden sums (incremental forward). May be empty.
  virtual void evaluate(std::span<const float> base, std::span<const float> inputs, int n,
                        std::span<Evaluation> out) = 0;

  // Whether evaluate_differences() is available (the fast backend).
  virtual bool evaluates_differences() const { return false; }
  // evaluate() for candidates given as their differences from `base` (nn/encoder.h
  // fill_difference): candidate c's input i differs from base[i] by coef[t] at i = rows[t] for t
  // in [offsets[c], offsets[c+1]), rows increasing, and equals base[i] elsewhere. The fast
  // backend adds those rows to base's hidden sums (the same bits as evaluate() of the formed
  // inputs) without forming the inputs. The default throws Error.
  virtual void evaluate_differences(std::span<const float> base, const int* rows, const float* coef,
                                    const int* offsets, int n, std::span<Evaluation> out);

  // Clears the eligibility traces (call at the start of each game).
  virtual void start_game() = 0;
  // The trace decay from the next accumulate() on (a λ schedule changes it between games);
  // throws Error outside [0, 1].
  virtual void set_lambda(float lambda) = 0;
  // Evaluates x (mover's view; `mover` is its side), adds the gradient of its White-perspective
  // outputs to the traces, and returns that White-perspective evaluation.
  virtual Evaluation accumulate(std::span<const float> x, Side mover) = 0;
  // Applies θ += α Σ_k (target_k - value_k) e_k with White-perspective value and target.
  virtual void update(const Evaluation& value, const Evaluation& target, float alpha) = 0;

  // Brings the net's parameters up to date with every update() so far: a backend made with
  // `deferred` (make_td_backend) may leave parts of the net behind between its own calls, so
  // call this before anything else reads the net (the end of a game, a search). No-op otherwise.
  virtual void sync() {}

  virtual const char* name() const = 0;

  // Inspection (tests, diagnostics; not the hot path). There are num_traces() traces, one per
  // White-perspective output; each is the concatenation of the net's parameters in layer
  // order (w0, b0, w1, b1, ...; weights [in][out] as in nn/value_net.h), trace_size() floats.
  virtual int num_traces() const = 0;
  virtual size_t trace_size() const = 0;
  virtual void copy_trace(int k, std::span<float> out) const = 0;
};

// "fast" or "libtorch"; `lambda` in [0, 1]. Throws Error for an unknown backend or a shape the
// backend does not support. `deferred`: the fast backend may step W1 rows that its own
// evaluations do not read only later (nn/fast_net.h, FastTd::Mode::Deferred; the same bits), so
// the net is up to date only after sync(); the self-play trainer's choice.
std::unique_ptr<TdBackend> make_td_backend(std::string_view name, ValueNet& net, float lambda,
                                           bool deferred = false);

// Throws Error unless lambda is in [0, 1] (both backends check through it).
void check_td_lambda(float lambda);

// The two implementations behind make_td_backend (nn/td_backend_fast.cpp,
// nn/td_backend_torch.cpp).
std::unique_ptr<TdBackend> make_fast_td_backend(ValueNet& net, float lambda, bool deferred = false);
std::unique_ptr<TdBackend> make_libtorch_td_backend(ValueNet& net, float lambda);

}  // namespace nardy
