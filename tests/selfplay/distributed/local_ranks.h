// Test helper: R ranks of a real c10d Gloo World inside one test process, one thread per rank,
// meeting through a TCPStore on 127.0.0.1 (the code path torchrun's processes take, without
// starting processes).
#pragma once

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <exception>
#include <functional>
#include <memory>
#include <stdexcept>
#include <thread>
#include <vector>

#include "selfplay/distributed/world_env.h"

namespace nardy::testing {

// A TCP port on 127.0.0.1 that was free a moment ago.
inline int free_port() {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  socklen_t len = sizeof addr;
  if (fd < 0 || bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
      getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0)
    throw std::runtime_error("free_port: no port");
  close(fd);
  return ntohs(addr.sin_port);
}

inline WorldEnv local_env(int rank, int size, int port, double timeout_s) {
  WorldEnv e;
  e.rank = rank;
  e.size = size;
  e.master_addr = "127.0.0.1";
  e.master_port = port;
  e.timeout_s = timeout_s;
  return e;
}

// Runs body(world) on `size` ranks at once and returns each rank's result, in rank order.
// An exception on any rank is rethrown (the lowest rank's) after every rank has finished.
template <class T>
std::vector<T> on_local_ranks(int size, const std::function<T(World&)>& body,
                              double timeout_s = 60) {
  const int port = free_port();
  std::vector<T> results(static_cast<size_t>(size));
  std::vector<std::exception_ptr> errors(static_cast<size_t>(size));
  std::vector<std::thread> ranks;
  for (int r = 0; r < size; ++r)
    ranks.emplace_back([&, r] {
      try {
        std::unique_ptr<World> world = make_world(local_env(r, size, port, timeout_s));
        results[static_cast<size_t>(r)] = body(*world);
      } catch (...) {
        errors[static_cast<size_t>(r)] = std::current_exception();
      }
    });
  for (auto& t : ranks) t.join();
  for (auto& e : errors)
    if (e) std::rethrow_exception(e);
  return results;
}

}  // namespace nardy::testing
