// nn/value_net_impl_torch.h — ValueNet::Impl, shared by the nn/*_torch.cpp files only.
//
// Internal: includes LibTorch, so only *_torch.cpp files may include it (every public nn
// header stays torch-free).
#pragma once

#include <torch/script.h>
#include <torch/torch.h>

#include <vector>

#include "nn/value_net.h"

namespace nardy {

struct ValueNet::Impl {
  torch::jit::Module module;  // parameters w0, b0, w1, b1, ... and forward()/logits()
  NetShape shape;
  const Encoder* encoder = nullptr;
  CheckpointInfo info;
  std::vector<torch::Tensor> weights;  // aliases of the module's parameters, [in][out]
  std::vector<torch::Tensor> biases;   // [out]

  // All parameters in layer order: w0, b0, w1, b1, ...
  std::vector<torch::Tensor> parameters() const {
    std::vector<torch::Tensor> p;
    for (size_t i = 0; i < weights.size(); ++i) {
      p.push_back(weights[i]);
      p.push_back(biases[i]);
    }
    return p;
  }
};

}  // namespace nardy
