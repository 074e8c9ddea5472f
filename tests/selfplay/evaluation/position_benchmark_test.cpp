// The benchmark of positions: phases, the text format and its errors, a resumed build equal to
// an uninterrupted one, scoring (an oracle loses nothing, random loses more than the
// heuristic), and exact race values in `nardy analyze`.
#include "selfplay/evaluation/position_benchmark.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "core/error.h"
#include "core/pos_text.h"
#include "core/position_id.h"
#include "core/random.h"
#include "selfplay/agents/callback_agent.h"
#include "selfplay/evaluation/analysis.h"
#include "selfplay/evaluation/rollout.h"
#include "selfplay/search/agent_kinds.h"
#include "selfplay/search/net_agent.h"
#include "tests/support/temp_dir.h"

namespace nardy {
namespace {

std::string read_all(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

BenchmarkBuildOptions small_options() {
  BenchmarkBuildOptions o;
  o.decisions = 12;
  o.trials = 4;
  o.seed = 5;
  return o;
}

TEST(PositionBenchmark, Phases) {
  EXPECT_EQ(phase_of(Position::start()), Phase::Opening);
  EXPECT_EQ(phase_of(parse_pos("0,0,0,0,0,0,-1,0,0,0,0,-14,0,0,0,0,0,0,1,0,0,1,0,13 w")),
            Phase::Opening);
  EXPECT_EQ(phase_of(parse_pos("0,0,0,0,0,0,-5,0,0,0,0,-10,0,0,0,0,0,0,5,0,0,5,0,5 w")),
            Phase::Contact);
  // White on 1..9, Black on 13..18: a race; White still has checkers outside home.
  EXPECT_EQ(phase_of(parse_pos("5,0,0,0,0,0,0,0,10,0,0,0,-15,0,0,0,0,0,0,0,0,0,0,0 w")),
            Phase::Race);
  EXPECT_EQ(phase_of(parse_pos("5,0,0,0,0,0,0,0,10,0,0,0,-15,0,0,0,0,0,0,0,0,0,0,0 b")),
            Phase::Bearoff);
  EXPECT_THROW(parse_phase("middle"), Error);
}

TEST(PositionBenchmark, ResumedBuildEqualsOneRunAndReadsBack) {
  testing::TempDir dir;
  const std::string whole = dir.file("whole.txt"), resumed = dir.file("resumed.txt");
  const BenchmarkBuildOptions o = small_options();
  build_benchmark(o, whole, make_agent);
  const BenchmarkSet set = read_benchmark(whole);
  ASSERT_EQ(set.decisions.size(), 12u);
  for (const auto& d : set.decisions) {
    ASSERT_GE(d.candidates.size(), 2u);
    EXPECT_LE(d.candidates.size(), 8u);
    EXPECT_EQ(phase_of(d.pos), d.phase);
  }
  // A build killed after five decisions, then run again, writes the same file.
  const std::string text = read_all(whole);
  size_t cut = 0;
  for (int k = 0; k < 6; ++k) cut = text.find("decision ", cut + 1);
  std::ofstream(resumed) << text.substr(0, cut);
  ASSERT_EQ(read_benchmark(resumed).decisions.size(), 5u);
  build_benchmark(o, resumed, make_agent);
  EXPECT_EQ(read_all(resumed), text);
  // Other options do not resume someone else's file.
  BenchmarkBuildOptions other = o;
  other.trials = 8;
  EXPECT_THROW(build_benchmark(other, resumed, make_agent), Error);
}

TEST(PositionBenchmark, PlainTrialsOfANetRolloutAgentSkipTheLuckAdjustment) {
  testing::TempDir dir;
  const std::string net = dir.file("net.pt");
  ValueNet::create(NetShape{}, 3).save(net, CheckpointInfo{});
  BenchmarkBuildOptions o = small_options();
  o.decisions = 5;
  o.rollout_agent = "net:" + net;
  o.luck_adjust = false;
  const std::string plain = dir.file("plain.txt"), lucky = dir.file("lucky.txt");
  build_benchmark(o, plain, make_agent);
  const BenchmarkSet set = read_benchmark(plain);
  EXPECT_NE(std::find(set.header.begin(), set.header.end(), " luck-adjusted turns per trial: none"),
            set.header.end());
  // Every rolled-out candidate is the plain rollout of its result on the decision's dice.
  RolloutOptions ro;
  ro.trials = o.trials;
  ro.luck_adjust = false;
  int checked = 0;
  for (size_t i = 0; i < set.decisions.size(); ++i) {
    ro.seed = Rng(o.seed).split(1000003 + i).next();
    for (const auto& c : set.decisions[i].candidates) {
      if (game_outcome(c.result, Rules{})) continue;
      const RolloutResult r = rollout(
          c.result, [&] { return make_agent(o.rollout_agent, Rules{}); }, {}, ro);
      EXPECT_FALSE(r.luck_adjusted);
      EXPECT_NEAR(c.equity, -r.equity().mean, 1e-5);
      ++checked;
    }
  }
  EXPECT_GT(checked, 10);
  // With the adjustment on (the default) the same build labels differently.
  o.luck_adjust = true;
  build_benchmark(o, lucky, make_agent);
  EXPECT_NE(read_all(lucky), read_all(plain));
}

TEST(PositionBenchmark, ReadingNamesTheFileAndLine) {
  testing::TempDir dir;
  const std::string path = dir.file("bad.txt");
  auto expect_error = [&](const std::string& text, const std::string& needle) {
    std::ofstream(path) << text;
    try {
      read_benchmark(path);
      FAIL() << "no error for: " << text;
    } catch (const Error& e) {
      const std::string msg = e.what();
      EXPECT_NE(msg.find(path), std::string::npos) << msg;
      EXPECT_NE(msg.find(needle), std::string::npos) << msg;
    }
  };
  // An early position where 4-2 has several results; from the start 6-5 has one.
  const std::string mid =
      position_id(parse_pos("0,0,0,0,0,0,-1,0,0,0,0,-14,0,0,0,0,0,0,1,0,0,1,0,13 w"));
  expect_error("decision " + mid + " 42 opening 2\nnot-an-id 0.1 0.01 x\n", "line 2");
  expect_error("decision " + mid + " 42 opening 2\n" + mid + " 0.1 0.01 x\n", "not a legal result");
  expect_error("decision " + mid + " 42 midgame 2\n", "unknown phase");
  expect_error("decision -_PAAAw__BAAAA 65 opening 2\n", "only 1 legal");
  expect_error("# only a header\n", "no decisions");
}

TEST(PositionBenchmark, ScoresAnOracleAtZeroAndRandomAboveTheHeuristic) {
  testing::TempDir dir;
  const std::string path = dir.file("set.txt");
  BenchmarkBuildOptions o = small_options();
  o.decisions = 40;
  build_benchmark(o, path, make_agent);
  const BenchmarkSet set = read_benchmark(path);
  const AgentMaker oracle = [&set] {
    return std::make_unique<CallbackAgent>(
        [&set](const Position& pos, Dice dice, const MoveList& moves) {
          for (const auto& d : set.decisions)
            if (d.pos == pos && d.dice.high() == dice.high() && d.dice.low() == dice.low())
              for (size_t i = 0; i < moves.size(); ++i)
                if (moves[i].position == d.candidates.front().result) return i;
          return size_t{0};
        });
  };
  const BenchmarkScore best = score_benchmark(set, oracle, Rules{});
  EXPECT_EQ(best.overall.loss.n, 40);
  EXPECT_EQ(best.overall.loss.mean, 0.0);
  EXPECT_EQ(best.overall.share_over_0_1, 0.0);
  const auto random = score_benchmark(
      set, [] { return make_agent("random", Rules{}); }, Rules{}, 2, 1);
  const auto random1 = score_benchmark(
      set, [] { return make_agent("random", Rules{}); }, Rules{}, 1, 1);
  EXPECT_EQ(random.overall.loss.mean, random1.overall.loss.mean);  // threads do not matter
  const auto heuristic = score_benchmark(
      set, [] { return make_agent("heuristic", Rules{}); }, Rules{});
  EXPECT_GT(random.overall.loss.mean, heuristic.overall.loss.mean);
  EXPECT_GE(heuristic.overall.loss.mean, 0.0);
  int64_t in_phases = 0;
  for (const auto& p : random.phases) in_phases += p.loss.n;
  EXPECT_EQ(in_phases, 40);
  EXPECT_NE(random.to_text().find("overall"), std::string::npos);
}

TEST(RaceTableAnalysis, AnalyzeMarksTableValuesExact) {
  // The default table comes from NARDY_BEAROFF (read once per process: ctest runs each test
  // case in its own process).
  testing::TempDir dir;
  const std::string table = dir.file("t.nbt");
  BearoffTable::build(3).save(table);
  setenv("NARDY_BEAROFF", table.c_str(), 1);
  ASSERT_NE(default_bearoff_table(), nullptr);
  const std::string net = dir.file("net.pt");
  ValueNet::create(NetShape{}, 3).save(net, CheckpointInfo{});
  // White 2,2,1 on points 1..3; Black 3 on points 13..15.
  const Position race = parse_pos("2,2,1,0,0,0,0,0,0,0,0,0,-1,-1,-1,0,0,0,0,0,0,0,0,0 w");
  const Analysis a = analyze_moves(race, Dice{2, 1}, "net:" + net, AnalysisOptions{});
  for (const auto& m : a.moves) EXPECT_TRUE(m.exact) << m.notation;
  EXPECT_NE(a.to_text().find("exact"), std::string::npos);
  const Analysis plain = analyze_moves(race, Dice{2, 1}, "net:" + net + ":tables=0", {});
  for (const auto& m : plain.moves) EXPECT_FALSE(m.exact) << m.notation;
  // A contact position is not exact.
  const Analysis contact = analyze_moves(Position::start(), Dice{6, 1}, "net:" + net, {});
  EXPECT_FALSE(contact.moves[0].exact);
}

}  // namespace
}  // namespace nardy
