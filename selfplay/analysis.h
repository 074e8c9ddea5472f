// selfplay/analysis.h — ranking the legal moves of a position and roll (`nardy analyze`).
//
// With a net agent (net:PATH[:ply=N]...) every legal result is scored at the agent's ply by its
// search (selfplay/search.h: all at 0-ply, the filtered best at N-ply), with outcome
// probabilities from the mover's view and no sampling error. With any other agent (random,
// heuristic, a callback) each result is rolled out instead (selfplay/rollout.h) with that agent
// playing both sides, and the figures carry standard errors.
//
// Results are best first; `agent_choice` marks the move the agent itself would play.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/movegen.h"
#include "selfplay/rollout.h"

namespace nardy {

struct AnalysisOptions {
  Rules rules;
  int64_t rollout_trials = 360;  // per move, for agents without an evaluator
  int threads = 1;
  uint64_t seed = 1;
};

struct MoveAnalysis {
  size_t index = 0;          // into legal_moves(pos, dice) sorted by position
  std::string notation;
  Position position;         // after the move
  double win = 0, win_mars = 0, lose_mars = 0, draw = 0, equity = 0;  // mover's view
  double equity_se = 0;      // 0 for search values
  int ply = 0;               // search depth of the value; -1 for a rollout
  bool agent_choice = false;
};

struct Analysis {
  std::string agent_spec;
  std::string method;  // "0-ply net", "2-ply search", "rollouts (N trials per move)"
  std::vector<MoveAnalysis> moves;  // best first
  std::string to_text() const;
  std::string to_json() const;
};

// Throws Error for a finished game, dice outside 1..6 or a bad agent spec.
Analysis analyze_moves(const Position& pos, Dice dice, const std::string& agent_spec, const AnalysisOptions& options);

}  // namespace nardy
