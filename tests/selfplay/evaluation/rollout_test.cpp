// Rollouts: stratified dice, reproducibility, and variance reduction that really reduces.
#include "selfplay/evaluation/rollout.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <set>

#include "core/error.h"
#include "core/pos_text.h"
#include "tests/selfplay/test_agents.h"
#include "tests/selfplay/test_evaluators.h"

namespace nardy {
namespace {

using testing::racer;

EvaluatorMaker race_evaluator() {
  return [] { return std::make_unique<testing::RaceEvaluator>(); };
}

// A pure race: White (on roll) 10 checkers on points 1..6, 5 off, 41 pips; Black 12 on
// points 13..18 (its route 1..6), 3 off, 42 pips.
Position race() {
  return parse_pos("1,2,2,2,2,1,0,0,0,0,0,0,-2,-2,-2,-2,-2,-2,0,0,0,0,0,0 w");
}

TEST(Rollout, StratifiedRollsCoverEveryRollAndPair) {
  std::set<int> first;
  for (int64_t t = 0; t < 36; ++t) {
    const Dice d = stratified_first_roll(t, false);
    first.insert((d.d1 - 1) * 6 + d.d2 - 1);
  }
  EXPECT_EQ(first.size(), 36u);
  std::set<std::pair<int, int>> pairs;
  std::set<int> second_in_block;
  for (int64_t t = 0; t < 1296; ++t) {
    const Dice a = stratified_first_roll(t, false), b = stratified_second_roll(t, false);
    pairs.insert({(a.d1 - 1) * 6 + a.d2 - 1, (b.d1 - 1) * 6 + b.d2 - 1});
    if (t < 36) second_in_block.insert((b.d1 - 1) * 6 + b.d2 - 1);
  }
  EXPECT_EQ(pairs.size(), 1296u);
  EXPECT_EQ(second_in_block.size(), 36u);  // already balanced within the first block
  std::set<int> opening;
  for (int64_t t = 0; t < 30; ++t) {
    const Dice d = stratified_first_roll(t, true);
    EXPECT_FALSE(d.is_double());
    opening.insert((d.d1 - 1) * 6 + d.d2 - 1);
  }
  EXPECT_EQ(opening.size(), 30u);
}

TEST(Rollout, ReproducibleAndIndependentOfThreads) {
  RolloutOptions o;
  o.trials = 200;
  o.seed = 17;
  o.threads = 1;
  const RolloutResult one = rollout(race(), racer(), race_evaluator(), o);
  o.threads = 3;
  const RolloutResult three = rollout(race(), racer(), race_evaluator(), o);
  EXPECT_EQ(one.to_json(), three.to_json());
  // Random play uses the agent streams: still reproducible.
  auto random = [] { return std::make_unique<RandomAgent>(); };
  const RolloutResult r1 = rollout(Position::start(), random, {}, o);
  o.threads = 1;
  const RolloutResult r2 = rollout(Position::start(), random, {}, o);
  EXPECT_EQ(r1.to_json(), r2.to_json());
  o.seed = 18;
  const RolloutResult r3 = rollout(Position::start(), random, {}, o);
  EXPECT_NE(r1.to_json(), r3.to_json());
}

TEST(Rollout, VarianceReductionShrinksTheStandardErrorWithoutBias) {
  RolloutOptions plain;
  plain.trials = 1296;
  plain.seed = 3;
  plain.stratify = false;
  plain.luck_adjust = false;
  plain.tables = false;  // play the race out (the race table would end every trial exactly)
  const RolloutResult p = rollout(race(), racer(), race_evaluator(), plain);
  EXPECT_FALSE(p.luck_adjusted);
  RolloutOptions reduced = plain;
  reduced.stratify = true;
  reduced.luck_adjust = true;
  const RolloutResult r = rollout(race(), racer(), race_evaluator(), reduced);
  EXPECT_TRUE(r.luck_adjusted);
  EXPECT_TRUE(r.stratified);
  const double se_plain = p.equity().se, se_reduced = r.equity().se;
  ASSERT_GT(se_plain, 0.01);
  // Given equal trials, then the adjusted standard error is clearly smaller...
  EXPECT_LT(se_reduced, 0.6 * se_plain) << "plain " << se_plain << " reduced " << se_reduced;
  std::printf("variance reduction: plain se %.4f, reduced se %.4f\n", se_plain, se_reduced);
  // ...and the estimates agree within their combined error (both are unbiased).
  EXPECT_LT(std::abs(r.equity().mean - p.equity().mean), 4 * std::hypot(se_plain, se_reduced));
  // The unadjusted figures of the reduced run are plain averages of its outcomes.
  EXPECT_NEAR(r.raw[kRoWin].mean + r.raw[kRoLose].mean + r.raw[kRoDraw].mean, 1.0, 1e-12);
  EXPECT_NEAR(
      r.raw[kRoEquity].mean,
      r.raw[kRoWin].mean + r.raw[kRoWinMars].mean - r.raw[kRoLose].mean - r.raw[kRoLoseMars].mean,
      1e-12);
}

TEST(Rollout, WithoutAnEvaluatorOnlyStratifiesAndSaysSo) {
  RolloutOptions o;
  o.trials = 72;
  const RolloutResult r = rollout(race(), racer(), {}, o);
  EXPECT_FALSE(r.luck_adjusted);
  EXPECT_TRUE(r.stratified);
  EXPECT_NE(r.note.find("no evaluator"), std::string::npos) << r.note;
  // Adjusted equals raw when only stratification acts.
  EXPECT_DOUBLE_EQ(r.adjusted[kRoEquity].mean, r.raw[kRoEquity].mean);
}

TEST(Rollout, FlippedSwapsTheSides) {
  RolloutOptions o;
  o.trials = 36;
  const RolloutResult r = rollout(race(), racer(), race_evaluator(), o);
  const RolloutResult f = r.flipped();
  EXPECT_DOUBLE_EQ(f.adjusted[kRoWin].mean, r.adjusted[kRoLose].mean);
  EXPECT_DOUBLE_EQ(f.adjusted[kRoLoseMars].mean, r.adjusted[kRoWinMars].mean);
  EXPECT_DOUBLE_EQ(f.equity().mean, -r.equity().mean);
  EXPECT_DOUBLE_EQ(f.equity().se, r.equity().se);
}

TEST(Rollout, RejectsFinishedGamesAndBadOptions) {
  RolloutOptions o;
  const Position done = parse_pos("0,0,0,0,0,0,0,0,0,0,0,0,-15,0,0,0,0,0,0,0,0,0,0,0 b");
  EXPECT_THROW(rollout(done, racer(), {}, o), Error);
  o.trials = 0;
  EXPECT_THROW(rollout(race(), racer(), {}, o), Error);
  o.trials = 10;
  o.first_trial = -1;
  EXPECT_THROW(rollout(race(), racer(), {}, o), Error);
}

// Trials [0, n) and [n, 2n) are the two halves of the rollout of [0, 2n): the same trials, so
// the halves' means average to the whole's (raw and adjusted), whatever the threads.
TEST(Rollout, FirstTrialSplitsARolloutIntoHalves) {
  const AgentMaker random = [] { return std::make_unique<RandomAgent>(); };
  for (const bool lucky : {false, true}) {
    RolloutOptions o;
    o.seed = 9;
    o.trials = 144;
    o.threads = 2;
    o.tables = false;  // the race table would end every trial of race() at once
    const Position pos = lucky ? race() : Position::start();
    const AgentMaker agent = lucky ? racer() : random;
    const EvaluatorMaker luck = lucky ? race_evaluator() : EvaluatorMaker{};
    const RolloutResult whole = rollout(pos, agent, luck, o);
    o.trials = 72;
    o.threads = 1;
    const RolloutResult a = rollout(pos, agent, luck, o);
    o.first_trial = 72;
    const RolloutResult b = rollout(pos, agent, luck, o);
    for (int k = 0; k < kRoNumOutputs; ++k) {
      const size_t i = static_cast<size_t>(k);
      EXPECT_NEAR(whole.adjusted[i].mean, (a.adjusted[i].mean + b.adjusted[i].mean) / 2, 1e-12);
      EXPECT_NEAR(whole.raw[i].mean, (a.raw[i].mean + b.raw[i].mean) / 2, 1e-12);
    }
    EXPECT_NE(a.equity().mean, b.equity().mean);  // two different sets of trials
  }
}

}  // namespace
}  // namespace nardy
