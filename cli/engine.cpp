// `nardy engine --agent SPEC`: the line protocol of selfplay/protocol/engine_protocol.h on
// stdin/stdout.
#include <iostream>

#include "cli/command.h"
#include "selfplay/protocol/engine_protocol.h"
#include "selfplay/search/net_agent.h"
#include "selfplay/search/agent_kinds.h"

namespace nardy::cli {

void add_engine_command(CLI::App& app) {
  struct Args {
    std::string agent;
    std::vector<std::string> rules;
    uint64_t seed = 1;
  };
  auto a = std::make_shared<Args>();
  auto* cmd = app.add_subcommand(
      "engine",
      "Answer commands on stdin, one per line, flushing each reply (see docs/play.md, "
      "'Engine protocol'):\n"
      "  legal POS D1 D2  -> 'legal N' then N lines POS<TAB>NOTATION\n"
      "  move POS D1 D2   -> 'move POS<TAB>NOTATION' (the agent's choice)\n"
      "  eval POS         -> 'eval win=... win_mars=... lose_mars=... draw=... "
      "equity=...' (net agents)\n"
      "  quit\n"
      "POS is 'COUNTS SIDE'. Malformed input gets one line 'error <message>'.");
  add_agent_option(*cmd, a->agent, "Agent spec");
  add_seed_option(*cmd, a->seed, "Seed for agents that use randomness");
  add_rule_option(*cmd, a->rules);
  cmd->callback([a, cmd] {
    check_agent_available("engine", *cmd, a->agent);
    EngineOptions o;
    o.rules = rules_from(a->rules);
    o.seed = a->seed;
    auto agent = make_agent(a->agent, o.rules);
    std::ios::sync_with_stdio(false);
    run_engine(std::cin, std::cout, *agent, o);
  });
}

}  // namespace nardy::cli
