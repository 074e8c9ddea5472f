// selfplay/evaluation/rollout.h — Monte Carlo rollouts of a position to the end of the game.
//
// A rollout plays the position out many times (trials) with one agent playing both sides and
// averages the outcomes from the point of view of the side to move at the root ("the player on
// roll"). Two variance-reduction techniques, both unbiased:
//
//  * Stratified dice (gnubg's quasi-random first rolls): trial t's first roll is entry
//    t mod n1 of the ordered rolls allowed there (36, or the 30 non-doubles at the start under
//    opening=no_doubles), and its second roll is entry (7·(t mod n1) + ⌊t / n1⌋) mod 36 of the 36
//    ordered rolls. Every block of n1 trials therefore plays each first roll once, and with
//    n1 = 36 every 1296 trials play each (first, second) pair once (7 is coprime to 36). Later
//    rolls come from trial t's own Rng stream.
//  * Luck adjustment (gnubg's variance reduction): at every turn with position P and roll d,
//        luck = f(P, d) − Σ_{d'} w(d') f(P, d'),   f(P, d) = the mover's 0-ply value after its
//    best result of roll d (selfplay/search/search.h Search::best_static, averaged by
//    Search::evaluate at depth 1 over the 21 rolls). Each term has mean zero whatever the agent
//    plays, so
//        adjusted outcome = outcome − Σ_turns luck   (in the root's view)
//    has the same expectation and, with a decent evaluator, much smaller variance (dropping the
//    terms of later turns, `luck_turns`, keeps it unbiased). It needs an
//    Evaluator: a net agent brings its own; otherwise pass one, or the rollout falls back to
//    stratification only and says so in `note`.
//    A net agent's luck shares its search's values (the same bits as computing them afresh):
//    a 1-ply choice leaves value(result, 1) of the result played in the search's cache, which is
//    the next turn's expected value, so luck costs little beside a 1-ply choice; a 0-ply agent
//    chooses among the values the expected value has just computed (NetAgent::choose_continuing),
//    but the 21 rolls still cost about 20 plain 0-ply turns.
//    A luck head (selfplay/evaluation/luck_head.h; RolloutOptions::luck_head) replaces the
//    exact term by a small network's prediction of it from P alone, with the same zero mean
//    over the rolls: one forward of that network per turn instead of 21 rolls' moves and
//    values, for any agent. It removes the part of the luck it predicts (`nardy luck fit`
//    reports the share).
//
// Race tables: with `tables` on (the default) and a race table present (selfplay/tables/
// bearoff_table.h default_bearoff_table), a trial that reaches a race position the table covers
// stops there and counts the table's exact odds (fractional outcomes) instead of playing on:
// unbiased under the table's approximation, faster, and with less variance.
//
// Reported per output (win, win_mars, lose, lose_mars, draw, equity): the mean over trials and
// its standard error (sample standard deviation / sqrt(trials); conservative under
// stratification). The unadjusted ("raw") figures are kept beside the adjusted ones. The
// adjusted probabilities stay a distribution: a luck head's terms keep win + lose + draw at 1 in
// every trial (and the draw at 0 where the rules have none), and the reported means are clamped
// to [0, 1] with mars at most its win; their standard errors are as measured. The text leaves
// the draw out where the rules have no draws.
//
// Reproducible: trial t uses only its own streams of `seed` (dice, agent), results are summed
// in trial order, so the result does not depend on the thread count. Ranks (`world`,
// selfplay/distributed/world.h) split the trials into contiguous blocks (block_of) and
// all-gather every trial's outcome, so every rank returns the single process's result, bit
// for bit; a failure on any rank throws on every rank.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "core/rules.h"
#include "selfplay/distributed/world.h"
#include "selfplay/evaluation/arena.h"
#include "selfplay/evaluation/luck_head.h"
#include "selfplay/search/search.h"

namespace nardy {

struct RolloutOptions {
  int64_t trials = 1296;
  // The number of the first trial: trials first_trial .. first_trial + trials - 1 are played,
  // each on its own streams and stratified rolls, so rollouts over [0, n) and [n, 2n) are the
  // two halves of the rollout over [0, 2n) (the benchmark builder keeps them apart).
  int64_t first_trial = 0;
  int threads = 1;
  uint64_t seed = 1;
  Rules rules;
  bool stratify = true;
  bool luck_adjust = true;  // when an evaluator is available
  // Turns (from the root) whose luck is measured; 0 = every turn. Measuring costs about 21
  // static evaluations of a roll's results per turn, so with a cheap (0-ply) rollout agent a
  // limit trades some variance reduction for a lot of speed.
  int luck_turns = 0;
  int max_turns = 10000;   // per trial; reaching it is an Error (an agent bug)
  World* world = nullptr;  // ranks sharing the trials; null: this process alone
  bool tables = true;      // end trials in covered races with the default table's exact odds
  // When luck is measured by a search of its own (the `luck` evaluator, not a net agent's own
  // search): whether it values races beyond the table with the process's race net, as a net
  // agent does unless its spec says race_net=0 (net_agent.h); only with `tables`.
  bool race_net = true;
  // Measure luck with this head instead of the exact 21-roll term (when luck_adjust; any agent
  // and rules: the head's zero mean keeps the rollout unbiased).
  std::shared_ptr<const LuckHead> luck_head;
};

// One output's estimate.
struct RolloutStat {
  double mean = 0, se = 0;
};

// Outputs in this order (the root's view).
enum RolloutOutput { kRoWin, kRoWinMars, kRoLose, kRoLoseMars, kRoDraw, kRoEquity, kRoNumOutputs };

struct RolloutResult {
  int64_t trials = 0;
  std::array<RolloutStat, kRoNumOutputs> adjusted{};  // stratified and/or luck-adjusted
  std::array<RolloutStat, kRoNumOutputs> raw{};       // plain averages of the outcomes
  bool stratified = false, luck_adjusted = false;
  bool draws = false;    // whether the rules have draws (last_roll_draw)
  int luck_turns = 0;    // as in the options (0 = every turn)
  int table_points = 0;  // points of the race table that ended trials (0: none)
  std::string agent_spec, evaluator_name;
  std::string luck_method;  // "exact" (the 21 rolls), "head" (a luck head) or "" (no luck)
  std::string note;         // why luck adjustment is off, if it is
  double mean_turns = 0;

  const RolloutStat& equity() const { return adjusted[kRoEquity]; }
  // The same result from the other side's view (win <-> lose, equity negated).
  RolloutResult flipped() const;
  std::string to_text() const;
  std::string to_json() const;
};

// A factory for the luck evaluator (one per thread); may be empty.
using EvaluatorMaker = std::function<std::unique_ptr<Evaluator>()>;

// Rolls `pos` out (side to move = the root player, about to roll). The agent plays both sides;
// if it is a NetAgent its own search provides the luck evaluation, else `luck` (if given).
// Throws Error if the game at `pos` is already over or options are out of range.
RolloutResult rollout(const Position& pos, const AgentMaker& agent, const EvaluatorMaker& luck,
                      const RolloutOptions& options);

// The ordered roll of index i (0..35): d1 = i / 6 + 1, d2 = i % 6 + 1.
Dice ordered_roll(int i);
// The stratified first and second rolls of trial t (see above); n1 = 36 or 30 (non-doubles).
Dice stratified_first_roll(int64_t trial, bool no_doubles);
Dice stratified_second_roll(int64_t trial, bool no_doubles);

}  // namespace nardy
