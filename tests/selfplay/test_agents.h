// Hand-written agents for arena and rollout tests (no network needed).
#pragma once

#include <memory>
#include <string>

#include "selfplay/agents/agent.h"

namespace nardy::testing {

// Bears off as much as it can, then leaves the most of its checkers off the head and the fewest
// pips: a deterministic crude racer that beats uniformly random play clearly.
class RacerAgent final : public Agent {
 public:
  size_t choose(const Position& pos, Dice, const MoveList& moves, Rng&) override {
    const Side me = pos.side_to_move();
    size_t best = 0;
    double best_score = -1e9;
    for (size_t i = 0; i < moves.size(); ++i) {
      const Position& p = moves[i].position;
      const double s = 100.0 * p.off(me) - p.pips(me) - 3.0 * p.on_head(me);
      if (s > best_score) best_score = s, best = i;
    }
    return best;
  }
  std::string spec() const override { return "test-racer"; }
};

inline AgentMaker racer() {
  return [] { return std::make_unique<RacerAgent>(); };
}

}  // namespace nardy::testing
