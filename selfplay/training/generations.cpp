#include "selfplay/training/generations.h"

#include <nlohmann/json.hpp>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>

#include "core/error.h"
#include "core/file_error.h"
#include "core/file_io.h"
#include "core/printable.h"
#include "core/random.h"
#include "nn/blas_threads.h"
#include "nn/encoder.h"
#include "nn/net_widening.h"
#include "nn/value_net.h"
#include "selfplay/evaluation/arena.h"
#include "selfplay/evaluation/position_benchmark.h"
#include "selfplay/search/agent_kinds.h"
#include "selfplay/training/fit.h"
#include "selfplay/training/labeler.h"
#include "selfplay/training/progress.h"

namespace nardy {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// Salts of the generations' seeds (core/random.h: one salt per purpose).
constexpr uint64_t kLabelSalt = 0x6c6162656c73ULL;  // "labels"
constexpr uint64_t kFitSalt = 0x666974ULL;          // "fit"
constexpr uint64_t kGateSalt = 0x67617465ULL;       // "gate"
constexpr uint64_t kBenchSalt = 0x62656e6368ULL;    // "bench"
constexpr uint64_t kHoldoutSalt = 0x686f6c64ULL;    // "hold"

uint64_t stage_seed(uint64_t run_seed, uint64_t salt, int generation, int64_t index) {
  return mix_seed(mix_seed(mix_seed(run_seed ^ salt) + static_cast<uint64_t>(generation)) +
                  static_cast<uint64_t>(index));
}

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

std::string generation_dir_name(int g) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "gen-%03d", g);
  return buf;
}

// The state in generations.json.
struct State {
  std::string start;    // the start net as given
  std::string current;  // the current net (a path inside the run directory)
  int done = 0;         // generations finished
  int promoted = 0;

  std::string to_json() const {
    return json{{"start", start}, {"current", current}, {"done", done}, {"promoted", promoted}}
               .dump(2) +
           "\n";
  }
  static State read(const std::string& path) { return parse(read_file(path), path); }
  static State parse(const std::string& text, const std::string& path) {
    State s;
    try {
      const json j = json::parse(text);
      s.start = j.at("start").get<std::string>();
      s.current = j.at("current").get<std::string>();
      s.done = j.at("done").get<int>();
      s.promoted = j.value("promoted", 0);
    } catch (const json::exception& e) {
      throw file_error("generations: not a generations state file", path, e.what());
    }
    if (s.done < 0 || s.current.empty())
      throw file_error("generations: not a generations state file", path,
                       "'done' must be >= 0 and 'current' a checkpoint");
    return s;
  }
};

// "net:PATH" for the spec "current" (and "net:PATH:OPTIONS" for "current:OPTIONS").
// The agents of a label set's `players` (config text), `current` standing for the net at
// `current` with the options after it.
std::vector<AgentSpec> players_of(const std::string& players, const std::string& current) {
  std::vector<AgentSpec> out;
  for (const std::string& spec : split_agent_specs(players, "label.players")) {
    const bool is_current = spec == "current" || spec.starts_with("current:");
    out.push_back(parse_agent_spec(is_current ? "net:" + current + spec.substr(7) : spec));
  }
  return out;
}

void copy_atomic(const std::string& from, const std::string& to) {
  write_file_atomic(to, read_file(from));
}

// Thrown out of a stage when GenerationsCallbacks::stop is set.
struct Stopped {};

class Generations {
 public:
  Generations(const TrainConfig& config, std::string run_dir, const GenerationsCallbacks& cb,
              World& world)
      : c_(config), dir_(std::move(run_dir)), cb_(cb), world_(world) {}

  GenerationsResult run(const std::string& start_net) {
    // Rank 0 reads or creates the state and sends it; every rank then holds the current net at
    // the same path (share_file), so agent specs naming it are the same on every rank.
    const std::string state = from_root([&] {
      prepare(start_net);
      return state_.to_json();
    });
    if (!world_.is_root()) state_ = State::parse(state, "the state from rank 0");
    fs::create_directories(dir_);
    share_file(file(state_.current));
    share_file(file("start.pt"));  // fit.from: start
    if (world_.is_root()) copy_atomic(file(state_.current), file("current.pt"));
    bool stopped = false;
    try {
      for (int g = state_.done + 1; g <= c_.generations.count; ++g) generation(g);
    } catch (const Stopped&) {
      stopped = true;
      line("stopped in generation " + std::to_string(state_.done + 1) + "; resuming continues it",
           true);
    }
    return {state_.done, state_.promoted, file("current.pt"), stopped};
  }

 private:
  const TrainConfig& c_;
  std::string dir_;
  const GenerationsCallbacks& cb_;
  World& world_;
  State state_;
  mutable std::map<int, TrainConfig> settings_;  // at(g), made once each

  // The settings generation g runs with (TrainConfig::for_generation: generations.schedule).
  const TrainConfig& at(int g) const {
    auto it = settings_.find(g);
    if (it == settings_.end()) it = settings_.emplace(g, c_.for_generation(g)).first;
    return it->second;
  }

  // `spec` as the run's agent: with run.race_net false a net does without the race net
  // (without_race_net), so it plays and labels as before it.
  AgentSpec run_agent(AgentSpec spec) const {
    return c_.run.race_net ? spec : without_race_net(std::move(spec));
  }
  std::vector<AgentSpec> run_agents(std::vector<AgentSpec> specs) const {
    for (AgentSpec& spec : specs) spec = run_agent(std::move(spec));
    return specs;
  }

  // Rank 0 runs `f` and sends its result (or its error) to every rank, which returns it (or
  // throws the error). A collective.
  std::string from_root(const std::function<std::string()>& f) {
    return from_root_with_heartbeat([&](const std::function<void()>&) { return f(); });
  }

  // from_root() for a long `f` that calls its argument now and then: each call tells the
  // waiting ranks rank 0 is alive, so their wait is bounded by the gap between calls.
  std::string from_root_with_heartbeat(
      const std::function<std::string(const std::function<void()>&)>& f) {
    if (world_.size() == 1) return f([] {});
    std::string message;
    std::exception_ptr error;
    if (world_.is_root()) {
      try {
        message = "ok\n" + f([this] {
                    std::string beat = "beat";
                    world_.broadcast(beat, 0);
                  });
      } catch (const std::exception& e) {
        message = std::string("error\n") + e.what();
        error = std::current_exception();
      }
    }
    do {
      world_.broadcast(message, 0);
    } while (message == "beat" && !world_.is_root());
    if (error) std::rethrow_exception(error);
    if (message.starts_with("error\n"))
      throw Error("generations: rank 0 failed: " + message.substr(6));
    return message.substr(3);
  }

  // Rank 0's file at `path` on every rank: a rank whose copy is missing or differs (another
  // machine) writes it; one sharing rank 0's file system finds it there. A collective.
  void share_file(const std::string& path) {
    if (world_.size() == 1) return;
    std::string bytes = world_.is_root() ? read_file(path) : std::string();
    world_.broadcast(bytes, 0);
    if (world_.is_root()) return;
    std::error_code ec;
    if (fs::exists(path, ec) && read_file(path) == bytes) return;
    fs::create_directories(fs::path(path).parent_path());
    write_file_atomic(path, bytes);
  }

  void prepare(const std::string& start_net) {
    for (int g = 1; world_.size() > 1 && g <= c_.generations.count; ++g) {
      const TrainConfig::Fit& f = at(g).fit;
      if (f.split && f.shards != 1 && f.shards != world_.size())
        throw Error("generations: fit.shards = " + std::to_string(f.shards) + " (generation " +
                    std::to_string(g) + ") on " + std::to_string(world_.size()) +
                    " ranks (each rank fits one part: 1 or " + std::to_string(world_.size()) + ")");
    }
    // A benchmark that cannot be read (or is of other rules) fails now, not after a generation.
    if (!c_.generations.benchmark.empty()) read_set();
    const std::string state_path = file(kGenerationsStateFile);
    if (fs::exists(state_path)) {
      state_ = State::read(state_path);
    } else {
      fs::create_directories(dir_);
      // The start net is checked (loadable, of these rules) before anything is written; a
      // net without the draw output the rules need gets one (nn/net_widening.h).
      ValueNet start = [&] {
        try {
          return ValueNet::load(start_net);
        } catch (const Error& e) {
          throw Error("generations: the start net: " + std::string(e.what()));
        }
      }();
      const bool add_draw = c_.rules.last_roll_draw && start.shape().num_outputs == 3;
      if (!add_draw) check_outputs(start, start_net, "generations: the start net");
      if (add_draw) {
        start = with_draw_output(start);
        CheckpointInfo info = start.info();
        info.rules = c_.rules.to_string();  // the rules its draw output is for
        info.extra["generations.draw_output"] =
            "added to " + start_net + " (zero weights, bias -6)";
        start.save(file("start.pt"), info);
        line("the start net " + start_net +
                 " has no draw output: start.pt is it with one added (zero weights, bias -6; "
                 "the fits learn it)",
             true);
      } else {
        copy_atomic(start_net, file("start.pt"));
      }
      state_.start = start_net;
      state_.current = "start.pt";
      write_state();
    }
    if (!fs::exists(file(state_.current)))
      throw file_error("generations: the current net is missing", file(state_.current),
                       "(named by " + state_path + ")");
    check_earlier_labels(state_.done + 1);
    if (state_.done < c_.generations.count) check_fit_reshape(state_.done + 1);
  }

  // The net generation g's fit starts from (fit.from): the current net or the start net.
  std::string fit_init(int g) const {
    return at(g).fit.from == "start" ? file("start.pt") : file(state_.current);
  }

  // fit.encoder and fit.widen must suit the net generation g's fit starts from: checked now, not
  // after the labels.
  void check_fit_reshape(int g) const {
    const TrainConfig::Fit& fit = at(g).fit;
    const std::string net_path = fit_init(g);
    if (fit.encoder.empty() && fit.widen.empty()) return;
    std::error_code ec;
    if (!fs::exists(net_path, ec)) return;  // another rank's file system: rank 0 checks
    const NetShape shape = ValueNet::load(net_path).shape();
    if (!fit.encoder.empty() && !encoder_extends(encoder_by_name(fit.encoder), shape.encoder))
      throw Error("generations: fit.encoder " + quote(fit.encoder) +
                  " does not extend the encoder " + quote(shape.encoder) +
                  " of the net the fit "
                  "starts from (" +
                  net_path + "): the fit could not start from its weights");
    if (fit.widen.empty()) return;
    bool ok = fit.widen.size() == shape.hidden.size();
    for (size_t i = 0; ok && i < shape.hidden.size(); ++i) ok = fit.widen[i] >= shape.hidden[i];
    if (!ok)
      throw Error("generations: fit.widen '" + hidden_name(fit.widen) +
                  "' cannot widen the hidden layers '" + hidden_name(shape.hidden) +
                  "' of the net the fit starts from (" + net_path +
                  "): one width per layer, none narrower");
  }

  // The fit of generation g reads the labels of earlier generations (fit_data): a run
  // continued elsewhere without them fails now, before g's labels are made, not after.
  // (Later generations' earlier labels are then either these or made by this run.)
  void check_earlier_labels(int g) const {
    if (g > c_.generations.count) return;
    // generations.prior_data, named by its key (prepare runs on rank 0, which sends the files
    // to the others, share_file); the loop below then finds them.
    for (size_t i = 0; i < c_.generations.prior_data.size(); ++i)
      if (!fs::is_regular_file(c_.generations.prior_data[i]))
        throw file_error(
            "generations: generations.prior_data[" + std::to_string(i) + "] names no file",
            c_.generations.prior_data[i], "every generation's fit reads it first");
    const std::string gdir = file(generation_dir_name(g));
    if (fs::exists(gdir + "/candidate.pt") && fs::exists(gdir + "/fit.json")) return;
    const TrainConfig::Generations& gens = at(g).generations;
    if (fit_data(g).empty())
      throw Error("generations: generation " + std::to_string(g) +
                  " labels nothing (label.games 0) and its fit finds no earlier label files "
                  "(generations.data_window = " +
                  std::to_string(gens.data_window) + ", no generations.prior_data)");
    std::string readers = "generations.data_window = " + std::to_string(gens.data_window);
    if (gens.pool_same_labeller) {
      const int p = current_generation();
      readers += " and generations.pool_same_labeller (every generation after " +
                 (p > 0 ? generation_dir_name(p) : std::string("the start")) + ")";
    }
    for (const std::string& f : fit_data(g)) {
      if (f.starts_with(gdir + "/") || fs::exists(f)) continue;
      throw file_error(
          "generations: a label file generation " + std::to_string(g) + "'s fit reads is missing",
          f,
          "(" + readers +
              "; restore the file, or resume with --set generations.data_window=1 --set "
              "generations.pool_same_labeller=false)");
    }
  }

  std::string file(const std::string& name) const { return dir_ + "/" + name; }
  // Paths made by file() as the run directory's names ("gen-001/labels-0.lbl").
  json relative_to_run(const std::vector<std::string>& paths) const {
    json names = json::array();
    for (const std::string& p : paths)
      names.push_back(p.starts_with(dir_ + "/") ? p.substr(dir_.size() + 1) : p);
    return names;
  }
  bool stop_requested() const { return cb_.stop && cb_.stop->load(); }
  void check_stop() const {
    if (stop_requested()) throw Stopped{};
  }

  void line(const std::string& text, bool final) const {
    if (cb_.on_line) cb_.on_line(text, final);
  }
  std::string tag(int g, const std::string& stage) const {
    return "gen " + std::to_string(g) + "/" + std::to_string(c_.generations.count) + " " + stage;
  }

  void write_state() const { write_file_atomic(file(kGenerationsStateFile), state_.to_json()); }

  // Throws unless the net has the outputs the rules need (a draw output with last_roll_draw).
  void check_outputs(const ValueNet& net, const std::string& path, const std::string& what) const {
    const int outputs = value_outputs(c_.rules);
    if (net.shape().num_outputs != outputs)
      throw Error(what + " " + quote_path(path) + " has " +
                  std::to_string(net.shape().num_outputs) + " outputs; the rules (" +
                  c_.rules.to_string() + ") need " + std::to_string(outputs) +
                  (outputs == 4 ? " (a draw output)" : " (no draw output)"));
  }

  void generation(int g) {
    const std::string gdir = file(generation_dir_name(g));
    fs::create_directories(gdir);
    const std::string current = file(state_.current);
    const auto t0 = Clock::now();
    json row = {{"generation", g}};

    // 1. label
    int64_t positions = 0;
    const std::vector<LabelSet> sets = at(g).label_sets();
    for (size_t s = 0; s < sets.size(); ++s) {
      positions += label_set(g, static_cast<int>(s), sets.size(), sets[s], current, gdir);
    }
    if (sets.empty())
      line(tag(g, "label") + ": none (label.games 0; the fit reads " +
               relative_to_run(fit_data(g)).dump() + ")",
           true);
    row["labels"] = positions;
    const double label_s = seconds_since(t0);

    // 2. fit
    const auto t1 = Clock::now();
    const std::string candidate = gdir + "/candidate.pt";
    row["fit"] = fit(g, candidate);
    const double fit_s = seconds_since(t1);

    // 3. gate
    const auto t2 = Clock::now();
    const ArenaResult gate_result = gate(g, candidate, current, gdir);
    row["gate"] = json::parse(gate_result.to_json(false));
    const double gate_s = seconds_since(t2);

    // 4. benchmark (rank 0)
    const auto t3 = Clock::now();
    if (!c_.generations.benchmark.empty() && world_.is_root()) {
      json b = {{"candidate", benchmark(g, candidate)}};
      if (g == 1) b["start"] = benchmark(g, current);
      row["benchmark"] = b;
    }
    const double bench_s = seconds_since(t3);

    // 5. promote
    const std::string& v = gate_result.sprt_verdict;
    const bool promote = at(g).gate.promote == "always" || v == "H1" ||
                         (at(g).gate.promote == "not_h0" && v != "H0");
    row["promoted"] = promote;
    row["seconds"] = {{"label", label_s}, {"fit", fit_s}, {"gate", gate_s}, {"benchmark", bench_s}};
    const std::string next = promote ? generation_dir_name(g) + "/candidate.pt" : state_.current;
    row["current"] = next;
    state_.done = g;
    state_.promoted += promote ? 1 : 0;
    state_.current = next;
    if (!world_.is_root()) return;  // every rank knows the state; rank 0 writes it
    if (world_.size() > 1) row["world_size"] = world_.size();
    write_file_atomic(gdir + "/result.json", row.dump(2) + "\n");
    // Commit order: the metrics line, the state, then current.pt (a copy of the state's current
    // net). A kill before the state's update repeats this generation's finished stages, which
    // only read their results, and does not append its metrics line twice.
    append_metrics_once(g, row.dump());
    write_state();
    if (promote) copy_atomic(file(next), file("current.pt"));
    char buf[256];
    std::snprintf(buf, sizeof buf, "%s: %s (gate %s, %+.3f points/game [%+.3f, %+.3f]), %s",
                  tag(g, "done").c_str(), promote ? "promoted" : "kept the current net",
                  v.empty() ? "none" : v.c_str(), gate_result.a_points_per_game,
                  gate_result.ci95_low, gate_result.ci95_high,
                  format_duration(seconds_since(t0)).c_str());
    line(buf, true);
  }

  int64_t label_set(int g, int s, size_t count, const LabelSet& set, const std::string& current,
                    const std::string& gdir) {
    const TrainConfig::Label& label = at(g).label;
    LabelOptions o;
    o.players = run_agents(players_of(set.players, current));
    o.explore = set.explore;
    o.sample = set.sample;
    o.candidates = set.candidates;
    o.top = set.top;
    o.labeler = run_agent(net_spec_at(current, label.rollouts > 0 ? 0 : label.ply));
    o.rollouts = label.rollouts;
    o.games = set.games;
    o.threads = c_.run.threads;
    o.seed = set.seed > 0 ? set.seed : stage_seed(c_.run.seed, kLabelSalt, g, s);
    o.rules = c_.rules;
    o.world = &world_;  // the ranks split each block of games; rank 0 writes the file
    const std::string path = gdir + "/labels-" + std::to_string(s) + ".lbl";
    const std::string what =
        tag(g, "label" + (count > 1 ? " " + std::to_string(s + 1) + "/" + std::to_string(count)
                                    : std::string()));
    auto last = Clock::now() - std::chrono::hours(1);
    check_stop();
    const LabelProgress p = label_positions(path, o, [&](const LabelProgress& p) {
      check_stop();  // on the calling thread, after a block of games is in the file
      if (seconds_since(last) < 0.5) return;
      last = Clock::now();
      line(what + format_label_progress(p).substr(5), false);  // "label: ..." minus "label"
    });
    line(what + format_label_progress(p).substr(5), true);
    return p.positions;
  }

  // The generation whose candidate is the current net; 0: the start net. Every generation
  // after it was labelled by the current net.
  int current_generation() const {
    for (int h = state_.done; h >= 1; --h)
      if (state_.current == generation_dir_name(h) + "/candidate.pt") return h;
    return 0;
  }

  // The label files generation g's fit reads (called before g is done, with its labeller
  // current): generations.prior_data, then those of the data_window latest generations, and
  // with pool_same_labeller of every generation the current net labelled.
  std::vector<std::string> fit_data(int g) const {
    std::vector<std::string> files = c_.generations.prior_data;
    const TrainConfig::Generations& gens = at(g).generations;
    int first = std::max(1, g - gens.data_window + 1);
    if (gens.pool_same_labeller) first = std::min(first, current_generation() + 1);
    for (int h = first; h <= g; ++h)
      for (size_t s = 0; s < at(h).label_sets().size(); ++s)
        files.push_back(file(generation_dir_name(h)) + "/labels-" + std::to_string(s) + ".lbl");
    return files;
  }

  // The seed of generation g's fit (its split and minibatch order).
  uint64_t fit_seed(int g) const {
    return at(g).fit.seed > 0 ? at(g).fit.seed : stage_seed(c_.run.seed, kFitSalt, g, 0);
  }

  // Whether generation g's fit holds out the same games of the label files it shares with
  // generation p's fit: the same seed and fraction, each shared file in the same place
  // (selfplay/training/fit.h: the split hashes the seed, the file's place and the game) — as a
  // refit of a generation's own labels at another lr with a fixed fit.seed.
  bool same_split_as(int p, int g) const {
    if (fit_seed(p) != fit_seed(g) || at(p).fit.holdout != at(g).fit.holdout ||
        holdout_split_seed(p) != 0 || holdout_split_seed(g) != 0)
      return false;
    const std::string log = file(generation_dir_name(p)) + "/fit.json";
    std::error_code ec;
    if (!fs::exists(log, ec)) return false;
    const json earlier = json::parse(read_file(log), nullptr, false);
    if (!earlier.is_object() || !earlier.contains("data") || !earlier["data"].is_array())
      return false;
    const json now = relative_to_run(fit_data(g));
    for (size_t i = 0; i < now.size(); ++i)
      for (size_t j = 0; j < earlier["data"].size(); ++j)
        if (now[i] == earlier["data"][j] && i != j) return false;
    return true;
  }

  // The seed of the held-out split by label file and game (fit.holdout_stable), the same in
  // every generation of the run; 0: the fit's own split.
  uint64_t holdout_split_seed(int g) const {
    return at(g).fit.holdout_stable ? stage_seed(c_.run.seed, kHoldoutSalt, 0, 0) | 1 : 0;
  }

  // A data_window reaching back to the generation whose candidate is the current net makes the
  // fit read labels that net was itself fitted to. The fit draws its held-out games anew, so
  // most of those held out now were its training games: its held-out loss starts out biased
  // low, and early stopping tends to keep it unchanged (measured: docs/results.md, "Mobility
  // inputs"). Said once per fit, on rank 0; the pool (labels the current net made) has no such
  // labels, a fit from the start net (fit.from) does not refit the current net, and a fit with
  // the current net's split (same_split_as) holds out the games that net held out.
  void warn_refitted_labels(int g) const {
    const int p = current_generation();
    if (p == 0 || !world_.is_root() || std::max(1, g - at(g).generations.data_window + 1) > p)
      return;
    if (at(g).fit.from == "start" || same_split_as(p, g)) return;
    // With fit.holdout_stable the current net's own fit held out the same games (its
    // checkpoint says with which split seed).
    const uint64_t split = holdout_split_seed(g);
    if (split != 0) {
      const auto extra = ValueNet::load(file(state_.current)).info().extra;
      const auto it = extra.find("fit.split_seed");
      if (it != extra.end() && it->second == std::to_string(split)) return;
    }
    line("warning: generation " + std::to_string(g) + "'s fit reads the labels of " +
             generation_dir_name(p) + ", which the current net (" + state_.current +
             ") was fitted to: most of their held-out games were its training games, so its "
             "held-out loss starts low and early stopping tends to keep it as it is. "
             "fit.holdout_stable (set before that net's fit) or generations.pool_same_labeller "
             "add labels without this (docs/training.md)",
         true);
  }

  // On several ranks, with fit.split every rank fits its part of each minibatch
  // (selfplay/training/fit.h: the weights of one process with fit.shards = ranks; rank 0 first
  // sends the label files to ranks that lack them); without it rank 0 fits alone while the
  // others wait, hearing from it after every epoch (so NARDY_DIST_TIMEOUT must exceed one
  // epoch). Either way rank 0 writes the candidate and sends it to the others.
  json fit(int g, const std::string& candidate) {
    const std::string log_path = fs::path(candidate).parent_path().string() + "/fit.json";
    const std::string done = from_root([&] {
      return fs::exists(candidate) && fs::exists(log_path) ? read_file(log_path) : std::string();
    });
    json result;
    if (!done.empty()) {
      line(tag(g, "fit") + ": " + candidate + " exists", true);
      result = json::parse(done);
    } else if (world_.size() == 1 || at(g).fit.split) {
      for (const std::string& f : fit_data(g)) share_file(f);
      result = fit_here(g, candidate, log_path, &world_);
    } else {
      result = json::parse(from_root_with_heartbeat([&](const std::function<void()>& beat) {
        return fit_here(g, candidate, log_path, nullptr, beat).dump();
      }));
    }
    share_file(candidate);
    return result;
  }

  // The fit; `world`: the ranks splitting its minibatches (null: this process alone); `beat`
  // called after every epoch (may be empty).
  json fit_here(int g, const std::string& candidate, const std::string& log_path, World* world,
                const std::function<void()>& beat = {}) {
    warn_refitted_labels(g);
    const TrainConfig::Fit& fit = at(g).fit;
    FitRunOptions o;
    o.data = fit_data(g);
    o.init = fit_init(g);
    o.encoder = fit.encoder;
    o.widen = fit.widen;
    o.out = candidate;
    o.extra["run"] = c_.run.name;
    o.extra["fit.recipe"] = "generation " + std::to_string(g) + " of run " + c_.run.name +
                            " (nardy train; its config.yaml)";
    o.holdout = fit.holdout;
    o.fit.optimizer = "adam";
    o.fit.lr = fit.lr;
    o.fit.batch = fit.batch;
    o.fit.max_epochs = fit.epochs;
    o.fit.patience = fit.patience;
    o.fit.lr_drops = fit.lr_drops;
    o.fit.lr_drop = fit.lr_drop;
    o.fit.sibling_weight = fit.sibling_weight;
    o.fit.seed = fit_seed(g);
    o.split_seed = holdout_split_seed(g);
    o.fit.shards = fit.shards;
    o.world = world;       // with fit.split on R ranks: R shards, one per rank
    struct TorchThreads {  // the fit's LibTorch threads, back to one after it (or a stop)
      explicit TorchThreads(int n) { set_torch_threads(n); }
      ~TorchThreads() { set_torch_threads(1); }
    } threads(at(g).fit_threads());
    const ScopedBlasThreads blas(fit.blas_threads);  // and its OpenBLAS threads, if set
    const auto t0 = Clock::now();
    json epochs = json::array();
    check_stop();
    const FitRunResult r = run_fit(o, [&](const FitEpoch& e) {
      check_stop();
      if (beat) beat();
      epochs.push_back({{"epoch", e.epoch},
                        {"train_loss", e.train_loss},
                        {"heldout_loss", e.heldout_loss},
                        {"lr", e.lr}});
      char buf[200];
      const double per_epoch = e.epoch > 0 ? seconds_since(t0) / e.epoch : 0;
      std::snprintf(buf, sizeof buf,
                    ": epoch %d/%d, held-out loss %.6f%s, %s per epoch, at most %s to go", e.epoch,
                    fit.epochs, e.heldout_loss, e.best ? " (best)" : "",
                    format_duration(per_epoch).c_str(),
                    format_duration(per_epoch * (fit.epochs - e.epoch)).c_str());
      line(tag(g, "fit") + buf, false);
    });
    json result = {{"best_epoch", r.fit.best_epoch},
                   {"heldout_loss", r.fit.best_heldout()},
                   {"initial_loss", r.fit.epochs.front().heldout_loss},
                   {"train_positions", r.train_positions},
                   {"heldout_positions", r.heldout_positions},
                   {"data", relative_to_run(o.data)},
                   {"epochs", epochs}};
    if (world_.is_root()) write_file_atomic(log_path, result.dump(2) + "\n");
    char buf[200];
    std::snprintf(buf, sizeof buf, ": best epoch %d, held-out loss %.6f (from %.6f), %s",
                  r.fit.best_epoch, r.fit.best_heldout(), r.fit.epochs.front().heldout_loss,
                  format_duration(seconds_since(t0)).c_str());
    line(tag(g, "fit") + buf, true);
    return result;
  }

  ArenaResult gate(int g, const std::string& candidate, const std::string& current,
                   const std::string& gdir) {
    const std::string done_path = gdir + "/gate.json", partial_path = gdir + "/gate-partial.json";
    // Rank 0's record of the gate, finished or partial, for every rank.
    const std::string record = from_root([&] {
      if (fs::exists(done_path)) return "done\n" + read_file(done_path);
      if (fs::exists(partial_path)) return "partial\n" + read_file(partial_path);
      return std::string("none\n");
    });
    const std::string record_body = record.substr(record.find('\n') + 1);
    if (record.starts_with("done\n")) return ArenaResult::from_json(record_body, done_path);
    const TrainConfig::Gate& gate = at(g).gate;
    SprtOptions sprt;
    sprt.elo0 = gate.elo0;
    sprt.elo1 = gate.elo1;
    sprt.alpha = gate.alpha;
    sprt.beta = gate.beta;
    std::vector<int> points;
    int64_t chunks = 0;
    if (record.starts_with("partial\n")) {
      try {
        const json j = json::parse(record_body);
        points = j.at("game_points").get<std::vector<int>>();
        chunks = j.at("chunks").get<int64_t>();
      } catch (const json::exception& e) {
        throw file_error("generations: not a gate progress file", partial_path, e.what());
      }
    }
    const AgentSpec a = run_agent(net_spec_at(candidate, gate.ply)),
                    b = run_agent(net_spec_at(current, gate.ply));
    const int64_t chunk = (gate.chunk + 1) / 2 * 2;
    const int64_t most = (gate.games + 1) / 2 * 2;
    const auto t0 = Clock::now();
    const int64_t resumed = static_cast<int64_t>(points.size());
    ArenaResult r = arena_statistics(points, sprt);
    while (static_cast<int64_t>(points.size()) < most &&
           (points.empty() || r.sprt_verdict == "inconclusive")) {
      ArenaOptions o;
      o.games = std::min(chunk, most - static_cast<int64_t>(points.size()));
      o.threads = c_.run.threads;
      o.seed = stage_seed(c_.run.seed, kGateSalt, g, chunks);
      o.rules = c_.rules;
      const int64_t before = static_cast<int64_t>(points.size());
      std::mutex mu;
      auto last = Clock::now() - std::chrono::hours(1);
      o.progress = [&](int64_t done) {
        std::lock_guard<std::mutex> lock(mu);
        if (seconds_since(last) < 0.5) return;
        last = Clock::now();
        const double rate = (before + done - resumed) / std::max(1e-9, seconds_since(t0));
        char buf[200];
        std::snprintf(buf, sizeof buf, ": %lld/%lld games, %.1f games/s, LLR %.2f [%.2f, %.2f]",
                      static_cast<long long>(before + done), static_cast<long long>(most), rate,
                      r.sprt_llr, r.sprt_lower, r.sprt_upper);
        line(tag(g, "gate") + buf, false);
      };
      o.should_stop = [this] { return stop_requested(); };
      o.world = &world_;  // the ranks split the chunk's pairs; every rank gets every result
      const ArenaResult part =
          run_arena(checked_agent_maker(a, o.rules), checked_agent_maker(b, o.rules), o);
      if (part.stopped) throw Stopped{};  // the chunk's finished pairs are dropped
      points.insert(points.end(), part.game_points.begin(), part.game_points.end());
      ++chunks;
      if (world_.is_root())
        write_file_atomic(partial_path,
                          json{{"chunks", chunks}, {"game_points", points}}.dump() + "\n");
      r = arena_statistics(points, sprt);
    }
    r.a_spec = a.text;
    r.b_spec = b.text;
    if (world_.is_root()) {
      write_file_atomic(done_path, r.to_json() + "\n");
      std::error_code ec;
      fs::remove(partial_path, ec);
    }
    char buf[240];
    std::snprintf(buf, sizeof buf, ": %s after %lld games, %+.3f points/game [%+.3f, %+.3f], %s",
                  r.sprt_verdict.c_str(), static_cast<long long>(r.games), r.a_points_per_game,
                  r.ci95_low, r.ci95_high, format_duration(seconds_since(t0)).c_str());
    line(tag(g, "gate") + buf, true);
    return r;
  }

  json benchmark(int g, const std::string& net) const {
    const BenchmarkSet set = read_set();
    const BenchmarkScore score =
        score_benchmark(set, checked_agent_maker(run_agent(net_spec_at(net, 0)), c_.rules),
                        c_.rules, c_.run.threads, stage_seed(c_.run.seed, kBenchSalt, g, 0));
    json phases = {{"overall", score.overall.loss.mean}};
    for (const PhaseScore& p : score.phases) phases[p.phase] = p.loss.mean;
    char buf[160];
    std::snprintf(buf, sizeof buf, ": %s %.2f mp [%.2f, %.2f]", net.c_str(),
                  score.overall.loss.mean, score.overall.loss.ci95_low,
                  score.overall.loss.ci95_high);
    line(tag(g, "benchmark") + buf, true);
    return phases;
  }

  // The benchmark set, which must be of the run's rules (its "rules:" header line).
  BenchmarkSet read_set() const {
    const std::string& path = c_.generations.benchmark;
    BenchmarkSet set;
    try {
      set = read_benchmark(path, c_.rules);
    } catch (const Error& e) {
      throw Error("generations.benchmark: " + std::string(e.what()));
    }
    for (const std::string& h : set.header) {
      const auto at = h.find("rules: ");
      if (at == std::string::npos) continue;
      const std::string diff = rules_difference(h.substr(at + 7), c_.rules);
      if (!diff.empty())
        throw Error("generations.benchmark: " + quote_path(path) +
                    " was rolled out under other rules than the run's: " + diff +
                    " (set generations.benchmark to '' or to a set of these rules)");
    }
    return set;
  }

  // Appends the generation's line unless metrics.jsonl already ends with it (a kill after the
  // append but before the state's update).
  void append_metrics_once(int g, const std::string& row) const {
    const std::string path = file("metrics.jsonl");
    std::string text = fs::exists(path) ? read_file(path) : std::string();
    if (!text.empty() && text.back() != '\n') text += '\n';
    const size_t start = text.size() > 1 ? text.rfind('\n', text.size() - 2) : std::string::npos;
    const std::string last = text.substr(start == std::string::npos ? 0 : start + 1);
    if (!last.empty()) {
      const json j = json::parse(last, nullptr, false);
      if (j.is_object() && j.contains("generation") && j["generation"] == g) return;
    }
    write_file_atomic(path, text + row + "\n");
  }
};

}  // namespace

std::string generations_start_net(const TrainConfig& config, const std::string& run_dir) {
  const std::string& init = config.generations.init;
  if (init.empty()) return run_dir + "/latest.pt";
  if (init == "default" || init.starts_with("model:")) return net_agent_spec(init)->path;
  return init;
}

std::string describe_generations(const TrainConfig& config) {
  auto num = [](double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return std::string(buf);
  };
  auto count = [](int64_t n, const std::string& what) {
    return std::to_string(n) + " " + what + (n == 1 ? "" : "s");
  };
  const TrainConfig::Generations& gens = config.generations;
  std::string out = count(gens.count, "generation") + " in " + config.run_path() + " from " +
                    (gens.init.empty() ? "the TD stage's net" : gens.init) + "; race net " +
                    (config.run.race_net ? "where found" : "off");
  if (!gens.benchmark.empty()) out += "; benchmark " + gens.benchmark;
  out += "\n";
  if (gens.init.empty())  // the TD stage first (selfplay/training/td_trainer.h)
    out += "TD stage: " + count(config.train.games, "game") + " of TD(lambda) self-play, net " +
           config.net.encoder + " " + hidden_name(config.net.hidden) + " " + config.net.activation +
           ", " + count(config.run.threads, "thread") + "\n";
  for (int g = 1; g <= gens.count; ++g) {
    const TrainConfig c = config.for_generation(g);
    const std::string head = "gen " + std::to_string(g) + ": ";
    const std::string pad(head.size(), ' ');
    const std::vector<LabelSet> sets = c.label_sets();
    out += head + "label " + (sets.empty() ? "nothing\n" : "");
    for (size_t s = 0; s < sets.size(); ++s) {
      const LabelSet& l = sets[s];
      out += (s ? pad + "      " : std::string()) + count(l.games, "game") + " of " + l.players +
             " (seed " + (l.seed > 0 ? std::to_string(l.seed) : "derived") + "), sample " +
             num(l.sample) + ", explore " + num(l.explore) + ", candidates " + num(l.candidates) +
             (l.top > 0 ? ", top " + std::to_string(l.top) : "") + "\n";
    }
    if (!sets.empty())
      out += pad + "      targets: " +
             (c.label.rollouts > 0
                  ? count(c.label.rollouts, "rollout") + " of the current net"
                  : "the current net's " + std::to_string(c.label.ply) + "-ply values") +
             "\n";
    const int first = std::max(1, g - c.generations.data_window + 1);
    std::string data =
        first == g ? "generation " + std::to_string(g) + "'s labels"
                   : "the labels of generations " + std::to_string(first) + "-" + std::to_string(g);
    if (!gens.prior_data.empty())
      data = count(static_cast<int64_t>(gens.prior_data.size()), "prior file") + ", then " + data;
    if (c.generations.pool_same_labeller) data += " and those since the current net's promotion";
    const TrainConfig::Fit& f = c.fit;
    out += pad + "fit:  the " + (f.from == "start" ? "start" : "current") + " net on " + data +
           (f.encoder.empty() ? "" : ", given the " + f.encoder + " inputs") +
           (f.widen.empty() ? "" : ", widened to " + hidden_name(f.widen)) + "\n";
    out += pad + "      lr " + num(f.lr) + ", batch " + std::to_string(f.batch) + ", " +
           count(f.epochs, "epoch") + " at most, patience " + std::to_string(f.patience) + ", " +
           (f.lr_drops > 0 ? count(f.lr_drops, "lr drop") + " x " + num(f.lr_drop)
                           : std::string("no lr drops")) +
           ", sibling weight " + num(f.sibling_weight) + "\n";
    out += pad + "      seed " + (f.seed > 0 ? std::to_string(f.seed) : "derived") + ", " +
           count(c.fit_threads(), "LibTorch thread") +
           (f.blas_threads > 0 ? ", " + count(f.blas_threads, "OpenBLAS thread") : "") + "\n";
    out += pad + "gate: at most " + count(c.gate.games, "game") + " at " +
           std::to_string(c.gate.ply) + "-ply, SPRT Elo " + num(c.gate.elo0) + " vs " +
           num(c.gate.elo1) + ", promote " + c.gate.promote + "\n";
  }
  return out;
}

bool holds_generations(const std::string& run_dir) {
  return fs::exists(run_dir + "/" + kGenerationsStateFile);
}

GenerationsResult run_generations(const TrainConfig& config, const std::string& run_dir,
                                  const std::string& start_net,
                                  const GenerationsCallbacks& callbacks, World* world) {
  World& w = world ? *world : single_process_world();
  if (w.size() == 1) return Generations(config, run_dir, callbacks, w).run(start_net);
  // Rank 0's config, run directory and start net are the run's; the others' are ignored. A stop
  // flag would stop the ranks at different moments: on several ranks a stop is a kill, after
  // which --resume continues.
  std::string message;
  if (w.is_root())
    message = json{{"config", to_yaml(config)}, {"run_dir", run_dir}, {"start", start_net}}.dump();
  w.broadcast(message, 0);
  const json j = json::parse(message);
  const TrainConfig c = parse_config(j.at("config").get<std::string>(), "the config of rank 0");
  GenerationsCallbacks cb;
  if (w.is_root()) cb.on_line = callbacks.on_line;
  return Generations(c, j.at("run_dir").get<std::string>(), cb, w)
      .run(j.at("start").get<std::string>());
}

}  // namespace nardy
