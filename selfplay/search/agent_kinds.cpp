#include "selfplay/search/agent_kinds.h"

#include "selfplay/search/net_agent.h"

namespace nardy {

std::unique_ptr<Agent> make_agent(std::string_view spec, const Rules& rules) {
  if (auto basic = make_basic_agent(spec)) return basic;
  if (spec.starts_with("net:")) return make_net_agent_from_spec(spec.substr(4), rules);
  throw unknown_agent_kind(spec);
}

}  // namespace nardy
