// nn/value_net.h — the value network: the model of record, behind a torch-free interface.
//
// A ValueNet is an MLP (configurable hidden layers and activation) from an encoder's inputs to
// K logits, turned into an Evaluation by the head in nn/evaluation.h. It is held as a LibTorch
// TorchScript module (torch::jit::Module) so checkpoints are TorchScript files that Python's
// torch.jit.load opens; this header never includes torch (value_net_torch.cpp does).
//
// Parameter layout, read and written in place by the float kernels (nn/fast_net.h):
//   layer i maps in_i -> out_i; weight is [in_i][out_i] row-major (input-major, so that one
//   input's contributions to all units are contiguous — the incremental forward adds rows);
//   bias is [out_i]. The module computes h = act(x @ W + b) per hidden layer and z = h @ W + b
//   for the output layer. In the TorchScript module they are the parameters w0, b0, w1, b1, ...
//   (input layer first). The storage never moves for the life of the net: copy_parameters_from
//   copies in place, so views and fast kernels bound to a net stay valid.
//
// TorchScript module (what Python sees):
//   forward(x: Tensor[N, num_inputs]) -> Tensor[N, 5]  columns: win, win_mars, lose_mars,
//   draw, equity — the same numbers as ValueNet::evaluate_batch for the same inputs.
//   Extra file "nardy.json" (torch.jit.load(path, _extra_files={"nardy.json": ""})) holds the
//   CheckpointInfo: format version, encoder id, shape, rules, training counters and config
//   (keys documented in nn/checkpoint_json.h). The module also has logits(x) -> [N, K].
//
// LibTorch threads: the first net created or loaded calls torch::set_num_threads(1) (self-play
// runs one single-threaded worker per core); set_torch_threads() changes it afterwards.
//
// Copies of a ValueNet share one set of parameters (like a shared_ptr); clone() is the deep
// copy.
//
// Thread-safety: evaluate_* are const and may run concurrently; training writes parameters in
// place, so a net being trained belongs to one thread (selfplay/training/td_workers.h gives each
// training thread its own copy).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/position.h"
#include "core/rules.h"
#include "nn/encoder.h"
#include "nn/evaluation.h"

namespace nardy {

enum class Activation : uint8_t { Sigmoid, Tanh, Relu };
Activation parse_activation(std::string_view name);  // throws Error
std::string activation_name(Activation a);

// LibTorch's intra-op thread count for this process (see the note above).
void set_torch_threads(int n);

// The shapes a net may have, one definition for ValueNet::create, checkpoints and training
// configs (net.hidden): 1..kMaxHiddenLayers hidden layers of 1..kMaxHiddenUnits units each.
constexpr int kMaxHiddenLayers = 4;
constexpr int kMaxHiddenUnits = 4096;

struct NetShape {
  std::string encoder = "raw-v1";  // encoder id
  std::vector<int> hidden = {128};
  Activation activation = Activation::Sigmoid;
  int num_outputs = 3;  // value_outputs(rules): 3, or 4 when draws are possible
  bool operator==(const NetShape&) const = default;
};

// The value outputs a net for `rules` has: win, win_mars and lose_mars, and a fourth, draw,
// where the last roll can draw (last_roll_draw).
inline int value_outputs(const Rules& rules) {
  return rules.last_roll_draw ? 4 : 3;
}

// Hidden widths as text, input side first: "256", "64-32".
inline std::string hidden_name(const std::vector<int>& hidden) {
  std::string s;
  for (int w : hidden) s += (s.empty() ? "" : "-") + std::to_string(w);
  return s;
}

// Metadata stored in every checkpoint beside the weights.
struct CheckpointInfo {
  std::string rules;                         // Rules::to_string() of the training rules
  int64_t games = 0;                         // self-play games trained
  int64_t positions = 0;                     // TD updates made
  std::string config_yaml;                   // the resolved config that made it
  std::map<std::string, std::string> extra;  // free-form (e.g. run name, evaluation results)
  // Read from a file: the nardy that wrote it ("nardy 0.2.0 (commit 1a2b3c4)"; "" for files
  // written before 0.2.0). save() always writes this build's, whatever this field holds.
  std::string written_by;
};

class ValueNet {
 public:
  struct LayerView {
    float* weight;  // [in][out]
    float* bias;    // [out]
    int in, out;
  };

  // A freshly initialised net (uniform in ±1/sqrt(fan_in), seeded). Throws Error on a bad shape.
  static ValueNet create(const NetShape& shape, uint64_t seed);
  // Loads a checkpoint. Throws Error with the path and the reason for a missing, damaged or
  // foreign file, or an encoder/shape that does not match its metadata.
  static ValueNet load(const std::string& path);
  // Writes a checkpoint atomically (temporary file, then rename).
  void save(const std::string& path, const CheckpointInfo& info) const;

  const NetShape& shape() const;
  const Encoder& encoder() const;
  int num_inputs() const;
  const CheckpointInfo& info() const;  // from load(), or empty for a new net
  void set_info(const CheckpointInfo& info);

  // Views into the module's own parameter storage, input layer first.
  std::vector<LayerView> layers();
  std::vector<LayerView> layers() const;

  // Reference forward pass through LibTorch: `inputs` holds n rows of num_inputs().
  void evaluate_batch(std::span<const float> inputs, int n, std::span<Evaluation> out) const;
  // Encodes and evaluates one position (from its side to move) through LibTorch.
  Evaluation evaluate(const Position& pos) const;

  // A deep copy (independent parameters).
  ValueNet clone() const;
  // Copies parameters from another net of the same shape (throws Error otherwise).
  void copy_parameters_from(const ValueNet& other);

  // Opaque access for the LibTorch backend (nn/*_torch.cpp only).
  struct Impl;
  Impl& impl() const { return *impl_; }

 private:
  explicit ValueNet(std::shared_ptr<Impl> impl) : impl_(std::move(impl)) {}
  std::shared_ptr<Impl> impl_;
};

}  // namespace nardy
