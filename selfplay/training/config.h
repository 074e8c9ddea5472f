// selfplay/training/config.h — the typed training configuration and its YAML form.
//
// A config file is a YAML map of sections; every key is optional (the defaults below apply)
// and an unknown key is an error. Keys are addressed by path "section.key" in error messages
// and in overrides (`nardy train --set td.lambda=0.7`, Python `overrides={"td.lambda": 0.7}`).
//
// Each fact about a key lives once: its default is the member initialiser below, its type,
// meaning and range are its entry in config.cpp's table of fields (the parser checks that
// range). config_keys() lists them; configs/README.md ("Keys") is generated from that list, and
// tests keep it and the "(default X)" comments of configs/*.yaml equal to it.
//
// Evaluations always play mirrored pairs (both colours on the same dice,
// selfplay/evaluation/arena.h). Errors name the source (file, or the --set assignment and its
// file), the key path and the expectation, e.g. "config 'a.yaml': td.lambda: expected a number
// in [0, 1], got '1.5'".
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/rules.h"
#include "nn/value_net.h"
#include "selfplay/training/schedule.h"

namespace nardy {

// One label file of a generation (TrainConfig::label_sets()).
struct LabelSet {
  int64_t games = 0;
  std::string players;  // comma-separated agent specs; "current[:options]" is the current net
  double sample = 0, explore = 0, candidates = 0;
  int top = 0;
  uint64_t seed = 0;  // > 0: the file's seed as given (reproducing a `nardy label` file)
};

struct TrainConfig {
  struct Run {
    std::string name = "default";
    std::string dir = "runs";
    uint64_t seed = 1;
    int threads = 1;
    int merge_every = 16;
    // The generations' agents (label players and labeller, gate, benchmark) value races with
    // the race net where there is one (selfplay/tables/race_net.h); false: as runs before it.
    bool race_net = true;
    bool operator==(const Run&) const = default;
  };
  struct Net {
    std::string encoder = "raw";
    std::vector<int> hidden = {128};
    std::string activation = "sigmoid";
    std::string backend = "fast";
    bool operator==(const Net&) const = default;
  };
  struct Td {
    Schedule alpha{ScheduleKind::Constant, 0.1, 0.01};
    Schedule lambda{ScheduleKind::Constant, 0.7, 0.7};
    Schedule epsilon{ScheduleKind::Constant, 0.0, 0.0};
    std::string target = "next";  // next | search (selfplay/training/td_game.h)
    int target_ply = 1;           // the search depth of `search` targets
    // The TdGameParams::target_ply of these settings: 0 for next, else target_ply.
    int game_target_ply() const { return target == "search" ? target_ply : 0; }
    bool operator==(const Td&) const = default;
  };
  struct Train {
    int64_t games = 10000;
    int64_t checkpoint_every = 1000;
    int keep_last = 3;
    int64_t eval_every = 5000;
    bool operator==(const Train&) const = default;
  };
  struct Eval {
    std::vector<std::string> opponents = {"random", "heuristic"};
    int64_t games = 200;
    int64_t final_games = 0;
    int threads = 0;
    std::string best_by;
    bool operator==(const Eval&) const = default;
  };
  // ---- Generations (selfplay/training/generations.h): after the TD stage (or from
  // generations.init), each generation labels positions with the current net's search, fits a
  // candidate to them and gates it against the current net.
  struct Generations {
    int count = 0;                    // generations after the start; 0: the TD stage alone
    std::string init;                 // net to start from instead of the TD stage ("": TD)
    int data_window = 1;              // label files of this many latest generations fitted together
    bool pool_same_labeller = false;  // also those of every generation since C's promotion
    std::vector<std::string> prior_data;  // label files every fit reads first (an earlier run's)
    std::string benchmark;                // position benchmark scored per generation ("": none)
    // Per-generation settings: entry g-1 holds "key=value" assignments (label.*, fit.*, gate.*,
    // generations.data_window, generations.pool_same_labeller) that generation g uses instead
    // of this config's (TrainConfig::for_generation); later generations use this config's.
    std::vector<std::vector<std::string>> schedule;
    bool operator==(const Generations&) const = default;
  };
  struct Label {
    std::vector<std::string> sets;  // one label file per entry, "key=value ..." over the keys below
    int64_t games = 2000;           // 0 with sets []: the generation labels nothing
    double games_scale = 1;         // every label file's games times this (a shortened trial)
    std::string players = "current";  // agent spec(s); "current" is the current net
    double sample = 0.1;
    double explore = 0.05;
    double candidates = 0.2;
    int top = 0;
    int ply = 2;           // the labeler: the current net at this ply
    int64_t rollouts = 0;  // > 0: rollouts of the current net instead of search
    bool operator==(const Label&) const = default;
  };
  struct Fit {
    double lr = 3e-4;
    int batch = 512;
    int epochs = 40;
    int patience = 3;
    int lr_drops = 2;
    double lr_drop = 0.3;
    double sibling_weight = 64;
    double holdout = 0.1;
    int threads = 1;               // LibTorch threads; 0: run.threads
    int blas_threads = 0;          // OpenBLAS threads of the fit (nn/blas_threads.h); 0: as started
    std::string from = "current";  // the net the fit starts from: current | start
    uint64_t seed = 0;             // > 0: the split and order's seed as given (`nardy fit --seed`)
    int shards = 1;      // minibatch parts with a gradient each (on R ranks with split: R)
    bool split = false;  // on several ranks: split the minibatches (else rank 0 fits alone)
    // Hold out the same games of a label file in every generation's fit (fit.h: split_seed).
    bool holdout_stable = false;
    std::string encoder;     // give the current net this encoder first ("": its own)
    std::vector<int> widen;  // widen the current net's hidden layers to these first ([]: no)
    bool operator==(const Fit&) const = default;
  };
  struct Gate {
    int64_t games = 20000;  // most games of the test
    int64_t chunk = 2000;   // games between the gate's checkpoints
    double elo0 = 0, elo1 = 5, alpha = 0.05, beta = 0.05;
    int ply = 0;                 // both nets' search depth in the gate
    std::string promote = "h1";  // h1 | not_h0 | always
    bool operator==(const Gate&) const = default;
  };
  struct Log {
    bool progress = true;
    double interval_s = 30;
    int64_t metrics_every = 1000;
    bool operator==(const Log&) const = default;
  };

  Run run;
  Rules rules;
  Net net;
  Td td;
  Train train;
  Eval eval;
  Generations generations;
  Label label;
  Fit fit;
  Gate gate;
  Log log;

  bool operator==(const TrainConfig&) const = default;

  // ---- Derived values ----
  NetShape net_shape() const;  // encoder id, hidden, activation, outputs (4 with draws)
  int eval_threads() const { return eval.threads > 0 ? eval.threads : run.threads; }
  int64_t eval_final_games() const { return eval.final_games > 0 ? eval.final_games : eval.games; }
  // The opponent whose evaluation picks best.pt ("" when there are no opponents).
  std::string best_opponent() const;
  // <run.dir>/<run.name>
  std::string run_path() const;
  int fit_threads() const { return fit.threads > 0 ? fit.threads : run.threads; }
  // The label files of a generation: label.sets parsed over the label.* defaults (one file of
  // the defaults when label.sets is empty, none when label.games is also 0). Throws Error
  // naming label.sets[i] and the problem.
  std::vector<LabelSet> label_sets() const;
  // The settings generation g (1, 2, ...) runs with: this config with generations.schedule's
  // entry g-1 applied, if there is one (the result's schedule is empty). Throws Error naming
  // the entry.
  TrainConfig for_generation(int g) const;
};

// ---- Loading ----
// Parses YAML text; `source` names it in errors (a file name). Validates everything (types,
// ranges, unknown keys, cross-field rules) and throws Error on the first problem.
TrainConfig parse_config(std::string_view yaml_text, const std::string& source = "<text>");
// Reads and parses a file, then applies `overrides` ("KEY=VALUE", VALUE in YAML syntax:
// `td.alpha=0.05`, `net.hidden=[64,32]`, `eval.opponents=[random]`) and validates again.
// Relative data paths (generations.benchmark, generations.prior_data, a generations.init path)
// are found as a user means them: from the working directory, else the config file's folder,
// else the repository the shipped models come from. run.dir stays relative to the working
// directory.
TrainConfig load_config(const std::string& path, const std::vector<std::string>& overrides = {});
// Applies one "KEY=VALUE" override with the same key paths and checks as the file; `source`
// (e.g. the config file) is named in errors beside the assignment. Re-validates the whole config.
void apply_override(TrainConfig& config, std::string_view assignment,
                    const std::string& source = "");
// Applies several overrides as one change: each field is type- and range-checked as it is set,
// the cross-field checks run once at the end, so the order of the assignments does not matter
// (net.hidden=[64,32] with net.backend=libtorch works either way). All or nothing.
void apply_overrides(TrainConfig& config, const std::vector<std::string>& assignments,
                     const std::string& source = "");
// Cross-field checks (exponential schedules need positive ends, best_by among the opponents,
// opponents are valid agent specs). Throws Error.
void validate(const TrainConfig& config, const std::string& source = "<config>");

// ---- Writing ----
// Every key, resolved, as YAML that parse_config() reads back to an equal config.
std::string to_yaml(const TrainConfig& config);

// ---- Introspection ----
struct ConfigKey {
  std::string path;  // "td.lambda"
  std::string type;  // "number", "integer", "string", "bool", "integer list", "string list"
  std::string doc;   // meaning and range
  std::string default_value;  // the default as YAML text: "0.7", "[128]", "" for an empty string
};
const std::vector<ConfigKey>& config_keys();
// Every key as a Markdown table (key, type, default, meaning and range). The "Keys" table of
// configs/README.md is this text, checked by tests/selfplay/training/config_test.cpp.
std::string config_keys_markdown();

}  // namespace nardy
