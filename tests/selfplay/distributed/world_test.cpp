// World: the single process and c10d Gloo ranks agree on every collective's result; the block
// split; the launcher's variables; a hung rank makes the others fail within the timeout.
#include "selfplay/distributed/world.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <string>
#include <thread>

#include "core/error.h"
#include "selfplay/distributed/world_env.h"
#include "tests/selfplay/distributed/local_ranks.h"
#include "tests/support/error_of.h"

namespace nardy {
namespace {

using testing::on_local_ranks;

TEST(World, BlocksCoverTheRangeInRankOrder) {
  for (int size : {1, 2, 3, 7})
    for (int64_t count : {0, 1, 5, 6, 100}) {
      int64_t next = 0;
      for (int r = 0; r < size; ++r) {
        const IndexRange b = block_of(count, r, size);
        EXPECT_EQ(b.begin, next);
        EXPECT_GE(b.size(), count / size);
        EXPECT_LE(b.size(), count / size + 1);
        next = b.end;
      }
      EXPECT_EQ(next, count);
    }
  EXPECT_THROW(block_of(5, 2, 2), Error);
}

TEST(World, SingleProcessCollectivesAreCopies) {
  World& w = single_process_world();
  EXPECT_EQ(w.size(), 1);
  const std::vector<float> mine = {1.5f, -2};
  std::vector<float> all(2);
  w.all_gather(mine, all);
  EXPECT_EQ(all, mine);
  EXPECT_EQ(w.all_gather_bytes("abc"), std::vector<std::string>{"abc"});
  std::string data = "x";
  w.broadcast(data, 0);
  EXPECT_EQ(data, "x");
  std::vector<float> wrong(3);
  EXPECT_THROW(w.all_gather(mine, wrong), Error);
}

TEST(World, GlooRanksGatherAndBroadcastInRankOrder) {
  struct Seen {
    std::vector<float> floats;
    std::vector<std::string> bytes;
    std::string broadcast;
  };
  const auto seen = on_local_ranks<Seen>(3, [](World& w) {
    Seen s;
    const std::vector<float> mine = {static_cast<float>(w.rank()), 0.5f * w.rank()};
    s.floats.resize(6);
    w.all_gather(mine, s.floats);
    // Lengths differ by rank, and rank 1 sends nothing.
    s.bytes = w.all_gather_bytes(
        std::string(w.rank() == 1 ? 0 : 10 * w.rank() + 1, static_cast<char>('a' + w.rank())));
    s.broadcast = w.rank() == 2 ? std::string("from two\0with a zero", 20) : "ignored";
    w.broadcast(s.broadcast, 2);
    w.barrier();
    return s;
  });
  for (const Seen& s : seen) {
    EXPECT_EQ(s.floats, (std::vector<float>{0, 0, 1, 0.5f, 2, 1}));
    EXPECT_EQ(s.bytes, (std::vector<std::string>{"a", "", std::string(21, 'c')}));
    EXPECT_EQ(s.broadcast, std::string("from two\0with a zero", 20));
  }
}

TEST(World, AHungRankMakesTheOthersFailWithinTheTimeout) {
  const auto t0 = std::chrono::steady_clock::now();
  const auto messages = on_local_ranks<std::string>(
      2,
      [](World& w) -> std::string {
        try {
          if (w.rank() == 1) std::this_thread::sleep_for(std::chrono::seconds(12));
          std::vector<float> all(2);
          const float mine[1] = {1};
          w.all_gather(mine, all);
          return "completed";
        } catch (const Error& e) {
          return e.what();
        }
      },
      /*timeout_s=*/5);  // long enough for the rendezvous on a busy machine
  const double waited =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_NE(messages[0].find("rank 0 of 2"), std::string::npos) << messages[0];
  EXPECT_NE(messages[0].find("all-gather"), std::string::npos) << messages[0];
  EXPECT_NE(messages[0].find("NARDY_DIST_TIMEOUT"), std::string::npos) << messages[0];
  EXPECT_NE(messages[1], "completed");
  EXPECT_LT(waited, 30);
}

TEST(World, RanksStartedWithOtherArgumentsAreRefusedNamingTheArgument) {
  // Rank 1 was started with --games 8 where rank 0 has --games 4: every rank stops.
  const auto messages = on_local_ranks<std::string>(
      3,
      [](World& w) -> std::string {
        std::vector<std::string> args = {"eval", "heuristic", "random", "--games", "4"};
        if (w.rank() == 1) args[4] = "8";
        try {
          require_same_command(w, args);
          return "agreed";
        } catch (const Error& e) {
          return e.what();
        }
      },
      30);
  for (const std::string& m : messages) {
    EXPECT_NE(m.find("rank 1 runs another command than rank 0: argument 5 is '8' there and '4'"),
              std::string::npos)
        << m;
    EXPECT_NE(m.find("`eval heuristic random --games 4`"), std::string::npos) << m;
  }
  // One argument fewer is named as well; the same arguments agree.
  const auto shorter = on_local_ranks<std::string>(2, [](World& w) -> std::string {
    std::vector<std::string> args = {"eval", "a", "b", "--seed", "3"};
    if (w.rank() == 1) args.pop_back();
    try {
      require_same_command(w, args);
      return "agreed";
    } catch (const Error& e) {
      return e.what();
    }
  });
  EXPECT_NE(shorter[0].find("argument 5 is nothing there and '3' on rank 0"), std::string::npos)
      << shorter[0];
  const auto same = on_local_ranks<std::string>(2, [](World& w) -> std::string {
    require_same_command(w, {"eval", "a", "b"});
    return "agreed";
  });
  EXPECT_EQ(same, (std::vector<std::string>{"agreed", "agreed"}));
  EXPECT_NO_THROW(require_same_command(single_process_world(), {"anything"}));
}

struct EnvGuard {
  explicit EnvGuard(std::vector<std::pair<const char*, const char*>> vars) {
    for (const char* n :
         {"WORLD_SIZE", "RANK", "MASTER_ADDR", "MASTER_PORT", "TORCHELASTIC_USE_AGENT_STORE",
          "TORCHELASTIC_RESTART_COUNT", "NARDY_DIST_TIMEOUT", "GLOO_SOCKET_IFNAME", "LOCAL_RANK"})
      unsetenv(n);
    for (auto [n, v] : vars) setenv(n, v, 1);
  }
  ~EnvGuard() {
    for (const char* n :
         {"WORLD_SIZE", "RANK", "MASTER_ADDR", "MASTER_PORT", "TORCHELASTIC_USE_AGENT_STORE",
          "TORCHELASTIC_RESTART_COUNT", "NARDY_DIST_TIMEOUT", "LOCAL_RANK"})
      unsetenv(n);
  }
};

TEST(WorldEnv, WithoutTheVariablesItIsOneProcess) {
  EnvGuard g({});
  const WorldEnv e = world_env_from_environment();
  EXPECT_EQ(e.size, 1);
  EXPECT_EQ(e.rank, 0);
  EXPECT_EQ(make_world(e)->size(), 1);
}

TEST(WorldEnv, ReadsTorchrunsVariables) {
  EnvGuard g({{"WORLD_SIZE", "4"},
              {"RANK", "3"},
              {"MASTER_ADDR", "10.0.0.1"},
              {"MASTER_PORT", "29400"},
              {"TORCHELASTIC_USE_AGENT_STORE", "True"},
              {"TORCHELASTIC_RESTART_COUNT", "2"},
              {"NARDY_DIST_TIMEOUT", "12.5"}});
  const WorldEnv e = world_env_from_environment();
  EXPECT_EQ(e.size, 4);
  EXPECT_EQ(e.rank, 3);
  EXPECT_EQ(e.master_addr, "10.0.0.1");
  EXPECT_EQ(e.master_port, 29400);
  EXPECT_TRUE(e.agent_store);
  EXPECT_EQ(e.store_prefix, "/worker/attempt_2");
  EXPECT_DOUBLE_EQ(e.timeout_s, 12.5);
}

TEST(WorldEnv, BadVariablesAreNamed) {
  auto message = [](std::vector<std::pair<const char*, const char*>> vars) {
    EnvGuard g(std::move(vars));
    return testing::error_of([] { world_env_from_environment(); });
  };
  EXPECT_NE(message({{"WORLD_SIZE", "2"}}).find("RANK"), std::string::npos);
  EXPECT_NE(message({{"WORLD_SIZE", "2"}, {"RANK", "2"}}).find("RANK='2'"), std::string::npos);
  EXPECT_NE(message({{"WORLD_SIZE", "two"}}).find("WORLD_SIZE='two'"), std::string::npos);
  EXPECT_NE(message({{"WORLD_SIZE", "2"}, {"RANK", "0"}}).find("MASTER_ADDR"), std::string::npos);
  EXPECT_NE(message({{"WORLD_SIZE", "2"}, {"RANK", "0"}, {"MASTER_ADDR", "h"}}).find("MASTER_PORT"),
            std::string::npos);
  EXPECT_NE(message({{"NARDY_DIST_TIMEOUT", "-1"}}).find("NARDY_DIST_TIMEOUT"), std::string::npos);
}

TEST(WorldEnv, IncompleteOrOutOfRangeVariablesAreRefused) {
  auto message = [](std::vector<std::pair<const char*, const char*>> vars) {
    EnvGuard g(std::move(vars));
    return testing::error_of([] { world_env_from_environment(); });
  };
  // A rank without a world is not a one-process run.
  for (const char* rank : {"0", "5", "-1"}) {
    const std::string m = message({{"RANK", rank}});
    EXPECT_NE(m.find("RANK='" + std::string(rank) + "'"), std::string::npos) << m;
    EXPECT_NE(m.find("WORLD_SIZE is not"), std::string::npos) << m;
  }
  EXPECT_NE(message({{"LOCAL_RANK", "1"}}).find("LOCAL_RANK='1'"), std::string::npos);
  // Worlds past the bound, and timeouts whose milliseconds would overflow.
  EXPECT_NE(message({{"WORLD_SIZE", "10000"}, {"RANK", "0"}}).find("out of range 1..1024"),
            std::string::npos);
  EXPECT_NE(message({{"WORLD_SIZE", "1048576"}, {"RANK", "0"}}).find("WORLD_SIZE"),
            std::string::npos);
  for (const char* t : {"1e17", "1e300", "0.0000001"}) {
    const std::string m = message({{"NARDY_DIST_TIMEOUT", t}});
    EXPECT_NE(m.find("is out of range"), std::string::npos) << m;
  }
  EnvGuard g({{"NARDY_DIST_TIMEOUT", "604800"}, {"WORLD_SIZE", "1"}, {"RANK", "0"}});
  EXPECT_DOUBLE_EQ(world_env_from_environment().timeout_s, 604800);
}

}  // namespace
}  // namespace nardy
