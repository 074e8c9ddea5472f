#include "selfplay/agent.h"

#include <map>
#include <mutex>

#include "core/error.h"
#include "selfplay/heuristic_agent.h"

namespace nardy {
namespace {

std::mutex& registry_mutex() {
  static std::mutex m;
  return m;
}
std::map<std::string, AgentFactory>& registry() {
  static std::map<std::string, AgentFactory> r;
  return r;
}

}  // namespace

void register_agent_kind(const std::string& prefix, AgentFactory factory) {
  std::lock_guard lock(registry_mutex());
  registry()[prefix] = std::move(factory);
}

std::unique_ptr<Agent> make_agent(std::string_view spec, const Rules& rules) {
  if (spec == "random") return std::make_unique<RandomAgent>();
  if (spec == "heuristic") return std::make_unique<HeuristicAgent>();
  (void)rules;
  auto colon = spec.find(':');
  std::string kind(spec.substr(0, colon));
  AgentFactory factory;
  {
    std::lock_guard lock(registry_mutex());
    auto it = registry().find(kind);
    if (it != registry().end()) factory = it->second;
  }
  if (!factory) {
    std::string known = "random, heuristic";
    {
      std::lock_guard lock(registry_mutex());
      for (const auto& [k, f] : registry()) known += ", " + k + ":...";
    }
    throw Error("agent '" + std::string(spec) + "': unknown agent kind '" + kind +
                "' (expected one of: " + known + ")");
  }
  std::string_view args = colon == std::string_view::npos ? std::string_view{} : spec.substr(colon + 1);
  return factory(args, rules);
}

}  // namespace nardy
