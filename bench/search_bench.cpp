#include "bench/search_bench.h"

#include <time.h>

#include <chrono>
#include <vector>

#include "core/error.h"
#include "core/game.h"
#include "selfplay/agents/agent.h"
#include "selfplay/search/net_agent.h"
#include "selfplay/search/agent_kinds.h"

namespace nardy {

namespace {
double thread_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}
}  // namespace

std::vector<SearchBenchSample> bench_search_samples(int64_t positions, uint64_t seed,
                                                    const Rules& rules) {
  if (positions < 1) throw Error("bench search: positions must be at least 1");
  std::vector<SearchBenchSample> samples;
  auto player = make_agent("heuristic", rules);
  Rng dice_rng(seed), agent_rng(seed + 1);
  MoveList moves;
  while (static_cast<int64_t>(samples.size()) < positions) {
    Position pos = Position::start();
    for (int turn = 0;
         !game_outcome(pos, rules) && static_cast<int64_t>(samples.size()) < positions; ++turn) {
      const Dice d = roll_turn(dice_rng, rules, turn == 0);
      generate_moves(pos, d, rules, moves);
      if (turn % 5 == 2 && moves.size() > 1) samples.push_back(SearchBenchSample{pos, d, moves});
      pos = moves[player->choose(pos, d, moves, agent_rng)].position;
    }
  }
  return samples;
}

SearchBenchResult bench_search(const std::string& agent_spec, int64_t positions, uint64_t seed,
                               const Rules& rules) {
  const std::vector<SearchBenchSample> samples = bench_search_samples(positions, seed, rules);
  auto agent = make_agent(agent_spec, rules);
  auto* net = dynamic_cast<NetAgent*>(agent.get());
  Rng rng(seed + 2);
  SearchBenchResult r;
  r.signature = 1469598103934665603ull;
  const auto t0 = std::chrono::steady_clock::now();
  const double c0 = thread_cpu_seconds();
  for (const auto& s : samples) {
    const size_t i = agent->choose(s.pos, s.dice, s.moves, rng);
    r.signature = (r.signature ^ (i + 1)) * 1099511628211ull;
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  r.cpu_seconds = thread_cpu_seconds() - c0;
  r.moves = static_cast<int64_t>(samples.size());
  if (net) {
    r.evaluator_positions = net->search().evaluator_positions();
    const double lookups =
        static_cast<double>(net->search().cache().hits() + net->search().cache().misses());
    r.cache_hit_rate =
        lookups > 0 ? static_cast<double>(net->search().cache().hits()) / lookups : 0.0;
  }
  return r;
}

}  // namespace nardy
