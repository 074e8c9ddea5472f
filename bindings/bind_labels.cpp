// bindings/bind_labels.cpp — labelled positions and supervised fitting (`nardy label`, `nardy
// fit`): nardy.label, nardy.read_labels, nardy.fit. The same library calls as the CLI; the GIL
// is released while they run and Ctrl-C stops them between blocks of games (label: the file
// stays complete up to the last block, and a rerun continues it) or between epochs (fit: no
// checkpoint is written).
#ifdef NARDY_HAS_NN
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>

#include "bindings/convert.h"
#include "bindings/interrupt.h"
#include "core/position_id.h"
#include "nn/encoder.h"
#include "selfplay/training/fit.h"
#include "selfplay/training/label_file.h"
#include "selfplay/evaluation/luck_head.h"
#include "selfplay/training/labeler.h"

namespace nardy::py_bind {
namespace {

py::dict progress_dict(const LabelProgress& p) {
  py::dict d;
  d["games"] = p.games_done;
  d["positions"] = p.positions;
  d["new_games"] = p.new_games;
  d["new_positions"] = p.new_positions;
  d["seconds"] = p.seconds;
  return d;
}

}  // namespace

void bind_labels(py::module_& m) {
  m.def(
      "label",
      [](const std::string& out, int64_t games, const std::string& player, double explore,
         double sample, double candidates, const std::string& labeler, int64_t rollouts,
         int threads, uint64_t seed, py::object rules, bool verbose, const py::object& luck_head,
         int top) {
        LabelOptions o;
        o.games = games;
        o.players = parse_agent_specs(player, "label: player");
        o.explore = explore;
        o.sample = sample;
        o.candidates = candidates;
        o.top = top;
        o.labeler = parse_agent_spec(labeler);
        o.rollouts = rollouts;
        o.threads = threads;
        o.seed = seed;
        o.rules = rules_arg(rules);
        // The rollouts' luck head: 'auto' = NAME.luck beside the labeler's checkpoint (unless it
        // searches), a path = that file, None = exact luck (as `nardy label`).
        if (py::isinstance<py::str>(luck_head)) {
          const std::string h = luck_head.cast<std::string>();
          if (rollouts > 0)
            o.luck_head = h == "auto" ? default_luck_head(labeler, "", o.rules)
                                      : std::make_shared<LuckHead>(LuckHead::load(h));
        } else if (!luck_head.is_none()) {
          throw py::type_error("label: luck_head must be 'auto', a file path or None, got " +
                               type_name(luck_head));
        }
        Interrupt irq;
        const LabelProgress p = irq.run_without_gil([&] {
          return label_positions(out, o, [&](const LabelProgress& p) {
            if (verbose) {
              py::gil_scoped_acquire gil;
              py::print(format_label_progress(p), py::arg("flush") = true);
            }
            if (irq.poll()) throw Stopped();
          });
        });
        return progress_dict(p);
      },
      py::arg("out"), py::arg("games"), py::arg("player") = "default", py::arg("explore") = 0.1,
      py::arg("sample") = 0.1, py::arg("candidates") = 0.0, py::arg("labeler") = "default:ply=1",
      py::arg("rollouts") = 0, py::arg("threads") = 1, py::arg("seed") = 1,
      py::arg("rules") = py::none(), py::arg("verbose") = false, py::arg("luck_head") = "auto",
      py::arg("top") = 0,
      "Creates or continues the label file `out` until it holds `games` games of `player` (an\n"
      "agent spec, or a comma-separated list: each game's White and Black drawn from it; random\n"
      "moves with probability `explore`), each position kept with probability\n"
      "`sample` (and a random legal result of a turn's roll with probability `candidates`, or\n"
      "with `top` = K > 0 the roll's K best results by the labeler net's 0-ply values) and\n"
      "labelled by the `labeler` net spec at its ply (or `rollouts` trials of the\n"
      "`labeler` agent; luck measured by `luck_head`: 'auto' = NAME.luck beside its checkpoint,\n"
      "a path, or None = exactly) = `nardy label`. Returns {games, positions, new_games, "
      "new_positions,\n"
      "seconds}. A rerun with the same options appends the missing games; the file is the same\n"
      "bytes for any thread count (format: selfplay/training/label_file.h).");

  m.def(
      "read_labels",
      [](const std::string& path) {
        const LabelFile f = read_label_file(path);
        py::dict header;
        for (const auto& [k, v] : f.header.fields) header[py::str(k)] = v;
        py::list ids, games, sources, targets, siblings;
        for (const auto& r : f.records) {
          ids.append(position_id(r.position));
          games.append(r.game);
          sources.append(label_source_name(r.source));
          siblings.append(r.sibling);
          targets.append(
              py::make_tuple(r.target.win, r.target.win_mars, r.target.lose_mars, r.target.draw));
        }
        py::dict d;
        d["header"] = header;
        d["ids"] = ids;
        d["games"] = games;
        d["sources"] = sources;
        d["targets"] = targets;
        d["siblings"] = siblings;
        d["complete_games"] = f.games;
        d["partial_records"] = f.partial_records;
        return d;
      },
      py::arg("path"),
      "The labelled positions of a label file (complete games only): {header: {key: value},\n"
      "ids: [position ID], games: [game index], sources: ['1-ply' | 'rollout' | ...],\n"
      "targets: [(win, win_mars, lose_mars, draw) for the side to move], siblings: [True for a\n"
      "result of the same roll as the record before it], complete_games, partial_records}. Raises "
      "NardyError naming the file and record for bad data.");

  m.def(
      "fit",
      [](const py::object& data, const std::string& out, const std::string& init,
         const std::string& optimizer, double lr, int batch, int epochs, int patience,
         double holdout, uint64_t seed, const std::string& encoder, std::vector<int> hidden,
         bool verbose, int lr_drops, double lr_drop, double sibling_weight, std::vector<int> widen,
         uint64_t split_seed) {
        FitRunOptions o;
        if (py::isinstance<py::str>(data) || py::hasattr(data, "__fspath__"))
          o.data = {py::str(data).cast<std::string>()};
        else
          for (const py::handle& d : data) o.data.push_back(py::str(d).cast<std::string>());
        o.out = out;
        o.init = init;
        o.widen = widen;
        o.fit.optimizer = optimizer;
        o.fit.lr = lr;
        o.fit.batch = batch;
        o.fit.max_epochs = epochs;
        o.fit.patience = patience;
        o.fit.lr_drops = lr_drops;
        o.fit.lr_drop = lr_drop;
        o.fit.sibling_weight = sibling_weight;
        o.fit.seed = seed;
        o.net_seed = seed;
        o.holdout = holdout;
        o.split_seed = split_seed;
        o.shape.encoder = encoder_by_name(encoder.empty() ? "raw" : encoder).id();
        o.shape.hidden = hidden;
        if (!init.empty()) o.encoder = encoder;
        Interrupt irq;
        const FitRunResult r = irq.run_without_gil([&] {
          return run_fit(o, [&](const FitEpoch& e) {
            if (verbose) {
              py::gil_scoped_acquire gil;
              py::print("epoch", e.epoch, "train", e.train_loss, "held-out", e.heldout_loss,
                        py::arg("flush") = true);
            }
            if (irq.poll()) throw Stopped();
          });
        });
        py::list epochs_out;
        for (const auto& e : r.fit.epochs) {
          py::dict d;
          d["epoch"] = e.epoch;
          d["train_loss"] = e.train_loss;
          d["heldout_loss"] = e.heldout_loss;
          d["best"] = e.best;
          d["lr"] = e.lr;
          epochs_out.append(d);
        }
        py::dict d;
        d["epochs"] = epochs_out;
        d["best_epoch"] = r.fit.best_epoch;
        d["stopped_early"] = r.fit.stopped_early;
        d["lr_drops"] = r.fit.lr_drops;
        d["train_positions"] = r.train_positions;
        d["heldout_positions"] = r.heldout_positions;
        d["checkpoint"] = out;
        return d;
      },
      py::arg("data"), py::arg("out"), py::arg("init") = "", py::arg("optimizer") = "adam",
      py::arg("lr") = 1e-3, py::arg("batch") = 256, py::arg("epochs") = 50, py::arg("patience") = 3,
      py::arg("holdout") = 0.1, py::arg("seed") = 1, py::arg("encoder") = "",
      py::arg("hidden") = std::vector<int>{128}, py::arg("verbose") = false,
      py::arg("lr_drops") = 0, py::arg("lr_drop") = 0.1, py::arg("sibling_weight") = 0.0,
      py::arg("widen") = std::vector<int>{}, py::arg("split_seed") = 0,
      "Fits a net (from the checkpoint `init`, widened first to the hidden widths `widen` and\n"
      "given the inputs of `encoder` if those are given (an encoder extending the init's, e.g.\n"
      "'mobility' for an extended net, 'reach' for a mobility one: the new inputs start with zero\n"
      "weights), or fresh of\n"
      "`encoder` (default 'raw') and `hidden`) to the label file\n"
      "`data` (or a list of label files, fitted as one data set) with LibTorch's Adam or SGD, a "
      "held-out split by game (`split_seed` > 0: by a hash of it, each file's labelling seed\n"
      "and the game, the same whatever the other files) and early stopping (the first\n"
      "`lr_drops` plateaus met by going on\n"
      "from the best epoch at the lr times `lr_drop`; `sibling_weight` > 0 adds the error of\n"
      "each position's equity relative to its siblings, nardy label's top results), and\n"
      "writes the checkpoint `out` = `nardy fit`. Returns {epochs: [{epoch, train_loss,\n"
      "heldout_loss, best, lr}], best_epoch, stopped_early, lr_drops, train_positions,\n"
      "heldout_positions, checkpoint}.");
}

}  // namespace nardy::py_bind
#endif
