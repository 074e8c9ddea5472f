// selfplay/search/stop.h — asking a long library call to stop early.
//
// Long calls (run_arena, run_tournament, analyze_moves) take a `should_stop` hook in their
// options. The call polls it from every worker thread — between pairs of games and, through
// the wrappers below, before every move an agent makes and every batch an evaluator scores —
// so the hook must be thread-safe and cheap (reading an atomic flag, or Python's Ctrl-C check
// in bindings/interrupt.h). An empty hook never stops. Once it has returned true the call
// winds down: a match keeps the pairs finished so far and reports `stopped`; a call whose
// partial result means nothing (an analysis) throws Stopped.
#pragma once

#include <functional>
#include <memory>
#include <span>
#include <string>

#include "core/error.h"
#include "selfplay/agents/agent.h"
#include "selfplay/search/search.h"

namespace nardy {

using ShouldStop = std::function<bool()>;

// Thrown inside a call when its hook asked it to stop; the call either catches it (and
// reports `stopped`) or lets it reach the caller that asked.
class Stopped : public Error {
 public:
  Stopped() : Error("stopped on request") {}
};

// An agent that asks `should_stop` before each move and throws Stopped when it says so;
// otherwise the inner agent's choice. spec() is the inner agent's.
class StoppableAgent final : public Agent {
 public:
  StoppableAgent(std::unique_ptr<Agent> inner, ShouldStop should_stop);
  size_t choose(const Position& pos, Dice dice, const MoveList& moves, Rng& rng) override;
  std::string spec() const override { return inner_->spec(); }
  void set_game_stakes(const std::optional<GameStakes>& stakes) override {
    inner_->set_game_stakes(stakes);
  }
  Agent& inner() { return *inner_; }

 private:
  std::unique_ptr<Agent> inner_;
  ShouldStop should_stop_;
};

// An evaluator that asks `should_stop` before each batch and throws Stopped when it says so.
// `inner` must outlive it.
class StoppableEvaluator final : public Evaluator {
 public:
  StoppableEvaluator(Evaluator& inner, ShouldStop should_stop);
  void evaluate(const Position& base, std::span<const Position> positions,
                std::span<Evaluation> out) override;
  std::string name() const override { return inner_.name(); }

 private:
  Evaluator& inner_;
  ShouldStop should_stop_;
};

// The maker of StoppableAgents around `make`'s agents (null stays null); `make` itself when
// `should_stop` is empty.
AgentMaker stoppable_maker(AgentMaker make, ShouldStop should_stop);

}  // namespace nardy
