// selfplay/agent.h — one interface for everything that picks a move.
//
// An Agent sees the position, the dice and the legal results (never empty; a pass is a
// single result) and returns the index of its choice. Agents are named by spec strings
// everywhere (CLI, configs, Python):
//
//   random                 uniformly random legal result
//   heuristic              hand-written Long Nardy strategy (selfplay/heuristic_agent.h)
//   net:PATH[:ply=N][:noise=S][:...]   a value-network checkpoint (registered by nardy_nn users)
//
// Agents own their scratch state and are not shared between threads: make one per thread
// with make_agent(spec). Randomness comes from the Rng passed in, so games are reproducible.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>

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
};

class RandomAgent final : public Agent {
 public:
  size_t choose(const Position&, Dice, const MoveList& moves, Rng& rng) override {
    return moves.size() == 1 ? 0 : rng.below(static_cast<uint32_t>(moves.size()));
  }
  std::string spec() const override { return "random"; }
};

// Creates an agent from its spec for the given rules. Throws Error naming the spec on an
// unknown kind or a bad option.
std::unique_ptr<Agent> make_agent(std::string_view spec, const Rules& rules);

// A factory of fresh agents, one per worker thread (run_arena, rollout, analyze_moves). Must be
// callable from any thread.
using AgentMaker = std::function<std::unique_ptr<Agent>()>;

// Extension point: a library layer that knows more agent kinds (e.g. "net") registers a
// factory for a spec prefix. The factory receives the text after "prefix:".
using AgentFactory = std::function<std::unique_ptr<Agent>(std::string_view args, const Rules&)>;
void register_agent_kind(const std::string& prefix, AgentFactory factory);

}  // namespace nardy
