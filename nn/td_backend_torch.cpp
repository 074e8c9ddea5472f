// The "libtorch" TD backend: LibTorch forward through the TorchScript module and autograd for
// each White-perspective output; traces as tensors. Any architecture; the reference that the
// fast kernels are tested against.
#include "core/error.h"
#include "nn/td_backend.h"
#include "nn/value_net_impl_torch.h"

namespace nardy {
namespace {

class TorchTdBackend final : public TdBackend {
 public:
  TorchTdBackend(ValueNet& net, float lambda)
      : net_(net), lambda_(lambda), params_(net.impl().parameters()) {
    check_td_lambda(lambda);
    for (int k = 0; k < net.shape().num_outputs; ++k) {
      std::vector<torch::Tensor> trace;
      for (const auto& p : params_) trace.push_back(torch::zeros_like(p).detach());
      traces_.push_back(std::move(trace));
    }
  }

  void evaluate(std::span<const float>, std::span<const float> inputs, int n,
                std::span<Evaluation> out) override {
    net_.evaluate_batch(inputs, n, out);
  }

  void start_game() override {
    torch::NoGradGuard no_grad;
    for (auto& trace : traces_)
      for (auto& t : trace) t.zero_();
  }

  void set_lambda(float lambda) override {
    check_td_lambda(lambda);
    lambda_ = lambda;
  }

  Evaluation accumulate(std::span<const float> x, Side mover) override {
    const int num_inputs = net_.num_inputs();
    torch::Tensor xt =
        torch::from_blob(const_cast<float*>(x.data()), {1, num_inputs}, torch::kFloat32).clone();
    torch::Tensor y = net_.impl().module.forward({xt}).toTensor();
    torch::Tensor win = y[0][0], win_mars = y[0][1], lose_mars = y[0][2], draw = y[0][3];
    torch::Tensor lose = 1.0 - win - draw;
    std::vector<torch::Tensor> white;  // White-perspective outputs
    if (mover == Side::White)
      white = {win, win_mars, lose_mars, draw};
    else
      white = {lose, lose_mars, win_mars, draw};
    const int k_count = static_cast<int>(traces_.size());
    for (int k = 0; k < k_count; ++k) {
      auto grads = torch::autograd::grad({white[k]}, params_, {}, /*retain_graph=*/k + 1 < k_count,
                                         /*create_graph=*/false, /*allow_unused=*/true);
      torch::NoGradGuard no_grad;
      for (size_t p = 0; p < params_.size(); ++p) {
        traces_[k][p].mul_(lambda_);
        if (grads[p].defined()) traces_[k][p].add_(grads[p]);
      }
    }
    Evaluation e{white[0].item<float>(), white[1].item<float>(), white[2].item<float>(),
                 white[3].item<float>()};
    return e;
  }

  void update(const Evaluation& value, const Evaluation& target, float alpha) override {
    const auto v = value.as_array();
    const auto t = target.as_array();
    torch::NoGradGuard no_grad;
    for (size_t k = 0; k < traces_.size(); ++k) {
      const float c = alpha * (t[k] - v[k]);
      // In place on the parameter storage through a detached view (Python's `.data`), outside
      // autograd's version tracking, like the fast kernels' step.
      for (size_t p = 0; p < params_.size(); ++p) params_[p].data().add_(traces_[k][p], c);
    }
  }

  const char* name() const override { return "libtorch"; }
  int num_traces() const override { return static_cast<int>(traces_.size()); }
  size_t trace_size() const override {
    size_t n = 0;
    for (const auto& p : params_) n += p.numel();
    return n;
  }
  void copy_trace(int k, std::span<float> out) const override {
    size_t at = 0;
    for (const auto& t : traces_[k]) {
      auto c = t.contiguous();
      std::copy(c.data_ptr<float>(), c.data_ptr<float>() + c.numel(), out.begin() + at);
      at += c.numel();
    }
  }

 private:
  ValueNet net_;  // shares the caller's parameters
  float lambda_;
  std::vector<torch::Tensor> params_;
  std::vector<std::vector<torch::Tensor>> traces_;  // [output k][parameter p]
};

}  // namespace

std::unique_ptr<TdBackend> make_libtorch_td_backend(ValueNet& net, float lambda) {
  return std::make_unique<TorchTdBackend>(net, lambda);
}

}  // namespace nardy
