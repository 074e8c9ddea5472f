#include "selfplay/search/agent_kinds.h"

#include <cstdio>
#include <mutex>
#include <set>
#include <string>

#include "core/error.h"
#include "selfplay/search/shipped_models.h"

namespace nardy {

std::optional<NetAgentSpec> net_agent_spec(std::string_view spec) {
  if (spec.starts_with("net:")) return parse_net_agent_spec(spec.substr(4), spec);
  std::string_view name, options;
  if (spec == "default" || spec.starts_with("default:")) {
    name = kDefaultModel;
    options = spec.substr(7);
  } else if (spec.starts_with("model:")) {
    const std::string_view rest = spec.substr(6);
    const size_t colon = rest.find(':');
    name = rest.substr(0, colon);
    options = colon == std::string_view::npos ? std::string_view{} : rest.substr(colon);
  } else {
    return std::nullopt;
  }
  std::string path;
  try {
    path = find_model(name);
  } catch (const Error& e) {
    throw Error("agent " + quote(spec) + ": " + e.what());
  }
  return parse_net_agent_spec(path + std::string(options), spec);
}

std::vector<std::string> split_agent_specs(const std::string& list, const std::string& what) {
  std::vector<std::string> specs;
  std::string rest = list;
  for (size_t comma; (comma = rest.find(',')) != std::string::npos; rest.erase(0, comma + 1))
    specs.push_back(rest.substr(0, comma));
  specs.push_back(rest);
  for (const auto& s : specs)
    if (s.empty())
      throw Error(what + " '" + list +
                  "' has an empty agent spec (a comma-separated list of specs is expected)");
  return specs;
}

AgentSpec parse_agent_spec(std::string_view text) {
  AgentSpec s;
  s.text = std::string(text);
  if (text == "random") {
    s.kind = AgentSpec::Kind::Random;
  } else if (text == "heuristic") {
    s.kind = AgentSpec::Kind::Heuristic;
  } else if (auto net = net_agent_spec(text)) {
    s.kind = AgentSpec::Kind::Net;
    s.path = std::move(net->path);
    s.options = net->options;
  } else {
    throw unknown_agent_kind(text);
  }
  return s;
}

std::vector<AgentSpec> parse_agent_specs(const std::string& list, const std::string& what) {
  std::vector<AgentSpec> specs;
  for (const std::string& text : split_agent_specs(list, what))
    specs.push_back(parse_agent_spec(text));
  return specs;
}

std::string agent_specs_text(const std::vector<AgentSpec>& specs) {
  std::string s;
  for (const AgentSpec& spec : specs) s += (s.empty() ? "" : ",") + spec.text;
  return s;
}

AgentSpec net_spec_at(const std::string& path, int ply) {
  AgentSpec s;
  s.kind = AgentSpec::Kind::Net;
  s.path = path;
  s.options.ply = ply;
  s.text = "net:" + path + (ply > 0 ? ":ply=" + std::to_string(ply) : "");
  return s;
}

AgentSpec without_race_net(AgentSpec spec) {
  if (!spec.is_net()) return spec;
  spec.options.race_net = false;
  spec.text += ":race_net=0";
  return spec;
}

AgentMaker checked_agent_maker(const AgentSpec& spec, const Rules& rules) {
  build_agent(spec, rules);
  return [spec, rules] { return build_agent(spec, rules); };
}

AgentMaker checked_agent_maker(const std::string& spec, const Rules& rules) {
  return checked_agent_maker(parse_agent_spec(spec), rules);
}

std::string rules_difference(const std::string& trained, const Rules& played) {
  if (trained.empty()) return "";  // a checkpoint that does not say
  Rules t;
  try {
    t = Rules::parse(trained);
  } catch (const Error&) {
    return "";  // rules of a newer nardy: the loader already accepted the file
  }
  std::string diff;
  for (const std::string& key : Rules::keys()) {
    if (key == "next_game_starter") continue;  // who starts the next game: not the net's business
    if (t.get(key) != played.get(key))
      diff +=
          (diff.empty() ? "" : ", ") + key + "=" + played.get(key) + " instead of " + t.get(key);
  }
  return diff;
}

namespace {

// Once per checkpoint and rules in a process: agents are made per thread and per game.
void warn_other_rules(const ValueNet& net, const std::string& path, std::string_view spec,
                      const Rules& rules) {
  const std::string diff = rules_difference(net.info().rules, rules);
  if (diff.empty()) return;
  static std::mutex mu;
  static std::set<std::string> warned;
  std::lock_guard<std::mutex> lock(mu);
  if (!warned.insert(path + "\n" + rules.to_string()).second) return;
  // The shipped model for the rules whose last roll can draw (models/README.md).
  const bool draw_model = rules.last_roll_draw && rules.opening == Opening::NoDoubles &&
                          rules.head_exception == HeadException::Standard &&
                          net.shape().num_outputs == 3;
  const std::string advice =
      draw_model ? "model:" + std::string(kDrawModel) + " is trained for these rules"
                 : "train a net for these rules: docs/training.md";
  std::fprintf(stderr,
               "warning: agent '%.*s' plays under rules it was not trained for: %s; its values "
               "may be off (%s)\n",
               static_cast<int>(spec.size()), spec.data(), diff.c_str(), advice.c_str());
}

}  // namespace

std::unique_ptr<Agent> build_agent(const AgentSpec& spec, const Rules& rules) {
  switch (spec.kind) {
    case AgentSpec::Kind::Random:
    case AgentSpec::Kind::Heuristic:
      return make_basic_agent(spec.text);
    case AgentSpec::Kind::Net: {
      ValueNet net = [&] {
        try {
          return load_shared_net(spec.path);
        } catch (const Error& e) {
          throw Error("agent " + quote(spec.text) + ": " + e.what());
        }
      }();
      warn_other_rules(net, spec.path, spec.text, rules);
      return make_net_agent(net, spec.options, rules, spec.text);
    }
  }
  throw unknown_agent_kind(spec.text);
}

std::unique_ptr<Agent> make_agent(std::string_view spec, const Rules& rules) {
  return build_agent(parse_agent_spec(spec), rules);
}

std::string without_race_net(std::string_view spec) {
  return without_race_net(parse_agent_spec(spec)).text;
}

}  // namespace nardy
