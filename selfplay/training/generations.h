// selfplay/training/generations.h — the generational recipe: play → label → fit → gate, repeated.
//
// A run of `nardy train` whose config has generations.count = N > 0 first gets its start net:
// the TD(λ) stage (selfplay/training/td_trainer.h, the run's latest.pt), or generations.init.
// Then generation g = 1 .. N, with the current net C (the start, then the last promoted one)
// and the settings of generation g: the config's, or over them the entry g-1 of
// generations.schedule (TrainConfig::for_generation; a recipe whose rounds differ, as
// configs/nardy-fit-2.yaml):
//   1. label: one label file per entry of label.sets (TrainConfig::label_sets()): games of the
//      set's players ("current" is C at 0-ply; several specs: each game's sides drawn from
//      them, the diverse games behind nardy-fit-5), positions labelled by C's label.ply-ply
//      search or, with label.rollouts, by rollouts of C (selfplay/training/labeler.h; exact race
//      values where the race table covers; every net told race_net=0 when run.race_net is
//      false). Set s of generation g is seeded mix(run.seed, g, s), so the whole run is a
//      function of the config. label.games 0 with label.sets []: no labels (the fit then reads
//      earlier generations' files).
//   2. fit: C (or with fit.from: start the start net) fitted to the label files of the
//      generations.data_window latest generations
//      and, with generations.pool_same_labeller, of every generation since C was promoted (all
//      labelled by C: after a rejected candidate the next fit has more of C's labels, not other
//      ones) (selfplay/training/fit.h: held-out split by game, early stopping, lr drops, the
//      sibling term), fit.threads LibTorch threads (fit.blas_threads OpenBLAS threads), seeded
//      mix(run.seed, g) (or fit.seed) → the candidate; fit.json lists the label files it read.
//   3. gate: the candidate (A) against C (B) at gate.ply in mirrored pairs, gate.chunk games at
//      a time (chunk k on its own dice seed), the SPRT (gate.elo0/elo1/alpha/beta) walked over
//      all pairs so far after each chunk; it stops at a verdict or at gate.games.
//   4. benchmark (generations.benchmark set): the candidate's 0-ply error rate per phase, and
//      C's at generation 1, on that position benchmark (selfplay/evaluation/position_benchmark.h).
//   5. promote: the candidate becomes C when the gate says so (gate.promote: h1, not_h0,
//      always); a metrics.jsonl row is appended and generations.json is updated.
//
// Files in the run directory (every write atomic, selfplay/training/run_dir.h):
//   generations.json     the state: the start net, the current net, generations done
//   start.pt             a copy of the start net
//   current.pt           a copy of the current net (start.pt or a promoted gen-NNN/candidate.pt)
//   gen-NNN/labels-S.lbl the label files of generation NNN (S = 0, 1, ... per label set)
//   gen-NNN/candidate.pt the fitted candidate; gen-NNN/fit.json its epochs
//   gen-NNN/gate.json    the gate's result (ArenaResult JSON; gate-partial.json while it runs)
//   gen-NNN/result.json  the generation's row (also appended to metrics.jsonl)
//   metrics.jsonl        the TD stage's lines, then one line per generation with "generation",
//                        "labels" (positions), "fit" {best_epoch, heldout_loss, initial_loss,
//                        epochs}, "gate" (the match result), "promoted", "benchmark" (mp per
//                        phase, when set), "seconds" per stage and "current".
// Resume after any interruption (kill -9 included): each stage continues from what is on disk:
// a label file from its last complete block of games, a gate from its last chunk; a fit
// restarts from its start (its checkpoint is the finished candidate); a finished stage is never
// redone. A resumed run gives the same files as an uninterrupted one.
#pragma once

#include <atomic>
#include <functional>
#include <string>

#include "selfplay/distributed/world.h"
#include "selfplay/training/config.h"

namespace nardy {

struct GenerationsCallbacks {
  // A progress line ("gen 2/5 label 1/3: 1,200/20,000 games, 350 positions/s, ETA 4m10s");
  // `final` marks a stage's last line (the others may be overwritten by the next).
  std::function<void(const std::string& line, bool final)> on_line;
  // Requests a stop when it becomes true (e.g. from a SIGINT handler), seen after each block of
  // label games, each fit epoch and before each gate pair: the stage's work since its last
  // checkpoint is dropped and run_generations returns with stopped set. May be null.
  const std::atomic<bool>* stop = nullptr;
};

struct GenerationsResult {
  int generations_done = 0;
  int promoted = 0;      // generations whose candidate became the current net
  std::string current;   // path of the current net
  bool stopped = false;  // the stop flag ended the run early; resuming continues it
};

// What each generation of `config` will do, one block per generation (its label files, the
// labeller, the fit and its data, the gate), from the config alone: `nardy train --plan`, to
// check a recipe (generations.schedule above all) before a run of hours. Throws Error for a
// schedule entry that does not apply.
std::string describe_generations(const TrainConfig& config);

// The state file's name in a run directory.
inline constexpr const char* kGenerationsStateFile = "generations.json";

// Whether `run_dir` holds a generational run's state (generations.json).
bool holds_generations(const std::string& run_dir);

// The net a new generational run of `config` in `run_dir` starts from: generations.init (a
// checkpoint path, or model:NAME / default resolved to its file), else the TD stage's
// run_dir/latest.pt. Throws Error for a model that is not shipped.
std::string generations_start_net(const TrainConfig& config, const std::string& run_dir);

// Runs (or continues, if run_dir holds generations.json) the generations of `config` in
// `run_dir`, starting from `start_net` (a checkpoint path; ignored when continuing). Returns
// when config.generations.count generations are done. Throws Error naming the stage, the file
// or the key for bad data, a start net of other rules, or a state that does not fit the config.
// On several ranks (`world`), rank 0's config, run directory and start net are the run's; the
// ranks split each label file's games and the gate's pairs, and with fit.split the fit's
// minibatches; rank 0 writes every file.
GenerationsResult run_generations(const TrainConfig& config, const std::string& run_dir,
                                  const std::string& start_net,
                                  const GenerationsCallbacks& callbacks = {},
                                  World* world = nullptr);

}  // namespace nardy
