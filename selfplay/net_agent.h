// selfplay/net_agent.h — agents that play with a value network.
//
// Spec: net:PATH[:ply=N][:noise=S][:filter=K,D]  (registered with make_agent by this file's
// implementation; see register_net_agents()).
//   ply=0 (default)  greedy: the legal result with the best equity for the mover, one batched
//                    evaluation of all candidates.
//   ply=N            expectimax over the 21 distinct rolls to depth N with gnubg-style move
//                    filters (selfplay/search.h).
//   noise=S          Gaussian noise of standard deviation S (points of equity) added to each
//                    candidate's equity: weaker, more varied play.
// A NetAgent holds its own copy of the net's parameters (or shares a net when constructed
// from one, for in-memory evaluation during training) and its own evaluation cache.
#pragma once

#include <memory>
#include <string>

#include "nn/value_net.h"
#include "selfplay/agent.h"

namespace nardy {

struct NetAgentOptions {
  int ply = 0;
  double noise = 0.0;
  int filter_keep = 8;        // move filter: candidates kept at each search level
  double filter_delta = 0.16; // ... within this equity of the best
};

// A greedy or searching agent on `net` (shared, not copied: keep it alive and unchanged while
// the agent plays, or pass a clone()).
std::unique_ptr<Agent> make_net_agent(const ValueNet& net, const NetAgentOptions& options,
                                      const Rules& rules, const std::string& spec = "net:<memory>");

// Registers the "net" kind with make_agent() (idempotent; called by the CLI and the bindings).
void register_net_agents();

}  // namespace nardy
