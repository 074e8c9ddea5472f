// selfplay/training/td_trainer.h — TD(λ) self-play training from a TrainConfig: the library API
// that `nardy train` and Python's nardy.train() call.
//
// A run (selfplay/training/run_dir.h for its files):
//   * one ValueNet (created from net.* and run.seed, or loaded from the run's checkpoint on
//     resume) trained by run.threads workers (selfplay/training/td_workers.h): one thread trains it
//     in place; several train private copies in rounds of run.merge_every games each and merge
//     their changes in a fixed order, so the run does not depend on thread timing;
//   * game g (0-based, over the whole run) draws its dice and exploration from
//     game_rng(run.seed, g), and its step size, trace decay and exploration rate from the
//     schedules at progress g / train.games;
//   * the run advances in segments that end at every multiple of train.checkpoint_every,
//     train.eval_every and log.metrics_every, and at train.games; at a segment end every
//     worker has finished all games before it, then the trainer writes the metrics line,
//     evaluates, checkpoints, as due. The whole run is a deterministic function of the config
//     (threads included), and a resumed run continues bit for bit as the uninterrupted one
//     would from that checkpoint (tests/selfplay/td_trainer_test.cpp);
//   * evaluation: each eval.opponents spec plays eval.games mirrored games
//   (selfplay/evaluation/arena.h)
//     against the greedy (0-ply) net — a clone, so training is untouched — with the arena seed
//     derived from (run.seed, games done); results go to metrics.jsonl, to the checkpoint's
//     info.extra["eval"] and to state.json; the best points per game against eval.best_by
//     gives best.pt. The last evaluation of a run uses eval.final_games.
//
// metrics.jsonl fields: games, games_per_s (self-play speed of the segment), mean_game_length
// (turns), td_error (mean |target - value| equity per update), alpha, lambda, epsilon, positions,
// elapsed_s (all sessions), and "eval" when the line follows an evaluation: an object keyed by
// opponent spec, each the match result of the net (A) against it in the arena's one JSON format
// (ArenaResult::to_json without the per-game lists; selfplay/evaluation/arena.h).
//
// Several ranks (selfplay/distributed/world.h; `nardy train` under torchrun): every rank calls
// train() or resume() with its World; rank 0's arguments are the ones used (the others' are
// ignored). Rank 0 alone reads and writes the run directory (so the other ranks need neither
// the config file, the directory nor a shared file system): it prepares the start (config,
// state, net) and broadcasts it, or its error, which every rank then throws; the ranks train
// together,
// rank r's threads being workers r·T + t of the R·T the rounds deal games to
// (selfplay/training/td_workers.h) — R ranks of T threads train the same net, bit for bit, as
// one process of R·T threads. Evaluations split their pairs across the ranks
// (selfplay/evaluation/arena.h). Metrics lines gain world_size, and games_per_s counts every
// rank's games. state.json records the world size; resuming with another one throws Error
// (the rounds, and so the net, would differ from the uninterrupted run's). A failure on any
// rank (including a dead or hung one, after the World's timeout) makes every rank throw.
//
// Stopping: set *TrainCallbacks::stop (e.g. from a SIGINT handler). Workers finish the game
// (with several threads: the round) they are playing; the trainer then writes a checkpoint at
// the games done and returns with completed = false. `nardy train --resume DIR` continues it.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/random.h"
#include "selfplay/distributed/world.h"
#include "selfplay/evaluation/arena.h"
#include "selfplay/training/config.h"

namespace nardy {

// The Rng of game `game` of a run seeded with `seed`.
Rng game_rng(uint64_t seed, int64_t game);

struct EvalEntry {
  std::string opponent;  // agent spec
  ArenaResult result;    // from the net's side (A = net)
};

struct TrainProgress {
  enum class Event { Tick, Metrics, Evaluation, Checkpoint, Done };
  Event event = Event::Tick;
  int64_t games_done = 0;
  int64_t games_total = 0;
  int64_t positions = 0;
  double elapsed_s = 0;                       // over all sessions
  double games_per_s = 0;                     // recent self-play speed
  double eta_s = 0;                           // estimated seconds to the end (self-play only)
  double alpha = 0, lambda = 0, epsilon = 0;  // the schedules at games_done
  double mean_game_length = 0;                // of the last segment
  double td_error = 0;                        // of the last segment
  std::vector<EvalEntry> latest_eval;         // the most recent evaluation (may be empty)
  int64_t latest_eval_games = -1;
  std::string checkpoint;   // path of the newest checkpoint ("" before the first)
  bool evaluating = false;  // an evaluation is running (Tick events only)
};

struct TrainCallbacks {
  // Called on the calling thread: Tick every ~0.5 s while games run, and once per event.
  std::function<void(const TrainProgress&)> on_progress;
  // Requests a clean stop (checkpoint, then return) when it becomes true. May be null.
  const std::atomic<bool>* stop = nullptr;
};

struct TrainResult {
  std::string run_dir;
  int64_t games_done = 0;
  int64_t positions = 0;
  bool completed = false;             // reached train.games (false: stopped)
  double elapsed_s = 0;               // over all sessions
  double session_s = 0;               // this call
  std::string checkpoint;             // latest checkpoint path
  std::string best_checkpoint;        // best.pt path ("" if no evaluation ran)
  std::vector<EvalEntry> final_eval;  // the latest evaluation (the final one when completed)
  int64_t final_eval_games = -1;      // games done when it ran
};

// Starts a new run in config.run_path() (which must not hold a run yet). `world`: the ranks
// training together (this process alone when null; see above).
TrainResult train(const TrainConfig& config, const TrainCallbacks& callbacks = {},
                  World* world = nullptr);
// Continues the run in `run_dir` from its latest checkpoint. `overrides` ("KEY=VALUE") may
// change anything but the net and the rules (e.g. train.games to extend the run); the updated
// config is written back to config.yaml. Throws Error if the run was trained on another number
// of ranks than `world` has.
TrainResult resume(const std::string& run_dir, const std::vector<std::string>& overrides = {},
                   const TrainCallbacks& callbacks = {}, World* world = nullptr);

// The compact JSON object of one evaluation (the "eval" field of metrics.jsonl).
std::string eval_json(const std::vector<EvalEntry>& eval);

}  // namespace nardy
