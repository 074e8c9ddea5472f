// Move generation and encoders on fixed positions from seeded random games.
#include <benchmark/benchmark.h>

#include "bench/bench_data.h"

namespace nardy::bench {
namespace {

void BM_Movegen(benchmark::State& state) {
  const auto turns = random_turns(20);
  MoveList moves;
  int64_t results = 0, calls = 0;
  for (auto _ : state) {
    for (const Turn& t : turns) {
      generate_moves(t.position, t.dice, Rules{}, moves);
      results += static_cast<int64_t>(moves.size());
    }
    calls += static_cast<int64_t>(turns.size());
  }
  state.SetItemsProcessed(calls);
  state.counters["results_per_s"] =
      benchmark::Counter(static_cast<double>(results), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_Movegen);

void BM_EncoderFill(benchmark::State& state, const char* id) {
  const Encoder& enc = encoder_by_name(id);
  const auto turns = random_turns(20);
  std::vector<float> x(enc.num_inputs());
  for (auto _ : state) {
    for (const Turn& t : turns) {
      enc.fill(t.position, x);
      benchmark::DoNotOptimize(x.data());
    }
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(turns.size()));
}
BENCHMARK_CAPTURE(BM_EncoderFill, raw, "raw-v1");
BENCHMARK_CAPTURE(BM_EncoderFill, extended, "extended-v1");

}  // namespace
}  // namespace nardy::bench
