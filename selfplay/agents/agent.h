// selfplay/agents/agent.h — one interface for everything that picks a move.
//
// An Agent sees the position, the dice and the legal results (never empty; a pass is a
// single result) and returns the index of its choice. Agents are named by spec strings
// everywhere (CLI, configs, Python):
//
//   random                 uniformly random legal result
//   heuristic              hand-written Long Nardy strategy (selfplay/agents/heuristic_agent.h)
//   net:PATH[:ply=N][:noise=S][:...]   a value-network checkpoint (selfplay/search/net_agent.h)
//
// selfplay/search/agent_kinds.h lists every kind in one place (make_agent). Agents own their
// scratch state and are not shared between threads: make one per thread with make_agent(spec).
// Randomness comes from the Rng passed in, so games are reproducible.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "core/error.h"
#include "core/match_equity.h"
#include "core/movegen.h"
#include "core/random.h"
#include "core/rules.h"

namespace nardy {

class Agent {
 public:
  virtual ~Agent() = default;
  // Index into `moves` of the chosen result. `moves` is non-empty and legal for pos and dice.
  virtual size_t choose(const Position& pos, Dice dice, const MoveList& moves, Rng& rng) = 0;
  // The spec string that recreates this agent.
  virtual std::string spec() const = 0;
  // Before each game of a match (selfplay/evaluation/match_play.h, play sessions): what the
  // game's outcomes are worth to each colour in match winning chance (core/match_equity.h);
  // std::nullopt outside matches. Score-aware agents (net agents unless `match=off`) choose by
  // them instead of points; the default ignores them.
  virtual void set_game_stakes(const std::optional<GameStakes>& stakes) { (void)stakes; }
};

class RandomAgent final : public Agent {
 public:
  size_t choose(const Position&, Dice, const MoveList& moves, Rng& rng) override {
    return moves.size() == 1 ? 0 : rng.below(static_cast<uint32_t>(moves.size()));
  }
  std::string spec() const override { return "random"; }
};

// The agents this torch-free layer knows by spec ("random", "heuristic"); null for any other
// spec. Every kind, nets included, is made by make_agent (selfplay/search/agent_kinds.h).
std::unique_ptr<Agent> make_basic_agent(std::string_view spec);

// The error for a spec of no known kind, listing every kind ("random, heuristic, net:PATH...").
Error unknown_agent_kind(std::string_view spec);

// Makes an agent from a spec: make_agent (everything) or a torch-free subset of it.
using AgentBySpec =
    std::function<std::unique_ptr<Agent>(std::string_view spec, const Rules& rules)>;

// A factory of fresh agents, one per worker thread (run_arena, rollout, analyze_moves). Must be
// callable from any thread.
using AgentMaker = std::function<std::unique_ptr<Agent>()>;

}  // namespace nardy
