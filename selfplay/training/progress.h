// selfplay/training/progress.h — human-readable training progress: the live line, log lines,
// summary.
//
// Pure formatting of TrainProgress / TrainResult (selfplay/training/td_trainer.h) so the CLI and
// Python print the same text. No trailing newlines; the caller decides how to draw
// (`\r` + clear-to-end-of-line for a live terminal line, plain lines otherwise).
#pragma once

#include <string>
#include <vector>

#include "selfplay/training/td_trainer.h"

namespace nardy {

// "45s", "12m05s", "3h02m"; "?" for a negative or non-finite value.
std::string format_duration(double seconds);
// One-line status: games done/total and percentage, games/s, elapsed, ETA, latest evaluation.
std::string format_progress_line(const TrainProgress& p);
// "eval @ 5000 games: random +1.52 [+1.44, +1.60] win 97.5% | heuristic ..."
std::string format_eval_line(const std::vector<EvalEntry>& eval, int64_t at_games);
// The multi-line end-of-run report: games, time, speed, final evaluation with CIs, checkpoint
// paths.
std::string format_summary(const TrainResult& r, const std::string& best_opponent);

}  // namespace nardy
