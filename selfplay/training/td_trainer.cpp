#include "selfplay/training/td_trainer.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <exception>
#include <cstring>
#include <filesystem>
#include <future>
#include <memory>
#include <optional>
#include <nlohmann/json.hpp>

#include "core/error.h"
#include "core/file_error.h"
#include "core/printable.h"
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
  // `dir`: the run directory on the rank that writes it (rank 0), empty on the others.
  Trainer(TrainConfig config, std::optional<RunDir> dir, std::string run_path, ValueNet net,
          RunState state, const TrainCallbacks& callbacks, World& world)
      : config_(std::move(config)),
        dir_(std::move(dir)),
        run_path_(std::move(run_path)),
        net_(std::move(net)),
        state_(std::move(state)),
        callbacks_(callbacks),
        world_(world),
        config_yaml_(to_yaml(config_)) {
    last_eval_ = eval_from_json(state_.latest_eval_json);
    if (!state_.checkpoint.empty()) last_checkpoint_ = run_file(state_.checkpoint);
  }

  TrainResult run();

 private:
  bool stop_requested() const {
    return callbacks_.stop && callbacks_.stop->load(std::memory_order_relaxed);
  }
  int64_t next_sync(int64_t games) const;
  // Games done by all ranks during a segment: this rank's count scaled by the world size (the
  // ranks play equal shares; exact at segment ends).
  int64_t live_games_estimate() const {
    return segment_begin_ + (live_games_.load() - segment_begin_) * world_.size();
  }
  SegmentStats run_segment(int64_t begin, int64_t end);
  std::vector<EvalEntry> evaluate(int64_t games_per_opponent);
  void checkpoint(const std::vector<EvalEntry>& eval);
  CheckpointInfo make_info(const std::vector<EvalEntry>& eval) const;
  void emit(TrainProgress::Event event, bool evaluating = false);
  double elapsed() const { return state_.elapsed_s + seconds_since(session_start_); }
  double progress_of(int64_t game) const {
    return static_cast<double>(game) / static_cast<double>(config_.train.games);
  }

  std::string run_file(std::string_view name) const { return run_path_ + "/" + std::string(name); }

  TrainConfig config_;
  std::optional<RunDir> dir_;
  std::string run_path_;
  ValueNet net_;
  RunState state_;
  const TrainCallbacks& callbacks_;
  World& world_;
  int64_t segment_begin_ = 0;
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
  p.games_done = event == TrainProgress::Event::Tick ? live_games_estimate() : state_.games_done;
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
  segment_begin_ = begin;
  auto setup = [this](int64_t g) {
    const double p = progress_of(g);
    return TdGameSetup{
        game_rng(config_.run.seed, g),
        TdGameParams{static_cast<float>(config_.td.alpha.at(p)),
                     static_cast<float>(config_.td.lambda.at(p)),
                     static_cast<float>(config_.td.epsilon.at(p)), config_.td.game_target_ply()}};
  };
  // The workers block; run them aside so that progress ticks keep coming.
  auto future = std::async(std::launch::async, [&] {
    return workers_->play(begin, end, setup, callbacks_.stop, &live_games_);
  });
  while (future.wait_for(std::chrono::milliseconds(500)) != std::future_status::ready) {
    selfplay_s_ = selfplay_before + seconds_since(t0);
    selfplay_games_ = games_before + (live_games_estimate() - begin);
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
    options.world = &world_;
    options.seed = mix_seed(config_.run.seed ^ kEvalSalt) + i;
    options.rules = rules;
    const std::string name = "net:" + run_path_ + "@" + std::to_string(state_.games_done);
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
  if (dir_) {
    const CheckpointInfo info = make_info(eval);
    net_.save(dir_->file(name), info);
    net_.save(dir_->latest_path(), info);
  }
  state_.checkpoint = name;
  last_checkpoint_ = run_file(name);
}

TrainResult Trainer::run() {
  session_start_ = Clock::now();
  session_state_elapsed_ = state_.elapsed_s;
  // Elapsed time is accounted as state_.elapsed_s (previous sessions) + this session.
  const std::string best_spec = config_.best_opponent();
  workers_ = std::make_unique<TdWorkers>(net_, config_.rules, config_.net.backend,
                                         config_.run.threads, config_.run.merge_every, &world_);
  const int64_t total = config_.train.games;
  bool stopped = false;
  while (state_.games_done < total) {
    // With several ranks a stop request is agreed on at the next round end (TdWorkers).
    if (world_.size() == 1 && stop_requested()) {
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
          if (dir_) net_.save(dir_->best_path(), make_info(eval));
        }
      }
      emit(TrainProgress::Event::Evaluation);
    }
    const bool checkpoint_due = due(config_.train.checkpoint_every) || final || stopped;

    // metrics line
    json m;
    m["games"] = g;
    m["world_size"] = world_.size();
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
    if (dir_) dir_->append_metrics(m.dump());
    emit(TrainProgress::Event::Metrics);
    if (checkpoint_due) {
      if (dir_) {
        dir_->write_state(state_);
        dir_->rotate_checkpoints(config_.train.keep_last, state_.games_done);
      }
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
    if (dir_) {
      dir_->write_state(state_);
      dir_->rotate_checkpoints(config_.train.keep_last, state_.games_done);
    }
    emit(TrainProgress::Event::Checkpoint);
  }
  state_.elapsed_s = elapsed();
  session_start_ = Clock::now();
  emit(TrainProgress::Event::Done);

  TrainResult r;
  r.run_dir = run_path_;
  r.games_done = state_.games_done;
  r.positions = state_.positions;
  r.completed = state_.games_done >= total;
  r.elapsed_s = state_.elapsed_s;
  r.session_s = state_.elapsed_s - session_state_elapsed_;
  r.checkpoint = last_checkpoint_;
  r.best_checkpoint = state_.best_games >= 0 ? run_file("best.pt") : "";
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

namespace {

// What a run starts from: prepared by rank 0 (which alone touches the run directory) and sent to
// the other ranks.
struct RunStart {
  TrainConfig config;
  std::optional<RunDir> dir;
  std::string run_path;
  std::optional<ValueNet> net;
  RunState state;
};

std::string pack_start(const RunStart& s) {
  std::vector<uint8_t> params;
  for (const auto& l : s.net->layers()) {
    for (const auto& [p, n] : {std::pair{l.weight, static_cast<size_t>(l.in) * l.out},
                               std::pair{l.bias, static_cast<size_t>(l.out)}}) {
      const auto* bytes = reinterpret_cast<const uint8_t*>(p);
      params.insert(params.end(), bytes, bytes + n * sizeof(float));
    }
  }
  const RunState& st = s.state;
  json j = {{"config", to_yaml(s.config)},
            {"run_path", s.run_path},
            {"games_done", st.games_done},
            {"positions", st.positions},
            {"elapsed_s", st.elapsed_s},
            {"checkpoint", st.checkpoint},
            {"best_score", st.best_score},
            {"best_games", st.best_games},
            {"latest_eval_json", st.latest_eval_json},
            {"latest_eval_games", st.latest_eval_games},
            {"world_size", st.world_size},
            {"params", json::binary(std::move(params))}};
  const std::vector<uint8_t> cbor = json::to_cbor(j);
  return std::string(cbor.begin(), cbor.end());
}

RunStart unpack_start(const std::string& bytes) {
  const json j = json::from_cbor(bytes);
  RunStart s;
  s.config = parse_config(j.at("config").get<std::string>(), "the config sent by rank 0");
  s.run_path = j.at("run_path").get<std::string>();
  RunState& st = s.state;
  st.games_done = j.at("games_done").get<int64_t>();
  st.positions = j.at("positions").get<int64_t>();
  st.elapsed_s = j.at("elapsed_s").get<double>();
  st.checkpoint = j.at("checkpoint").get<std::string>();
  st.best_score = j.at("best_score").get<double>();
  st.best_games = j.at("best_games").get<int64_t>();
  st.latest_eval_json = j.at("latest_eval_json").get<std::string>();
  st.latest_eval_games = j.at("latest_eval_games").get<int64_t>();
  st.world_size = j.at("world_size").get<int>();
  s.net = ValueNet::create(s.config.net_shape(), s.config.run.seed);
  const auto& params = j.at("params").get_binary();
  size_t offset = 0;
  for (const auto& l : s.net->layers()) {
    for (const auto& [p, n] : {std::pair{l.weight, static_cast<size_t>(l.in) * l.out},
                               std::pair{l.bias, static_cast<size_t>(l.out)}}) {
      if (offset + n * sizeof(float) > params.size())
        throw Error("train: the net sent by rank 0 does not match its config");
      std::memcpy(p, params.data() + offset, n * sizeof(float));
      offset += n * sizeof(float);
    }
  }
  return s;
}

// Rank 0 runs `prepare` and sends the start to every rank (or its error, which every rank then
// throws); then all ranks train.
TrainResult run_on_ranks(World& world, const TrainCallbacks& callbacks,
                         const std::function<RunStart()>& prepare) {
  RunStart start;
  if (world.size() == 1) {
    start = prepare();
  } else {
    std::string package;
    if (world.is_root()) {
      try {
        start = prepare();
        package = "S" + pack_start(start);
      } catch (const std::exception& e) {
        package = std::string("E") + e.what();
        world.broadcast(package, 0);
        throw;
      }
    }
    world.broadcast(package, 0);
    if (package.empty() || package[0] != 'S')
      throw Error("train: rank 0 could not start the run: " +
                  (package.empty() ? std::string("(no message)") : package.substr(1)));
    if (!world.is_root()) start = unpack_start(package.substr(1));
  }
  Trainer trainer(std::move(start.config), std::move(start.dir), std::move(start.run_path),
                  std::move(*start.net), std::move(start.state), callbacks, world);
  return trainer.run();
}

}  // namespace

TrainResult train(const TrainConfig& config, const TrainCallbacks& callbacks, World* world) {
  World& w = world ? *world : single_process_world();
  return run_on_ranks(w, callbacks, [&] {
    validate(config, "config");
    RunDir dir = RunDir::create(config.run_path());
    ValueNet net = ValueNet::create(config.net_shape(), config.run.seed);
    // Fail on a backend/shape mismatch before anything is written.
    { TdSelfPlayer probe(net, config.rules, config.net.backend); }
    write_file_atomic(
        dir.config_path(),
        "# Resolved config of this run (written by nardy train; every key).\n" + to_yaml(config));
    RunStart s;
    s.config = config;
    s.run_path = dir.path();
    s.dir = std::move(dir);
    s.net = std::move(net);
    s.state.world_size = w.size();
    return s;
  });
}

TrainResult resume(const std::string& run_dir, const std::vector<std::string>& overrides,
                   const TrainCallbacks& callbacks, World* world) {
  World& w = world ? *world : single_process_world();
  return run_on_ranks(w, callbacks, [&] {
    RunDir dir = RunDir::open_for_resume(run_dir);
    const TrainConfig before = load_config(dir.config_path());
    TrainConfig config = before;
    apply_overrides(config, overrides, dir.config_path());
    check_resume_override(before, config, "resume " + dir.path());
    // The run lives where it is now, whatever run.dir/run.name said when it started.
    RunState state;
    std::optional<ValueNet> recovered;
    if (path_exists("run directory", dir.state_path())) {
      state = dir.read_state();
    } else {
      // Killed after its first checkpoint but before its first state.json: start again from
      // the newest checkpoint that loads (its checksums verified) and names its own games.
      std::string why;
      const auto games = dir.checkpoint_games();
      for (auto g = games.rbegin(); g != games.rend() && !recovered; ++g) {
        const std::string name = RunDir::checkpoint_name(*g);
        try {
          ValueNet candidate = ValueNet::load(dir.file(name));
          if (candidate.info().games != *g)
            throw Error("it holds " + std::to_string(candidate.info().games) + " games");
          state.games_done = *g;
          state.positions = candidate.info().positions;
          state.checkpoint = name;
          recovered = std::move(candidate);
        } catch (const Error& e) {
          why += "; " + name + ": " + e.what();
        }
      }
      if (!recovered)
        throw Error("resume " + printable_path(dir.path()) +
                    ": no state.json and no complete checkpoint" + why);
      // Without state.json the world size it ran on is unknown: this launch's is taken.
      state.world_size = w.size();
      std::fprintf(stderr, "resume %s: no state.json; resuming from %s (%lld games)\n",
                   dir.path().c_str(), state.checkpoint.c_str(),
                   static_cast<long long>(state.games_done));
    }
    if (state.world_size != w.size())
      throw Error("resume " + printable_path(dir.path()) + ": the run was trained on " +
                  std::to_string(state.world_size) + " rank" + (state.world_size == 1 ? "" : "s") +
                  " and this launch has " + std::to_string(w.size()) +
                  "; resume it with the same number of ranks (torchrun --nnodes x "
                  "--nproc_per_node), or its rounds, and so its net, would differ from the "
                  "uninterrupted run's");
    ValueNet net = recovered ? *recovered : ValueNet::load(dir.file(state.checkpoint));
    if (!(net.shape() == config.net_shape()))
      throw Error("resume " + printable_path(dir.path()) + ": checkpoint " +
                  printable(state.checkpoint) + " does not match config.yaml's net");
    if (net.info().games != state.games_done)
      throw Error("resume " + printable_path(dir.path()) + ": checkpoint " +
                  printable(state.checkpoint) + " holds " + std::to_string(net.info().games) +
                  " games but state.json says " + std::to_string(state.games_done));
    if (!(before == config))
      write_file_atomic(
          dir.config_path(),
          "# Resolved config of this run (written by nardy train; every key).\n" + to_yaml(config));
    dir.truncate_metrics_after(state.games_done);
    // A kill during a checkpoint can leave files state.json never named: newer ones, or one
    // beyond keep_last whose rotation did not happen.
    dir.remove_checkpoints_after(state.games_done);
    dir.rotate_checkpoints(config.train.keep_last, state.games_done);
    RunStart s;
    s.config = std::move(config);
    s.run_path = dir.path();
    s.dir = std::move(dir);
    s.net = std::move(net);
    s.state = std::move(state);
    return s;
  });
}

}  // namespace nardy
