#include "selfplay/agents/agent.h"

#include <string>

#include "selfplay/agents/heuristic_agent.h"

namespace nardy {

std::unique_ptr<Agent> make_basic_agent(std::string_view spec) {
  if (spec == "random") return std::make_unique<RandomAgent>();
  if (spec == "heuristic") return std::make_unique<HeuristicAgent>();
  return nullptr;
}

Error unknown_agent_kind(std::string_view spec) {
  const std::string kind(spec.substr(0, spec.find(':')));
  return Error("agent " + quote(spec) + ": unknown agent kind " + quote(kind) +
               " (expected one of: random, heuristic, net:PATH[:...], model:NAME[:...], default)");
}

}  // namespace nardy
