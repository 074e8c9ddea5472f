// selfplay/evaluation/analysis.h — ranking the legal moves of a position and roll (`nardy
// analyze`).
//
// With a net agent (net:PATH[:ply=N]..., or any NetAgent an AgentMaker makes) every legal
// result is scored by its search at its ply or AnalysisOptions::ply (selfplay/search/search.h: all
// at 0-ply, the filtered best at N-ply), with outcome probabilities from the mover's view and no
// sampling error. With any other agent (random, heuristic, a callback) each result is rolled
// out instead (selfplay/evaluation/rollout.h) with that agent playing both sides, and the figures
// carry standard errors. The CLI (`nardy analyze`) and Python (nardy.analyze) both call this.
//
// Race positions the race table covers (selfplay/tables/) are valued exactly by net agents and
// marked `exact` ("exact" in the text's ply column).
//
// Results are best first, the candidates a deeper search filtered out after the searched ones
// (the text puts a line between them); `agent_choice` marks the move the agent itself would play (for a
// net agent with noise, its noisy choice drawn from Rng(seed)).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/movegen.h"
#include "selfplay/evaluation/rollout.h"
#include "selfplay/search/stop.h"

namespace nardy {

struct AnalysisOptions {
  Rules rules;
  int64_t rollout_trials = 360;  // per move, for agents without an evaluator (>= 1)
  int threads = 1;               // rollout threads (>= 1); results do not depend on it
  uint64_t seed = 1;
  // ---- Extensions ----
  std::optional<int> ply;  // net agents: search depth 0..4 instead of the agent's own
  // Net agents too: every move rolled out (rollout_trials trials, the agent playing both sides)
  // instead of searched. Excludes `ply`.
  bool rollouts = false;
  // Polled before every evaluator batch and every rollout move (selfplay/search/stop.h); once it
  // returns true the analysis throws Stopped.
  ShouldStop should_stop;
};

struct MoveAnalysis {
  size_t index = 0;  // into legal_moves(pos, dice) sorted by position
  std::string notation;
  Position position;                                                  // after the move
  double win = 0, win_mars = 0, lose_mars = 0, draw = 0, equity = 0;  // mover's view
  double equity_se = 0;                                               // 0 for search values
  int ply = 0;         // search depth of the value; -1 for a rollout
  bool exact = false;  // no error: a finished game or a race value from the race table
  // A search deeper than 0-ply searches the best candidates only (search.h); the others keep
  // their 0-ply value and are listed after the searched ones, best first among themselves.
  bool filtered = false;
  bool agent_choice = false;
};

struct Analysis {
  std::string agent_spec;
  std::string method;               // "0-ply net", "2-ply search", "rollouts (N trials per move)"
  std::vector<MoveAnalysis> moves;  // best first: the searched, then the filtered ones
  bool draws = false;               // whether the rules have draws (the text's draw column)
  std::string to_text() const;
  std::string to_json() const;
};

// The analysis with agents from `agent` (called once on this thread for the agent that
// chooses and, if it is not a NetAgent, once per rollout thread; selfplay/agents/agent.h
// AgentMaker). Throws Error for an invalid position, a finished game, dice outside 1..6, an opening
// double under opening=no_doubles, trials or threads below 1, or `ply` without a net agent or
// outside 0..4; Stopped if `should_stop` asked for it.
Analysis analyze_moves(const Position& pos, Dice dice, const AgentMaker& agent,
                       const AnalysisOptions& options);
// The same for an agent spec (selfplay/agents/agent.h); a bad spec is an Error naming it.
Analysis analyze_moves(const Position& pos, Dice dice, const std::string& agent_spec,
                       const AnalysisOptions& options);

}  // namespace nardy
