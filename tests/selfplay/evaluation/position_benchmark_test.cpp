// The benchmark of positions: phases, the text format and its errors, a resumed build equal to
// an uninterrupted one, scoring (an oracle loses nothing, random loses more than the
// heuristic), and exact race values in `nardy analyze`.
#include "selfplay/evaluation/position_benchmark.h"

#include "selfplay/evaluation/luck_head.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "core/error.h"
#include "core/movegen.h"
#include "core/notation.h"
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
  EXPECT_EQ(set.format, 2);
  // Every rolled-out candidate is the plain rollout of its result on the decision's dice
  // streams, and its halves are the rollouts of the first and the second half of the trials.
  RolloutOptions ro;
  ro.luck_adjust = false;
  int checked = 0;
  const AgentMaker agent = [&] { return make_agent(o.rollout_agent, Rules{}); };
  for (size_t i = 0; i < set.decisions.size(); ++i) {
    ro.seed = Rng(o.seed).split(1000003 + i).next();
    for (const auto& c : set.decisions[i].candidates) {
      ASSERT_TRUE(c.halves.has_value());
      if (game_outcome(c.result, Rules{})) continue;
      ro.first_trial = 0;
      ro.trials = o.trials;
      const RolloutResult r = rollout(c.result, agent, {}, ro);
      EXPECT_FALSE(r.luck_adjusted);
      EXPECT_NEAR(c.equity, -r.equity().mean, 1e-5);
      EXPECT_NEAR(c.se, r.equity().se, 1e-5);
      ro.trials = o.trials / 2;
      EXPECT_NEAR((*c.halves)[0], -rollout(c.result, agent, {}, ro).equity().mean, 1e-5);
      ro.first_trial = o.trials / 2;
      EXPECT_NEAR((*c.halves)[1], -rollout(c.result, agent, {}, ro).equity().mean, 1e-5);
      ++checked;
    }
  }
  EXPECT_GT(checked, 10);
  // With the adjustment on (the default) the same build labels differently.
  o.luck_adjust = true;
  build_benchmark(o, lucky, make_agent);
  EXPECT_NE(read_all(lucky), read_all(plain));
}

TEST(PositionBenchmark, ALuckHeadMeasuresTheLuckOfTheRollouts) {
  testing::TempDir dir;
  const std::string net = dir.file("net.pt");
  const ValueNet teacher = ValueNet::create(NetShape{}, 3);
  teacher.save(net, CheckpointInfo{});
  LuckHeadFitOptions fo;
  fo.games = 40;
  fo.train.hidden = {16};
  fo.train.max_epochs = 20;
  BenchmarkBuildOptions o = small_options();
  o.decisions = 4;
  o.rollout_agent = "net:" + net;
  o.luck_head = std::make_shared<LuckHead>(fit_luck_head(teacher, fo));
  const std::string path = dir.file("head.txt");
  build_benchmark(o, path, make_agent);
  const BenchmarkSet set = read_benchmark(path);
  EXPECT_NE(std::find(set.header.begin(), set.header.end(),
                      " luck-adjusted turns per trial: all, by the " + o.luck_head->describe()),
            set.header.end());
  // Each candidate is the rollout of its result with the head measuring luck.
  RolloutOptions ro;
  ro.luck_head = o.luck_head;
  ro.trials = o.trials;
  int checked = 0;
  const AgentMaker agent = [&] { return make_agent(o.rollout_agent, Rules{}); };
  for (size_t i = 0; i < set.decisions.size(); ++i) {
    ro.seed = Rng(o.seed).split(1000003 + i).next();
    for (const auto& c : set.decisions[i].candidates) {
      if (game_outcome(c.result, Rules{})) continue;
      const RolloutResult r = rollout(c.result, agent, {}, ro);
      EXPECT_EQ(r.luck_method, "head");
      EXPECT_NEAR(c.equity, -r.equity().mean, 1e-5);
      ++checked;
    }
  }
  EXPECT_GT(checked, 5);
}

// The cross-fitted loss on a hand-made format-2 decision (position_benchmark.h): worked by hand.
TEST(PositionBenchmark, CrossFittedLossPicksOnOneHalfAndMeasuresOnTheOther) {
  testing::TempDir dir;
  const Position mid = parse_pos("0,0,0,0,0,0,-1,0,0,0,0,-14,0,0,0,0,0,0,1,0,0,1,0,13 w");
  MoveList moves = legal_moves(mid, Dice{4, 2}, Rules{});
  sort_by_position(moves);
  ASSERT_GE(moves.size(), 4u);
  auto line = [&](size_t i, const char* numbers) {
    return position_id(moves[i].position) + " " + numbers + " " + format_move(moves[i].move) + "\n";
  };
  // Listed best first by the whole; by the first half the best is r0, by the second r1.
  const std::string body = "decision " + position_id(mid) + " 42 opening 3\n" +
                           line(0, "+0.30000 0.01 +0.40000 +0.20000") +
                           line(1, "+0.25000 0.01 +0.10000 +0.40000") +
                           line(2, "-0.10000 0.01 -0.10000 -0.10000");
  const std::string path2 = dir.file("two.txt"), path1 = dir.file("one.txt");
  std::ofstream(path2) << "# nardy position benchmark, format 2 (test)\n" << body;
  const BenchmarkSet set = read_benchmark(path2);
  ASSERT_EQ(set.format, 2);
  // The set's noise from its halves, by hand: equity gaps H1 − H2 of 0.2, −0.3, 0; differences
  // from the best's gap −0.5 and −0.2.
  const BenchmarkStatistics stats = benchmark_statistics(set);
  ASSERT_EQ(stats.phases.size(), 2u);  // overall and opening
  EXPECT_EQ(stats.phases[1].phase, "opening");
  for (const BenchmarkNoise& n : stats.phases) {
    EXPECT_EQ(n.decisions, 1);
    EXPECT_DOUBLE_EQ(n.candidates, 3);
    EXPECT_NEAR(n.mean_se, 0.01, 1e-12);
    EXPECT_NEAR(n.equity_noise, std::sqrt((0.04 + 0.09 + 0) / 3) / 2, 1e-9);
    EXPECT_NEAR(n.difference_noise, std::sqrt((0.25 + 0.04) / 2) / 2, 1e-9);
  }
  EXPECT_NE(stats.to_text().find("difference noise"), std::string::npos);
  auto score = [&](size_t choice) {
    const AgentMaker pick = [&moves, choice] {
      return std::make_unique<CallbackAgent>(
          [&moves, choice](const Position&, Dice, const MoveList& legal) {
            for (size_t i = 0; i < legal.size(); ++i)
              if (legal[i].position == moves[choice].position) return i;
            return size_t{0};
          });
    };
    const BenchmarkScore s = score_benchmark(set, pick, Rules{});
    EXPECT_TRUE(s.overall.cross.has_value());
    return std::pair{s.overall.loss.mean, s.overall.cross ? s.overall.cross->mean : 1e9};
  };
  // r0: loss 0; cross ½[(H2[r0] − H2[r0]) + (H1[r1] − H1[r0])] = ½(0 − 0.3).
  EXPECT_NEAR(score(0).first, 0, 1e-9);
  EXPECT_NEAR(score(0).second, -150, 1e-9);
  // r1: loss 50; cross ½[(0.2 − 0.4) + 0] = −0.1.
  EXPECT_NEAR(score(1).first, 50, 1e-9);
  EXPECT_NEAR(score(1).second, -100, 1e-9);
  // r2: loss 400; cross ½[(0.2 + 0.1) + (0.1 + 0.1)].
  EXPECT_NEAR(score(2).first, 400, 1e-9);
  EXPECT_NEAR(score(2).second, 250, 1e-9);
  // A result outside the list: charged the largest listed loss of the whole and of each half.
  EXPECT_NEAR(score(3).first, 400, 1e-9);
  EXPECT_NEAR(score(3).second, 250, 1e-9);
  EXPECT_NE(score_benchmark(
                set, [] { return make_agent("heuristic", Rules{}); }, Rules{})
                .to_text()
                .find("cross-fitted"),
            std::string::npos);
  // Format 1 (no halves): no cross-fitted loss.
  std::ofstream(path1) << "decision " + position_id(mid) + " 42 opening 2\n" +
                              position_id(moves[0].position) + " +0.30000 0.01 x\n" +
                              position_id(moves[1].position) + " +0.25000 0.01 y\n";
  const BenchmarkSet old = read_benchmark(path1);
  EXPECT_EQ(old.format, 1);
  EXPECT_TRUE(std::isnan(benchmark_statistics(old).phases[0].equity_noise));
  const BenchmarkScore s1 = score_benchmark(
      old, [] { return make_agent("heuristic", Rules{}); }, Rules{});
  EXPECT_FALSE(s1.overall.cross.has_value());
  EXPECT_EQ(s1.to_text().find("cross-fitted"), std::string::npos);
  // Luck-adjusted estimates may overshoot ±2 points a little (a luck-adjusted build wrote
  // +2.00035); what no rollout can give is refused.
  std::ofstream(path2) << "# nardy position benchmark, format 2 (test)\ndecision " +
                              position_id(mid) + " 42 opening 2\n" +
                              position_id(moves[0].position) +
                              " +2.00035 0.001 +2.0003 +2.0004 x\n" +
                              position_id(moves[1].position) + " +1.90000 0.001 +1.9 +1.9 y\n";
  EXPECT_NEAR(read_benchmark(path2).decisions[0].candidates[0].equity, 2.00035, 1e-9);
  std::ofstream(path2) << "# nardy position benchmark, format 2 (test)\ndecision " +
                              position_id(mid) + " 42 opening 2\n" +
                              position_id(moves[0].position) + " +4.50000 0.001 +4.5 +4.5 x\n" +
                              position_id(moves[1].position) + " +1.90000 0.001 +1.9 +1.9 y\n";
  EXPECT_THROW(read_benchmark(path2), Error);
  // Format 2 lines need both halves.
  std::ofstream(path2) << "# nardy position benchmark, format 2 (test)\ndecision " +
                              position_id(mid) + " 42 opening 2\n" +
                              position_id(moves[0].position) + " +0.30000 0.01 24/20 24/22\n";
  try {
    read_benchmark(path2);
    ADD_FAILURE() << "a format-2 line without halves was read";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("HALF1 HALF2"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("line 3"), std::string::npos) << e.what();
  }
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

// Candidates added for an agent's choices are the lines a build listing every legal result
// writes for them (the same dice streams and halves), and the agent then has no choice outside.
TEST(PositionBenchmark, AddedChoicesAreWhatABuildOfEveryResultLists) {
  testing::TempDir dir;
  const std::string cut = dir.file("cut.txt"), all = dir.file("all.txt");
  BenchmarkBuildOptions o = small_options();
  o.decisions = 16;
  o.max_candidates = 5;
  build_benchmark(o, cut, make_agent);
  BenchmarkBuildOptions every = o;
  every.max_candidates = 10000;
  build_benchmark(every, all, make_agent);
  const AgentMaker random = [] { return make_agent("random", Rules{}); };
  const BenchmarkSet original = read_benchmark(cut);
  const BenchmarkScore before = score_benchmark(original, random, Rules{}, 1, 3);
  ASSERT_GT(before.overall.outside, 0);  // the test would prove nothing otherwise

  // Not before the set is complete, nor with other options than its build's.
  const std::string part = dir.file("part.txt");
  const std::string text = read_all(cut);
  std::ofstream(part) << text.substr(0, text.find("decision ", text.find("decision ") + 1));
  EXPECT_THROW(add_choices_to_benchmark(o, part, {"random"}, 3, make_agent), Error);
  EXPECT_THROW(add_choices_to_benchmark(every, cut, {"random"}, 3, make_agent), Error);
  EXPECT_EQ(read_all(cut), text);

  std::vector<std::pair<std::string, int>> calls;
  add_choices_to_benchmark(o, cut, {"random"}, 3, make_agent,
                           [&](const std::string& a, int done, int) {
                             calls.push_back({a, done});
                           });
  ASSERT_FALSE(calls.empty());
  EXPECT_EQ(calls.back(), (std::pair<std::string, int>{"random", int(before.overall.outside)}));
  const BenchmarkSet added = read_benchmark(cut), full = read_benchmark(all);
  EXPECT_EQ(added.header.back(), " added choices of: random (seed 3): " +
                                     std::to_string(before.overall.outside) + " results added");
  size_t listed = 0;
  for (size_t i = 0; i < added.decisions.size(); ++i) {
    for (const auto& c : added.decisions[i].candidates) {
      const auto& f = full.decisions[i].candidates;
      auto it =
          std::find_if(f.begin(), f.end(), [&](const auto& x) { return x.result == c.result; });
      ASSERT_NE(it, f.end());
      EXPECT_EQ(c.equity, it->equity);
      EXPECT_EQ(c.se, it->se);
      EXPECT_EQ(*c.halves, *it->halves);
      EXPECT_EQ(c.notation, it->notation);
      ++listed;
    }
  }
  size_t listed_before = 0;
  for (const auto& d : original.decisions) listed_before += d.candidates.size();
  EXPECT_EQ(listed, listed_before + static_cast<size_t>(before.overall.outside));
  const BenchmarkScore after = score_benchmark(added, random, Rules{}, 1, 3);
  EXPECT_EQ(after.overall.outside, 0);
  // Once per agent; the build still resumes the set (its added lines aside).
  const std::string extended = read_all(cut);
  add_choices_to_benchmark(o, cut, {"random"}, 3, make_agent);
  build_benchmark(o, cut, make_agent);
  EXPECT_EQ(read_all(cut), extended);
}

TEST(PositionBenchmark, ABuildWithoutTheRaceNetMakesItsNetAgentsWithoutIt) {
  // The specs the build's own agents are made from, and an added agent's, as given.
  std::vector<std::string> specs;
  const AgentBySpec recording = [&](std::string_view spec, const Rules& rules) {
    specs.emplace_back(spec);
    return make_agent(spec, rules);
  };
  const std::string net = "net:" NARDY_SOURCE_DIR "/tests/data/search_net.pt";
  testing::TempDir dir;
  BenchmarkBuildOptions o = small_options();
  o.decisions = 4;
  o.game_agents = {"random", net};
  o.rollout_agent = net;
  o.race_net = false;
  build_benchmark(o, dir.file("off.txt"), recording);
  ASSERT_FALSE(specs.empty());
  for (const std::string& s : specs) EXPECT_EQ(s, s == "random" ? "random" : net + ":race_net=0");
  // Added choices: the agent as given, the rollouts as the set was built.
  specs.clear();
  add_choices_to_benchmark(o, dir.file("off.txt"), {net + ":noise=1"}, 3, recording);
  ASSERT_GT(specs.size(), 1u);
  EXPECT_EQ(specs.front(), net + ":noise=1");
  for (size_t i = 1; i < specs.size(); ++i) EXPECT_EQ(specs[i], net + ":race_net=0");
  specs.clear();
  o.race_net = true;
  build_benchmark(o, dir.file("on.txt"), recording);
  for (const std::string& s : specs) EXPECT_EQ(s.find("race_net"), std::string::npos) << s;
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
  // Paired by decision: the mean difference is the difference of the means, per phase too.
  const BenchmarkComparison c = compare_benchmark(set, random, heuristic);
  ASSERT_EQ(c.phases.size(), 1 + random.phases.size());
  EXPECT_EQ(c.phases[0].first, "overall");
  EXPECT_EQ(c.phases[0].second.n, 40);
  EXPECT_NEAR(c.phases[0].second.mean, random.overall.loss.mean - heuristic.overall.loss.mean,
              1e-9);
  for (size_t k = 0; k < random.phases.size(); ++k)
    EXPECT_NEAR(c.phases[k + 1].second.mean,
                random.phases[k].loss.mean - heuristic.phases[k].loss.mean, 1e-9);
  EXPECT_GT(c.phases[0].second.mean, 0);  // random loses more
  EXPECT_LT(c.phases[0].second.ci95_low, c.phases[0].second.mean);
  EXPECT_GT(c.phases[0].second.ci95_high, c.phases[0].second.mean);
  EXPECT_NE(c.to_text().find("random minus heuristic"), std::string::npos);
  EXPECT_EQ(compare_benchmark(set, best, best).phases[0].second.mean, 0.0);
  BenchmarkScore truncated = heuristic;
  truncated.losses.pop_back();
  EXPECT_THROW(compare_benchmark(set, random, truncated), Error);
}

TEST(RaceTableAnalysis, AnalyzeMarksTableValuesExact) {
  // The default table comes from NARDY_BEAROFF, read once per process: ctest runs this case in a
  // process of its own (tests/selfplay/CMakeLists.txt, ALONE).
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
