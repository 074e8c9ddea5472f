// `nardy serve [--agent SPEC] [--host H] [--port P]`: the JSON API and the web board
// (selfplay/protocol/http_api.h) on a local HTTP port.
#include <iostream>

#include "cli/command.h"
#include "selfplay/protocol/http_api.h"
#include "selfplay/protocol/http_server.h"

namespace nardy::cli {

void add_serve_command(CLI::App& app) {
  struct Args {
    std::string agent, host = "127.0.0.1";
    int port = 8080;
    std::vector<std::string> rules;
    uint64_t seed = 1;
    int64_t trials = 360;
  };
  auto a = std::make_shared<Args>();
  auto* cmd = app.add_subcommand(
      "serve",
      "Serve a web board to play the agent (http://HOST:PORT/) and a JSON API (/api/legal, "
      "/api/move,\n/api/eval, /api/analyze, /api/show, ...; see docs/web-api.md). Runs until "
      "stopped.");
  add_agent_option(*cmd, a->agent, "Agent spec");
  cmd->add_option("--host", a->host, "Address to bind (other machines can reach 0.0.0.0)")
      ->capture_default_str();
  cmd->add_option("--port", a->port, "Port (0: any free port)")
      ->capture_default_str()
      ->check(CLI::Range(0, 65535));
  cmd->add_option("--seed", a->seed, "Default seed for agents and rollouts")->capture_default_str();
  cmd->add_option("--trials", a->trials,
                  "Default rollout trials for /api/eval and /api/analyze (agents without a net)")
      ->capture_default_str()
      ->check(CLI::Range(int64_t{1}, int64_t{10000}));
  add_rule_option(*cmd, a->rules);
  cmd->callback([a, cmd] {
    check_agent_available("serve", *cmd, a->agent);
    HttpApiOptions o;
    o.agent = a->agent;
    o.rules = rules_from(a->rules);
    o.seed = a->seed;
    o.default_trials = a->trials;
    HttpApi api(o);
    HttpServer server(api, {a->host, a->port});
    std::cout << "nardy serve: agent " << a->agent << ", http://" << a->host << ":" << server.port()
              << "/" << std::endl;
    server.run();
  });
}

}  // namespace nardy::cli
