// The jobs split across c10d Gloo ranks give the single process's result bit for bit: TD rounds
// (R ranks × T threads == one process of R·T threads), matches (with and without an SPRT) and
// rollouts; a failure on one rank stops every rank.
#include <gtest/gtest.h>

#include <stdexcept>

#include "core/error.h"
#include "core/pos_text.h"
#include "nn/delta_merge.h"
#include "selfplay/evaluation/arena.h"
#include "selfplay/evaluation/rollout.h"
#include "selfplay/search/agent_kinds.h"
#include "selfplay/training/td_trainer.h"
#include "selfplay/training/td_workers.h"
#include "tests/nn/test_nets.h"
#include "tests/selfplay/distributed/local_ranks.h"

namespace nardy {
namespace {

using testing::all_parameters;
using testing::on_local_ranks;

const NetShape kShape{"raw-v1", {12}, Activation::Sigmoid, 3};

TdGameSetup setup_of(int64_t g) {
  return TdGameSetup{game_rng(9, g), TdGameParams{0.05f + 0.01f * static_cast<float>(g % 3),
                                                  g % 2 ? 0.6f : 0.8f, g % 4 == 0 ? 0.1f : 0.0f}};
}

struct Trained {
  std::vector<float> params;
  TdPlayStats stats;
};

// Games [0, 23) then [23, 41): the second call starts mid-round of the first's size.
Trained train_on(World* world, int threads) {
  ValueNet net = ValueNet::create(kShape, 7);
  TdWorkers workers(net, Rules{}, "fast", threads, 3, world);
  TdPlayStats s = workers.play(0, 23, setup_of);
  s.add(workers.play(23, 41, setup_of));
  return {all_parameters(net), s};
}

void expect_same(const Trained& a, const Trained& b) {
  EXPECT_EQ(a.params, b.params);
  EXPECT_EQ(a.stats.games, b.stats.games);
  EXPECT_EQ(a.stats.turns, b.stats.turns);
  EXPECT_EQ(a.stats.updates, b.stats.updates);
  EXPECT_EQ(a.stats.abs_td_error, b.stats.abs_td_error);  // summed in worker order: same bits
}

TEST(DistributedTd, TwoRanksOfOneThreadTrainLikeOneProcessOfTwoThreads) {
  const Trained one = train_on(nullptr, 2);
  const auto ranks = on_local_ranks<Trained>(2, [](World& w) { return train_on(&w, 1); });
  EXPECT_EQ(one.stats.games, 41);
  for (const Trained& r : ranks) expect_same(r, one);
  // And not like one thread: the round structure matters.
  EXPECT_NE(train_on(nullptr, 1).params, one.params);
}

TEST(DistributedTd, ThreeRanksOfTwoThreadsTrainLikeOneProcessOfSixThreads) {
  const Trained one = train_on(nullptr, 6);
  const auto ranks = on_local_ranks<Trained>(3, [](World& w) { return train_on(&w, 2); });
  for (const Trained& r : ranks) expect_same(r, one);
}

TEST(DistributedTd, AFailingWorkerOnOneRankStopsEveryRank) {
  const auto messages = on_local_ranks<std::string>(2, [](World& w) -> std::string {
    ValueNet net = ValueNet::create(kShape, 7);
    TdWorkers workers(net, Rules{}, "fast", 1, 2, &w);
    try {
      workers.play(0, 20, [&](int64_t g) {
        if (g == 9 && w.rank() == 1) throw Error("game 9 is broken");
        return setup_of(g);
      });
      return "completed";
    } catch (const Error& e) {
      return e.what();
    }
  });
  EXPECT_EQ(messages[1], "game 9 is broken");
  EXPECT_NE(messages[0].find("rank 1 of 2 failed"), std::string::npos) << messages[0];
}

TEST(DistributedTd, AStopOnOneRankStopsEveryRankAtTheSameRound) {
  const auto games = on_local_ranks<int64_t>(2, [](World& w) {
    ValueNet net = ValueNet::create(kShape, 7);
    TdWorkers workers(net, Rules{}, "fast", 1, 2, &w);
    std::atomic<bool> stop{false};
    return workers
        .play(
            0, 100,
            [&](int64_t g) {
              if (g >= 5 && w.rank() == 0) stop = true;
              return setup_of(g);
            },
            &stop)
        .games;
  });
  EXPECT_EQ(games[0], games[1]);
  EXPECT_EQ(games[0] % 4, 0);  // whole rounds of 2 ranks x 2 games
  EXPECT_LT(games[0], 100);
}

ArenaOptions match_options(int64_t games) {
  ArenaOptions o;
  o.games = games;
  o.threads = 2;
  o.seed = 17;
  return o;
}

TEST(DistributedArena, RanksSplitThePairsAndAgreeWithOneProcess) {
  const ArenaResult one = run_arena("heuristic", "random", match_options(30));
  for (int size : {2, 3}) {
    const auto ranks = on_local_ranks<std::string>(size, [](World& w) {
      ArenaOptions o = match_options(30);
      o.world = &w;
      return run_arena("heuristic", "random", o).to_json();
    });
    for (const std::string& r : ranks) EXPECT_EQ(r, one.to_json()) << size << " ranks";
  }
}

TEST(DistributedArena, AnSprtStopsAtTheSamePairAsOneProcess) {
  ArenaOptions base = match_options(400);
  base.sprt = SprtOptions{0, 50, 0.05, 0.05, 10};
  const ArenaResult one = run_arena("heuristic", "random", base);
  ASSERT_NE(one.sprt_verdict, "inconclusive");
  ASSERT_LT(one.games, 400);  // it did stop early
  const auto ranks = on_local_ranks<std::string>(2, [&](World& w) {
    ArenaOptions o = base;
    o.world = &w;
    return run_arena("heuristic", "random", o).to_json();
  });
  for (const std::string& r : ranks) EXPECT_EQ(r, one.to_json());
}

TEST(DistributedArena, ABadAgentOnOneRankFailsEveryRank) {
  const auto messages = on_local_ranks<std::string>(2, [](World& w) -> std::string {
    ArenaOptions o = match_options(8);
    o.world = &w;
    AgentMaker fine = [] { return make_agent("random", Rules{}); };
    AgentMaker broken = [&w]() -> std::unique_ptr<Agent> {
      if (w.rank() == 1) throw Error("no agent on rank 1");
      return make_agent("random", Rules{});
    };
    try {
      run_arena(fine, broken, o);
      return "completed";
    } catch (const Error& e) {
      return e.what();
    }
  });
  EXPECT_EQ(messages[1], "no agent on rank 1");
  EXPECT_NE(messages[0].find("rank 1 failed: no agent on rank 1"), std::string::npos)
      << messages[0];
}

TEST(DistributedRollout, RanksSplitTheTrialsAndAgreeWithOneProcess) {
  const Position pos = parse_pos("0,0,0,0,0,0,0,0,0,0,0,-15,0,0,0,0,0,0,0,0,0,0,0,15 w");
  auto run = [&](World* w) {
    RolloutOptions o;
    o.trials = 50;
    o.threads = 2;
    o.seed = 3;
    o.world = w;
    return rollout(
               pos, [] { return make_agent("heuristic", Rules{}); }, {}, o)
        .to_json();
  };
  const std::string one = run(nullptr);
  const auto ranks = on_local_ranks<std::string>(3, [&](World& w) { return run(&w); });
  for (const std::string& r : ranks) EXPECT_EQ(r, one);
}

}  // namespace
}  // namespace nardy
