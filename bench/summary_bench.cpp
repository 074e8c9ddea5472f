#include "bench/summary_bench.h"

#include <algorithm>
#include <chrono>
#include <cstdio>

#include "bench/kernel_bench.h"
#include "bench/movegen_bench.h"
#include "bench/search_bench.h"
#include "bench/train_bench.h"
#include "core/error.h"
#include "core/pos_text.h"
#include "selfplay/evaluation/luck_head.h"
#include "selfplay/evaluation/rollout.h"
#include "selfplay/search/agent_kinds.h"

namespace nardy {
namespace {

int64_t scaled(double n, double scale) {
  return std::max<int64_t>(1, static_cast<int64_t>(n * scale + 0.5));
}

std::string format(const char* fmt, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, fmt, v);
  return buf;
}

}  // namespace

std::vector<BenchRow> bench_summary(const SummaryBenchOptions& o) {
  if (!(o.scale > 0)) throw Error("bench: scale must be > 0");
  std::vector<BenchRow> rows;
  {
    const long games = static_cast<long>(scaled(5000, o.scale));
    bench_movegen(std::min(games, 500L), 2, o.rules);  // warm-up
    const MovegenBenchResult r = bench_movegen(games, 1, o.rules);
    rows.push_back({"movegen", r.games_per_s(), "random games/s",
                    std::to_string(r.results) + " results",
                    "nardy bench movegen --games " + std::to_string(games)});
  }
  {
    const int64_t games = scaled(3000, o.scale);
    NetShape shape;  // the default bench net: raw encoder, 128 sigmoid hidden units
    shape.num_outputs = value_outputs(o.rules);
    const TrainBenchResult r = bench_train(shape, "fast", games, 1, 1, o.rules);
    rows.push_back({"TD training", r.games_per_s(), "games/s", std::to_string(r.turns) + " turns",
                    "nardy bench train --games " + std::to_string(games) + " --threads 1"});
  }
  {
    // The fast kernels on the process's path (nn/fast_kernels.h): dense forward FLOP/s and the
    // same instruction set's peak on this core.
    const SimdPath path = active_simd_path();
    NetShape shape;
    shape.num_outputs = value_outputs(o.rules);
    const KernelBenchResult r = bench_kernels(path, shape, 0.3 * std::min(o.scale, 1.0));
    const std::string name = simd_path_name(path);
    const std::string command = "nardy bench kernels --path " + name;
    rows.push_back({"kernels dense " + name, r.dense.gflops(), "GFLOP/s",
                    "checksum " + format("%.6f", r.checksum), command});
    rows.push_back({"kernels peak " + name, r.peak_gflops, "GFLOP/s",
                    format("dense %.1f%% of it", 100 * r.dense.gflops() / r.peak_gflops), command});
  }
  if (o.net.empty()) return rows;
  const double positions[3] = {200, 50, 10};
  for (int ply = 0; ply <= 2; ++ply) {
    // tables=0: the signatures of tests/bench guard the search itself, not the race table.
    const std::string spec = "net:" + o.net + ":ply=" + std::to_string(ply) + ":tables=0";
    const int64_t n = scaled(positions[ply], o.scale);
    const SearchBenchResult r = bench_search(spec, n, 1, o.rules);
    rows.push_back({"search ply " + std::to_string(ply), 1000 * r.seconds_per_move(), "ms/move",
                    std::to_string(r.signature),
                    "nardy bench search --agent " + spec + " --positions " + std::to_string(n)});
  }
  // The net's luck head (NAME.luck beside it), if it has one under these rules: a third 0-ply row.
  const std::shared_ptr<const LuckHead> head = find_luck_head(o.net, o.rules);
  enum Luck { kPlain, kExact, kHead };
  for (const int ply : {0, 1})
    for (const Luck luck : {kPlain, kExact, kHead}) {
      if (luck == kHead && (ply == 1 || !head)) continue;
      RolloutOptions ro;
      ro.trials = scaled(ply == 1 ? 12 : luck == kExact ? 72 : 648, o.scale);
      ro.rules = o.rules;
      ro.luck_adjust = luck != kPlain;
      if (luck == kHead) ro.luck_head = head;
      const std::string spec = "net:" + o.net + (ply == 1 ? ":ply=1" : "");
      const Rules rules = o.rules;
      const auto t0 = std::chrono::steady_clock::now();
      const RolloutResult r = rollout(
          Position::start(), [&] { return make_agent(spec, rules); }, nullptr, ro);
      const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      static const char* const kNames[] = {"plain", "luck-adjusted", "luck head"};
      static const char* const kFlags[] = {" --no-luck", " --exact-luck", ""};
      rows.push_back({std::string(ply == 1 ? "rollout 1-ply " : "rollout ") + kNames[luck],
                      static_cast<double>(r.trials) / s, "trials/s",
                      "equity " + format("%+.6f", r.equity().mean),
                      "nardy rollout '" + format_pos(Position::start()) + "' --agent " + spec +
                          " --trials " + std::to_string(ro.trials) + kFlags[luck]});
    }
  return rows;
}

}  // namespace nardy
