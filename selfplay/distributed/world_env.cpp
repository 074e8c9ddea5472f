#include "selfplay/distributed/world_env.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>

#include "core/error.h"

namespace nardy {

namespace {

const char* env(const char* name) {
  const char* v = std::getenv(name);
  return v && *v ? v : nullptr;
}

[[noreturn]] void bad(const char* name, const std::string& value, const std::string& problem) {
  throw Error(std::string("distributed: environment variable ") + name + "=" + quote(value) + " " +
              problem);
}

int64_t int_var(const char* name, int64_t lo, int64_t hi) {
  const char* v = env(name);
  if (!v)
    throw Error(std::string("distributed: WORLD_SIZE is set but ") + name +
                " is not (launch with torchrun, or set RANK, WORLD_SIZE, MASTER_ADDR and "
                "MASTER_PORT)");
  char* end = nullptr;
  errno = 0;
  const long long x = std::strtoll(v, &end, 10);
  if (errno != 0 || end == v || *end != '\0') bad(name, v, "is not an integer");
  if (x < lo || x > hi)
    bad(name, v, "is out of range " + std::to_string(lo) + ".." + std::to_string(hi));
  return x;
}

}  // namespace

WorldEnv world_env_from_environment() {
  WorldEnv e;
  if (const char* t = env("NARDY_DIST_TIMEOUT")) {
    char* end = nullptr;
    const double s = std::strtod(t, &end);
    if (end == t || *end != '\0' || !std::isfinite(s) || s <= 0)
      bad("NARDY_DIST_TIMEOUT", t, "is not a positive number of seconds");
    // Converted to milliseconds for the store and Gloo: bounded so the conversion cannot overflow.
    if (s < 0.001 || s > kMaxDistTimeoutSeconds)
      bad("NARDY_DIST_TIMEOUT", t,
          "is out of range 0.001.." + std::to_string(static_cast<int64_t>(kMaxDistTimeoutSeconds)) +
              " seconds");
    e.timeout_s = s;
  }
  if (!env("WORLD_SIZE")) {
    // RANK (or LOCAL_RANK) alone is an incomplete torchrun environment, not a one-process run.
    for (const char* name : {"RANK", "LOCAL_RANK"})
      if (const char* v = env(name))
        bad(name, v,
            "is set but WORLD_SIZE is not (launch with torchrun, or set RANK, WORLD_SIZE, "
            "MASTER_ADDR and MASTER_PORT together)");
    return e;
  }
  e.size = static_cast<int>(int_var("WORLD_SIZE", 1, kMaxWorldSize));
  e.rank = static_cast<int>(int_var("RANK", 0, e.size - 1));
  if (e.size == 1) return e;
  const char* addr = env("MASTER_ADDR");
  if (!addr)
    throw Error("distributed: WORLD_SIZE is set but MASTER_ADDR is not (the host of rank 0)");
  e.master_addr = addr;
  e.master_port = static_cast<int>(int_var("MASTER_PORT", 1, 65535));
  if (const char* a = env("TORCHELASTIC_USE_AGENT_STORE")) e.agent_store = std::string(a) == "True";
  if (e.agent_store)
    e.store_prefix =
        "/worker/attempt_" + std::to_string(int_var("TORCHELASTIC_RESTART_COUNT", 0, 1 << 30));
  if (const char* i = env("GLOO_SOCKET_IFNAME")) e.socket_ifname = i;
  return e;
}

}  // namespace nardy
