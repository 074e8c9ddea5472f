// selfplay/search/agent_kinds.h — every kind of agent, by its spec string, in one place.
//
//   random                              uniformly random legal result (selfplay/agents/agent.h)
//   heuristic                           hand-written strategy (selfplay/agents/heuristic_agent.h)
//   net:PATH[:ply=N][:noise=S][:...]    a value-network checkpoint (selfplay/search/net_agent.h)
//   model:NAME[:ply=N][:...]            a model shipped in models/
//   (selfplay/search/shipped_models.h) default[:ply=N][:...]               the default shipped
//   model (model:<kDefaultModel>)
//
// A new kind of agent is added here: a branch in make_agent, a line above, and its name in
// unknown_agent_kind's list (selfplay/agents/agent.cpp).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/rules.h"
#include "selfplay/agents/agent.h"
#include "selfplay/search/net_agent.h"

namespace nardy {

// Creates an agent from its spec for the given rules. Throws Error naming the spec on an
// unknown kind, a bad option or a checkpoint that cannot be found or loaded. A net trained
// under other rules (its checkpoint's info.rules, rules_difference below) is used, with one
// warning on stderr per checkpoint and rules in the process.
std::unique_ptr<Agent> make_agent(std::string_view spec, const Rules& rules);

// A maker of fresh agents of `spec` (one per worker thread), the spec checked here first, on
// the calling thread, so a bad spec is one clear error before any worker starts.
AgentMaker checked_agent_maker(const std::string& spec, const Rules& rules);

// The specs of a comma-separated list of agents ("random,heuristic,model:nardy-td-1:noise=0.3";
// specs hold no commas). Throws Error naming `what` and the list when an entry is empty.
std::vector<std::string> split_agent_specs(const std::string& list, const std::string& what);

// The rules in which `played` differs from `trained` (a checkpoint's CheckpointInfo::rules,
// Rules::to_string() form) that matter to a net's values — all but next_game_starter — as
// "head_exception=strict instead of standard, ..."; "" when none differ or the checkpoint
// does not say.
std::string rules_difference(const std::string& trained, const Rules& played);

// The checkpoint path and options of a spec that names a net (net:, model:, default); nullopt
// for every other kind. Throws Error naming the spec on bad options or a model not found.
std::optional<NetAgentSpec> net_agent_spec(std::string_view spec);

// `spec` told not to use the race net (net agents: `:race_net=0` appended, net_agent.h); any
// other kind as it is. What a run or a build that does without the race net plays with.
std::string without_race_net(std::string_view spec);

}  // namespace nardy
