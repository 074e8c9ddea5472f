#include "selfplay/search/stop.h"

#include <utility>

namespace nardy {

StoppableAgent::StoppableAgent(std::unique_ptr<Agent> inner, ShouldStop should_stop)
    : inner_(std::move(inner)), should_stop_(std::move(should_stop)) {}

size_t StoppableAgent::choose(const Position& pos, Dice dice, const MoveList& moves, Rng& rng) {
  if (should_stop_ && should_stop_()) throw Stopped();
  return inner_->choose(pos, dice, moves, rng);
}

StoppableEvaluator::StoppableEvaluator(Evaluator& inner, ShouldStop should_stop)
    : inner_(inner), should_stop_(std::move(should_stop)) {}

void StoppableEvaluator::evaluate(const Position& base, std::span<const Position> positions,
                                  std::span<Evaluation> out) {
  if (should_stop_ && should_stop_()) throw Stopped();
  inner_.evaluate(base, positions, out);
}

AgentMaker stoppable_maker(AgentMaker make, ShouldStop should_stop) {
  if (!should_stop) return make;
  return
      [make = std::move(make), should_stop = std::move(should_stop)]() -> std::unique_ptr<Agent> {
        std::unique_ptr<Agent> agent = make();
        if (!agent) return nullptr;
        return std::make_unique<StoppableAgent>(std::move(agent), should_stop);
      };
}

}  // namespace nardy
