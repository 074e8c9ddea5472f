// The signatures `nardy bench` prints: a speed change must not change what is computed.
// The constants were recorded from the implementation before the speed work of issue 11 with
// the commands in the comments (seed 1, default rules). The search signatures are taken with
// tables=0: they guard the search itself, which the race table (selfplay/tables) bypasses for
// the races it covers.
#include <gtest/gtest.h>

#include <string>

#include "bench/movegen_bench.h"
#include "bench/search_bench.h"

namespace nardy {
namespace {

const std::string kNet = std::string(NARDY_TEST_DATA) + "/search_net.pt";

TEST(BenchSignature, MovegenCountsTheSameResults) {
  // nardy bench movegen --games 1000
  EXPECT_EQ(bench_movegen(1000, 1, Rules{}).results, 979031u);
}

TEST(BenchSignature, GreedySearchChoosesTheSameMoves) {
  // nardy bench search --agent net:tests/data/search_net.pt:ply=0:tables=0 --positions 200
  EXPECT_EQ(bench_search("net:" + kNet + ":ply=0:tables=0", 200, 1, Rules{}).signature,
            674688042526184382u);
}

TEST(BenchSignature, OnePlySearchChoosesTheSameMoves) {
  // nardy bench search --agent net:tests/data/search_net.pt:ply=1:tables=0:blend=0 --positions 50
  EXPECT_EQ(bench_search("net:" + kNet + ":ply=1:tables=0:blend=0", 50, 1, Rules{}).signature,
            5923775783101302914u);
}

TEST(BenchSignature, TwoPlySearchChoosesTheSameMoves) {
  // Recorded when every level used the root's filter (today: inner=8,0.16):
  // nardy bench search --agent net:tests/data/search_net.pt:ply=2:tables=0 --positions 10
  EXPECT_EQ(bench_search("net:" + kNet + ":ply=2:inner=8,0.16:tables=0", 10, 1, Rules{}).signature,
            4009324345652577428u);
}

TEST(BenchSignature, TwoPlySearchWithTheInnerFilterChoosesTheSameMoves) {
  // The default 2-ply since the inner filter (inner=1,0), recorded from its first version:
  // nardy bench search --agent net:tests/data/search_net.pt:ply=2:tables=0 --positions 30
  // (on the first 10 positions it chooses as the old filters do: the same signature there).
  EXPECT_EQ(bench_search("net:" + kNet + ":ply=2:tables=0", 10, 1, Rules{}).signature,
            4009324345652577428u);
  EXPECT_EQ(bench_search("net:" + kNet + ":ply=2:tables=0", 30, 1, Rules{}).signature,
            15580282453067687259u);
}

}  // namespace
}  // namespace nardy
