// selfplay/distributed/world_env.h — the World a process belongs to, from the environment a
// launcher sets (torchrun, or the same variables set by hand or by a test).
//
// Variables (torchrun sets all but the last):
//   WORLD_SIZE     number of ranks; unset: a single process (SingleProcessWorld)
//   RANK           this process's rank, 0 .. WORLD_SIZE - 1
//   MASTER_ADDR    host of the rendezvous store (c10d TCPStore)
//   MASTER_PORT    its port
//   TORCHELASTIC_USE_AGENT_STORE / TORCHELASTIC_RESTART_COUNT
//                  "True" when torchrun's agent already hosts the store (its static rendezvous):
//                  every rank is then a client, under the key prefix of the restart attempt;
//                  otherwise rank 0 hosts the store on MASTER_PORT (torchrun's c10d rendezvous,
//                  and hand-set variables)
//   NARDY_DIST_TIMEOUT
//                  seconds (default 300) a rank waits for the others — at the rendezvous and in
//                  every collective — before it stops with an error; also how long a dead or hung
//                  rank can go unnoticed. It must exceed the longest stretch one rank works
//                  between two collectives (a training round, one rank's share of a match).
//   GLOO_SOCKET_IFNAME
//                  network interface for Gloo's connections (as in PyTorch); unset: the address
//                  MASTER_ADDR resolves to when it is a loopback address, else the host name's.
#pragma once

#include <memory>
#include <string>

#include "selfplay/distributed/world.h"

namespace nardy {

// Bounds on the environment: a world of more ranks than this (a full Gloo mesh: every rank
// connects to every other) is refused as a mistake, and so is a timeout that would overflow its
// conversion to milliseconds (a week is far beyond any stage's wait).
inline constexpr int kMaxWorldSize = 1024;
inline constexpr double kMaxDistTimeoutSeconds = 7 * 24 * 3600;

struct WorldEnv {
  int rank = 0;
  int size = 1;
  std::string master_addr;
  int master_port = 0;
  bool agent_store = false;  // torchrun's agent hosts the store (all ranks are clients)
  std::string store_prefix;  // key prefix within the agent's store ("" otherwise)
  double timeout_s = 300;
  std::string socket_ifname;  // GLOO_SOCKET_IFNAME ("" when unset)
};

// Parses the variables above through getenv. Throws Error naming the variable and its value
// when one is missing or malformed (e.g. RANK outside 0 .. WORLD_SIZE - 1, RANK or LOCAL_RANK
// without WORLD_SIZE, WORLD_SIZE above kMaxWorldSize, NARDY_DIST_TIMEOUT above
// kMaxDistTimeoutSeconds).
WorldEnv world_env_from_environment();

// SingleProcessWorld when env.size == 1, else a c10d Gloo world (rendezvous included: it returns
// once every rank has connected, or throws Error after env.timeout_s).
// Implemented in world_gloo.cpp.
std::unique_ptr<World> make_world(const WorldEnv& env);

}  // namespace nardy
