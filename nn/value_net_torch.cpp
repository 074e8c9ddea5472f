// ValueNet on LibTorch: a TorchScript module built in C++ (register_parameter + define), so
// that checkpoints are ordinary TorchScript files (torch.jit.load in Python).
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>

#include "core/error.h"
#include "core/random.h"
#include "nn/checkpoint_json.h"
#include "nn/value_net_impl_torch.h"

namespace nardy {
namespace {

const char* torch_activation(Activation a) {
  switch (a) {
    case Activation::Sigmoid:
      return "torch.sigmoid";
    case Activation::Tanh:
      return "torch.tanh";
    case Activation::Relu:
      return "torch.relu";
  }
  return "torch.sigmoid";
}

// The TorchScript methods: logits(x) -> [N, K], head(z) -> [N, 5] (nn/evaluation.h; columns
// win, win_mars, lose_mars, draw, equity) and forward(x) = head(logits(x)).
std::string logits_source(const NetShape& s) {
  std::ostringstream o;
  const size_t n = s.hidden.size();
  o << "def logits(self, x: Tensor) -> Tensor:\n";
  o << "    h = x\n";
  for (size_t i = 0; i < n; ++i)
    o << "    h = " << torch_activation(s.activation) << "(torch.addmm(self.b" << i << ", h, self.w"
      << i << "))\n";
  o << "    return torch.addmm(self.b" << n << ", h, self.w" << n << ")\n";
  return o.str();
}

// forward(x) = head(logits(x)), the head's text from nn/evaluation.h.
std::string forward_source() {
  return evaluation_head_torchscript("head(self, z: Tensor) -> Tensor") +
         "def forward(self, x: Tensor) -> Tensor:\n"
         "    return self.head(self.logits(x))\n";
}

std::once_flag g_threads_once;

// Self-play runs one single-threaded worker per core; LibTorch's own intra-op threads would
// only oversubscribe. Done once, at the first net; set_torch_threads() overrides it.
void default_torch_threads() {
  std::call_once(g_threads_once, [] { torch::set_num_threads(1); });
}

// Layer sizes [in, out] of every layer, input layer first.
std::vector<std::pair<int, int>> layer_sizes(const NetShape& s, int num_inputs) {
  std::vector<std::pair<int, int>> sizes;
  int in = num_inputs;
  for (int h : s.hidden) {
    sizes.emplace_back(in, h);
    in = h;
  }
  sizes.emplace_back(in, s.num_outputs);
  return sizes;
}

// A module of this (checked) shape with zero parameters.
std::shared_ptr<ValueNet::Impl> make_impl(const NetShape& shape) {
  default_torch_threads();
  auto impl = std::make_shared<ValueNet::Impl>();
  impl->shape = shape;
  impl->encoder = &encoder_by_name(shape.encoder);
  impl->module = torch::jit::Module(c10::QualifiedName("__torch__.nardy.ValueNet"));
  const auto sizes = layer_sizes(shape, impl->encoder->num_inputs());
  for (size_t i = 0; i < sizes.size(); ++i) {
    auto w = torch::zeros({sizes[i].first, sizes[i].second}, torch::kFloat32).requires_grad_(true);
    auto b = torch::zeros({sizes[i].second}, torch::kFloat32).requires_grad_(true);
    impl->module.register_parameter("w" + std::to_string(i), w, /*is_buffer=*/false);
    impl->module.register_parameter("b" + std::to_string(i), b, /*is_buffer=*/false);
    impl->weights.push_back(w);
    impl->biases.push_back(b);
  }
  impl->module.define(logits_source(shape));
  impl->module.define(forward_source());
  return impl;
}

std::string shape_text(at::IntArrayRef sizes) {
  std::string s = "[";
  for (size_t i = 0; i < sizes.size(); ++i) s += (i ? ", " : "") + std::to_string(sizes[i]);
  return s + "]";
}

// The first line of a c10::Error (the rest is a C++ backtrace).
std::string first_line(const std::string& what) {
  const auto nl = what.find('\n');
  return nl == std::string::npos ? what : what.substr(0, nl);
}

}  // namespace

void set_torch_threads(int n) {
  std::call_once(g_threads_once, [] {});
  torch::set_num_threads(n < 1 ? 1 : n);
}

ValueNet ValueNet::create(const NetShape& shape, uint64_t seed) {
  auto impl = make_impl(checked_shape(shape, "network shape"));
  Rng rng(seed);
  torch::NoGradGuard no_grad;
  for (size_t i = 0; i < impl->weights.size(); ++i) {
    // PyTorch's nn.Linear default: U(-1/sqrt(fan_in), 1/sqrt(fan_in)) for weights and bias.
    const double bound = 1.0 / std::sqrt(static_cast<double>(impl->weights[i].size(0)));
    for (torch::Tensor* t : {&impl->weights[i], &impl->biases[i]}) {
      float* p = t->data_ptr<float>();
      for (int64_t k = 0; k < t->numel(); ++k)
        p[k] = static_cast<float>((2.0 * rng.uniform() - 1.0) * bound);
    }
  }
  return ValueNet(impl);
}

void ValueNet::save(const std::string& path, const CheckpointInfo& info) const {
  torch::jit::ExtraFilesMap extra{{kCheckpointMetadataFile, checkpoint_json(impl_->shape, info)}};
  const std::string tmp = path + ".tmp";
  try {
    impl_->module.save(tmp, extra);
  } catch (const c10::Error& e) {
    std::remove(tmp.c_str());
    throw Error("cannot write checkpoint '" + path + "': " + first_line(e.what()));
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    throw Error("cannot write checkpoint '" + path + "': rename from " + tmp + " failed");
  }
}

ValueNet ValueNet::load(const std::string& path) {
  const std::string where = "checkpoint '" + path + "'";
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) throw Error(where + ": no such file");
  if (!std::filesystem::is_regular_file(path, ec)) throw Error(where + ": not a regular file");
  torch::jit::ExtraFilesMap extra{{kCheckpointMetadataFile, ""}};
  torch::jit::Module file_module;
  try {
    file_module = torch::jit::load(path, torch::kCPU, extra);
  } catch (const c10::Error& e) {
    throw Error(where + ": not a readable TorchScript file (damaged or truncated?): " +
                first_line(e.what()));
  } catch (const std::exception& e) {
    throw Error(where + ": not a readable TorchScript file (damaged or truncated?): " +
                first_line(e.what()));
  }
  const std::string& json = extra[kCheckpointMetadataFile];
  if (json.empty())
    throw Error(where +
                ": no nardy.json metadata (a TorchScript file, but not a nardy checkpoint)");
  NetShape shape;
  CheckpointInfo info;
  parse_checkpoint_json(json, path, shape, info);

  // Rebuild our own module of that shape and copy the file's parameters into it, so the
  // methods are always this build's and the storage is contiguous float32.
  auto impl = make_impl(shape);
  impl->info = info;
  torch::NoGradGuard no_grad;
  auto copy_param = [&](const std::string& name, torch::Tensor& dst) {
    if (!file_module.hasattr(name) || !file_module.attr(name).isTensor())
      throw Error(where + ": parameter " + name + " is missing");
    torch::Tensor src = file_module.attr(name).toTensor();
    if (src.sizes() != dst.sizes())
      throw Error(where + ": parameter " + name + " has shape " + shape_text(src.sizes()) +
                  " but the metadata (encoder " + shape.encoder + ", hidden, outputs) implies " +
                  shape_text(dst.sizes()));
    if (src.scalar_type() != torch::kFloat32)
      throw Error(where + ": parameter " + name + " is not float32");
    dst.copy_(src);
  };
  for (size_t i = 0; i < impl->weights.size(); ++i) {
    copy_param("w" + std::to_string(i), impl->weights[i]);
    copy_param("b" + std::to_string(i), impl->biases[i]);
  }
  return ValueNet(impl);
}

const NetShape& ValueNet::shape() const {
  return impl_->shape;
}
const Encoder& ValueNet::encoder() const {
  return *impl_->encoder;
}
int ValueNet::num_inputs() const {
  return impl_->encoder->num_inputs();
}
const CheckpointInfo& ValueNet::info() const {
  return impl_->info;
}
void ValueNet::set_info(const CheckpointInfo& info) {
  impl_->info = info;
}

std::vector<ValueNet::LayerView> ValueNet::layers() {
  return static_cast<const ValueNet*>(this)->layers();
}

std::vector<ValueNet::LayerView> ValueNet::layers() const {
  std::vector<LayerView> v;
  for (size_t i = 0; i < impl_->weights.size(); ++i) {
    const auto& w = impl_->weights[i];
    v.push_back(LayerView{w.data_ptr<float>(), impl_->biases[i].data_ptr<float>(),
                          static_cast<int>(w.size(0)), static_cast<int>(w.size(1))});
  }
  return v;
}

void ValueNet::evaluate_batch(std::span<const float> inputs, int n,
                              std::span<Evaluation> out) const {
  if (n <= 0) return;
  const int k = num_inputs();
  if (inputs.size() < static_cast<size_t>(n) * k || out.size() < static_cast<size_t>(n))
    throw Error("evaluate_batch: " + std::to_string(n) + " rows need " +
                std::to_string(static_cast<size_t>(n) * k) + " inputs and " + std::to_string(n) +
                " outputs; got " + std::to_string(inputs.size()) + " and " +
                std::to_string(out.size()));
  torch::NoGradGuard no_grad;
  auto x = torch::from_blob(const_cast<float*>(inputs.data()), {n, k}, torch::kFloat32);
  torch::Tensor y = impl_->module.forward({x}).toTensor().contiguous();
  const float* p = y.data_ptr<float>();
  for (int i = 0; i < n; ++i, p += 5) out[i] = Evaluation{p[0], p[1], p[2], p[3]};
}

Evaluation ValueNet::evaluate(const Position& pos) const {
  std::vector<float> x(num_inputs());
  encoder().fill(pos, x);
  Evaluation e;
  evaluate_batch(x, 1, std::span<Evaluation>(&e, 1));
  return e;
}

ValueNet ValueNet::clone() const {
  auto impl = make_impl(impl_->shape);
  impl->info = impl_->info;
  ValueNet copy(impl);
  copy.copy_parameters_from(*this);
  return copy;
}

void ValueNet::copy_parameters_from(const ValueNet& other) {
  if (!(other.shape() == shape()))
    throw Error("copy_parameters_from: shapes differ (" + other.shape().encoder + " vs " +
                shape().encoder + ", or hidden/activation/outputs)");
  if (&other.impl() == impl_.get()) return;
  torch::NoGradGuard no_grad;
  for (size_t i = 0; i < impl_->weights.size(); ++i) {
    impl_->weights[i].copy_(other.impl_->weights[i]);
    impl_->biases[i].copy_(other.impl_->biases[i]);
  }
}

}  // namespace nardy
