#include "selfplay/training/td_trainer.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>
#include <future>
#include <memory>
#include <nlohmann/json.hpp>

#include "core/error.h"
#include "selfplay/search/net_agent.h"
#include "selfplay/training/run_dir.h"
#include "selfplay/training/td_game.h"
#include "selfplay/training/td_workers.h"
#include "selfplay/search/agent_kinds.h"

namespace nardy {

namespace {

using Clock = std::chrono::steady_clock;
using nlohmann::json;

double seconds_since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

constexpr uint64_t kEvalSalt = 0x3C6EF372FE94F82Bull;

// The inverse of eval_json(): each opponent's match result (a resumed, finished run reports
// them).
std::vector<EvalEntry> eval_from_json(const std::string& text) {
  std::vector<EvalEntry> out;
  if (text.empty()) return out;
  const json j = json::parse(text);
  for (auto it = j.begin(); it != j.end(); ++it)
    out.push_back(
        EvalEntry{it.key(), ArenaResult::from_json(it.value().dump(), "state.json latest_eval")});
  return out;
}

struct SegmentStats : TdPlayStats {
  double seconds = 0;
};

class Trainer {
 public:
  Trainer(TrainConfig config, RunDir dir, ValueNet net, RunState state,
          const TrainCallbacks& callbacks)
      : config_(std::move(config)),
        dir_(std::move(dir)),
        net_(std::move(net)),
        state_(std::move(state)),
        callbacks_(callbacks),
        config_yaml_(to_yaml(config_)) {
    last_eval_ = eval_from_json(state_.latest_eval_json);
    if (!state_.checkpoint.empty()) last_checkpoint_ = dir_.file(state_.checkpoint);
  }

  TrainResult run();

 private:
  bool stop_requested() const {
    return callbacks_.stop && callbacks_.stop->load(std::memory_order_relaxed);
  }
  int64_t next_sync(int64_t games) const;
  SegmentStats run_segment(int64_t begin, int64_t end);
  std::vector<EvalEntry> evaluate(int64_t games_per_opponent);
  void checkpoint(const std::vector<EvalEntry>& eval);
  CheckpointInfo make_info(const std::vector<EvalEntry>& eval) const;
  void emit(TrainProgress::Event event, bool evaluating = false);
  double elapsed() const { return state_.elapsed_s + seconds_since(session_start_); }
  double progress_of(int64_t game) const {
    return static_cast<double>(game) / static_cast<double>(config_.train.games);
  }

  TrainConfig config_;
  RunDir dir_;
  ValueNet net_;
  RunState state_;
  const TrainCallbacks& callbacks_;
  std::string config_yaml_;
  std::unique_ptr<TdWorkers> workers_;
  Clock::time_point session_start_ = Clock::now();
  double session_state_elapsed_ = 0;  // state_.elapsed_s at the session start
  double selfplay_s_ = 0;             // this session's self-play time
  int64_t selfplay_games_ = 0;        // ... and games
  std::atomic<int64_t> live_games_{0};
  SegmentStats last_segment_;
  std::vector<EvalEntry> last_eval_;
  std::string last_checkpoint_;
};

int64_t Trainer::next_sync(int64_t games) const {
  int64_t next = config_.train.games;
  for (int64_t every :
       {config_.train.checkpoint_every, config_.train.eval_every, config_.log.metrics_every})
    if (every > 0) next = std::min(next, (games / every + 1) * every);
  return next;
}

void Trainer::emit(TrainProgress::Event event, bool evaluating) {
  if (!callbacks_.on_progress) return;
  TrainProgress p;
  p.event = event;
  p.games_done = event == TrainProgress::Event::Tick ? live_games_.load() : state_.games_done;
  p.games_total = config_.train.games;
  p.positions = state_.positions;
  p.elapsed_s = elapsed();
  p.games_per_s = selfplay_s_ > 0 ? static_cast<double>(selfplay_games_) / selfplay_s_ : 0;
  p.eta_s =
      p.games_per_s > 0 ? static_cast<double>(p.games_total - p.games_done) / p.games_per_s : 0;
  p.alpha = config_.td.alpha.at(progress_of(p.games_done));
  p.lambda = config_.td.lambda.at(progress_of(p.games_done));
  p.epsilon = config_.td.epsilon.at(progress_of(p.games_done));
  p.mean_game_length =
      last_segment_.games > 0 ? static_cast<double>(last_segment_.turns) / last_segment_.games : 0;
  p.td_error = last_segment_.updates > 0 ? last_segment_.abs_td_error / last_segment_.updates : 0;
  p.latest_eval = last_eval_;
  p.latest_eval_games = state_.latest_eval_games;
  p.checkpoint = last_checkpoint_;
  p.evaluating = evaluating;
  callbacks_.on_progress(p);
}

SegmentStats Trainer::run_segment(int64_t begin, int64_t end) {
  const auto t0 = Clock::now();
  const double selfplay_before = selfplay_s_;
  const int64_t games_before = selfplay_games_;
  live_games_ = begin;
  auto setup = [this](int64_t g) {
    const double p = progress_of(g);
    return TdGameSetup{game_rng(config_.run.seed, g),
                       TdGameParams{static_cast<float>(config_.td.alpha.at(p)),
                                    static_cast<float>(config_.td.lambda.at(p)),
                                    static_cast<float>(config_.td.epsilon.at(p))}};
  };
  // The workers block; run them aside so that progress ticks keep coming.
  auto future = std::async(std::launch::async, [&] {
    return workers_->play(begin, end, setup, callbacks_.stop, &live_games_);
  });
  while (future.wait_for(std::chrono::milliseconds(500)) != std::future_status::ready) {
    selfplay_s_ = selfplay_before + seconds_since(t0);
    selfplay_games_ = games_before + (live_games_.load() - begin);
    emit(TrainProgress::Event::Tick);
  }
  SegmentStats total;
  static_cast<TdPlayStats&>(total) = future.get();
  total.seconds = seconds_since(t0);
  selfplay_s_ = selfplay_before + total.seconds;
  selfplay_games_ = games_before + total.games;
  return total;
}

std::vector<EvalEntry> Trainer::evaluate(int64_t games_per_opponent) {
  const ValueNet snapshot = net_.clone();
  const Rules rules = config_.rules;
  std::vector<EvalEntry> out;
  for (size_t i = 0; i < config_.eval.opponents.size(); ++i) {
    const std::string spec = config_.eval.opponents[i];
    ArenaOptions options;
    options.games = games_per_opponent;
    options.threads = config_.eval_threads();
    options.seed = mix_seed(config_.run.seed ^ kEvalSalt) + i;
    options.rules = rules;
    const std::string name = "net:" + dir_.path() + "@" + std::to_string(state_.games_done);
    AgentMaker net_maker = [&snapshot, rules, name] {
      return make_net_agent(snapshot, NetAgentOptions{}, rules, name);
    };
    AgentMaker opponent_maker = [spec, rules] { return make_agent(spec, rules); };
    // The arena blocks; run it aside so that progress ticks keep coming.
    auto future = std::async(std::launch::async,
                             [&] { return run_arena(net_maker, opponent_maker, options); });
    while (future.wait_for(std::chrono::milliseconds(500)) != std::future_status::ready)
      emit(TrainProgress::Event::Tick, true);
    out.push_back(EvalEntry{spec, future.get()});
  }
  return out;
}

CheckpointInfo Trainer::make_info(const std::vector<EvalEntry>& eval) const {
  CheckpointInfo info;
  info.rules = config_.rules.to_string();
  info.games = state_.games_done;
  info.positions = state_.positions;
  info.config_yaml = config_yaml_;
  info.extra["run"] = config_.run.name;
  info.extra["seed"] = std::to_string(config_.run.seed);
  if (!eval.empty()) {
    info.extra["eval"] = eval_json(eval);
    info.extra["eval_games"] = std::to_string(state_.latest_eval_games);
  }
  return info;
}

void Trainer::checkpoint(const std::vector<EvalEntry>& eval) {
  const std::string name = RunDir::checkpoint_name(state_.games_done);
  const CheckpointInfo info = make_info(eval);
  net_.save(dir_.file(name), info);
  net_.save(dir_.latest_path(), info);
  state_.checkpoint = name;
  last_checkpoint_ = dir_.file(name);
}

TrainResult Trainer::run() {
  session_start_ = Clock::now();
  session_state_elapsed_ = state_.elapsed_s;
  // Elapsed time is accounted as state_.elapsed_s (previous sessions) + this session.
  const std::string best_spec = config_.best_opponent();
  workers_ = std::make_unique<TdWorkers>(net_, config_.rules, config_.net.backend,
                                         config_.run.threads, config_.run.merge_every);
  const int64_t total = config_.train.games;
  bool stopped = false;
  while (state_.games_done < total) {
    if (stop_requested()) {
      stopped = true;
      break;
    }
    const int64_t end = next_sync(state_.games_done);
    last_segment_ = run_segment(state_.games_done, end);
    if (last_segment_.games == 0) {  // stopped before any game of the segment ended
      stopped = true;
      break;
    }
    state_.games_done += last_segment_.games;
    state_.positions += last_segment_.updates;
    const int64_t g = state_.games_done;
    stopped = g < end;
    const bool final = g >= total;
    auto due = [&](int64_t every) { return every > 0 && g % every == 0; };

    std::vector<EvalEntry> eval;
    const bool eval_due =
        !stopped && !config_.eval.opponents.empty() && (due(config_.train.eval_every) || final);
    if (eval_due) {
      emit(TrainProgress::Event::Tick, true);
      eval = evaluate(final ? config_.eval_final_games() : config_.eval.games);
      last_eval_ = eval;
      state_.latest_eval_json = eval_json(eval);
      state_.latest_eval_games = g;
      for (const auto& e : eval) {
        if (e.opponent == best_spec && e.result.a_points_per_game > state_.best_score) {
          state_.best_score = e.result.a_points_per_game;
          state_.best_games = g;
          net_.save(dir_.best_path(), make_info(eval));
        }
      }
      emit(TrainProgress::Event::Evaluation);
    }
    const bool checkpoint_due = due(config_.train.checkpoint_every) || final || stopped;

    // metrics line
    json m;
    m["games"] = g;
    m["games_per_s"] =
        last_segment_.seconds > 0 ? last_segment_.games / last_segment_.seconds : 0.0;
    m["mean_game_length"] = last_segment_.games > 0
                                ? static_cast<double>(last_segment_.turns) / last_segment_.games
                                : 0.0;
    m["td_error"] =
        last_segment_.updates > 0 ? last_segment_.abs_td_error / last_segment_.updates : 0.0;
    m["alpha"] = config_.td.alpha.at(progress_of(g));
    m["lambda"] = config_.td.lambda.at(progress_of(g));
    m["epsilon"] = config_.td.epsilon.at(progress_of(g));
    m["positions"] = state_.positions;
    if (last_segment_.unfinished > 0) m["unfinished_games"] = last_segment_.unfinished;
    if (eval_due) m["eval"] = json::parse(eval_json(eval));

    if (checkpoint_due) {
      state_.elapsed_s = elapsed();
      session_start_ = Clock::now();
      checkpoint(last_eval_);
    }
    m["elapsed_s"] = elapsed();
    dir_.append_metrics(m.dump());
    emit(TrainProgress::Event::Metrics);
    if (checkpoint_due) {
      dir_.write_state(state_);
      dir_.rotate_checkpoints(config_.train.keep_last, state_.games_done);
      emit(TrainProgress::Event::Checkpoint);
    }
    if (stopped) break;
  }
  if (stopped && state_.games_done > 0 &&
      state_.checkpoint != RunDir::checkpoint_name(state_.games_done)) {
    // The stop came at a segment end that was not a checkpoint: save the games done.
    state_.elapsed_s = elapsed();
    session_start_ = Clock::now();
    checkpoint(last_eval_);
    dir_.write_state(state_);
    dir_.rotate_checkpoints(config_.train.keep_last, state_.games_done);
    emit(TrainProgress::Event::Checkpoint);
  }
  state_.elapsed_s = elapsed();
  session_start_ = Clock::now();
  emit(TrainProgress::Event::Done);

  TrainResult r;
  r.run_dir = dir_.path();
  r.games_done = state_.games_done;
  r.positions = state_.positions;
  r.completed = state_.games_done >= total;
  r.elapsed_s = state_.elapsed_s;
  r.session_s = state_.elapsed_s - session_state_elapsed_;
  r.checkpoint = last_checkpoint_;
  r.best_checkpoint = state_.best_games >= 0 ? dir_.best_path() : "";
  r.final_eval = last_eval_;
  r.final_eval_games = state_.latest_eval_games;
  return r;
}

void check_resume_override(const TrainConfig& before, const TrainConfig& after,
                           const std::string& where) {
  auto fail = [&](const std::string& key) {
    throw Error(where + ": " + key +
                " cannot change when resuming (the checkpoint was trained with " +
                "another value); start a new run instead");
  };
  if (before.run.name != after.run.name) fail("run.name");
  if (before.run.dir != after.run.dir) fail("run.dir");
  if (before.rules != after.rules) fail("rules");
  if (before.net.encoder != after.net.encoder) fail("net.encoder");
  if (before.net.hidden != after.net.hidden) fail("net.hidden");
  if (before.net.activation != after.net.activation) fail("net.activation");
}

}  // namespace

Rng game_rng(uint64_t seed, int64_t game) {
  return Rng(mix_seed(seed) ^ mix_seed(static_cast<uint64_t>(game) + 0x5851F42D4C957F2Dull));
}

std::string eval_json(const std::vector<EvalEntry>& eval) {
  json j = json::object();
  for (const auto& e : eval) j[e.opponent] = json::parse(e.result.to_json(/*per_game=*/false));
  return j.dump();
}

TrainResult train(const TrainConfig& config, const TrainCallbacks& callbacks) {
  validate(config, "config");
  RunDir dir = RunDir::create(config.run_path());
  ValueNet net = ValueNet::create(config.net_shape(), config.run.seed);
  // Fail on a backend/shape mismatch before anything is written.
  { TdSelfPlayer probe(net, config.rules, config.net.backend); }
  write_file_atomic(
      dir.config_path(),
      "# Resolved config of this run (written by nardy train; every key).\n" + to_yaml(config));
  Trainer trainer(config, std::move(dir), std::move(net), RunState{}, callbacks);
  return trainer.run();
}

TrainResult resume(const std::string& run_dir, const std::vector<std::string>& overrides,
                   const TrainCallbacks& callbacks) {
  RunDir dir = RunDir::open(run_dir);
  const TrainConfig before = load_config(dir.config_path());
  TrainConfig config = before;
  apply_overrides(config, overrides, dir.config_path());
  check_resume_override(before, config, "resume " + dir.path());
  // The run lives where it is now, whatever run.dir/run.name said when it started.
  RunState state = dir.read_state();
  ValueNet net = ValueNet::load(dir.file(state.checkpoint));
  if (!(net.shape() == config.net_shape()))
    throw Error("resume " + dir.path() + ": checkpoint " + state.checkpoint +
                " does not match config.yaml's net");
  if (net.info().games != state.games_done)
    throw Error("resume " + dir.path() + ": checkpoint " + state.checkpoint + " holds " +
                std::to_string(net.info().games) + " games but state.json says " +
                std::to_string(state.games_done));
  if (!(before == config))
    write_file_atomic(
        dir.config_path(),
        "# Resolved config of this run (written by nardy train; every key).\n" + to_yaml(config));
  dir.truncate_metrics_after(state.games_done);
  Trainer trainer(config, std::move(dir), std::move(net), std::move(state), callbacks);
  return trainer.run();
}

}  // namespace nardy
