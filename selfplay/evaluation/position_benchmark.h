// selfplay/evaluation/position_benchmark.h — a fixed benchmark of decisions with rollout
// equities, and an agent's error rate on it (`nardy benchmark`, nardy.benchmark).
//
// A decision is a position and a roll with at least two legal results. The set keeps, for each,
// its candidates — every legal result, or when there are more than `max_candidates` the best
// `max_candidates` by the rank agent's search (a net agent at its ply; without one, by the
// heuristic's evaluation, selfplay/agents/heuristic_agent.h heuristic_score) — each with a rollout
// equity for the mover and its standard error (selfplay/evaluation/rollout.h: stratified first two
// rolls, luck adjustment when the rollout agent has a net; the candidates of one decision share
// their dice streams).
//
// Phases (phase_of; a function of the position alone):
//   opening   not a race, and both sides still have at least 11 checkers on their heads
//   contact   any other position that is not a race
//   race      a race (selfplay/tables/race.h) in which the mover still has a checker outside home
//   bearoff   a race with every checker of the mover at home (r <= 6)
//
// Text format ('#' lines are comments and the build's header; its first line names the format):
//   decision POSID D1D2 PHASE N
//   POSID EQUITY SE NOTATION              format 1: N lines, one per candidate, best first;
//                                         POSID is the result's position ID (core/position_id.h),
//                                         NOTATION the move
//   POSID EQUITY SE HALF1 HALF2 NOTATION  format 2 (what builds write): also the equities of the
//                                         first and the second half of the trials
// Reading checks every decision against the rules: the candidates must be distinct legal
// results of the position and roll; any problem is an Error naming the file and line.
//
// Error rate of an agent: on each decision the agent chooses a legal result; its loss is the best
// candidate's equity minus the chosen one's (0 for the best). A choice outside the listed
// candidates (possible only when they were cut to the top ones) is charged the largest listed
// loss and counted as `outside`: a stand-in, measured to overcharge strong agents
// (add_choices_to_benchmark adds such choices to a set, rolled out). Reported in millipoints
// (1/1000 of a point) as the mean over decisions with a 95% confidence interval (Student t),
// overall and per phase, with the share of decisions losing more than 0.1 points.
//
// Noise, and the cross-fitted loss (format 2). The loss above picks the best candidate and
// measures it on the same trials, so rollout noise between near-equal candidates inflates it: in
// expectation it is at least the loss against the rollout agent's exact values (max is convex),
// for every agent alike. With the two halves of the trials a set also gives the cross-fitted
// loss: the best picked on one half, the loss measured on the other, averaged over both ways:
//   cross = ½ [(H2[best by H1] − H2[chosen]) + (H1[best by H2] − H1[chosen])]
// The halves' trials are independent, so picking on one and measuring on the other measures the
// loss against a candidate no better than the best. The halves split the stratified rolls (each
// first roll with half of the second rolls, rollout.h), so each half also carries its share of
// the first and second rolls' interaction, with opposite signs in the two: a pick that favours
// it in one half is charged against it in the other, which only lowers the figure further. So
// in expectation the cross-fitted loss is at most the exact loss; the two bracket it (on
// average), and where they agree noise does not drive the figure.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/position.h"
#include "core/rules.h"
#include "selfplay/agents/agent.h"
#include "selfplay/distributed/world.h"
#include "selfplay/evaluation/stats.h"

namespace nardy {

class LuckHead;  // selfplay/evaluation/luck_head.h

enum class Phase { Opening, Contact, Race, Bearoff };
inline constexpr Phase kAllPhases[] = {Phase::Opening, Phase::Contact, Phase::Race, Phase::Bearoff};
const char* phase_name(Phase p);
// Throws Error for a name that is not a phase.
Phase parse_phase(std::string_view name);
Phase phase_of(const Position& pos);

struct BenchmarkCandidate {
  Position result;  // after the move, opponent to move
  std::string notation;
  double equity = 0, se = 0;  // the mover's view
  // The equities of the first and the second half of the trials (format 2); for a result that
  // ends the game both are its points. Absent in format-1 sets.
  std::optional<std::array<double, 2>> halves;
};

struct BenchmarkDecision {
  Position pos;
  Dice dice;
  Phase phase = Phase::Contact;
  std::vector<BenchmarkCandidate> candidates;  // best first
};

struct BenchmarkSet {
  std::vector<std::string> header;  // the '#' lines, without '#'
  std::vector<BenchmarkDecision> decisions;
  int format = 2;  // 1: no halves; 2: every candidate has its halves
};

// One decision in the text format (its "decision" line and candidate lines; format 2 when its
// candidates have halves).
std::string format_decision(const BenchmarkDecision& d);
// Reads a set; Error naming `path` and the line on any problem. `rules` checks legality.
BenchmarkSet read_benchmark(const std::string& path, const Rules& rules = {});

struct BenchmarkBuildOptions {
  int decisions = 2000;
  uint64_t seed = 1;
  // Agents of the sampled games: each game draws White and Black from this list.
  std::vector<std::string> game_agents = {"random", "heuristic"};
  // Share of the set per phase (opening, contact, race, bearoff); normalised.
  std::array<double, 4> phase_shares = {0.2, 0.4, 0.2, 0.2};
  std::string rollout_agent = "heuristic";
  std::string rank_agent;  // a net agent ranking results to keep the top ones ("": heuristic)
  int max_candidates = 8;  // >= 5
  int64_t trials = 144;    // >= 2: each candidate's trials are rolled out in two halves
  // Turns of each trial that are luck-adjusted when the rollout agent has a net (RolloutOptions::
  // luck_turns; 0 = every turn). Each adjusted turn costs a 1-ply evaluation.
  int luck_turns = 0;
  // Luck adjustment at all (RolloutOptions::luck_adjust). Off, trials are plain but still
  // stratified: with a 0-ply rollout agent a plain trial costs ~1/20 of an adjusted one and,
  // with many trials, buys more precision per second (bench/positions/README.md).
  bool luck_adjust = true;
  // Luck measured by this head instead of exactly (RolloutOptions::luck_head): about the cost
  // of a plain trial at 0-ply; null: exact.
  std::shared_ptr<const LuckHead> luck_head;
  int threads = 1;  // each decision's rollouts (per rank)
  Rules rules;
  World* world = nullptr;  // ranks sharing the decisions (build_benchmark); null: this process
  // The build's own net agents (game, rank and rollout agents) value races beyond the table with
  // the process's race net (selfplay/tables/race_net.h), and the header says so ("race net: N
  // points"), when there is one; false: with their value net, as sets built before the race net
  // were (add_choices_to_benchmark follows the set's header).
  bool race_net = true;
};

// The decisions of the set, without candidates: sampled from games of `game_agents` seeded by
// `seed` (each game's turns are taken with probability 1/8, distinct decisions only, until each
// phase's quota is met). Deterministic for the options.
std::vector<BenchmarkDecision> sample_decisions(const BenchmarkBuildOptions& options,
                                                const AgentBySpec& make_agent);

// The header lines a build with `options` writes (what made the set).
std::vector<std::string> benchmark_header(const BenchmarkBuildOptions& options);

// Builds the set into `path`, resumably: if the file exists its header must equal this build's
// (the lines add_choices_to_benchmark appends aside) and its decisions are kept; the missing
// ones are labelled and appended one at a time (flushed), so a killed build continues where it
// stopped. `progress(done, total)` at the start (the decisions kept) and after each decision.
// Ranks (`options.world`): every rank samples the same decisions; the missing ones go in blocks
// of 4 per rank, each rank labelling one contiguous share of a block (its rollouts on its own
// `threads`), and rank 0 alone reads the file and appends the gathered decisions in set order
// (so a set is the same bytes on any number of ranks; progress after each block, on every
// rank). A failure on any rank is an Error on every rank at the next exchange. A collective:
// every rank calls it with the same options and path.
void build_benchmark(const BenchmarkBuildOptions& options, const std::string& path,
                     const AgentBySpec& make_agent,
                     const std::function<void(int, int)>& progress = {});

// Adds to a built set the choices of other agents as candidates of their own, each what a build
// whose candidates had included it would list. A choice outside a decision's candidates (the
// rank agent's top max_candidates) is otherwise charged the decision's largest listed loss,
// which overcharges a strong agent whose choice the rank agent ranked lower than the rollouts
// do (bench/positions/README.md measures it). For each spec in `agents`, in order: its choice on
// every decision, as scoring makes it (the agent's generator seeded by `seed`, as `nardy
// benchmark --seed`), that is not listed is rolled out as build_benchmark rolls out a candidate
// (the decision's dice streams, trials and halves) and inserted in equity order; the header gets
// the line "added choices of: SPEC (seed S): N results added". The set must be complete and
// built with `options` (its header, those lines aside; `options.race_net` is taken from the
// header, and the rollouts use the race net only if the build did, whatever the added agents
// use); an agent already recorded is skipped,
// and the file is rewritten atomically after each agent, so a killed run loses at most the
// running agent's rollouts. Ranks (`options.world`): rank 0 reads the set and finds the
// choices, the rollouts go in blocks of 4 per rank, and rank 0 writes (the same bytes on any
// number of ranks). `progress(agent, done, total)` on rank 0 over each agent's results. A
// collective.
void add_choices_to_benchmark(
    const BenchmarkBuildOptions& options, const std::string& path,
    const std::vector<std::string>& agents, uint64_t seed, const AgentBySpec& make_agent,
    const std::function<void(const std::string&, int, int)>& progress = {});

struct PhaseScore {
  std::string phase;                  // "overall" or a phase name
  MeanEstimate loss;                  // millipoints per decision
  std::optional<MeanEstimate> cross;  // the cross-fitted loss (sets with halves), millipoints
  double share_over_0_1 = 0;
  int64_t outside = 0;
};

struct BenchmarkScore {
  std::string agent;
  PhaseScore overall;
  std::vector<PhaseScore> phases;  // those present in the set
  std::vector<double> losses;      // per decision of the set, in its order (points)
  std::string to_text() const;
  std::string to_json() const;
};

// What a set's equities are worth, per phase ("overall" first): decisions, candidates per
// decision, the mean listed standard error of a candidate's equity, and from the halves (format
// 2; NaN without) the noise measured: of a candidate's equity, RMS(H1 − H2) / 2, and of its
// difference from the decision's best (what an error rate is made of), RMS((H1 − H1best) −
// (H2 − H2best)) / 2 over the other candidates. Both include the halves' share of the rolls'
// interaction (above), so they are upper estimates of the noise of the whole. The second over
// the first is √2 for independent candidates and below it as far as the common dice correlate
// them.
struct BenchmarkNoise {
  std::string phase;
  int64_t decisions = 0;
  double candidates = 0, mean_se = 0, equity_noise = 0, difference_noise = 0;
};
struct BenchmarkStatistics {
  std::vector<BenchmarkNoise> phases;
  std::string to_text() const;
};
BenchmarkStatistics benchmark_statistics(const BenchmarkSet& set);

// Two agents on the same set, paired by decision: the mean of (loss of a − loss of b) per
// decision, millipoints, with a 95% CI (Student t over decisions), overall and per phase. The
// best candidate's noisy equity cancels from each decision's difference (both losses are
// measured from it), so the comparison carries neither the noise bias of the error rate nor
// the spread between decisions: tighter than comparing the two error rates' intervals.
struct BenchmarkComparison {
  std::string a, b;
  std::vector<std::pair<std::string, MeanEstimate>> phases;  // "overall" first
  std::string to_text() const;
  std::string to_json() const;
};
// Throws Error unless both scores are of `set` (one loss per decision).
BenchmarkComparison compare_benchmark(const BenchmarkSet& set, const BenchmarkScore& a,
                                      const BenchmarkScore& b);

// The agent's error rate on `set` (agents from `make`, one per thread; the agent's Rng for
// decision i is Rng(seed).split(i), so the result does not depend on `threads`).
BenchmarkScore score_benchmark(const BenchmarkSet& set, const AgentMaker& make, const Rules& rules,
                               int threads = 1, uint64_t seed = 1);

}  // namespace nardy
