// The race net (selfplay/tables/race_net.h): one side's two distributions per arrangement, the
// cost a net agent pays per race result the build's table does not cover.
#include <benchmark/benchmark.h>

#include "core/random.h"
#include "selfplay/tables/race_net.h"

namespace nardy::bench {
namespace {

// 256 seeded arrangements of 15 checkers on the last 12 points, some already off (the sides of
// the races the 8-point table does not cover), and the shipped net.
std::vector<Arrangement> race_arrangements() {
  Rng rng(2024);
  std::vector<Arrangement> out(256);
  for (Arrangement& a : out) {
    a.fill(0);
    const int on = 5 + static_cast<int>(rng.below(11));
    for (int c = 0; c < on; ++c) ++a[rng.below(12)];
  }
  return out;
}

void BM_RaceNetEstimate(benchmark::State& state) {
  const RaceNet net = RaceNet::load(std::string(NARDY_SOURCE_DIR) + "/models/race-net.nrn");
  const auto arrangements = race_arrangements();
  float finish[RaceNet::kMaxBins], first_off[RaceNet::kMaxBins];
  int64_t n = 0;
  for (auto _ : state) {
    for (const Arrangement& a : arrangements) {
      net.estimate(a, finish, first_off);
      benchmark::DoNotOptimize(finish[0]);
    }
    n += static_cast<int64_t>(arrangements.size());
  }
  state.SetItemsProcessed(n);
}
BENCHMARK(BM_RaceNetEstimate);

}  // namespace
}  // namespace nardy::bench
