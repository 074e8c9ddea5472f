// selfplay/search/agent_kinds.h — every kind of agent, by its spec string, in one place.
//
//   random                              uniformly random legal result (selfplay/agents/agent.h)
//   heuristic                           hand-written strategy (selfplay/agents/heuristic_agent.h)
//   net:PATH[:ply=N][:noise=S][:...]    a value-network checkpoint (selfplay/search/net_agent.h)
//   model:NAME[:ply=N][:...]            a model shipped in models/
//   (selfplay/search/shipped_models.h) default[:ply=N][:...]               the default shipped
//   model (model:<kDefaultModel>)
//
// Inside the program an agent travels as an AgentSpec: its text is parsed once, at the edge that
// reads it (the command line, Python, a config, the HTTP API, the engine protocol), and what
// follows passes the typed value. The text is kept for people and files.
//
// A new kind of agent is added here: a Kind, a branch in parse_agent_spec and make_agent, a
// line above, and its name in unknown_agent_kind's list (selfplay/agents/agent.cpp).
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

// An agent spec, parsed.
struct AgentSpec {
  enum class Kind { Random, Heuristic, Net };
  Kind kind = Kind::Random;
  // What the spec prints (Agent::spec(), label and benchmark headers): the text it was parsed
  // from, or what the builders below write.
  std::string text;
  std::string path;         // Net: the checkpoint (a model's file, found when parsed)
  NetAgentOptions options;  // Net
  bool is_net() const { return kind == Kind::Net; }
};

// Parses a spec. Throws Error naming it on an unknown kind, a bad option or a model not found.
AgentSpec parse_agent_spec(std::string_view text);
// The specs of a comma-separated list (split_agent_specs), each parsed.
std::vector<AgentSpec> parse_agent_specs(const std::string& list, const std::string& what);
// The texts of `specs` joined by commas: the list they were parsed from.
std::string agent_specs_text(const std::vector<AgentSpec>& specs);
// The net at `path` searching at `ply`: "net:PATH", then ":ply=N" when N > 0.
AgentSpec net_spec_at(const std::string& path, int ply);
// `spec` told not to use the race net (nets: race_net off, ":race_net=0" appended to the text);
// any other kind as it is. What a run or a build that does without the race net plays with.
AgentSpec without_race_net(AgentSpec spec);

// Creates an agent from its spec for the given rules. Throws Error naming the spec on an
// unknown kind, a bad option or a checkpoint that cannot be found or loaded. A net trained
// under other rules (its checkpoint's info.rules, rules_difference below) is used, with one
// warning on stderr per checkpoint and rules in the process.
std::unique_ptr<Agent> build_agent(const AgentSpec& spec, const Rules& rules);
// The same from the text (parse_agent_spec, then build_agent).
std::unique_ptr<Agent> make_agent(std::string_view spec, const Rules& rules);

// A maker of fresh agents of `spec` (one per worker thread), the spec checked here first, on
// the calling thread, so a bad spec is one clear error before any worker starts.
AgentMaker checked_agent_maker(const AgentSpec& spec, const Rules& rules);
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

// The text form of without_race_net (`:race_net=0` appended to a net's spec).
std::string without_race_net(std::string_view spec);

}  // namespace nardy
