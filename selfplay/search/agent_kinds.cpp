#include "selfplay/search/agent_kinds.h"

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

AgentMaker checked_agent_maker(const std::string& spec, const Rules& rules) {
  make_agent(spec, rules);
  return [spec, rules] { return make_agent(spec, rules); };
}

std::unique_ptr<Agent> make_agent(std::string_view spec, const Rules& rules) {
  if (auto basic = make_basic_agent(spec)) return basic;
  if (auto net_spec = net_agent_spec(spec)) {
    ValueNet net = [&] {
      try {
        return load_shared_net(net_spec->path);
      } catch (const Error& e) {
        throw Error("agent " + quote(spec) + ": " + e.what());
      }
    }();
    return make_net_agent(net, net_spec->options, rules, std::string(spec));
  }
  throw unknown_agent_kind(spec);
}

}  // namespace nardy
