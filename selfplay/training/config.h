// selfplay/training/config.h — the typed training configuration and its YAML form.
//
// A config file is a YAML map of sections; every key is optional (the defaults below apply)
// and an unknown key is an error. Keys are addressed by path "section.key" in error messages
// and in overrides (`nardy train --set td.lambda=0.7`, Python `overrides={"td.lambda": 0.7}`).
//
// | key                   | type          | default            | range / values                      |
// |-----------------------|---------------|--------------------|-------------------------------------|
// | run.name              | string        | default            | [A-Za-z0-9._-]+ (a directory name)  |
// | run.dir               | string        | runs               | parent directory of the run         |
// | run.seed              | integer       | 1                  | >= 0; seeds the net and every game  |
// | run.threads           | integer       | 1                  | 1..256 self-play worker threads     |
// | run.merge_every       | integer       | 16                 | 1..1000 games per worker between merges (threads > 1; selfplay/training/td_workers.h) |
// | rules.opening         | string        | no_doubles         | no_doubles, any_roll                |
// | rules.head_exception  | string        | standard           | standard, strict, none              |
// | rules.last_roll_draw  | bool          | false              |                                     |
// | rules.next_game_starter | string      | previous_black     | previous_black, previous_winner     |
// | net.encoder           | string        | raw                | raw, extended (nn/encoder.h)        |
// | net.hidden            | integer list  | [128]              | 1..4 layers of 1..4096 units        |
// | net.activation        | string        | sigmoid            | sigmoid, tanh, relu                 |
// | net.backend           | string        | fast               | fast (one hidden layer), libtorch   |
// | td.alpha              | number        | 0.1                | (0, 10] TD step size at the start   |
// | td.alpha_schedule     | string        | constant           | constant, linear, exponential       |
// | td.alpha_final        | number        | 0.01               | (0, 10] step size at the end        |
// | td.lambda             | number        | 0.7                | [0, 1] trace decay at the start     |
// | td.lambda_schedule    | string        | constant           | constant, linear, exponential       |
// | td.lambda_final       | number        | 0.7                | [0, 1] trace decay at the end       |
// | td.epsilon            | number        | 0.0                | [0, 1] exploration rate at start    |
// | td.epsilon_schedule   | string        | constant           | constant, linear, exponential       |
// | td.epsilon_final      | number        | 0.0                | [0, 1] exploration rate at the end  |
// | train.games           | integer       | 10000              | 1..10^10 self-play games            |
// | train.checkpoint_every| integer       | 1000               | >= 1 games between checkpoints      |
// | train.keep_last       | integer       | 3                  | 1..10000 ckpt-*.pt files kept       |
// | train.eval_every      | integer       | 5000               | >= 0 games between evaluations (0: at the end only) |
// | eval.opponents        | string list   | [random, heuristic]| agent specs (selfplay/agents/agent.h)      |
// | eval.games            | integer       | 200                | 2..10^8 games per opponent (pairs)  |
// | eval.final_games      | integer       | 0                  | >= 0 games in the final evaluation (0: eval.games) |
// | eval.threads          | integer       | 0                  | 0..256 (0: run.threads)             |
// | eval.best_by          | string        | "" (last opponent) | one of eval.opponents               |
// | log.progress          | bool          | true               | live progress line on a terminal    |
// | log.interval_s        | number        | 30                 | (0, 86400] s between plain log lines|
// | log.metrics_every     | integer       | 1000               | >= 0 games between metrics lines (0: at checkpoints and evaluations only) |
//
// Evaluations always play mirrored pairs (both colours on the same dice, selfplay/evaluation/arena.h).
// Errors name the source (file, or the --set assignment and its file), the key path and the
// expectation, e.g. "config 'a.yaml': td.lambda: expected a number in [0, 1], got '1.5'".
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/rules.h"
#include "nn/value_net.h"
#include "selfplay/training/schedule.h"

namespace nardy {

struct TrainConfig {
  struct Run {
    std::string name = "default";
    std::string dir = "runs";
    uint64_t seed = 1;
    int threads = 1;
    int merge_every = 16;
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
};

// ---- Loading ----
// Parses YAML text; `source` names it in errors (a file name). Validates everything (types,
// ranges, unknown keys, cross-field rules) and throws Error on the first problem.
TrainConfig parse_config(std::string_view yaml_text, const std::string& source = "<text>");
// Reads and parses a file, then applies `overrides` ("KEY=VALUE", VALUE in YAML syntax:
// `td.alpha=0.05`, `net.hidden=[64,32]`, `eval.opponents=[random]`) and validates again.
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
// Cross-field checks (fast backend needs one hidden layer, exponential schedules need positive
// ends, best_by among the opponents, opponents are valid agent specs). Throws Error.
void validate(const TrainConfig& config, const std::string& source = "<config>");

// ---- Writing ----
// Every key, resolved, as YAML that parse_config() reads back to an equal config.
std::string to_yaml(const TrainConfig& config);

// ---- Introspection ----
struct ConfigKey {
  std::string path;  // "td.lambda"
  std::string type;  // "number", "integer", "string", "bool", "integer list", "string list"
  std::string doc;   // meaning and range
};
const std::vector<ConfigKey>& config_keys();

}  // namespace nardy
