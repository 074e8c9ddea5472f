#include "selfplay/training/config.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <type_traits>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>

#include "core/error.h"
#include "core/file_io.h"
#include "core/file_error.h"
#include "core/printable.h"
#include "nn/encoder.h"
#include "nn/value_net.h"
#include "selfplay/agents/agent.h"
#include "selfplay/search/net_agent.h"
#include "selfplay/search/agent_kinds.h"
#include "selfplay/search/shipped_models.h"

namespace nardy {
namespace {

// Thrown by the value parsers below; the caller adds the source and the key path.
struct Expected {
  std::string what;
};

std::string describe(const YAML::Node& node) {
  if (!node.IsDefined() || node.IsNull()) return "nothing";
  if (node.IsScalar()) return quote(node.Scalar());
  if (node.IsSequence()) return "a list";
  return "a map";
}

std::string format_number(double v) {
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  std::string s(buf, end);
  // Keep a decimal point or exponent so the YAML reads back as a float-looking number.
  if (s.find_first_of(".eEn") == std::string::npos) s += ".0";
  return s;
}

std::string format_range(double lo, double hi, bool lo_open) {
  return std::string(lo_open ? "(" : "[") + format_number(lo) + ", " + format_number(hi) + "]";
}

const std::string& scalar_of(const YAML::Node& node, const std::string& expectation) {
  if (!node.IsScalar()) throw Expected{expectation};
  return node.Scalar();
}

int64_t parse_integer(const YAML::Node& node, int64_t lo, int64_t hi) {
  const std::string expectation =
      "an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
  const std::string& s = scalar_of(node, expectation);
  int64_t v = 0;
  const char* begin = s.data();
  if (!s.empty() && s[0] == '+') ++begin;
  auto [end, ec] = std::from_chars(begin, s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || s.empty()) throw Expected{expectation};
  if (v < lo || v > hi) throw Expected{expectation};
  return v;
}

uint64_t parse_unsigned(const YAML::Node& node) {
  const std::string expectation = "a non-negative integer below 2^64";
  const std::string& s = scalar_of(node, expectation);
  uint64_t v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || s.empty()) throw Expected{expectation};
  return v;
}

double parse_number(const YAML::Node& node, double lo, double hi, bool lo_open) {
  const std::string expectation = "a number in " + format_range(lo, hi, lo_open);
  const std::string& s = scalar_of(node, expectation);
  double v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || s.empty() || !std::isfinite(v))
    throw Expected{expectation};
  if (v > hi || v < lo || (lo_open && v == lo)) throw Expected{expectation};
  return v;
}

bool parse_bool(const YAML::Node& node) {
  const std::string expectation = "true or false";
  std::string s = scalar_of(node, expectation);
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  if (s == "true" || s == "yes" || s == "on") return true;
  if (s == "false" || s == "no" || s == "off") return false;
  throw Expected{expectation};
}

// Text a config may hold: valid UTF-8 without control characters. (YAML is UTF-8; yaml-cpp
// reads other bytes as they are but writes them back as U+FFFD, so to_yaml would not round-trip.)
bool is_text(const std::string& s) {
  return s.find_first_of("\n\t") == std::string::npos && printable_message(s, s.size()) == s;
}

std::string parse_string(const YAML::Node& node) {
  const std::string expectation = "a string (UTF-8 text without control characters)";
  if (node.IsNull()) throw Expected{expectation};
  const std::string& s = scalar_of(node, expectation);
  if (!is_text(s)) throw Expected{expectation};
  return s;
}

std::string parse_choice(const YAML::Node& node, const std::vector<std::string>& values) {
  std::string expectation = "one of";
  for (size_t i = 0; i < values.size(); ++i) expectation += (i ? ", " : " ") + values[i];
  if (!node.IsScalar()) throw Expected{expectation};
  if (std::find(values.begin(), values.end(), node.Scalar()) == values.end())
    throw Expected{expectation};
  return node.Scalar();
}

std::vector<int> parse_int_list(const YAML::Node& node, int min_len, int max_len, int lo, int hi) {
  const std::string expectation = "a list of " + std::to_string(min_len) + ".." +
                                  std::to_string(max_len) + " integers in [" + std::to_string(lo) +
                                  ", " + std::to_string(hi) + "]";
  if (!node.IsSequence()) throw Expected{expectation};
  if (static_cast<int>(node.size()) < min_len || static_cast<int>(node.size()) > max_len)
    throw Expected{expectation};
  std::vector<int> out;
  for (const auto& item : node) {
    try {
      out.push_back(static_cast<int>(parse_integer(item, lo, hi)));
    } catch (const Expected&) {
      throw Expected{expectation};
    }
  }
  return out;
}

// Every encoder's name and id ("extended", "extended-v1", ...), sorted.
std::vector<std::string> encoder_names() {
  std::vector<std::string> names;
  for (const auto& id : encoder_ids()) {
    names.push_back(id);
    names.push_back(id.substr(0, id.rfind("-v")));
  }
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

std::vector<std::string> parse_string_list(const YAML::Node& node) {
  const std::string expectation = "a list of strings (UTF-8 text without control characters)";
  if (!node.IsSequence()) throw Expected{expectation};
  std::vector<std::string> out;
  for (const auto& item : node) {
    if (!item.IsScalar() || !is_text(item.Scalar())) throw Expected{expectation};
    out.push_back(item.Scalar());
  }
  return out;
}

YAML::Node scalar(const std::string& s) {
  return YAML::Node(s);
}
YAML::Node number(double v) {
  return YAML::Node(format_number(v));
}
YAML::Node integer(int64_t v) {
  return YAML::Node(std::to_string(v));
}
YAML::Node boolean(bool b) {
  return YAML::Node(b ? "true" : "false");
}
template <class T>
YAML::Node flow_list(const std::vector<T>& v) {
  YAML::Node n(YAML::NodeType::Sequence);
  for (const auto& x : v) {
    if constexpr (std::is_same_v<T, int>)
      n.push_back(std::to_string(x));
    else
      n.push_back(x);
  }
  n.SetStyle(YAML::EmitterStyle::Flow);
  return n;
}

// Ranges as the documentation writes them: "1..256", "0..10^10", "(0, 10]".
std::string integer_range_text(int64_t lo, int64_t hi) {
  auto text = [](int64_t v) {
    int e = 0;
    int64_t p = 1;
    while (p < v && e < 18) p *= 10, ++e;
    return p == v && e >= 5 ? "10^" + std::to_string(e) : std::to_string(v);
  };
  return text(lo) + ".." + text(hi);
}

std::string number_range_text(double lo, double hi, bool lo_open) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%s%g, %g]", lo_open ? "(" : "[", lo, hi);
  return buf;
}

std::string with_range(const std::string& doc, const std::string& range) {
  const auto at = doc.find("{range}");
  return at == std::string::npos ? doc + ", " + range
                                 : doc.substr(0, at) + range + doc.substr(at + 7);
}

struct Field {
  ConfigKey key;
  std::function<void(TrainConfig&, const YAML::Node&)> set;
  std::function<YAML::Node(const TrainConfig&)> get;
};

const std::vector<std::string> kScheduleKinds = {"constant", "linear", "exponential"};

const Field* find_field(std::string_view path);

// The keys generations.schedule may set: what a generation does, not what the run is.
bool per_generation_key(const std::string& path) {
  return path.starts_with("label.") || path.starts_with("fit.") || path.starts_with("gate.") ||
         path == "generations.data_window" || path == "generations.pool_same_labeller";
}

// generations.schedule: a list of maps "key: value" -> per entry, "key=value" assignments with
// the value as flow YAML (set_override reads them with the keys' own checks).
std::vector<std::vector<std::string>> parse_schedule(const YAML::Node& node) {
  const std::string expectation = "a list of maps (key: value), one per generation";
  if (node.IsNull()) return {};
  if (!node.IsSequence()) throw Expected{expectation};
  std::vector<std::vector<std::string>> schedule;
  for (size_t i = 0; i < node.size(); ++i) {
    const YAML::Node& entry = node[i];
    if (!entry.IsNull() && !entry.IsMap()) throw Expected{expectation};
    std::vector<std::string> assignments;
    for (const auto& kv : entry) {
      const std::string key = kv.first.IsScalar() ? kv.first.Scalar() : std::string();
      if (!find_field(key) || !per_generation_key(key))
        throw Error("entry " + std::to_string(i) + ": " + quote(key) +
                    " is not a per-generation key (those of label, fit and gate, "
                    "generations.data_window, generations.pool_same_labeller)");
      YAML::Emitter value;
      value << YAML::Flow << kv.second;
      assignments.push_back(key + "=" + value.c_str());
    }
    schedule.push_back(std::move(assignments));
  }
  return schedule;
}

YAML::Node schedule_node(const std::vector<std::vector<std::string>>& schedule) {
  YAML::Node list(YAML::NodeType::Sequence);
  for (const auto& assignments : schedule) {
    YAML::Node entry(YAML::NodeType::Map);
    for (const std::string& a : assignments) {
      const auto eq = a.find('=');
      entry[a.substr(0, eq)] = YAML::Load(a.substr(eq + 1));
    }
    entry.SetStyle(YAML::EmitterStyle::Flow);
    list.push_back(entry);
  }
  return list;
}

std::vector<Field> make_fields() {
  std::vector<Field> f;
  auto add = [&](std::string path, std::string type, std::string doc,
                 std::function<void(TrainConfig&, const YAML::Node&)> set,
                 std::function<YAML::Node(const TrainConfig&)> get) {
    f.push_back(Field{ConfigKey{std::move(path), std::move(type), std::move(doc), {}},
                      std::move(set), std::move(get)});
  };
  // Integer and number keys: the range is written once, in the call; the parser checks it and
  // the documentation states it (where "{range}" stands in `doc`).
  auto add_integer = [&](std::string path, std::string doc, int64_t lo, int64_t hi, auto field) {
    add(
        std::move(path), "integer", with_range(doc, integer_range_text(lo, hi)),
        [=](TrainConfig& c, const YAML::Node& n) {
          auto& v = field(c);
          v = static_cast<std::remove_reference_t<decltype(v)>>(parse_integer(n, lo, hi));
        },
        [=](const TrainConfig& c) { return integer(field(c)); });
  };
  auto add_bool = [&](std::string path, std::string doc, auto field) {
    add(
        std::move(path), "bool", std::move(doc),
        [=](TrainConfig& c, const YAML::Node& n) { field(c) = parse_bool(n); },
        [=](const TrainConfig& c) { return boolean(field(c)); });
  };
  // String keys with a fixed set of values (parse_choice names them in errors).
  auto add_choice = [&](std::string path, std::string doc, std::vector<std::string> values,
                        auto field) {
    add(
        std::move(path), "string", std::move(doc),
        [=](TrainConfig& c, const YAML::Node& n) { field(c) = parse_choice(n, values); },
        [=](const TrainConfig& c) { return scalar(field(c)); });
  };
  auto add_number = [&](std::string path, std::string doc, double lo, double hi, bool lo_open,
                        auto field) {
    add(
        std::move(path), "number", with_range(doc, number_range_text(lo, hi, lo_open)),
        [=](TrainConfig& c, const YAML::Node& n) { field(c) = parse_number(n, lo, hi, lo_open); },
        [=](const TrainConfig& c) { return number(field(c)); });
  };
  // ---- run ----
  add(
      "run.name", "string", "run directory name under run.dir; letters, digits, '.', '_', '-'",
      [](TrainConfig& c, const YAML::Node& n) {
        const std::string expectation = "a name of letters, digits, '.', '_' or '-'";
        std::string s = scalar_of(n, expectation);
        if (s.empty() || s == "." || s == ".." ||
            !std::all_of(s.begin(), s.end(), [](unsigned char ch) {
              return std::isalnum(ch) || ch == '.' || ch == '_' || ch == '-';
            }))
          throw Expected{expectation};
        c.run.name = s;
      },
      [](const TrainConfig& c) { return scalar(c.run.name); });
  add(
      "run.dir", "string",
      "parent directory of run directories (relative to the working directory)",
      [](TrainConfig& c, const YAML::Node& n) {
        std::string s = parse_string(n);
        if (s.empty()) throw Expected{"a non-empty directory path"};
        c.run.dir = s;
      },
      [](const TrainConfig& c) { return scalar(c.run.dir); });
  add(
      "run.seed", "integer", "seed of the initial weights and of every game's dice and exploration",
      [](TrainConfig& c, const YAML::Node& n) { c.run.seed = parse_unsigned(n); },
      [](const TrainConfig& c) { return YAML::Node(std::to_string(c.run.seed)); });
  add_integer(
      "run.threads",
      "self-play worker threads, {range} (the same seed and threads give the same run)", 1, 256,
      [](auto& c) -> auto& { return c.run.threads; });
  add_integer(
      "run.merge_every",
      "with run.threads > 1: games each worker plays on its own copy of the net between merges, "
      "{range}",
      1, 1000, [](auto& c) -> auto& { return c.run.merge_every; });
  add_bool(
      "run.race_net",
      "the generations' agents (label players and labeller, gate, benchmark) value races with "
      "the race net (models/race-net.nrn) where they find it; false: without it, as every run "
      "before it (the shipped recipes up to nardy-fit-8 set false to make the same label files)",
      [](auto& c) -> auto& { return c.run.race_net; });
  // ---- rules ----
  for (const std::string& key : Rules::keys()) {
    const bool is_bool = key == "last_roll_draw";
    std::string values;
    for (const auto& v : Rules::values_of(key)) values += (values.empty() ? "" : ", ") + v;
    add(
        "rules." + key, is_bool ? "bool" : "string", "docs/rules.md variant: " + values,
        [key, is_bool](TrainConfig& c, const YAML::Node& n) {
          if (is_bool) {
            c.rules.set(key, parse_bool(n) ? "true" : "false");
          } else {
            c.rules.set(key, parse_choice(n, Rules::values_of(key)));
          }
        },
        [key](const TrainConfig& c) { return scalar(c.rules.get(key)); });
  }
  // ---- net ----
  add(
      "net.encoder", "string",
      "input encoding: raw, extended, mobility, reach or zones (nn/encoder.h)",
      [](TrainConfig& c, const YAML::Node& n) { c.net.encoder = parse_choice(n, encoder_names()); },
      [](const TrainConfig& c) { return scalar(c.net.encoder); });
  add(
      "net.hidden", "integer list",
      "hidden layer widths, input side first; 1.." + std::to_string(kMaxHiddenLayers) +
          " layers of 1.." + std::to_string(kMaxHiddenUnits) + " units",
      [](TrainConfig& c, const YAML::Node& n) {
        c.net.hidden = parse_int_list(n, 1, kMaxHiddenLayers, 1, kMaxHiddenUnits);
      },
      [](const TrainConfig& c) { return flow_list(c.net.hidden); });
  add_choice(
      "net.activation", "hidden activation: sigmoid, tanh or relu", {"sigmoid", "tanh", "relu"},
      [](auto& c) -> auto& { return c.net.activation; });
  add_choice(
      "net.backend", "TD backend: fast (float kernels, 1-4 hidden layers) or libtorch",
      {"fast", "libtorch"}, [](auto& c) -> auto& { return c.net.backend; });
  // ---- td ----
  add_number(
      "td.alpha", "TD step size at the start of the run, {range}", 0, 10, true,
      [](auto& c) -> auto& { return c.td.alpha.start; });
  add(
      "td.alpha_schedule", "string",
      "how alpha goes from td.alpha to td.alpha_final: constant, linear, exponential",
      [](TrainConfig& c, const YAML::Node& n) {
        c.td.alpha.kind = parse_schedule_kind(parse_choice(n, kScheduleKinds));
      },
      [](const TrainConfig& c) { return scalar(schedule_kind_name(c.td.alpha.kind)); });
  add_number(
      "td.alpha_final", "TD step size at the end of the run (unused when constant), {range}", 0, 10,
      true, [](auto& c) -> auto& { return c.td.alpha.final; });
  add_number(
      "td.lambda", "eligibility-trace decay lambda at the start of the run, {range}", 0, 1, false,
      [](auto& c) -> auto& { return c.td.lambda.start; });
  add(
      "td.lambda_schedule", "string",
      "how lambda goes from td.lambda to td.lambda_final: constant, linear, exponential",
      [](TrainConfig& c, const YAML::Node& n) {
        c.td.lambda.kind = parse_schedule_kind(parse_choice(n, kScheduleKinds));
      },
      [](const TrainConfig& c) { return scalar(schedule_kind_name(c.td.lambda.kind)); });
  add_number(
      "td.lambda_final", "trace decay at the end of the run (unused when constant), {range}", 0, 1,
      false, [](auto& c) -> auto& { return c.td.lambda.final; });
  add_number(
      "td.epsilon", "probability of a uniformly random move at the start, {range}", 0, 1, false,
      [](auto& c) -> auto& { return c.td.epsilon.start; });
  add(
      "td.epsilon_schedule", "string",
      "how epsilon goes from td.epsilon to td.epsilon_final: constant, linear, exponential",
      [](TrainConfig& c, const YAML::Node& n) {
        c.td.epsilon.kind = parse_schedule_kind(parse_choice(n, kScheduleKinds));
      },
      [](const TrainConfig& c) { return scalar(schedule_kind_name(c.td.epsilon.kind)); });
  add_number(
      "td.epsilon_final", "probability of a random move at the end (unused when constant), {range}",
      0, 1, false, [](auto& c) -> auto& { return c.td.epsilon.final; });
  add_choice(
      "td.target",
      "TD target of a position: next (the next position's 0-ply value, or the outcome) or search "
      "(its own td.target_ply-ply value; slower, see configs/README.md)",
      {"next", "search"}, [](auto& c) -> auto& { return c.td.target; });
  add_integer(
      "td.target_ply", "search depth of td.target: search, {range}", 1, 3,
      [](auto& c) -> auto& { return c.td.target_ply; });
  // ---- train ----
  add_integer(
      "train.games", "self-play games of the run, {range}", 1, 10'000'000'000LL,
      [](auto& c) -> auto& { return c.train.games; });
  add_integer(
      "train.checkpoint_every", "games between checkpoints ckpt-<games>.pt, {range}", 1,
      10'000'000'000LL, [](auto& c) -> auto& { return c.train.checkpoint_every; });
  add_integer(
      "train.keep_last", "ckpt-*.pt files kept (older ones are deleted), {range}", 1, 10000,
      [](auto& c) -> auto& { return c.train.keep_last; });
  add_integer(
      "train.eval_every", "games between evaluations, {range} (0: only at the end)", 0,
      10'000'000'000LL, [](auto& c) -> auto& { return c.train.eval_every; });
  // ---- eval ----
  add(
      "eval.opponents", "string list",
      "agent specs the net is evaluated against (selfplay/agents/agent.h)",
      [](TrainConfig& c, const YAML::Node& n) { c.eval.opponents = parse_string_list(n); },
      [](const TrainConfig& c) { return flow_list(c.eval.opponents); });
  add_integer(
      "eval.games", "games per opponent in each periodic evaluation (mirrored pairs), {range}", 2,
      100'000'000, [](auto& c) -> auto& { return c.eval.games; });
  add_integer(
      "eval.final_games", "games per opponent in the final evaluation, {range} (0: eval.games)", 0,
      100'000'000, [](auto& c) -> auto& { return c.eval.final_games; });
  add_integer(
      "eval.threads", "evaluation threads, {range} (0: run.threads)", 0, 256,
      [](auto& c) -> auto& { return c.eval.threads; });
  add(
      "eval.best_by", "string",
      "opponent whose points per game select best.pt ('' : the last opponent)",
      [](TrainConfig& c, const YAML::Node& n) {
        c.eval.best_by = n.IsNull() ? "" : parse_string(n);
      },
      [](const TrainConfig& c) { return scalar(c.eval.best_by); });
  // ---- generations ----
  add_integer(
      "generations.count",
      "generations (label, fit, gate) after the start, {range} (0: the TD stage alone)", 0, 10000,
      [](auto& c) -> auto& { return c.generations.count; });
  add(
      "generations.init", "string",
      "net the generations start from instead of the TD stage: a checkpoint path, "
      "model:NAME or default ('': the TD stage's net)",
      [](TrainConfig& c, const YAML::Node& n) {
        c.generations.init = n.IsNull() ? "" : parse_string(n);
      },
      [](const TrainConfig& c) { return scalar(c.generations.init); });
  add_integer(
      "generations.data_window",
      "label files of this many latest generations each fit uses, {range}", 1, 1000,
      [](auto& c) -> auto& { return c.generations.data_window; });
  add_bool(
      "generations.pool_same_labeller",
      "each fit also reads the labels of every generation since the current net was promoted "
      "(all made by that net), so a generation after a rejected candidate adds labels instead "
      "of replacing them",
      [](auto& c) -> auto& { return c.generations.pool_same_labeller; });
  add(
      "generations.prior_data", "string list",
      "label files every generation's fit reads before the run's own, in this order (say an "
      "earlier run's, for a net given new inputs by fit.encoder); each must exist when the run "
      "starts or resumes",
      [](TrainConfig& c, const YAML::Node& n) { c.generations.prior_data = parse_string_list(n); },
      [](const TrainConfig& c) { return flow_list(c.generations.prior_data); });
  add(
      "generations.schedule", "list of maps",
      "per-generation settings: entry g-1 maps keys of label, fit and gate (and "
      "generations.data_window, generations.pool_same_labeller) to the values generation g uses "
      "instead of this config's; generations past the list use this config's (e.g. [{label.ply: "
      "1, fit.lr: 0.001}, {}, {label.games: 0, generations.data_window: 2}])",
      [](TrainConfig& c, const YAML::Node& n) { c.generations.schedule = parse_schedule(n); },
      [](const TrainConfig& c) { return schedule_node(c.generations.schedule); });
  add(
      "generations.benchmark", "string",
      "position benchmark file each generation's nets are scored on at 0-ply ('': none; "
      "bench/positions/positions.txt is of the default rules)",
      [](TrainConfig& c, const YAML::Node& n) {
        c.generations.benchmark = n.IsNull() ? "" : parse_string(n);
      },
      [](const TrainConfig& c) { return scalar(c.generations.benchmark); });
  // ---- label ----
  add(
      "label.sets", "string list",
      "label files per generation, each 'key=value ...' over games, players, sample, explore, "
      "candidates, top (the label.* keys are the defaults) and seed (> 0: the file's seed as "
      "given, in every generation; else derived from run.seed); []: one file of the defaults",
      [](TrainConfig& c, const YAML::Node& n) { c.label.sets = parse_string_list(n); },
      [](const TrainConfig& c) { return flow_list(c.label.sets); });
  add_integer(
      "label.games",
      "games per label file, {range} (0 with label.sets []: the generation labels nothing; its "
      "fit reads earlier generations' files, generations.data_window > 1, or prior_data)",
      0, 100'000'000, [](auto& c) -> auto& { return c.label.games; });
  add_number(
      "label.games_scale",
      "every label file's games (label.games and those of label.sets and of the schedule) "
      "times this, at least one game each, {range}: a recipe shortened for a trial (0.01: a "
      "hundredth)",
      0, 1, true, [](auto& c) -> auto& { return c.label.games_scale; });
  add(
      "label.players", "string",
      "agent spec(s) playing the games, comma-separated (each game's sides drawn from the list); "
      "current[:options] is the current net",
      [](TrainConfig& c, const YAML::Node& n) { c.label.players = parse_string(n); },
      [](const TrainConfig& c) { return scalar(c.label.players); });
  add_number(
      "label.sample", "probability of keeping a position, {range}", 0, 1, true,
      [](auto& c) -> auto& { return c.label.sample; });
  add_number(
      "label.explore", "probability of a random move per turn, {range}", 0, 1, false,
      [](auto& c) -> auto& { return c.label.explore; });
  add_number(
      "label.candidates", "probability per turn of also keeping a random legal result, {range}", 0,
      1, false, [](auto& c) -> auto& { return c.label.candidates; });
  add_integer(
      "label.top",
      "on the turns drawn by candidates, keep the roll's K best results (0-ply) as one sibling "
      "group instead of one random result, {range} (0: random)",
      0, 1000, [](auto& c) -> auto& { return c.label.top; });
  add_integer(
      "label.ply", "search depth of the current net giving the targets, {range}", 0, 3,
      [](auto& c) -> auto& { return c.label.ply; });
  add_integer(
      "label.rollouts", "rollout trials per position instead of search, {range} (0: search)", 0,
      1'000'000, [](auto& c) -> auto& { return c.label.rollouts; });
  // ---- fit ----
  add_number(
      "fit.lr", "Adam learning rate, {range}", 0, 100, true,
      [](auto& c) -> auto& { return c.fit.lr; });
  add_integer(
      "fit.batch", "positions per minibatch, {range}", 1, 1 << 20,
      [](auto& c) -> auto& { return c.fit.batch; });
  add_integer(
      "fit.epochs", "most epochs, {range}", 1, 100000,
      [](auto& c) -> auto& { return c.fit.epochs; });
  add_integer(
      "fit.patience", "epochs without a better held-out loss before a stop or a drop, {range}", 1,
      100000, [](auto& c) -> auto& { return c.fit.patience; });
  add_integer(
      "fit.lr_drops", "plateaus met by going on at the lr times fit.lr_drop, {range}", 0, 100,
      [](auto& c) -> auto& { return c.fit.lr_drops; });
  add_number(
      "fit.lr_drop", "the lr's factor at each drop, {range}", 0, 0.999999, true,
      [](auto& c) -> auto& { return c.fit.lr_drop; });
  add_number(
      "fit.sibling_weight",
      "weight of the error in each position's equity relative to its sibling group, {range}", 0,
      1e6, false, [](auto& c) -> auto& { return c.fit.sibling_weight; });
  add_number(
      "fit.holdout", "fraction of the games held out for early stopping, {range}", 0, 0.999999,
      true, [](auto& c) -> auto& { return c.fit.holdout; });
  add_integer(
      "fit.threads",
      "LibTorch threads of the fit, {range} (0: run.threads; the weights depend on it; one was "
      "the fastest on 2 cores, docs/performance.md)",
      0, 256, [](auto& c) -> auto& { return c.fit.threads; });
  add_integer(
      "fit.blas_threads",
      "OpenBLAS threads under LibTorch during the fit, {range} (0: as the process started, "
      "from OMP_NUM_THREADS; the weights depend on it)",
      0, 256, [](auto& c) -> auto& { return c.fit.blas_threads; });
  add_choice(
      "fit.from",
      "the net each fit starts from: current (the current net) or start (the run's start net, "
      "start.pt: a refit of it to the labels of several generations)",
      {"current", "start"}, [](auto& c) -> auto& { return c.fit.from; });
  add(
      "fit.seed", "integer",
      "seed of the held-out split and the minibatch order (0: derived from run.seed per "
      "generation)",
      [](TrainConfig& c, const YAML::Node& n) { c.fit.seed = parse_unsigned(n); },
      [](const TrainConfig& c) { return YAML::Node(std::to_string(c.fit.seed)); });
  add_bool(
      "fit.holdout_stable",
      "hold out the same games of a label file in every generation's fit (a hash of run.seed, "
      "the file's labelling seed and the game; else of the fit's seed, the file's place and the "
      "game), so a fit pooling labels the current net was fitted to holds none of its training "
      "games out (data_window > 1)",
      [](auto& c) -> auto& { return c.fit.holdout_stable; });
  add_integer(
      "fit.shards",
      "parts of every minibatch, each with its own gradient, added in order, {range}: what that "
      "many ranks compute with fit.split (there it must be 1 or the ranks; the weights depend on "
      "it)",
      1, 1024, [](auto& c) -> auto& { return c.fit.shards; });
  add_bool(
      "fit.split",
      "on several ranks: split every minibatch across them (fit.shards = the ranks) instead of "
      "fitting on rank 0 while the others wait (measured slower on 2 ranks: docs/performance.md)",
      [](auto& c) -> auto& { return c.fit.split; });
  add(
      "fit.encoder", "string",
      "encoder the fit gives the current net first, one extending the net's own (mobility for an "
      "extended net; the new inputs start with zero weights, so the fit starts from the net's "
      "values); '': the net's own",
      [](TrainConfig& c, const YAML::Node& n) {
        const bool empty = n.IsNull() || (n.IsScalar() && n.Scalar().empty());
        c.fit.encoder = empty ? "" : parse_choice(n, encoder_names());
      },
      [](const TrainConfig& c) { return scalar(c.fit.encoder); });
  add(
      "fit.widen", "integer list",
      "hidden widths the fit widens the current net to first, one per layer, none narrower "
      "(the new units start with zero output weights); []: as it is",
      [](TrainConfig& c, const YAML::Node& n) {
        c.fit.widen = parse_int_list(n, 0, kMaxHiddenLayers, 1, kMaxHiddenUnits);
      },
      [](const TrainConfig& c) { return flow_list(c.fit.widen); });
  // ---- gate ----
  add_integer(
      "gate.games", "most mirrored games of the candidate against the current net, {range}", 2,
      100'000'000, [](auto& c) -> auto& { return c.gate.games; });
  add_integer(
      "gate.chunk", "games between the gate's checkpoints (and SPRT looks), {range}", 2,
      100'000'000, [](auto& c) -> auto& { return c.gate.chunk; });
  add_number(
      "gate.elo0", "SPRT H0: the candidate's Elo over the current net <= elo0, {range}", -1000,
      1000, false, [](auto& c) -> auto& { return c.gate.elo0; });
  add_number(
      "gate.elo1", "SPRT H1: Elo >= elo1 (above gate.elo0), {range}", -1000, 1000, false,
      [](auto& c) -> auto& { return c.gate.elo1; });
  add_number(
      "gate.alpha", "SPRT false-positive rate, {range}", 0, 0.5, true,
      [](auto& c) -> auto& { return c.gate.alpha; });
  add_number(
      "gate.beta", "SPRT false-negative rate, {range}", 0, 0.5, true,
      [](auto& c) -> auto& { return c.gate.beta; });
  add_integer(
      "gate.ply", "search depth of both nets in the gate, {range}", 0, 3,
      [](auto& c) -> auto& { return c.gate.ply; });
  add_choice(
      "gate.promote",
      "when the candidate becomes the current net: h1 (the SPRT accepted H1), not_h0 (H1 or "
      "inconclusive) or always",
      {"h1", "not_h0", "always"}, [](auto& c) -> auto& { return c.gate.promote; });
  // ---- log ----
  add_bool(
      "log.progress", "live progress line when stdout is a terminal",
      [](auto& c) -> auto& { return c.log.progress; });
  add_number(
      "log.interval_s", "seconds between plain progress lines (not a terminal), {range}", 0, 86400,
      true, [](auto& c) -> auto& { return c.log.interval_s; });
  add_integer(
      "log.metrics_every",
      "games between metrics.jsonl lines, {range} (0: at checkpoints and evaluations only)", 0,
      10'000'000'000LL, [](auto& c) -> auto& { return c.log.metrics_every; });
  return f;
}

const std::vector<Field>& fields() {
  static const std::vector<Field> f = make_fields();
  return f;
}

const Field* find_field(std::string_view path) {
  for (const auto& f : fields())
    if (f.key.path == path) return &f;
  return nullptr;
}

std::string known_keys(std::string_view section) {
  std::string out;
  for (const auto& f : fields()) {
    const auto dot = f.key.path.find('.');
    if (section.empty()) {
      std::string s = f.key.path.substr(0, dot);
      if (out.find(s) == std::string::npos) out += (out.empty() ? "" : ", ") + s;
    } else if (f.key.path.compare(0, dot, section) == 0) {
      out += (out.empty() ? "" : ", ") + f.key.path.substr(dot + 1);
    }
  }
  return out;
}

void set_field(TrainConfig& c, const Field& f, const YAML::Node& value, const std::string& where) {
  try {
    f.set(c, value);
  } catch (const Expected& e) {
    throw Error(where + ": " + f.key.path + ": expected " + e.what + ", got " + describe(value));
  } catch (const Error& e) {
    throw Error(where + ": " + f.key.path + ": " + e.what());
  }
}

// A map key as text. Keys are names, so a list or map as a key (which yaml-cpp's
// as<std::string>() refuses with a bare "bad conversion") is an error naming its line.
std::string key_name(const YAML::Node& key, const std::string& where) {
  if (key.IsScalar()) return key.Scalar();
  throw Error(where + ": line " + std::to_string(key.Mark().line + 1) +
              ": expected a key name, got " + describe(key));
}

YAML::Node load_yaml(std::string_view text, const std::string& where) {
  try {
    return YAML::Load(std::string(text));
  } catch (const YAML::Exception& e) {
    throw Error(where + ": not valid YAML: " + printable(e.what(), 300));
  }
}

std::string source_name(const std::string& file) {
  return "config " + quote_path(file);
}

}  // namespace

NetShape TrainConfig::net_shape() const {
  NetShape s;
  s.encoder = encoder_by_name(net.encoder).id();
  s.hidden = net.hidden;
  s.activation = parse_activation(net.activation);
  s.num_outputs = value_outputs(rules);
  return s;
}

std::string TrainConfig::best_opponent() const {
  if (!eval.best_by.empty()) return eval.best_by;
  return eval.opponents.empty() ? "" : eval.opponents.back();
}

std::string TrainConfig::run_path() const {
  std::string d = run.dir;
  while (d.size() > 1 && d.back() == '/') d.pop_back();
  return d + "/" + run.name;
}

std::vector<LabelSet> TrainConfig::label_sets() const {
  const LabelSet defaults{label.games,   label.players,    label.sample,
                          label.explore, label.candidates, label.top};
  // label.games_scale applied to every file's games.
  auto scaled = [this](std::vector<LabelSet> sets) {
    for (LabelSet& s : sets)
      s.games =
          std::max<int64_t>(1, std::llround(static_cast<double>(s.games) * label.games_scale));
    return sets;
  };
  if (label.sets.empty()) return label.games > 0 ? scaled({defaults}) : std::vector<LabelSet>{};
  static const std::string kOptions = "games, players, sample, explore, candidates, top, seed";
  std::vector<LabelSet> sets;
  for (size_t i = 0; i < label.sets.size(); ++i) {
    const std::string where = "label.sets[" + std::to_string(i) + "]";
    LabelSet s = defaults;
    std::istringstream words(label.sets[i]);
    for (std::string word; words >> word;) {
      const auto eq = word.find('=');
      if (eq == std::string::npos || eq == 0)
        throw Error(where + ": " + quote(word) + ": expected key=value (keys: " + kOptions + ")");
      const std::string key = word.substr(0, eq), value = word.substr(eq + 1);
      const YAML::Node node(value);
      try {
        if (key == "games") {
          s.games = parse_integer(node, 1, 100'000'000);
        } else if (key == "players") {
          if (value.empty()) throw Expected{"agent specs"};
          s.players = value;
        } else if (key == "sample") {
          s.sample = parse_number(node, 0, 1, true);
        } else if (key == "explore") {
          s.explore = parse_number(node, 0, 1, false);
        } else if (key == "candidates") {
          s.candidates = parse_number(node, 0, 1, false);
        } else if (key == "top") {
          s.top = static_cast<int>(parse_integer(node, 0, 1000));
        } else if (key == "seed") {
          s.seed = parse_unsigned(node);
        } else {
          throw Error(where + ": unknown key " + quote(key) + " (keys: " + kOptions + ")");
        }
      } catch (const Expected& e) {
        throw Error(where + ": " + key + ": expected " + e.what + ", got " + quote(value));
      }
    }
    sets.push_back(s);
  }
  return scaled(sets);
}

void validate(const TrainConfig& c, const std::string& where) {
  auto fail = [&](const std::string& key, const std::string& msg) {
    throw Error(where + ": " + key + ": " + msg);
  };
  for (const auto* s : {&c.td.alpha, &c.td.lambda, &c.td.epsilon}) {
    const std::string name = s == &c.td.alpha ? "alpha" : s == &c.td.lambda ? "lambda" : "epsilon";
    if (s->kind == ScheduleKind::Exponential && (s->start <= 0 || s->final <= 0))
      fail("td." + name + "_final", "an exponential schedule needs td." + name + " and td." + name +
                                        "_final above 0, got " + format_number(s->start) + " and " +
                                        format_number(s->final));
  }
  for (size_t i = 0; i < c.eval.opponents.size(); ++i) {
    const std::string& spec = c.eval.opponents[i];
    try {
      make_agent(spec, c.rules);
    } catch (const Error& e) {
      fail("eval.opponents[" + std::to_string(i) + "]", e.what());
    }
    for (size_t j = 0; j < i; ++j)
      if (c.eval.opponents[j] == spec) fail("eval.opponents", quote(spec) + " is listed twice");
  }
  if (c.gate.elo1 <= c.gate.elo0)
    fail("gate.elo1", "expected a value above gate.elo0 (" + format_number(c.gate.elo0) +
                          "), got " + format_number(c.gate.elo1));
  std::vector<LabelSet> sets;
  try {
    sets = c.label_sets();
  } catch (const Error& e) {
    throw Error(where + ": " + e.what());
  }
  if (c.generations.count > 0) {
    for (size_t i = 0; i < sets.size(); ++i) {
      // "current" is the generation's net, which does not exist yet: its options are checked.
      for (const std::string& spec : split_agent_specs(sets[i].players, "players")) {
        const bool current = spec == "current" || spec.starts_with("current:");
        try {
          if (current)
            net_agent_spec("net:current" + spec.substr(7));  // the options' syntax
          else
            make_agent(spec, c.rules);
        } catch (const Error& e) {
          fail(c.label.sets.empty() ? std::string("label.players")
                                    : "label.sets[" + std::to_string(i) + "]",
               e.what());
        }
      }
    }
  }
  // A generation that labels nothing must have earlier files to fit (checked for the settings
  // some generation runs with: this config's, or a schedule entry's, each validated here).
  const bool settings_used = c.generations.count > static_cast<int>(c.generations.schedule.size());
  if (settings_used && sets.empty() && c.generations.data_window == 1 &&
      c.generations.prior_data.empty() && !c.generations.pool_same_labeller)
    fail("label.games",
         "0 with label.sets [] leaves the fit no label files: set generations.data_window above "
         "1 (earlier generations' files) or generations.prior_data");
  for (size_t i = 0; i < c.generations.schedule.size(); ++i) {
    try {
      c.for_generation(static_cast<int>(i) + 1);
    } catch (const Error& e) {
      throw Error(where + ": " + e.what());
    }
  }
  if (!c.eval.best_by.empty() && std::find(c.eval.opponents.begin(), c.eval.opponents.end(),
                                           c.eval.best_by) == c.eval.opponents.end())
    fail("eval.best_by", "expected one of eval.opponents, got " + quote(c.eval.best_by));
}

namespace {

TrainConfig parse_config_yaml(std::string_view text, const std::string& where) {
  YAML::Node root = load_yaml(text, where);
  TrainConfig c;
  if (root.IsNull()) {
    validate(c, where);
    return c;
  }
  if (!root.IsMap())
    throw Error(where + ": expected a map of sections (" + known_keys("") + "), got " +
                describe(root));
  for (const auto& section : root) {
    const std::string name = key_name(section.first, where);
    const std::string keys = known_keys(name);
    if (keys.empty())
      throw Error(where + ": unknown section " + quote(name) +
                  " (expected one of: " + known_keys("") + ")");
    if (section.second.IsNull()) continue;
    if (!section.second.IsMap())
      throw Error(where + ": " + name + ": expected a map of keys (" + keys + "), got " +
                  describe(section.second));
    for (const auto& kv : section.second) {
      const std::string path = name + "." + key_name(kv.first, where);
      const Field* f = find_field(path);
      if (!f)
        throw Error(where + ": unknown key " + quote(path) + " (keys of " + name + ": " + keys +
                    ")");
      set_field(c, *f, kv.second, where);
    }
  }
  validate(c, where);
  return c;
}

}  // namespace

TrainConfig parse_config(std::string_view text, const std::string& file) {
  const std::string where = source_name(file);
  try {
    return parse_config_yaml(text, where);
  } catch (const YAML::Exception& e) {  // anything yaml-cpp throws past the checks above
    throw Error(where + ": " + printable(e.what(), 300));
  }
}

namespace {

std::string override_source(std::string_view assignment, const std::string& file) {
  std::string where = "--set " + printable(assignment, 200);
  return file.empty() ? where : source_name(file) + ", " + where;
}

// Sets the field an override names, with the field's own type and range checks, but without
// the cross-field checks of validate(): those run once all overrides are in.
void set_override(TrainConfig& c, std::string_view assignment, const std::string& where) {
  const auto eq = assignment.find('=');
  if (eq == std::string_view::npos || eq == 0)
    throw Error(where + ": expected KEY=VALUE with KEY a path such as td.lambda");
  const std::string path(assignment.substr(0, eq));
  const Field* f = find_field(path);
  if (!f) {
    const auto dot = path.find('.');
    const std::string section = path.substr(0, dot);
    const std::string keys = known_keys(section);
    if (keys.empty() || dot == std::string::npos)
      throw Error(where + ": unknown key " + quote(path) + " (sections: " + known_keys("") + ")");
    throw Error(where + ": unknown key " + quote(path) + " (keys of " + section + ": " + keys +
                ")");
  }
  const std::string value(assignment.substr(eq + 1));
  try {
    YAML::Node node = value.empty() ? YAML::Node(std::string()) : load_yaml(value, where);
    set_field(c, *f, node, where);
  } catch (const YAML::Exception& e) {
    throw Error(where + ": " + printable(e.what(), 300));
  }
}

}  // namespace

TrainConfig TrainConfig::for_generation(int g) const {
  TrainConfig c = *this;
  c.generations.schedule.clear();
  if (g < 1 || g > static_cast<int>(generations.schedule.size())) return c;
  const std::string where =
      "generations.schedule[" + std::to_string(g - 1) + "] (generation " + std::to_string(g) + ")";
  for (const std::string& a : generations.schedule[g - 1]) set_override(c, a, where);
  validate(c, where);
  return c;
}

void apply_override(TrainConfig& c, std::string_view assignment, const std::string& file) {
  apply_overrides(c, {std::string(assignment)}, file);
}

void apply_overrides(TrainConfig& c, const std::vector<std::string>& assignments,
                     const std::string& file) {
  if (assignments.empty()) return;
  TrainConfig updated = c;
  std::string all;
  for (const auto& a : assignments) {
    set_override(updated, a, override_source(a, file));
    all += (all.empty() ? "--set " : " --set ") + printable(a, 200);
  }
  validate(updated, file.empty() ? all : source_name(file) + ", " + all);
  c = std::move(updated);
}

namespace {

// The folders a relative data path of a config file is looked for in, in order: the working
// directory, the config file's folder, and the repository the shipped models come from (the
// folder holding their models/).
std::vector<std::filesystem::path> data_path_roots(const std::string& config_path) {
  namespace fs = std::filesystem;
  std::vector<fs::path> roots{fs::path(".")};
  const fs::path dir = fs::path(config_path).parent_path();
  roots.push_back(dir.empty() ? fs::path(".") : dir);
  for (const std::string& models : model_search_dirs()) {
    const fs::path repo = fs::path(models).parent_path();
    std::error_code ec;
    if (fs::is_directory(models, ec) && !repo.empty()) roots.push_back(repo);
  }
  return roots;
}

// `path` as the user means it: unchanged when absolute or found from the working directory,
// else the first of the other roots that holds it; unchanged when none does (the error then
// names it as written).
std::string resolve_data_path(const std::string& path,
                              const std::vector<std::filesystem::path>& roots) {
  namespace fs = std::filesystem;
  if (path.empty() || fs::path(path).is_absolute()) return path;
  std::error_code ec;
  for (const fs::path& root : roots) {
    const fs::path candidate = root == "." ? fs::path(path) : root / path;
    if (fs::exists(candidate, ec)) return candidate.string();
  }
  return path;
}

// The data paths of `c` (the benchmark set, prior label files, a start checkpoint given as a
// path) resolved with resolve_data_path. run.dir stays relative to the working directory.
void resolve_data_paths(TrainConfig& c, const std::string& config_path) {
  const auto roots = data_path_roots(config_path);
  c.generations.benchmark = resolve_data_path(c.generations.benchmark, roots);
  for (std::string& f : c.generations.prior_data) f = resolve_data_path(f, roots);
  std::string& init = c.generations.init;
  const bool is_spec = init == "default" || init.starts_with("default:") ||
                       init.starts_with("model:") || init.find(':') != std::string::npos;
  if (init.starts_with("net:")) {
    const size_t end = init.find(':', 4);
    const std::string file = init.substr(4, end == std::string::npos ? end : end - 4);
    init = "net:" + resolve_data_path(file, roots) +
           (end == std::string::npos ? "" : init.substr(end));
  } else if (!is_spec) {
    init = resolve_data_path(init, roots);
  }
}

}  // namespace

TrainConfig load_config(const std::string& path, const std::vector<std::string>& overrides) {
  // An ifstream opens a directory and reads nothing from it: that was the default config.
  require_not_directory("config", path);
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    const std::string reason = open_failure_reason();
    throw Error(source_name(path) + ": cannot open the file" +
                (reason.empty() ? "" : ": " + reason));
  }
  std::stringstream ss;
  ss << in.rdbuf();
  TrainConfig c = parse_config(ss.str(), path);
  apply_overrides(c, overrides, path);
  resolve_data_paths(c, path);
  return c;
}

std::string to_yaml(const TrainConfig& c) {
  YAML::Node root(YAML::NodeType::Map);
  for (const auto& f : fields()) {
    const auto dot = f.key.path.find('.');
    root[f.key.path.substr(0, dot)][f.key.path.substr(dot + 1)] = f.get(c);
  }
  YAML::Emitter out;
  out << root;
  return std::string(out.c_str()) + "\n";
}

const std::vector<ConfigKey>& config_keys() {
  static const std::vector<ConfigKey> keys = [] {
    std::vector<ConfigKey> k;
    const TrainConfig defaults;
    for (const auto& f : fields()) {
      k.push_back(f.key);
      YAML::Emitter out;
      out << f.get(defaults);
      k.back().default_value = out.c_str();
    }
    return k;
  }();
  return keys;
}

std::string config_keys_markdown() {
  std::string s = "| key | type | default | meaning and range |\n|---|---|---|---|\n";
  for (const auto& k : config_keys()) {
    const std::string def = k.default_value.empty() ? "\"\"" : k.default_value;
    s += "| `" + k.path + "` | " + k.type + " | `" + def + "` | " + k.doc + " |\n";
  }
  return s;
}

}  // namespace nardy
