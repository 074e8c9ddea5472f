// TdWorkers: one thread is the plain serial loop; several threads are synchronous rounds whose
// result is exactly "each worker trains a copy on its strided games, then the deltas merge",
// independent of timing; stops land on round ends and resuming from there changes nothing;
// errors in a worker come back to the caller.
#include "selfplay/training/td_workers.h"

#include <gtest/gtest.h>

#include <stdexcept>

#include "core/error.h"
#include "nn/delta_merge.h"
#include "selfplay/training/td_trainer.h"
#include "tests/nn/test_nets.h"

namespace nardy {
namespace {

using testing::same_parameters;

const NetShape kShape{"raw-v1", {12}, Activation::Sigmoid, 3};

TdGameSetup setup_of(int64_t g) {
  // The parameters vary by game so that a mix-up of games and parameters would show.
  return TdGameSetup{game_rng(5, g), TdGameParams{0.05f + 0.01f * static_cast<float>(g % 3),
                                                  g % 2 ? 0.6f : 0.8f, g % 4 == 0 ? 0.1f : 0.0f}};
}

TEST(TdWorkers, OneThreadIsTheSerialLoopInPlace) {
  ValueNet a = ValueNet::create(kShape, 1), b = a.clone();
  TdWorkers workers(a, Rules{}, "fast", 1, 4);
  const TdPlayStats stats = workers.play(0, 9, setup_of);
  TdSelfPlayer player(b, Rules{}, "fast");
  int64_t turns = 0;
  for (int64_t g = 0; g < 9; ++g) {
    TdGameSetup s = setup_of(g);
    turns += player.play_game(s.rng, s.params).turns;
  }
  EXPECT_EQ(stats.games, 9);
  EXPECT_EQ(stats.turns, turns);
  EXPECT_EQ(stats.updates, turns);
  EXPECT_TRUE(same_parameters(a, b));
}

TEST(TdWorkers, SeveralThreadsAreRoundsOfCopiesMergedInWorkerOrder) {
  // 3 workers, 2 games each per round, 15 games: rounds [0,6), [6,12), [12,15). The reference
  // replays that by hand on one thread.
  ValueNet net = ValueNet::create(kShape, 2), ref = net.clone();
  TdWorkers workers(net, Rules{}, "fast", 3, 2);
  std::atomic<int64_t> finished{0};
  const TdPlayStats stats = workers.play(0, 15, setup_of, nullptr, &finished);
  EXPECT_EQ(stats.games, 15);
  EXPECT_EQ(finished.load(), 15);

  int64_t turns = 0;
  for (int64_t round = 0; round < 15; round += 6) {
    std::vector<ValueNet> copies = {ref.clone(), ref.clone(), ref.clone()};
    for (int t = 0; t < 3; ++t) {
      TdSelfPlayer player(copies[t], Rules{}, "fast");
      for (int64_t g = round + t; g < std::min<int64_t>(round + 6, 15); g += 3) {
        TdGameSetup s = setup_of(g);
        turns += player.play_game(s.rng, s.params).turns;
      }
    }
    merge_deltas(ref, copies);
  }
  EXPECT_EQ(stats.turns, turns);
  EXPECT_TRUE(same_parameters(net, ref));
  // And that is not what one thread would have trained.
  ValueNet serial = ValueNet::create(kShape, 2);
  TdWorkers(serial, Rules{}, "fast", 1, 2).play(0, 15, setup_of);
  EXPECT_FALSE(same_parameters(net, serial));
}

TEST(TdWorkers, AStopLandsOnARoundEndAndContinuingFromThereChangesNothing) {
  ValueNet whole = ValueNet::create(kShape, 3), parts = whole.clone();
  const TdPlayStats all = TdWorkers(whole, Rules{}, "fast", 2, 3).play(0, 30, setup_of);
  EXPECT_EQ(all.games, 30);

  TdWorkers workers(parts, Rules{}, "fast", 2, 3);
  std::atomic<bool> stop{false};
  auto stopping_setup = [&](int64_t g) {
    if (g == 13) stop = true;  // during the round [12, 18)
    return setup_of(g);
  };
  const TdPlayStats first = workers.play(0, 30, stopping_setup, &stop);
  EXPECT_EQ(first.games, 18);
  stop = false;
  const TdPlayStats rest = workers.play(18, 30, setup_of, &stop);
  EXPECT_EQ(rest.games, 12);
  EXPECT_EQ(first.turns + rest.turns, all.turns);
  EXPECT_TRUE(same_parameters(whole, parts));
}

TEST(TdWorkers, AWorkersErrorReachesTheCallerAndNothingHangs) {
  for (int threads : {1, 3}) {
    ValueNet net = ValueNet::create(kShape, 4);
    TdWorkers workers(net, Rules{}, "fast", threads, 2);
    auto failing = [](int64_t g) {
      if (g == 7) throw std::runtime_error("setup failed at game 7");
      return setup_of(g);
    };
    try {
      workers.play(0, 20, failing);
      FAIL() << "no error with " << threads << " threads";
    } catch (const std::runtime_error& e) {
      EXPECT_STREQ(e.what(), "setup failed at game 7");
    }
    // A bad lambda from a schedule is an Error from the backend, not a crash.
    auto bad_lambda = [](int64_t g) {
      TdGameSetup s = setup_of(g);
      s.params.lambda = 1.5f;
      return s;
    };
    EXPECT_THROW(workers.play(0, 4, bad_lambda), Error);
    // The workers are still usable afterwards.
    EXPECT_EQ(workers.play(0, 4, setup_of).games, 4);
  }
}

TEST(TdWorkers, BadCountsAndBackendsAreErrors) {
  ValueNet net = ValueNet::create(kShape, 5);
  EXPECT_THROW(TdWorkers(net, Rules{}, "fast", 0, 4), Error);
  EXPECT_THROW(TdWorkers(net, Rules{}, "fast", 2, 0), Error);
  EXPECT_THROW(TdWorkers(net, Rules{}, "gpu", 2, 4), Error);
  EXPECT_EQ(TdWorkers(net, Rules{}, "fast", 2, 4).play(5, 5, setup_of).games, 0);
}

}  // namespace
}  // namespace nardy
