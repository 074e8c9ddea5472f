// `nardy bench search --agent SPEC`: seconds per move of an agent on fixed positions.
#include <cstdio>
#include <fstream>
#include <sstream>

#include "cli/command.h"
#include "bench/search_bench.h"
#include "bench/search_reference.h"
#include "core/error.h"
#include "core/file_io.h"
#include "core/file_error.h"

namespace nardy::cli {

void add_bench_search_command(CLI::App& bench) {
  struct Args {
    std::string agent;
    int64_t positions = 200;
    uint64_t seed = 1;
    std::vector<std::string> rules;
    std::string record;
  };
  auto a = std::make_shared<Args>();
  auto* cmd = bench.add_subcommand(
      "search",
      "Time an agent's move choice on fixed positions from heuristic self-play (one thread):\n"
      "seconds per move, positions sent to the net, cache hit rate, and a signature of the "
      "choices.");
  cmd->add_option("--agent", a->agent, "Agent spec, e.g. net:PATH:ply=1")->required();
  cmd->add_option("--positions", a->positions, "Positions to time")
      ->capture_default_str()
      ->check(CLI::Range(int64_t{1}, int64_t{1} << 30));
  add_seed_option(*cmd, a->seed, "Seed of the positions");
  cmd->add_option("--record", a->record,
                  "Instead of timing, write every candidate the (net) agent scores on the "
                  "positions to FILE: the search reference of bench/search_reference.h");
  add_rule_option(*cmd, a->rules);
  cmd->callback([a] {
    if (!a->record.empty()) {
      const SearchReference ref =
          record_search_reference(a->agent, a->positions, a->seed, rules_from(a->rules));
      std::ostringstream out;
      std::string command = "nardy bench search --agent " + a->agent + " --positions " +
                            std::to_string(a->positions) + " --seed " + std::to_string(a->seed);
      for (const auto& r : a->rules) command += " --rule " + r;
      write_search_reference(ref, command + " --record FILE", out);
      write_file_atomic(a->record, out.str(), "search reference");
      std::printf("recorded %zu decisions of %s to %s\n", ref.decisions.size(), a->agent.c_str(),
                  a->record.c_str());
      return;
    }
    const SearchBenchResult r = bench_search(a->agent, a->positions, a->seed, rules_from(a->rules));
    std::printf("search: %s, %lld positions, %.3f s on 1 thread (%.3f s of CPU)\n",
                a->agent.c_str(), static_cast<long long>(r.moves), r.seconds, r.cpu_seconds);
    std::printf(
        "  %.6f s per move (%.6f s of CPU)   %.0f net evaluations per move   cache hit rate "
        "%.1f%%\n",
        r.seconds_per_move(), r.cpu_seconds_per_move(),
        r.moves ? static_cast<double>(r.evaluator_positions) / static_cast<double>(r.moves) : 0.0,
        100 * r.cache_hit_rate);
    std::printf("  signature %llu (seed %llu)\n", static_cast<unsigned long long>(r.signature),
                static_cast<unsigned long long>(a->seed));
  });
}

}  // namespace nardy::cli
