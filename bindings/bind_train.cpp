// bindings/bind_train.cpp — TD(λ) self-play training (selfplay/training/td_trainer.h, config.h).
//
// nardy.train(config, overrides, callback) runs the same library call as `nardy train`:
// `config` is a YAML file path, YAML text or a dict ({"td": {"lambda": 0.7}} or
// {"td.lambda": 0.7}) applied over the defaults; `overrides` are applied last, as with
// `--set`. The GIL is released while the trainer runs; its progress callback (every ~0.5 s,
// on the calling thread) takes the GIL, calls the Python callback and checks for Ctrl-C. On
// Ctrl-C, or an exception in the callback, the trainer is asked to stop: it finishes the games
// in flight, writes a checkpoint at the games done, and then the exception propagates
// (KeyboardInterrupt); nardy.resume(run_dir) continues the run.
#ifdef NARDY_HAS_NN
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "bindings/convert.h"
#include "bindings/interrupt.h"
#include "core/error.h"
#include "selfplay/training/config.h"
#include "selfplay/search/net_agent.h"
#include "selfplay/training/generations.h"
#include "selfplay/training/progress.h"
#include "selfplay/training/run_dir.h"
#include "selfplay/training/td_trainer.h"

namespace nardy::py_bind {
namespace {

// A YAML flow-syntax value for an override: bools, numbers, strings (double-quoted, control
// characters as YAML's \xNN escapes) and lists and dicts of them.
std::string yaml_value(const py::handle& v) {
  if (py::isinstance<py::bool_>(v)) return v.ptr() == Py_True ? "true" : "false";
  if (py::isinstance<py::int_>(v)) return py::str(v);
  if (py::isinstance<py::float_>(v)) return py::repr(v);
  if (py::isinstance<py::str>(v)) {
    std::string s = v.cast<std::string>(), out = "\"";
    for (char c : s) {
      if (c == '"' || c == '\\') out += '\\';
      const auto u = static_cast<unsigned char>(c);
      if (u < 0x20 || u == 0x7f) {  // YAML escapes: yaml-cpp reads a raw NUL as the end
        char esc[5];
        std::snprintf(esc, sizeof esc, "\\x%02x", u);
        out += esc;
        continue;
      }
      out += c;
    }
    return out + "\"";
  }
  if (v.is_none()) return "null";
  if (py::isinstance<py::list>(v) || py::isinstance<py::tuple>(v)) {
    std::string out = "[";
    bool first = true;
    for (py::handle x : v) {
      out += (first ? "" : ", ") + yaml_value(x);
      first = false;
    }
    return out + "]";
  }
  if (py::isinstance<py::dict>(v)) {  // a map in a list: an entry of generations.schedule
    std::string out = "{";
    bool first = true;
    for (auto item : v.cast<py::dict>()) {
      out += (first ? "" : ", ") + yaml_value(item.first) + ": " + yaml_value(item.second);
      first = false;
    }
    return out + "}";
  }
  if (py::hasattr(v, "__fspath__")) return yaml_value(v.attr("__fspath__")());
  throw py::type_error("config value: expected a bool, number, string, list or dict, got " +
                       type_name(v));
}

// "KEY=VALUE" assignments from a dict (nested by section or flat "section.key") or a list of
// "KEY=VALUE" strings.
void collect_overrides(const py::handle& h, const std::string& prefix,
                       std::vector<std::string>& out) {
  if (h.is_none()) return;
  if (py::isinstance<py::dict>(h)) {
    for (auto item : h.cast<py::dict>()) {
      if (!py::isinstance<py::str>(item.first))
        throw py::type_error("config keys must be strings, got " + type_name(item.first));
      const std::string key = prefix + item.first.cast<std::string>();
      if (py::isinstance<py::dict>(item.second))
        collect_overrides(item.second, key + ".", out);
      else if (key == "rules" &&
               (py::isinstance<Rules>(item.second) || py::isinstance<py::str>(item.second))) {
        const Rules r = rules_arg(item.second);
        for (const auto& k : Rules::keys()) out.push_back("rules." + k + "=" + r.get(k));
      } else {
        out.push_back(key + "=" + yaml_value(item.second));
      }
    }
    return;
  }
  if (!prefix.empty()) throw py::type_error("config: expected a dict under " + quote(prefix));
  if (py::isinstance<py::str>(h)) {
    out.push_back(h.cast<std::string>());
    return;
  }
  for (py::handle item : py::iter(h)) {
    if (!py::isinstance<py::str>(item))
      throw py::type_error(
          "overrides: expected a dict or a list of 'KEY=VALUE' strings, got an item of type " +
          type_name(item));
    out.push_back(item.cast<std::string>());
  }
}

// The config from a path, YAML text or a dict, then `overrides`.
TrainConfig config_arg(const py::handle& config, const py::handle& overrides) {
  std::vector<std::string> extra;
  collect_overrides(overrides, "", extra);
  TrainConfig c;
  std::string source = "<python>";
  if (config.is_none() || py::isinstance<py::dict>(config)) {
    std::vector<std::string> base;
    collect_overrides(config, "", base);
    c = parse_config("", "<defaults>");
    apply_overrides(c, base, "<dict>");
  } else if (py::isinstance<py::str>(config) || py::hasattr(config, "__fspath__")) {
    const bool path_like = !py::isinstance<py::str>(config);
    const std::string text = py::str(path_like ? config.attr("__fspath__")() : config);
    std::error_code ec;
    if (path_like || std::filesystem::is_regular_file(text, ec)) {
      c = load_config(text);
      source = text;
    } else if (text.find('\n') != std::string::npos || text.find(':') != std::string::npos ||
               text.empty()) {
      c = parse_config(text, "<yaml text>");
      source = "<yaml text>";
    } else {
      throw Error("config " + quote_path(text) +
                  ": no such file (pass a YAML file path, YAML text or a dict)");
    }
  } else {
    throw py::type_error("config: expected a YAML file path, YAML text or a dict, got " +
                         type_name(config));
  }
  apply_overrides(c, extra, source);
  return c;
}

const char* event_name(TrainProgress::Event e) {
  switch (e) {
    case TrainProgress::Event::Tick:
      return "tick";
    case TrainProgress::Event::Metrics:
      return "metrics";
    case TrainProgress::Event::Evaluation:
      return "evaluation";
    case TrainProgress::Event::Checkpoint:
      return "checkpoint";
    case TrainProgress::Event::Done:
      return "done";
  }
  return "tick";
}

// TrainResult plus its report (format_summary needs the config's best_by opponent).
struct TrainOutcome : TrainResult {
  std::string summary;
};

TrainOutcome run_training(const py::object& callback, bool verbose,
                          const std::string& best_opponent,
                          const std::function<TrainResult(const TrainCallbacks&)>& call) {
  Interrupt interrupt;
  PyObject* cb =
      callback.is_none() ? nullptr : callback.ptr();  // the caller's argument keeps it alive
  TrainCallbacks callbacks;
  callbacks.stop = interrupt.flag();
  callbacks.on_progress = [&](const TrainProgress& p) {
    interrupt.call_python([&] {
      if (verbose) {
        using E = TrainProgress::Event;
        if (p.event == E::Evaluation)
          py::print(format_eval_line(p.latest_eval, p.latest_eval_games), py::arg("flush") = true);
        else if (p.event == E::Metrics)
          py::print(format_progress_line(p), py::arg("flush") = true);
      }
      if (cb) {
        py::handle fn(cb);
        fn(p);
      }
    });
  };
  TrainOutcome out;
  {
    py::gil_scoped_release nogil;
    static_cast<TrainResult&>(out) = call(callbacks);
  }
  out.summary = format_summary(out, best_opponent);
  interrupt.raise_pending();  // after the trainer's clean stop and checkpoint
  return out;
}

py::list eval_list(const std::vector<EvalEntry>& eval) {
  py::list out;
  for (const auto& e : eval) out.append(py::make_tuple(e.opponent, e.result));
  return out;
}

void bind_progress(py::module_& m) {
  py::class_<TrainProgress>(
      m, "TrainProgress",
      "A progress report of nardy.train(), given to its callback (selfplay/training/td_trainer.h)")
      .def_property_readonly(
          "event", [](const TrainProgress& p) { return std::string(event_name(p.event)); },
          "'tick' (every ~0.5 s), 'metrics', 'evaluation', 'checkpoint' or 'done'")
      .def_readonly("games_done", &TrainProgress::games_done, "Self-play games finished")
      .def_readonly("games_total", &TrainProgress::games_total, "train.games")
      .def_readonly("positions", &TrainProgress::positions, "TD updates made")
      .def_readonly("elapsed_s", &TrainProgress::elapsed_s, "Training seconds over all sessions")
      .def_readonly("games_per_s", &TrainProgress::games_per_s, "Recent self-play speed")
      .def_readonly("eta_s", &TrainProgress::eta_s, "Estimated seconds to the end (self-play only)")
      .def_readonly("alpha", &TrainProgress::alpha, "Current TD step size")
      .def_readonly("lambda_", &TrainProgress::lambda,
                    "Current trace decay lambda (lambda is a Python keyword)")
      .def_readonly("epsilon", &TrainProgress::epsilon, "Current exploration rate")
      .def_readonly("mean_game_length", &TrainProgress::mean_game_length,
                    "Turns per game of the last segment")
      .def_readonly("td_error", &TrainProgress::td_error,
                    "Mean |target - value| equity of the last segment")
      .def_property_readonly(
          "latest_eval", [](const TrainProgress& p) { return eval_list(p.latest_eval); },
          "The latest evaluation as [(opponent spec, ArenaResult)]")
      .def_readonly("latest_eval_games", &TrainProgress::latest_eval_games,
                    "Games done at it (-1: none yet)")
      .def_readonly("checkpoint", &TrainProgress::checkpoint,
                    "Newest checkpoint path ('' before the first)")
      .def_readonly("evaluating", &TrainProgress::evaluating,
                    "An evaluation is running (tick events)")
      .def_property_readonly("line", &format_progress_line,
                             "The one-line status `nardy train` prints")
      .def("__repr__", [](const TrainProgress& p) {
        return "TrainProgress(" + std::string(event_name(p.event)) + ", games " +
               std::to_string(p.games_done) + "/" + std::to_string(p.games_total) + ")";
      });

  py::class_<TrainOutcome>(
      m, "TrainResult", "What nardy.train() returns (selfplay/training/td_trainer.h TrainResult)")
      .def_readonly("run_dir", &TrainOutcome::run_dir, "The run directory")
      .def_readonly("games_done", &TrainOutcome::games_done, "Self-play games done")
      .def_readonly("positions", &TrainOutcome::positions, "TD updates made")
      .def_readonly("completed", &TrainOutcome::completed,
                    "True if train.games was reached (False: stopped)")
      .def_readonly("elapsed_s", &TrainOutcome::elapsed_s, "Training seconds over all sessions")
      .def_readonly("session_s", &TrainOutcome::session_s, "Seconds of this call")
      .def_readonly("checkpoint", &TrainOutcome::checkpoint, "Latest checkpoint path")
      .def_readonly("best_checkpoint", &TrainOutcome::best_checkpoint,
                    "best.pt path ('' if no evaluation ran)")
      .def_property_readonly(
          "final_eval", [](const TrainOutcome& r) { return eval_list(r.final_eval); },
          "The latest evaluation as [(opponent spec, ArenaResult)]")
      .def_readonly("final_eval_games", &TrainOutcome::final_eval_games,
                    "Games done when it ran (-1: none)")
      .def_readonly("summary", &TrainOutcome::summary, "The end-of-run report `nardy train` prints")
      .def("__str__", [](const TrainOutcome& r) { return r.summary; })
      .def("__repr__", [](const TrainOutcome& r) {
        return "TrainResult(run_dir='" + r.run_dir +
               "', games_done=" + std::to_string(r.games_done) +
               ", completed=" + (r.completed ? "True" : "False") + ")";
      });
}

}  // namespace

void bind_train(py::module_& m) {
  bind_progress(m);

  m.def(
      "resolve_config",
      [](const py::object& config, const py::object& overrides) {
        return to_yaml(config_arg(config, overrides));
      },
      py::arg("config") = py::none(), py::arg("overrides") = py::none(),
      "The full config nardy.train() would use, as YAML (every key resolved). Raises NardyError\n"
      "naming the key and the expectation for a bad config.");
  m.def(
      "generations_plan",
      [](const py::object& config, const py::object& overrides) {
        return describe_generations(config_arg(config, overrides));
      },
      py::arg("config"), py::arg("overrides") = py::none(),
      "What each generation of a config would do (its label files, the labeller, the fit and its\n"
      "data, the gate), generations.schedule applied, as `nardy train --plan` prints it; runs\n"
      "nothing. Raises NardyError for a bad config or schedule entry.");
  m.def(
      "config_keys",
      [] {
        py::list out;
        for (const auto& k : config_keys()) out.append(py::make_tuple(k.path, k.type, k.doc));
        return out;
      },
      "Every training config key as (path, type, doc), e.g. ('td.lambda', 'number', '...')");
  m.def(
      "train",
      [](const py::object& config, const py::object& overrides, const py::object& callback,
         bool verbose) {
        const TrainConfig c = config_arg(config, overrides);
        // The library's message names the CLI's flags; say it the Python way.
        const std::string run = c.run_path();
        if (RunDir::holds_run(run))
          throw Error("run directory " + quote_path(run) +
                      " already holds a run: continue it with " + "nardy.resume(" +
                      quote_path(run) + "), or give the new run another name (" +
                      "{\"run\": {\"name\": \"NAME\"}} in the config or overrides) or " +
                      "delete the directory");
        return run_training(callback, verbose, c.best_opponent(),
                            [&](const TrainCallbacks& cb) { return train(c, cb); });
      },
      py::arg("config"), py::arg("overrides") = py::none(), py::arg("callback") = py::none(),
      py::arg("verbose") = false,
      "Trains a network by TD(lambda) self-play (the library behind `nardy train`) and returns a\n"
      "TrainResult. `config`: a YAML file path, YAML text, or a dict over the defaults\n"
      "({'train': {'games': 2000}} or {'train.games': 2000}); `overrides`: a dict or 'KEY=VALUE'\n"
      "strings applied last. The run goes to <run.dir>/<run.name> (which must be new).\n"
      "callback(TrainProgress) is called every ~0.5 s and at each event; verbose=True prints\n"
      "metrics and evaluation lines. GIL released; Ctrl-C (or an exception in the callback)\n"
      "checkpoints, then raises; nardy.resume(run_dir) continues.");
  m.def(
      "resume",
      [](const std::string& run_dir, const py::object& overrides, const py::object& callback,
         bool verbose) {
        std::vector<std::string> extra;
        collect_overrides(overrides, "", extra);
        TrainConfig c = load_config(RunDir::open_for_resume(run_dir).config_path());
        apply_overrides(c, extra, run_dir + "/config.yaml");
        return run_training(callback, verbose, c.best_opponent(),
                            [&](const TrainCallbacks& cb) { return resume(run_dir, extra, cb); });
      },
      py::arg("run_dir"), py::arg("overrides") = py::none(), py::arg("callback") = py::none(),
      py::arg("verbose") = false,
      "Continues the run in `run_dir` from its latest checkpoint (as `nardy train --resume`);\n"
      "`overrides` may change anything but the net and the rules (e.g. {'train.games': 20000}).");
  m.def(
      "run_generations",
      [](const py::object& config, const py::object& overrides, const py::object& start,
         const py::object& callback, bool verbose) {
        const TrainConfig c = config_arg(config, overrides);
        if (c.generations.count < 1)
          throw Error(
              "run_generations: generations.count is 0 (set it, e.g. "
              "{'generations.count': 2})");
        const std::string run = c.run_path();
        // The start: `start`, else generations.init, else the latest.pt of a TD run
        // nardy.train() left in the same directory.
        const std::string from =
            start.is_none() ? generations_start_net(c, run) : py::str(start).cast<std::string>();
        if (!holds_generations(run)) {
          std::filesystem::create_directories(run);
          write_file_atomic(run + "/config.yaml", to_yaml(c));
        }
        Interrupt interrupt;
        PyObject* cb = callback.is_none() ? nullptr : callback.ptr();
        GenerationsCallbacks callbacks;
        callbacks.stop = interrupt.flag();
        callbacks.on_line = [&](const std::string& line, bool final) {
          interrupt.call_python([&] {
            if (verbose && final) py::print(line, py::arg("flush") = true);
            if (cb) {
              py::handle fn(cb);
              fn(line, final);
            }
          });
        };
        GenerationsResult r;
        {
          py::gil_scoped_release nogil;
          r = run_generations(c, run, from, callbacks);
        }
        interrupt.raise_pending();
        py::dict out;
        out["run_dir"] = run;
        out["generations_done"] = r.generations_done;
        out["promoted"] = r.promoted;
        out["current"] = r.current;
        out["stopped"] = r.stopped;
        return out;
      },
      py::arg("config"), py::arg("overrides") = py::none(), py::arg("start") = py::none(),
      py::arg("callback") = py::none(), py::arg("verbose") = false,
      "Runs the generations of `config` (play -> label -> fit -> gate, generations.count of them;\n"
      "selfplay/training/generations.h) in <run.dir>/<run.name>, as `nardy train` does after its\n"
      "TD stage: from `start` (a checkpoint), else generations.init, else the latest.pt of a TD\n"
      "run nardy.train() left in that directory. Called again with the same config it continues\n"
      "where it stopped. callback(line, final) gets the progress lines; verbose=True prints each\n"
      "stage's last line. Ctrl-C stops at the stage's next checkpoint, then raises. Returns\n"
      "{'run_dir', 'generations_done', 'promoted', 'current', 'stopped'}; the per-generation\n"
      "rows are nardy.read_generations(run_dir), drawn by nardy.plots.generations(run_dir).");
}

}  // namespace nardy::py_bind
#endif  // NARDY_HAS_NN
