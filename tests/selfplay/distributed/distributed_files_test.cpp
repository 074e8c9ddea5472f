// The jobs that write files, split across c10d Gloo ranks: `nardy label`'s label file and
// `nardy benchmark build`'s set are the same bytes as one process's (fresh, resumed, and with
// other agents' choices added), only rank 0 touches the file, a failure on rank 0 (a file of
// other options) is an error on every rank; `nardy luck fit`'s positions are the same rows on
// every rank as one process's.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "core/error.h"
#include "selfplay/evaluation/luck_head.h"
#include "selfplay/evaluation/position_benchmark.h"
#include "selfplay/search/agent_kinds.h"
#include "selfplay/training/labeler.h"
#include "tests/selfplay/distributed/local_ranks.h"
#include "tests/support/temp_dir.h"

namespace nardy {
namespace {

using testing::on_local_ranks;

std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string search_net() {
  return std::string(NARDY_SOURCE_DIR) + "/tests/data/search_net.pt";
}

// Heuristic games, 1-ply targets of the test net.
LabelOptions label_options(int64_t games, int threads) {
  LabelOptions o;
  o.players = parse_agent_specs("heuristic", "player");
  o.explore = 0.2;
  o.sample = 0.05;
  o.candidates = 0.1;
  o.labeler = parse_agent_spec("net:" + search_net() + ":ply=1");
  o.games = games;
  o.threads = threads;
  o.seed = 9;
  return o;
}

// Rank 0 writes `path`; the other ranks are given a path in a directory that does not exist,
// so touching it would fail them.
std::string path_of(const World& w, const std::string& path) {
  return w.is_root() ? path : path + ".missing-dir/never";
}

TEST(DistributedLabel, RanksWriteTheFileOfOneProcessAndOnlyRankZeroTouchesIt) {
  testing::TempDir tmp;
  const std::string one = tmp.file("one.lbl");
  // 60 games: blocks of 16 games per rank, 32 + 28 on 2 ranks and 48 + 12 on 3.
  const LabelProgress single = label_positions(one, label_options(60, 2));
  ASSERT_EQ(single.games_done, 60);
  ASSERT_GT(single.positions, 60);
  for (int size : {2, 3}) {
    const std::string path = tmp.file("ranks" + std::to_string(size) + ".lbl");
    const auto ranks = on_local_ranks<LabelProgress>(size, [&](World& w) {
      LabelOptions o = label_options(60, 1);
      o.world = &w;
      return label_positions(path_of(w, path), o);
    });
    EXPECT_EQ(read_bytes(path), read_bytes(one)) << size << " ranks";
    for (const LabelProgress& p : ranks) {  // every rank counts every rank's games
      EXPECT_EQ(p.games_done, 60);
      EXPECT_EQ(p.positions, single.positions);
      EXPECT_EQ(p.new_positions, single.positions);
    }
  }
}

TEST(DistributedLabel, RanksContinueAFileToTheBytesOfOneProcess) {
  testing::TempDir tmp;
  const std::string whole = tmp.file("whole.lbl"), part = tmp.file("part.lbl");
  label_positions(whole, label_options(13, 1));
  label_positions(part, label_options(4, 1));
  const auto ranks = on_local_ranks<LabelProgress>(2, [&](World& w) {
    LabelOptions o = label_options(13, 2);
    o.world = &w;
    return label_positions(path_of(w, part), o);
  });
  EXPECT_EQ(read_bytes(part), read_bytes(whole));
  for (const LabelProgress& p : ranks) {
    EXPECT_EQ(p.games_done, 13);
    EXPECT_EQ(p.new_games, 9);  // rank 0 told the others the file held 4
  }
}

TEST(DistributedLabel, AFileOfOtherOptionsOnRankZeroFailsEveryRank) {
  testing::TempDir tmp;
  const std::string path = tmp.file("other.lbl");
  LabelOptions other = label_options(2, 1);
  other.seed = 10;
  label_positions(path, other);
  const std::string before = read_bytes(path);
  const auto messages = on_local_ranks<std::string>(2, [&](World& w) -> std::string {
    LabelOptions o = label_options(6, 1);
    o.world = &w;
    try {
      label_positions(path_of(w, path), o);
      return "completed";
    } catch (const Error& e) {
      return e.what();
    }
  });
  EXPECT_NE(messages[0].find("written with seed '10', now asked for '9'"), std::string::npos)
      << messages[0];
  EXPECT_EQ(messages[1], "label: rank 0 failed: " + messages[0]);
  EXPECT_EQ(read_bytes(path), before);
}

TEST(DistributedLabel, ABadLabelerOnOneRankFailsEveryRank) {
  testing::TempDir tmp;
  const auto messages = on_local_ranks<std::string>(2, [&](World& w) -> std::string {
    LabelOptions o = label_options(6, 1);
    o.world = &w;
    // Only rank 1 is given a labeler net that does not exist (a file missing on its machine).
    if (w.rank() == 1) o.labeler = parse_agent_spec("net:" + tmp.file("missing.pt") + ":ply=1");
    try {
      label_positions(tmp.file("bad.lbl"), o);
      return "completed";
    } catch (const Error& e) {
      return e.what();
    }
  });
  EXPECT_NE(messages[1].find("missing.pt"), std::string::npos) << messages[1];
  EXPECT_EQ(messages[0], "label: rank 1 failed: " + messages[1]);
}

BenchmarkBuildOptions benchmark_options(int threads) {
  BenchmarkBuildOptions o;
  o.decisions = 11;
  o.trials = 4;
  o.seed = 5;
  o.threads = threads;
  return o;
}

TEST(DistributedBenchmark, RanksBuildAndResumeTheSetOfOneProcess) {
  testing::TempDir tmp;
  const std::string one = tmp.file("one.txt");
  build_benchmark(benchmark_options(2), one, make_agent);
  const std::string text = read_bytes(one);
  ASSERT_EQ(read_benchmark(one).decisions.size(), 11u);
  for (int size : {2, 3}) {
    const std::string path = tmp.file("ranks" + std::to_string(size) + ".txt");
    const auto last = on_local_ranks<int>(size, [&](World& w) {
      BenchmarkBuildOptions o = benchmark_options(1);
      o.world = &w;
      int done = -1;
      build_benchmark(o, path_of(w, path), make_agent, [&](int d, int) { done = d; });
      return done;
    });
    EXPECT_EQ(read_bytes(path), text) << size << " ranks";
    for (int d : last) EXPECT_EQ(d, 11);
  }
  // A set cut after three decisions, resumed on two ranks.
  const std::string resumed = tmp.file("resumed.txt");
  size_t cut = 0;
  for (int k = 0; k < 4; ++k) cut = text.find("decision ", cut + 1);
  std::ofstream(resumed) << text.substr(0, cut);
  on_local_ranks<int>(2, [&](World& w) {
    BenchmarkBuildOptions o = benchmark_options(1);
    o.world = &w;
    build_benchmark(o, path_of(w, resumed), make_agent);
    return 0;
  });
  EXPECT_EQ(read_bytes(resumed), text);
}

TEST(DistributedBenchmark, RanksAddTheChoicesOfOneProcess) {
  testing::TempDir tmp;
  BenchmarkBuildOptions o = benchmark_options(1);
  o.max_candidates = 5;
  const std::string one = tmp.file("one.txt");
  build_benchmark(o, one, make_agent);
  const std::string built = read_bytes(one);
  add_choices_to_benchmark(o, one, {"random", "heuristic"}, 1, make_agent);
  const std::string text = read_bytes(one);
  ASSERT_NE(text, built);  // random chose results outside the 5 the heuristic ranked best
  for (int size : {2, 3}) {
    const std::string path = tmp.file("ranks" + std::to_string(size) + ".txt");
    std::ofstream(path) << built;
    on_local_ranks<int>(size, [&](World& w) {
      BenchmarkBuildOptions mine = o;
      mine.world = &w;
      add_choices_to_benchmark(mine, path_of(w, path), {"random", "heuristic"}, 1, make_agent);
      return 0;
    });
    EXPECT_EQ(read_bytes(path), text) << size << " ranks";
  }
}

TEST(DistributedBenchmark, ASetOfOtherOptionsOnRankZeroFailsEveryRank) {
  testing::TempDir tmp;
  const std::string path = tmp.file("other.txt");
  BenchmarkBuildOptions other = benchmark_options(1);
  other.decisions = 2;
  other.trials = 6;
  build_benchmark(other, path, make_agent);
  const auto messages = on_local_ranks<std::string>(2, [&](World& w) -> std::string {
    BenchmarkBuildOptions o = benchmark_options(1);
    o.world = &w;
    try {
      build_benchmark(o, path_of(w, path), make_agent);
      return "completed";
    } catch (const Error& e) {
      return e.what();
    }
  });
  EXPECT_NE(messages[0].find("was built with other options"), std::string::npos) << messages[0];
  EXPECT_EQ(messages[1], "benchmark build: rank 0 failed: " + messages[0]);
}

TEST(DistributedLuckFit, RanksSampleTheRowsOfOneProcess) {
  const ValueNet net = ValueNet::load(search_net());
  LuckHeadFitOptions o;
  o.games = 66;  // 3 blocks of 32 games, the last one short
  o.seed = 4;
  o.threads = 2;
  const LuckFitSet one = sample_luck_positions(net, o);
  ASSERT_GT(one.train.rows(), 0);
  ASSERT_GT(one.held.rows(), 0);
  for (int size : {2, 4}) {  // 4 ranks: one of them has no block
    const auto ranks = on_local_ranks<LuckFitSet>(size, [&](World& w) {
      LuckHeadFitOptions ro = o;
      ro.threads = 1;
      ro.world = &w;
      return sample_luck_positions(net, ro);
    });
    for (const LuckFitSet& r : ranks) {
      EXPECT_EQ(r.train.num_inputs, one.train.num_inputs);
      EXPECT_EQ(r.train.inputs, one.train.inputs) << size << " ranks";
      EXPECT_EQ(r.train.targets, one.train.targets) << size << " ranks";
      EXPECT_EQ(r.held.inputs, one.held.inputs) << size << " ranks";
      EXPECT_EQ(r.held.targets, one.held.targets) << size << " ranks";
    }
  }
}

}  // namespace
}  // namespace nardy
