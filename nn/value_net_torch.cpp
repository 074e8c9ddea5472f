// ValueNet on LibTorch: a TorchScript module built in C++ (register_parameter + define), so
// that checkpoints are ordinary TorchScript files (torch.jit.load in Python).
#include <caffe2/serialize/inline_container.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>

#include "core/error.h"
#include "core/file_io.h"
#include "core/printable.h"
#include "core/warning.h"
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

constexpr const char* kMetadataRecord = "extra/nardy.json";

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

namespace {

// The checksum of every member of `reader`'s archive but nardy.json (checksums.archive).
std::string archive_checksum(caffe2::serialize::PyTorchStreamReader& reader) {
  std::vector<std::string> names = reader.getAllRecords();
  std::sort(names.begin(), names.end());
  ArchiveChecksum sum;
  for (const std::string& name : names) {
    if (name == kMetadataRecord) continue;
    auto [data, size] = reader.getRecord(name);
    sum.add(name, data.get(), size);
  }
  return sum.text();
}

}  // namespace

void ValueNet::save(const std::string& path, const CheckpointInfo& info) const {
  // LibTorch writes the archive to memory, and nardy's checked writer puts it on disk: a full
  // disk is then an Error naming the file, not an exception thrown out of LibTorch's writer.
  std::ostringstream archive_bytes;
  try {
    // TorchScript writes an archive deterministically: write it once in memory to checksum
    // its members, then for good with the metadata that carries the checksum.
    std::stringstream draft;
    impl_->module.save(draft, {{kCheckpointMetadataFile, "{}"}});
    caffe2::serialize::PyTorchStreamReader reader(&draft);
    const std::string archive = archive_checksum(reader);
    torch::jit::ExtraFilesMap extra{
        {kCheckpointMetadataFile, checkpoint_json(impl_->shape, info, layers(), archive)}};
    impl_->module.save(archive_bytes, extra);
  } catch (const c10::Error& e) {
    throw Error("cannot write checkpoint " + quote_path(path) + ": " +
                printable(first_line(e.what()), 200));
  }
  write_file_atomic(path, archive_bytes.str(), "checkpoint");
}

ValueNet ValueNet::load(const std::string& path) {
  const std::string where = "checkpoint " + quote_path(path);
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (ec && ec != std::errc::no_such_file_or_directory)  // e.g. a path too long for the system
    throw Error(where + ": cannot read (" + ec.message() + ")");
  if (!std::filesystem::exists(status)) throw Error(where + ": no such file");
  if (!std::filesystem::is_regular_file(status)) throw Error(where + ": not a regular file");
  auto unreadable = [&](const std::string& what) {
    return Error(where + ": not a readable TorchScript file (damaged or truncated?): " +
                 printable(first_line(what), 200));
  };

  // The zip alone first (bounded by its own sizes): metadata, checksums, parameter sizes.
  // LibTorch parses the members only once they are known to be intact, since a damaged
  // member can make it read past its buffers.
  std::string json;
  std::string archive;
  std::map<std::string, size_t> record_size;
  try {
    caffe2::serialize::PyTorchStreamReader reader(path);
    if (!reader.hasRecord(kMetadataRecord))
      throw Error(where +
                  ": no nardy.json metadata (a TorchScript file, but not a nardy checkpoint)");
    auto [data, size] = reader.getRecord(kMetadataRecord);
    json.assign(static_cast<const char*>(data.get()), size);
    archive = archive_checksum(reader);
    for (const std::string& name : reader.getAllRecords())
      record_size[name] = std::get<1>(reader.getRecord(name));
  } catch (const c10::Error& e) {
    throw unreadable(e.what());
  } catch (const Error&) {
    throw;
  } catch (const std::exception& e) {
    throw unreadable(e.what());
  }
  const CheckpointMetadata meta = parse_checkpoint_json(json, path);
  const NetShape& shape = meta.shape;
  const bool legacy = meta.archive_checksum.empty();
  if (!legacy && archive != meta.archive_checksum)
    throw Error(where +
                ": archive checksum check failed (a member of the zip was changed or "
                "damaged: stored " +
                printable(meta.archive_checksum) + ", computed " + archive + ")");

  // Rebuild our own module of that shape and copy the file's parameters into it, so the
  // methods are always this build's and the storage is contiguous float32.
  auto impl = make_impl(shape);
  impl->info = meta.info;
  // TorchScript stores the parameters as data/0, data/1, ... in the order w0, b0, w1, b1, ...;
  // a member of the wrong size (e.g. emptied) would make LibTorch read past it.
  for (size_t i = 0; i < 2 * impl->weights.size(); ++i) {
    const torch::Tensor& t = i % 2 ? impl->biases[i / 2] : impl->weights[i / 2];
    const std::string name = "data/" + std::to_string(i);
    const size_t expected = static_cast<size_t>(t.numel()) * sizeof(float);
    const auto it = record_size.find(name);
    const std::string param = (i % 2 ? "b" : "w") + std::to_string(i / 2);
    if (it == record_size.end())
      throw Error(where + ": parameter " + param + " is missing (no zip member " + name + ")");
    if (it->second != expected)
      throw Error(where + ": parameter " + param + " (zip member " + name + ") holds " +
                  std::to_string(it->second) + " bytes but the metadata (encoder " + shape.encoder +
                  ", hidden, outputs) implies shape " + shape_text(t.sizes()) + ", " +
                  std::to_string(expected) +
                  " bytes: the file is damaged or its metadata does not match its weights");
  }
  torch::jit::Module file_module;
  try {
    file_module = torch::jit::load(path, torch::kCPU);
  } catch (const c10::Error& e) {
    throw unreadable(e.what());
  } catch (const std::exception& e) {
    throw unreadable(e.what());
  }
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
    const size_t needed = static_cast<size_t>(src.numel()) * sizeof(float);
    if (!src.is_contiguous() || src.storage_offset() != 0 || !src.storage().data() ||
        src.storage().nbytes() != needed)
      throw Error(where + ": parameter " + name + " is damaged (its storage does not hold " +
                  std::to_string(needed) + " contiguous bytes)");
    dst.copy_(src);
  };
  for (size_t i = 0; i < impl->weights.size(); ++i) {
    copy_param("w" + std::to_string(i), impl->weights[i]);
    copy_param("b" + std::to_string(i), impl->biases[i]);
  }
  ValueNet net(impl);
  if (legacy) {
    warn(WarningKind::Checkpoint, where +
                                      " carries no checksums (written before they were stored); "
                                      "loaded without an integrity check");
  } else {
    const std::string actual = parameters_checksum(net.layers());
    if (actual != meta.parameters_checksum)
      throw Error(where +
                  ": parameter checksum check failed (the weights were changed or "
                  "damaged: stored " +
                  printable(meta.parameters_checksum) + ", computed " + actual + ")");
  }
  // A NaN or infinite weight (a diverged training run, or a file rewritten with a valid
  // checksum) would make every equity NaN: refused, naming the first one.
  for (size_t i = 0; i < impl->weights.size(); ++i)
    for (const bool bias : {false, true}) {
      const torch::Tensor& t = bias ? impl->biases[i] : impl->weights[i];
      const float* p = t.data_ptr<float>();
      for (int64_t k = 0; k < t.numel(); ++k)
        if (!std::isfinite(p[k]))
          throw Error(where + ": parameter " + (bias ? "b" : "w") + std::to_string(i) +
                      " holds a non-finite value (" + std::to_string(p[k]) + " at index " +
                      std::to_string(k) + "): the net diverged or the file was damaged");
    }
  return net;
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
