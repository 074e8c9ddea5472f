// The "fast" TD backend: nn/fast_net.h's kernels behind the TdBackend interface.
#include "core/error.h"
#include "nn/fast_net.h"
#include "nn/td_backend.h"

namespace nardy {
namespace {

class FastTdBackend final : public TdBackend {
 public:
  FastTdBackend(ValueNet& net, float lambda) : td_(net, lambda), eval_(net) {}

  void evaluate(std::span<const float> base, std::span<const float> inputs, int n,
                std::span<Evaluation> out) override {
    eval_.evaluate_batch(base.empty() ? nullptr : base.data(), inputs.data(), n, out.data());
  }
  bool evaluates_differences() const override { return true; }
  void evaluate_differences(std::span<const float> base, const int* rows, const float* coef,
                            const int* offsets, int n, std::span<Evaluation> out) override {
    eval_.set_base(base.data());
    for (int c = 0; c < n; ++c)
      out[c] = eval_.forward_from_rows(rows + offsets[c], coef + offsets[c],
                                       offsets[c + 1] - offsets[c]);
  }
  void start_game() override { td_.clear(); }
  void set_lambda(float lambda) override { td_.set_lambda(lambda); }
  Evaluation accumulate(std::span<const float> x, Side mover) override {
    return td_.accumulate(x.data(), mover);
  }
  void update(const Evaluation& value, const Evaluation& target, float alpha) override {
    td_.update(value, target, alpha);
  }
  const char* name() const override { return "fast"; }
  int num_traces() const override { return td_.num_traces(); }
  size_t trace_size() const override { return td_.trace_size(); }
  void copy_trace(int k, std::span<float> out) const override { td_.copy_trace(k, out); }

 private:
  FastTd td_;
  FastNet eval_;
};

}  // namespace

std::unique_ptr<TdBackend> make_fast_td_backend(ValueNet& net, float lambda) {
  if (!fast_net_supports(net.shape()))
    throw Error("TD backend 'fast' supports nets with exactly one hidden layer; this net has " +
                std::to_string(net.shape().hidden.size()) + " (use backend 'libtorch')");
  return std::make_unique<FastTdBackend>(net, lambda);
}

}  // namespace nardy
