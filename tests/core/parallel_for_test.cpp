// core/parallel_for.h: every index exactly once, per-thread state, results independent of the
// thread count, exceptions propagated after every thread has stopped.
#include "core/parallel_for.h"

#include <gtest/gtest.h>

#include <atomic>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

#include "core/random.h"
#include "tests/support/error_of.h"

namespace nardy {
namespace {

using testing::error_of;

TEST(RunThreads, RunsEveryThreadIndexOnceWithIndexZeroOnTheCaller) {
  std::vector<std::atomic<int>> calls(5);
  std::thread::id zero_id;
  run_threads(5, [&](int t) {
    ++calls[static_cast<size_t>(t)];
    if (t == 0) zero_id = std::this_thread::get_id();
  });
  for (const auto& c : calls) EXPECT_EQ(c.load(), 1);
  EXPECT_EQ(zero_id, std::this_thread::get_id());
}

TEST(RunThreads, RethrowsTheLowestThreadsExceptionAfterAllFinish) {
  std::atomic<int> finished{0};
  try {
    run_threads(4, [&](int t) {
      if (t == 3) throw Error("three");
      if (t == 1) throw std::runtime_error("one");
      ++finished;
    });
    FAIL() << "expected an exception";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "one");
  }
  EXPECT_EQ(finished.load(), 2);  // threads 0 and 2 ran to the end
}

TEST(RunThreads, RejectsNoThreads) {
  EXPECT_EQ(error_of([] { run_threads(0, [](int) {}); }),
            "run_threads: threads must be at least 1 (got 0)");
}

TEST(ParallelFor, VisitsEveryIndexExactlyOnce) {
  for (int threads : {1, 2, 3, 8}) {
    const int64_t n = 1000;
    std::vector<std::atomic<int>> visits(static_cast<size_t>(n));
    parallel_for(
        n, threads, [](int) { return 0; },
        [&](int&, int64_t i) { ++visits[static_cast<size_t>(i)]; });
    for (int64_t i = 0; i < n; ++i)
      ASSERT_EQ(visits[static_cast<size_t>(i)].load(), 1) << "index " << i << ", " << threads;
  }
}

TEST(ParallelFor, ResultsStoredPerIndexDoNotDependOnTheThreadCount) {
  // Each index draws from its own stream; the per-index results are what callers combine.
  auto run = [](int threads) {
    std::vector<uint64_t> out(500);
    parallel_for(
        static_cast<int64_t>(out.size()), threads, [](int) { return Rng(7); },
        [&](Rng&, int64_t i) {
          Rng r = Rng(42).split(static_cast<uint64_t>(i));
          uint64_t x = 0;
          for (int k = 0; k < 100; ++k) x ^= r.next();
          out[static_cast<size_t>(i)] = x;
        });
    return out;
  };
  const auto one = run(1);
  EXPECT_EQ(run(2), one);
  EXPECT_EQ(run(7), one);
  EXPECT_EQ(std::set<uint64_t>(one.begin(), one.end()).size(), one.size());
}

TEST(ParallelFor, MakesOneStatePerThreadOnThatThread) {
  std::atomic<int> states{0};
  std::vector<int> owner(300, -1);
  parallel_for(
      static_cast<int64_t>(owner.size()), 3,
      [&](int t) {
        ++states;
        return t;
      },
      [&](int& t, int64_t i) { owner[static_cast<size_t>(i)] = t; });
  EXPECT_EQ(states.load(), 3);
  for (int o : owner) EXPECT_TRUE(o >= 0 && o < 3);
}

TEST(ParallelFor, UsesNoMoreThreadsThanIndices) {
  std::atomic<int> states{0};
  parallel_for(
      2, 8, [&](int) { return ++states; }, [](int, int64_t) {});
  EXPECT_EQ(states.load(), 2);
}

TEST(ParallelFor, PropagatesAnExceptionAndStopsClaimingIndices) {
  for (int threads : {1, 2, 4}) {
    std::atomic<int64_t> ran{0};
    const std::string message = error_of([&] {
      parallel_for(
          1000000, threads, [](int) { return 0; },
          [&](int, int64_t i) {
            ++ran;
            if (i == 10) throw Error("index 10 failed");
          });
    });
    EXPECT_EQ(message, "index 10 failed");
    EXPECT_LT(ran.load(), 1000000) << threads << " threads went on after the failure";
  }
}

TEST(ParallelFor, PropagatesAnExceptionFromMakingTheState) {
  EXPECT_EQ(error_of([] {
              parallel_for(
                  10, 2,
                  [](int t) {
                    if (t == 1) throw Error("no agent");
                    return 0;
                  },
                  [](int, int64_t) {});
            }),
            "no agent");
}

TEST(ParallelFor, FalseFromTheBodyEndsOnlyThatThreadsLoop) {
  std::vector<int> done(100, 0);
  parallel_for(
      100, 1, [](int) { return 0; },
      [&](int, int64_t i) {
        if (i == 40) return false;
        done[static_cast<size_t>(i)] = 1;
        return true;
      });
  for (int i = 0; i < 100; ++i) EXPECT_EQ(done[static_cast<size_t>(i)], i < 40 ? 1 : 0) << i;
}

TEST(ParallelFor, NothingToDoAndBadThreadCounts) {
  int calls = 0;
  parallel_for(
      0, 2, [&](int) { return ++calls; }, [](int, int64_t) {});
  EXPECT_EQ(calls, 0);
  EXPECT_EQ(error_of([] {
              parallel_for(
                  5, 0, [](int) { return 0; }, [](int, int64_t) {});
            }),
            "parallel_for: threads must be at least 1 (got 0)");
}

}  // namespace
}  // namespace nardy
