// bindings/bind_nn.cpp — encoders, evaluations and value networks (nn/).
//
// Everything crosses the boundary as NumPy arrays: encode() fills a float32 [N, num_inputs]
// array in C++ (one loop, the GIL released), ValueNet.evaluate() returns float32 [N, 5] with
// the columns of the TorchScript forward (win, win_mars, lose_mars, draw, equity), computed by
// ValueNet::evaluate_batch — the same numbers torch.jit.load(path)(x) gives in Python.
// Parameters are exchanged as NumPy arrays in the layout of nn/value_net.h (weights [in][out],
// input layer first), which is how nardy.torch_interop turns Python-trained nets into
// checkpoints.
#ifdef NARDY_HAS_NN
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "bindings/agent_arg.h"
#include "bindings/convert.h"
#include "core/error.h"
#include "core/movegen.h"
#include "core/pos_text.h"
#include "nn/encoder.h"
#include "nn/evaluation.h"
#include "nn/value_net.h"
#include "selfplay/search/net_agent.h"
#include "selfplay/search/shipped_models.h"
#include "selfplay/search/search.h"

namespace nardy::py_bind {
namespace {

using FloatArray = py::array_t<float, py::array::c_style | py::array::forcecast>;

// [N, k] float32 features of `positions` under `enc` (GIL released while filling).
FloatArray encode_positions(const Encoder& enc, const std::vector<Position>& positions) {
  for (size_t i = 0; i < positions.size(); ++i)
    if (auto err = positions[i].validation_error())
      throw Error("positions[" + std::to_string(i) + "] '" + format_pos(positions[i]) +
                  "': " + *err);
  const auto n = static_cast<py::ssize_t>(positions.size());
  const int k = enc.num_inputs();
  FloatArray out({n, static_cast<py::ssize_t>(k)});
  float* p = out.mutable_data();
  {
    py::gil_scoped_release nogil;
    for (size_t i = 0; i < positions.size(); ++i)
      enc.fill(positions[i],
               std::span<float>(p + i * static_cast<size_t>(k), static_cast<size_t>(k)));
  }
  return out;
}

py::object encode(const py::object& positions, const std::string& encoder) {
  const Encoder& enc = encoder_by_name(encoder);
  bool single = false;
  std::vector<Position> ps = positions_arg(positions, &single);
  FloatArray a = encode_positions(enc, ps);
  if (single) return a.attr("reshape")(enc.num_inputs());
  return a;
}

py::list input_labels(const Encoder& enc) {
  py::list out;
  for (int i = 0; i < enc.num_inputs(); ++i) out.append(enc.input_label(i));
  return out;
}

void bind_encoder(py::module_& m) {
  py::class_<Encoder, std::unique_ptr<Encoder, py::nodelete>>(
      m, "Encoder",
      "A versioned encoding of positions into network inputs (nn/encoder.h), always from the\n"
      "side to move. Get one with nardy.Encoder('raw') / nardy.Encoder('extended-v1').")
      .def(py::init([](const std::string& name) {
             return const_cast<Encoder*>(&encoder_by_name(name));
           }),
           py::arg("name"),
           "The encoder with this name ('raw') or id ('raw-v1'); NardyError lists the known ones")
      .def_property_readonly("id", &Encoder::id,
                             "'<name>-v<version>', e.g. 'raw-v1' (stored in checkpoints)")
      .def_property_readonly("name", &Encoder::name, "The name without version, e.g. 'raw'")
      .def_property_readonly("version", &Encoder::version, "The layout version")
      .def_property_readonly("num_inputs", &Encoder::num_inputs, "Floats per position")
      .def("labels", &input_labels, "A label per input slot, e.g. 'me.point[r=24].count>=1'")
      .def(
          "encode",
          [](const Encoder& e, const py::object& positions) { return encode(positions, e.id()); },
          py::arg("positions"), "Same as nardy.encode(positions, encoder=self.id)")
      .def("__repr__", [](const Encoder& e) {
        return "Encoder('" + e.id() + "', num_inputs=" + std::to_string(e.num_inputs()) + ")";
      });

  m.def(
      "encode", &encode, py::arg("positions"), py::arg("encoder") = "raw",
      "Network inputs of positions as a NumPy float32 array [N, num_inputs] (one Position or POS\n"
      "text gives [num_inputs]). `positions`: a list of Position or POS text. Filled in C++ "
      "without\n"
      "the GIL; each row is from that position's side to move, exactly what the C++ nets see.");
  m.def("encoder_ids", &encoder_ids, "Ids of every encoder, e.g. ['raw-v1', 'extended-v1']");
  m.def(
      "input_labels", [](const std::string& name) { return input_labels(encoder_by_name(name)); },
      py::arg("encoder") = "raw",
      "A label per input slot of an encoder (same as Encoder(name).labels())");
}

std::string eval_repr(const Evaluation& e) {
  char buf[160];
  std::snprintf(buf, sizeof buf,
                "Evaluation(win=%.4f, win_mars=%.4f, lose_mars=%.4f, draw=%.4f, equity=%+.4f)",
                e.win, e.win_mars, e.lose_mars, e.draw, e.equity());
  return buf;
}

void bind_evaluation(py::module_& m) {
  py::class_<Evaluation>(
      m, "Evaluation",
      "Outcome probabilities and equity from one side's view (nn/evaluation.h):\n"
      "0 <= win_mars <= win, 0 <= lose_mars <= lose = 1 - win - draw; equity in points.")
      .def(py::init([](float win, float win_mars, float lose_mars, float draw) {
             return Evaluation{win, win_mars, lose_mars, draw};
           }),
           py::arg("win") = 0.5f, py::arg("win_mars") = 0.0f, py::arg("lose_mars") = 0.0f,
           py::arg("draw") = 0.0f, "An evaluation from its four probabilities")
      .def_readonly("win", &Evaluation::win, "P(win), mars included")
      .def_readonly("win_mars", &Evaluation::win_mars, "P(win by mars, 2 points)")
      .def_readonly("lose_mars", &Evaluation::lose_mars, "P(lose by mars)")
      .def_readonly("draw", &Evaluation::draw, "P(draw) (last_roll_draw rules only)")
      .def_property_readonly("lose", &Evaluation::lose, "P(lose) = 1 - win - draw")
      .def_property_readonly("equity", &Evaluation::equity,
                             "Expected points: oin +-1, mars +-2, draw 0")
      .def("flipped", &Evaluation::flipped, "The same evaluation from the other side's view")
      .def(
          "to_dict",
          [](const Evaluation& e) {
            py::dict d;
            d["win"] = e.win, d["win_mars"] = e.win_mars, d["lose_mars"] = e.lose_mars,
            d["draw"] = e.draw;
            d["lose"] = e.lose(), d["equity"] = e.equity();
            return d;
          },
          "{'win', 'win_mars', 'lose_mars', 'draw', 'lose', 'equity'}")
      .def("__repr__", &eval_repr);
}

// ---- ValueNet ----

py::dict info_dict(const CheckpointInfo& info) {
  py::dict d;
  d["rules"] = info.rules;
  d["games"] = info.games;
  d["positions"] = info.positions;
  d["config_yaml"] = info.config_yaml;
  py::dict extra;
  for (const auto& [k, v] : info.extra) extra[py::str(k)] = v;
  d["extra"] = extra;
  d["written_by"] = info.written_by;
  return d;
}

CheckpointInfo info_arg(const py::handle& h, const CheckpointInfo& base) {
  if (h.is_none()) return base;
  if (!py::isinstance<py::dict>(h))
    throw py::type_error("info: expected a dict, got " + type_name(h));
  CheckpointInfo info = base;
  for (auto item : h.cast<py::dict>()) {
    const std::string key = py::str(item.first);
    if (key == "rules") {
      info.rules = rules_arg(item.second).to_string();
    } else if (key == "games") {
      info.games = item.second.cast<int64_t>();
    } else if (key == "positions") {
      info.positions = item.second.cast<int64_t>();
    } else if (key == "config_yaml") {
      info.config_yaml = item.second.cast<std::string>();
    } else if (key == "extra") {
      info.extra.clear();
      for (auto kv : item.second.cast<py::dict>())
        info.extra[py::str(kv.first)] = py::str(kv.second);
    } else if (key == "written_by") {
      // Read-only: save() writes this build's (so that net.info round-trips).
    } else {
      throw Error("info: unknown key " + quote(key) +
                  " (expected rules, games, positions, config_yaml, extra)");
    }
  }
  return info;
}

py::dict shape_dict(const ValueNet& net) {
  py::dict d;
  d["encoder"] = net.shape().encoder;
  d["num_inputs"] = net.num_inputs();
  d["hidden"] = net.shape().hidden;
  d["activation"] = activation_name(net.shape().activation);
  d["num_outputs"] = net.shape().num_outputs;
  return d;
}

std::string net_repr(const ValueNet& net) {
  std::string h;
  for (int x : net.shape().hidden) h += (h.empty() ? "" : ", ") + std::to_string(x);
  return "ValueNet(encoder='" + net.shape().encoder + "', hidden=[" + h + "], activation='" +
         activation_name(net.shape().activation) +
         "', num_outputs=" + std::to_string(net.shape().num_outputs) +
         ", games=" + std::to_string(net.info().games) + ")";
}

// [N, 5]: win, win_mars, lose_mars, draw, equity of n rows of inputs (GIL released).
FloatArray evaluate_rows(const ValueNet& net, const float* x, size_t n) {
  FloatArray out({static_cast<py::ssize_t>(n), py::ssize_t{5}});
  float* o = out.mutable_data();
  {
    py::gil_scoped_release nogil;
    const size_t k = static_cast<size_t>(net.num_inputs());
    constexpr size_t kChunk = 4096;
    std::vector<Evaluation> evals(std::min(n, kChunk));
    for (size_t start = 0; start < n; start += kChunk) {
      const size_t m = std::min(kChunk, n - start);
      net.evaluate_batch(std::span<const float>(x + start * k, m * k), static_cast<int>(m),
                         std::span<Evaluation>(evals.data(), m));
      for (size_t i = 0; i < m; ++i) {
        const Evaluation& e = evals[i];
        float* row = o + (start + i) * 5;
        row[0] = e.win, row[1] = e.win_mars, row[2] = e.lose_mars, row[3] = e.draw,
        row[4] = e.equity();
      }
    }
  }
  return out;
}

py::object net_evaluate(const ValueNet& net, const py::object& positions) {
  bool single = false;
  std::vector<Position> ps = positions_arg(positions, &single);
  FloatArray x = encode_positions(net.encoder(), ps);
  FloatArray out = evaluate_rows(net, x.data(), ps.size());
  if (single) return out.attr("reshape")(5);
  return out;
}

FloatArray net_evaluate_features(const ValueNet& net, const FloatArray& x) {
  if (x.ndim() != 2 || x.shape(1) != net.num_inputs())
    throw Error("evaluate_features: expected an array [N, " + std::to_string(net.num_inputs()) +
                "] for encoder " + net.shape().encoder + ", got " + std::to_string(x.ndim()) +
                " dimensions" +
                (x.ndim() == 2
                     ? " [" + std::to_string(x.shape(0)) + ", " + std::to_string(x.shape(1)) + "]"
                     : ""));
  return evaluate_rows(net, x.data(), static_cast<size_t>(x.shape(0)));
}

py::list net_parameters(const ValueNet& net) {
  py::list out;
  for (const auto& l : net.layers()) {
    FloatArray w({static_cast<py::ssize_t>(l.in), static_cast<py::ssize_t>(l.out)});
    std::memcpy(w.mutable_data(), l.weight,
                sizeof(float) * static_cast<size_t>(l.in) * static_cast<size_t>(l.out));
    FloatArray b({static_cast<py::ssize_t>(l.out)});
    std::memcpy(b.mutable_data(), l.bias, sizeof(float) * static_cast<size_t>(l.out));
    out.append(w);
    out.append(b);
  }
  return out;
}

void net_set_parameters(ValueNet& net, const py::sequence& params) {
  auto layers = net.layers();
  if (py::len(params) != 2 * layers.size())
    throw Error("set_parameters: expected " + std::to_string(2 * layers.size()) +
                " arrays (w0, b0, w1, b1, ...), got " + std::to_string(py::len(params)));
  // Check everything before writing anything.
  std::vector<FloatArray> arrays;
  for (size_t i = 0; i < 2 * layers.size(); ++i) {
    FloatArray a = FloatArray::ensure(params[i]);
    if (!a)
      throw py::type_error("set_parameters: parameter " + std::to_string(i) +
                           " is not convertible to a float32 array");
    const auto& l = layers[i / 2];
    const bool weight = i % 2 == 0;
    const std::string name = (weight ? "w" : "b") + std::to_string(i / 2);
    const bool ok = weight ? (a.ndim() == 2 && a.shape(0) == l.in && a.shape(1) == l.out)
                           : (a.ndim() == 1 && a.shape(0) == l.out);
    if (!ok) {
      std::string got = "[";
      for (py::ssize_t d = 0; d < a.ndim(); ++d)
        got += (d ? ", " : "") + std::to_string(a.shape(d));
      throw Error("set_parameters: " + name + " must have shape " +
                  (weight ? "[" + std::to_string(l.in) + ", " + std::to_string(l.out) + "]"
                          : "[" + std::to_string(l.out) + "]") +
                  " (weights are [in][out]), got " + got + "]");
    }
    arrays.push_back(a);
  }
  for (size_t i = 0; i < arrays.size(); ++i) {
    const auto& l = layers[i / 2];
    if (i % 2 == 0)
      std::memcpy(l.weight, arrays[i].data(),
                  sizeof(float) * static_cast<size_t>(l.in) * static_cast<size_t>(l.out));
    else
      std::memcpy(l.bias, arrays[i].data(), sizeof(float) * static_cast<size_t>(l.out));
  }
}

NetAgentOptions net_options(int ply, double noise, int filter_keep, double filter_delta,
                            int cache_bits, const std::string& backend) {
  NetAgentOptions o;
  o.ply = ply;
  o.noise = noise;
  o.search.filter_keep = filter_keep;
  o.search.filter_delta = filter_delta;
  o.search.cache_bits = cache_bits;
  o.backend = backend;
  return o;
}

void bind_value_net(py::module_& m) {
  py::class_<ValueNet>(
      m, "ValueNet",
      "A value network (nn/value_net.h): an MLP from an encoder's inputs to win/mars/draw\n"
      "probabilities and equity, stored as a TorchScript checkpoint with nardy.json metadata.\n"
      "Get one with nardy.load_checkpoint(path) or ValueNet.create(...). Copies made by\n"
      "assignment share parameters; clone() makes an independent one.")
      .def_static(
          "create",
          [](const std::string& encoder, const std::vector<int>& hidden,
             const std::string& activation, int num_outputs, const py::int_& seed) {
            NetShape s;
            s.encoder = encoder_by_name(encoder).id();
            s.hidden = hidden;
            s.activation = parse_activation(activation);
            s.num_outputs = num_outputs;
            return ValueNet::create(s, seed_arg(seed));
          },
          py::arg("encoder") = "raw", py::arg("hidden") = std::vector<int>{128},
          py::arg("activation") = "sigmoid", py::arg("num_outputs") = 3, py::arg("seed") = 1,
          "A freshly initialised net (uniform in +-1/sqrt(fan_in), seeded). num_outputs 4 adds\n"
          "the draw output (rules with last_roll_draw). NardyError names a bad shape.")
      .def_static(
          "load",
          [](const std::string& path) {
            py::gil_scoped_release nogil;
            return ValueNet::load(path);
          },
          py::arg("path"), "Same as nardy.load_checkpoint(path)")
      .def(
          "save",
          [](const ValueNet& net, const std::string& path, const py::object& info) {
            const CheckpointInfo i = info_arg(info, net.info());
            py::gil_scoped_release nogil;
            net.save(path, i);
          },
          py::arg("path"), py::arg("info") = py::none(),
          "Writes a checkpoint atomically. `info` (optional dict with rules, games, positions,\n"
          "config_yaml, extra) replaces the stored metadata keys it names; 'written_by' is\n"
          "always this build's version and commit.")
      .def_property_readonly(
          "info", [](const ValueNet& n) { return info_dict(n.info()); },
          "Checkpoint metadata: {'rules', 'games', 'positions', 'config_yaml', 'extra',\n"
          "'written_by'} (written_by: the nardy version and commit that wrote the file, '' for\n"
          "files older than 0.2.0)")
      .def_property_readonly("shape", &shape_dict,
                             "{'encoder', 'num_inputs', 'hidden', 'activation', 'num_outputs'}")
      .def_property_readonly(
          "encoder", [](const ValueNet& n) { return n.shape().encoder; },
          "Encoder id, e.g. 'raw-v1'")
      .def_property_readonly("num_inputs", &ValueNet::num_inputs,
                             "Inputs per position (the encoder's)")
      .def(
          "evaluate", &net_evaluate, py::arg("positions"),
          "Evaluations of positions (each from its side to move) as a NumPy float32 array [N, 5]:\n"
          "columns win, win_mars, lose_mars, draw, equity (one Position gives [5]). LibTorch\n"
          "forward, the GIL released: equal to torch.jit.load(path)(nardy.encode(...)).")
      .def("evaluate_features", &net_evaluate_features, py::arg("features"),
           "The same for an encoded array [N, num_inputs] (e.g. from nardy.encode)")
      .def(
          "evaluation",
          [](const ValueNet& n, const py::object& pos) {
            const Position p = position_arg(pos);
            require_valid(p);
            return n.evaluate(p);
          },
          py::arg("position"), "The Evaluation of one position for its side to move (0-ply)")
      .def(
          "best_move",
          [](const ValueNet& net, const py::object& pos, int d1, int d2, int ply,
             const py::object& rules) {
            const Position p = position_arg(pos);
            require_valid(p);
            const Rules r = rules_arg(rules);
            MoveList moves = legal_moves(p, make_dice(d1, d2), r);
            sort_by_position(moves);
            NetAgentOptions o;
            o.ply = ply;
            Interrupt interrupt;
            size_t best = interrupt.run_without_gil([&] {
              auto agent = make_net_agent(net, o, r, "net:<memory>");
              Rng rng(1);
              return agent->choose(p, make_dice(d1, d2), moves, rng);
            });
            return moves[best];
          },
          py::arg("position"), py::arg("d1"), py::arg("d2"), py::arg("ply") = 0,
          py::arg("rules") = py::none(),
          "The net's choice for rolling d1-d2 at `ply` (0 = greedy) as a MoveResult. See\n"
          "nardy.analyze() for every candidate with its evaluation.")
      .def(
          "agent",
          [](const ValueNet& net, int ply, double noise, int filter_keep, double filter_delta,
             int cache_bits, const std::string& backend) {
            return net_agent(
                net, net_options(ply, noise, filter_keep, filter_delta, cache_bits, backend),
                "net:<memory>" + (ply ? ":ply=" + std::to_string(ply) : std::string()));
          },
          py::arg("ply") = 0, py::arg("noise") = 0.0,
          py::arg("filter_keep") = SearchOptions{}.filter_keep,
          py::arg("filter_delta") = SearchOptions{}.filter_delta,
          py::arg("cache_bits") = SearchOptions{}.cache_bits, py::arg("backend") = "auto",
          "An agent playing with this net (shared, not copied), options as in 'net:PATH:ply=N:...'")
      .def("parameters", &net_parameters,
           "Copies of the parameters as NumPy float32 arrays [w0, b0, w1, b1, ...], input layer "
           "first;\n"
           "weights are [in, out] (the module computes x @ w + b)")
      .def("set_parameters", &net_set_parameters, py::arg("params"),
           "Copies [w0, b0, w1, b1, ...] (shapes as parameters()) into the net in place; checks "
           "all\n"
           "shapes before writing")
      .def("clone", &ValueNet::clone, "An independent deep copy")
      .def("__repr__", &net_repr);

  m.def(
      "load_checkpoint",
      [](const std::string& path) {
        py::gil_scoped_release nogil;
        return ValueNet::load(path);
      },
      py::arg("path"),
      "Loads a checkpoint (a nardy TorchScript file) as a ValueNet. NardyError names the path and\n"
      "the problem for a missing, damaged or foreign file.");
  m.def(
      "load_model",
      [](const std::string& name) {
        const std::string path = name == "default" ? find_model(kDefaultModel) : find_model(name);
        py::gil_scoped_release nogil;
        return ValueNet::load(path);
      },
      py::arg("name") = "default",
      "A model shipped with nardy (models/NAME.pt; models/README.md is its card) as a ValueNet.\n"
      "'default' is the strongest one, the agent spec 'default'. NardyError names the folders\n"
      "searched when it is missing ($NARDY_MODEL_DIR overrides them) and the problem when the\n"
      "file is damaged.");
  m.def(
      "find_model", [](const std::string& name) { return find_model(name); }, py::arg("name"),
      "The checkpoint path of shipped model NAME (NardyError when it is not found)");
  m.def("list_models", &list_models, "The names of the shipped models that were found");
  m.attr("DEFAULT_MODEL") = std::string(kDefaultModel);  // the model 'default' stands for
  m.def("set_torch_threads", &set_torch_threads, py::arg("n"),
        "LibTorch's intra-op threads for this process (default 1; nn/value_net.h)");
  m.def(
      "evaluation_head_torchscript",
      [] { return evaluation_head_torchscript("evaluation_head(z: Tensor) -> Tensor"); },
      "TorchScript source of the network's output head (nn/evaluation.h), the function\n"
      "evaluation_head(z) of logits [N, K] -> [N, 5]; nardy.torch_interop compiles it.");
}

}  // namespace

void bind_nn(py::module_& m) {
  bind_encoder(m);
  bind_evaluation(m);
  bind_value_net(m);
}

}  // namespace nardy::py_bind
#endif  // NARDY_HAS_NN
