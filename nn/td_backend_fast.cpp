// The "fast" TD backend: nn/fast_net.h's kernels behind the TdBackend interface.
#include <vector>

#include "core/error.h"
#include "nn/fast_net.h"
#include "nn/td_backend.h"

namespace nardy {
namespace {

class FastTdBackend final : public TdBackend {
 public:
  FastTdBackend(ValueNet& net, float lambda, bool deferred)
      : td_(net, lambda, active_simd_path(),
            deferred ? FastTd::Mode::Deferred : FastTd::Mode::Fused),
        eval_(net),
        base_rows_(net.num_inputs()),
        base_values_(net.num_inputs()) {}

  void evaluate(std::span<const float> base, std::span<const float> inputs, int n,
                std::span<Evaluation> out) override {
    td_.sync();  // reads any row
    eval_.evaluate_batch(base.empty() ? nullptr : base.data(), inputs.data(), n, out.data());
  }
  bool evaluates_differences() const override { return true; }
  void evaluate_differences(std::span<const float> base, const int* rows, const float* coef,
                            const int* offsets, int n, std::span<Evaluation> out) override {
    // The rows read: base's non-zero inputs (its dense sums) and the candidates' differences.
    td_.sync_rows(base_rows_.data(),
                  eval_.nonzero_inputs(base.data(), base_rows_.data(), base_values_.data()));
    td_.sync_rows(rows, offsets[n]);
    eval_.set_base(base.data());
    eval_.forward_from_rows(rows, coef, offsets, n, out.data());
  }
  void start_game() override { td_.clear(); }
  void set_lambda(float lambda) override { td_.set_lambda(lambda); }
  Evaluation accumulate(std::span<const float> x, Side mover) override {
    return td_.accumulate(x.data(), mover);
  }
  void update(const Evaluation& value, const Evaluation& target, float alpha) override {
    td_.update(value, target, alpha);
  }
  void sync() override { td_.sync(); }
  const char* name() const override { return "fast"; }
  int num_traces() const override { return td_.num_traces(); }
  size_t trace_size() const override { return td_.trace_size(); }
  void copy_trace(int k, std::span<float> out) const override { td_.copy_trace(k, out); }

 private:
  FastTd td_;
  FastNet eval_;
  std::vector<int> base_rows_;  // scratch: base's non-zero inputs
  std::vector<float> base_values_;
};

}  // namespace

std::unique_ptr<TdBackend> make_fast_td_backend(ValueNet& net, float lambda, bool deferred) {
  if (!fast_net_supports(net.shape()))
    throw Error("TD backend 'fast' supports nets with 1.." + std::to_string(kMaxHiddenLayers) +
                " hidden layers and 3 or 4 outputs; this net has " +
                std::to_string(net.shape().hidden.size()) + " hidden layers and " +
                std::to_string(net.shape().num_outputs) + " outputs (use backend 'libtorch')");
  return std::make_unique<FastTdBackend>(net, lambda, deferred);
}

}  // namespace nardy
