// `nardy benchmark AGENT [--set FILE]` (an agent's error rate on the benchmark of positions) and
// `nardy benchmark build --out FILE ...` (labels the set with rollouts, resumably); the library
// is selfplay/evaluation/position_benchmark.h.
#include <chrono>
#include <cstdio>
#include <iostream>

#include "cli/command.h"
#include "core/error.h"
#include "selfplay/evaluation/luck_head.h"
#include "selfplay/evaluation/position_benchmark.h"
#include "selfplay/search/agent_kinds.h"
#include "selfplay/training/progress.h"

#ifndef NARDY_DEFAULT_BENCHMARK_SET
#define NARDY_DEFAULT_BENCHMARK_SET "bench/positions/positions.txt"
#endif

namespace nardy::cli {

void add_benchmark_command(CLI::App& app) {
  struct Args {
    std::string agent, versus, set = NARDY_DEFAULT_BENCHMARK_SET, json;
    std::vector<std::string> rules;
    int threads = 1;
    uint64_t seed = 1;
  };
  auto a = std::make_shared<Args>();
  auto* cmd = app.add_subcommand(
      "benchmark",
      "An agent's error rate on the benchmark of positions: mean equity lost per decision against\n"
      "the best rollout result, in millipoints with a 95% CI, overall and per phase, and the "
      "share\n"
      "of decisions losing more than 0.1 points. `benchmark build` makes a set.");
  cmd->require_subcommand(0, 1);
  cmd->add_option("agent", a->agent,
                  "Agent spec (default, model:NAME, random, heuristic, net:PATH[:ply=N]...)");
  cmd->add_option("--versus", a->versus,
                  "Also score agent B and compare, paired by decision (AGENT minus B)");
  cmd->add_option("--set", a->set, "Benchmark set file")->capture_default_str();
  cmd->add_option("--threads", a->threads, "Threads (results do not depend on it)")
      ->capture_default_str()
      ->check(CLI::Range(1, 1024));
  cmd->add_option("--seed", a->seed, "Seed of the agents' own randomness (noise)")
      ->capture_default_str();
  cmd->add_option("--json", a->json, "Also write the result as JSON to FILE");
  add_rule_option(*cmd, a->rules);
  cmd->callback([a, cmd] {
    if (!cmd->get_subcommands().empty()) return;
    if (a->agent.empty()) throw Error("benchmark: expected an AGENT spec (or `benchmark build`)");
    const Rules rules = rules_from(a->rules);
    const BenchmarkSet set = read_benchmark(a->set, rules);
    make_agent(a->agent, rules);  // a bad spec fails here, on this thread
    if (!a->versus.empty()) make_agent(a->versus, rules);
    auto score = [&](const std::string& spec) {
      return score_benchmark(
          set, [spec, rules] { return make_agent(spec, rules); }, rules, a->threads, a->seed);
    };
    const BenchmarkScore s = score(a->agent);
    std::cout << "set " << a->set << " (" << set.decisions.size() << " decisions)\n" << s.to_text();
    std::string json = s.to_json();
    if (!a->versus.empty()) {
      const BenchmarkScore other = score(a->versus);
      const BenchmarkComparison c = compare_benchmark(set, s, other);
      std::cout << other.to_text() << c.to_text();
      json = "{\"a\": " + json + ",\n\"b\": " + other.to_json() +
             ",\n\"a_minus_b\": " + c.to_json() + "}";
    }
    if (!a->json.empty()) write_output_file("benchmark", "JSON", a->json, json + "\n");
  });

  struct BuildArgs {
    std::string out, game_agents = "random,heuristic", luck_head, add_choices;
    std::vector<std::string> rules;
    bool no_luck = false;
    std::string race_net = "on";
    uint64_t choice_seed = 1;
    BenchmarkBuildOptions o;
  };
  auto b = std::make_shared<BuildArgs>();
  struct StatsArgs {
    std::string set = NARDY_DEFAULT_BENCHMARK_SET;
    std::vector<std::string> rules;
  };
  auto st = std::make_shared<StatsArgs>();
  auto* stats = cmd->add_subcommand(
      "stats",
      "What a set's equities are worth: per phase the candidates, the mean standard\n"
      "error and the noise measured from the halves of the trials, of an equity and of\n"
      "a candidate's difference from the best (what error rates are made of).");
  stats->add_option("--set", st->set, "Benchmark set file")->capture_default_str();
  add_rule_option(*stats, st->rules);
  stats->callback([st] {
    const BenchmarkSet set = read_benchmark(st->set, rules_from(st->rules));
    std::cout << "set " << st->set << " (" << set.decisions.size() << " decisions, format "
              << set.format << ")\n"
              << benchmark_statistics(set).to_text();
  });
  auto* build = cmd->add_subcommand(
      "build",
      "Sample decisions from games of --game-agents and label each candidate with rollouts,\n"
      "appending to --out one decision at a time; run again with the same options to resume.\n"
      "Under torchrun the ranks share the decisions and rank 0 writes the set (the same bytes).");
  build->add_option("--out", b->out, "Set file (created, or resumed)")->required();
  build->add_option("--decisions", b->o.decisions, "Decisions in the set")
      ->capture_default_str()
      ->check(CLI::Range(1, 1000000));
  build->add_option("--seed", b->o.seed, "Seed of the sampled games and the rollouts")
      ->capture_default_str();
  build->add_option("--game-agents", b->game_agents, "Comma-separated agent specs of the games")
      ->capture_default_str();
  build->add_option("--rollout-agent", b->o.rollout_agent, "Agent of the rollouts")
      ->capture_default_str();
  build->add_option("--rank-agent", b->o.rank_agent,
                    "Net agent ranking the results when there are more than --max-candidates");
  build->add_option("--max-candidates", b->o.max_candidates, "Candidates kept per decision")
      ->capture_default_str()
      ->check(CLI::Range(5, 10000));
  build
      ->add_option("--trials", b->o.trials, "Rollout trials per candidate (two halves, kept apart)")
      ->capture_default_str()
      ->check(CLI::Range(int64_t{2}, int64_t{1} << 30));
  auto* luck_turns =
      build
          ->add_option("--luck-turns", b->o.luck_turns,
                       "Luck-adjusted turns per trial when the rollout agent has a net (0 = all)")
          ->capture_default_str()
          ->check(CLI::Range(0, 10000));
  auto* no_luck =
      build
          ->add_flag("--no-luck", b->no_luck,
                     "Plain (stratified) trials: no luck adjustment (cheaper per trial at 0-ply)")
          ->excludes(luck_turns);
  build
      ->add_option("--luck-head", b->luck_head,
                   "Measure luck with this luck head (nardy luck fit) instead of exactly")
      ->excludes(no_luck);
  build
      ->add_option("--threads", b->o.threads,
                   "Rollout threads (per rank; results depend on neither threads nor ranks)")
      ->capture_default_str()
      ->check(CLI::Range(1, 1024));
  build->add_option("--add-choices", b->add_choices,
                    "Then add these agents' choices outside a decision's candidates, rolled out "
                    "as\ncandidates of their own (comma-separated specs; each recorded in the "
                    "header, done once)");
  build
      ->add_option("--choice-seed", b->choice_seed,
                   "Seed of the --add-choices agents' own randomness, as `benchmark --seed`")
      ->capture_default_str();
  build
      ->add_option("--race-net", b->race_net,
                   "on: the build's own net agents value races beyond the race table with the "
                   "race\nnet, recorded in the header; off: with their value net (sets built "
                   "before it)")
      ->capture_default_str()
      ->check(CLI::IsMember({"on", "off"}));
  add_rule_option(*build, b->rules);
  build->callback([b] {
    b->o.race_net = b->race_net == "on";
    b->o.world = &process_world();
    const bool root = b->o.world->is_root();  // reports; every rank labels its share
    b->o.rules = rules_from(b->rules);
    b->o.luck_adjust = !b->no_luck;
    if (!b->luck_head.empty())
      b->o.luck_head = std::make_shared<LuckHead>(LuckHead::load(b->luck_head));
    b->o.game_agents = split_agent_specs(b->game_agents, "benchmark build: --game-agents");
    // Progress with the time so far and an estimate of the rest (from this run's pace; the
    // phases are interleaved, so the pace is representative after a few dozen decisions).
    const auto start = std::chrono::steady_clock::now();
    int first = -1;
    build_benchmark(b->o, b->out, make_agent, [&](int done, int total) {
      if (!root) return;
      if (first < 0) first = done;  // the first call: the decisions kept from an earlier run
      const double s =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      const double left = done > first ? s / (done - first) * (total - done) : -1;
      std::fprintf(stderr, "\rlabelled %d / %d, elapsed %s, ETA %s   ", done, total,
                   format_duration(s).c_str(), format_duration(left).c_str());
    });
    if (root) std::fprintf(stderr, "\n");
    if (!b->add_choices.empty()) {
      const auto agents = split_agent_specs(b->add_choices, "benchmark build: --add-choices");
      const auto t0 = std::chrono::steady_clock::now();
      add_choices_to_benchmark(
          b->o, b->out, agents, b->choice_seed, make_agent,
          [&](const std::string& agent, int done, int total) {
            const double s =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            std::fprintf(stderr, "\rchoices of %s: %d / %d rolled out, elapsed %s   %s",
                         agent.c_str(), done, total, format_duration(s).c_str(),
                         done == total ? "\n" : "");
          });
    }
    if (!root) return;
    const BenchmarkSet set = read_benchmark(b->out, b->o.rules);
    std::printf("wrote %s: %zu decisions\n", b->out.c_str(), set.decisions.size());
  });
}

}  // namespace nardy::cli
