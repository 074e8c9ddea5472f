// selfplay/training/run_dir.h — the directory of one training run, and atomic file writes.
//
// Layout of <run.dir>/<run.name>/:
//   config.yaml       the resolved config (every key), rewritten when a resume changes it
//   ckpt-<games>.pt   checkpoints every train.checkpoint_every games (and on a clean stop);
//                     only the last train.keep_last are kept
//   latest.pt         the newest checkpoint (a copy)
//   best.pt           the checkpoint with the best points per game against eval.best_by
//   metrics.jsonl     one JSON object per line (see selfplay/training/td_trainer.h for the fields)
//   state.json        what a resume needs: games done, TD updates, elapsed seconds, the
//                     checkpoint file, the best score and where it was reached, the latest
//                     evaluation. The random state needs no saving: every game draws from its
//                     own stream derived from (run.seed, game index)
//                     (selfplay/training/td_trainer.h).
//
// Every file is written to a temporary name in the same directory and renamed into place,
// so a reader (or a resume after the process was killed at any moment) sees either the old
// or the new content, never a mix. The commit order of a checkpoint is: ckpt file, latest.pt,
// best.pt, metrics.jsonl, state.json, then the deletion of rotated-out checkpoints; state.json
// therefore always names a complete checkpoint that still exists, and a resume drops metrics
// lines newer than it.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "core/file_io.h"  // write_file_atomic, read_file

namespace nardy {

struct RunState {
  int64_t games_done = 0;
  int64_t positions = 0;   // TD updates made
  double elapsed_s = 0;    // training wall time over all sessions
  std::string checkpoint;  // file name (in the run dir) of the checkpoint at games_done
  double best_score = -std::numeric_limits<double>::infinity();  // points per game vs best_by
  int64_t best_games = -1;       // games_done of best.pt (-1: none yet)
  std::string latest_eval_json;  // JSON object of the latest evaluation ("" if none)
  int64_t latest_eval_games = -1;
  int world_size = 1;  // ranks the run trains on (selfplay/distributed/world.h); absent: 1

  std::string to_json() const;
  static RunState from_json(std::string_view text, const std::string& source);
};

class RunDir {
 public:
  // Creates <path> (and parents) for a new run. Throws Error if it already holds a run (a
  // state.json, or ckpt-*.pt files of a run killed before its first state.json), suggesting
  // --resume. A directory left by an attempt that was killed before its first checkpoint is
  // reused: its metrics, latest.pt, best.pt and *.tmp files are removed.
  static RunDir create(const std::string& path);
  // The check of create() alone: throws its Error when `path` already holds a run.
  static void require_new(const std::string& path);
  // Opens an existing run (reading only; another process may be training in it). Throws
  // Error if there is no config.yaml, or neither a state.json nor any ckpt-*.pt (the trainer
  // resumes from the newest complete checkpoint when state.json is missing:
  // selfplay/training/td_trainer.h).
  static RunDir open(const std::string& path);
  // open() for a resume: first removes the *.tmp files a kill -9 during an atomic write
  // left behind, also when open() then refuses the directory.
  static RunDir open_for_resume(const std::string& path);
  // Whether create(path) would refuse: the directory holds a state.json or a ckpt-*.pt.
  static bool holds_run(const std::string& path);

  const std::string& path() const { return path_; }
  std::string file(std::string_view name) const { return path_ + "/" + std::string(name); }
  std::string config_path() const { return file("config.yaml"); }
  std::string state_path() const { return file("state.json"); }
  std::string metrics_path() const { return file("metrics.jsonl"); }
  std::string latest_path() const { return file("latest.pt"); }
  std::string best_path() const { return file("best.pt"); }
  static std::string checkpoint_name(int64_t games);  // "ckpt-<games>.pt"

  RunState read_state() const;
  void write_state(const RunState& state) const;

  // Appends one line (a JSON object, no newline) atomically (the file is rewritten).
  void append_metrics(const std::string& json_line) const;
  // Drops metrics lines whose "games" is above `games` (written after the last checkpoint
  // by a session that was killed). Lines that do not parse are dropped too.
  void truncate_metrics_after(int64_t games) const;
  // Every line of metrics.jsonl (empty if the file does not exist).
  std::vector<std::string> metrics_lines() const;

  // Games of the ckpt-<games>.pt files present, ascending.
  std::vector<int64_t> checkpoint_games() const;
  // Deletes all but the newest `keep_last` ckpt files; never deletes `keep` (the checkpoint
  // state.json names).
  void rotate_checkpoints(int keep_last, int64_t keep) const;
  // Deletes the ckpt files of more than `games` games (written by a session killed before its
  // state.json named them; the resumed run writes them again).
  void remove_checkpoints_after(int64_t games) const;
  // Deletes every *.tmp file in the directory (what a kill during an atomic write leaves).
  void remove_stale_temporaries() const;

 private:
  explicit RunDir(std::string path) : path_(std::move(path)) {}
  std::string path_;
};

}  // namespace nardy
