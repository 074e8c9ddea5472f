// Fast kernels and the LibTorch reference on the default net (raw-v1, 128 sigmoid hidden units,
// 3 outputs): dense and incremental forward, a trainer's turn, TD steps.
#include <benchmark/benchmark.h>

#include "bench/bench_data.h"
#include "nn/fast_net.h"
#include "nn/td_backend.h"
#include "nn/value_net.h"

namespace nardy::bench {
namespace {

NetShape default_shape(int hidden = 128, int activation = 0) {
  NetShape s;
  s.hidden = {hidden};
  s.activation = static_cast<Activation>(activation);
  return s;
}

// The turns of two games, encoded: their candidate rows (~1.5 MB) stay within a 1 MB-L2-class
// cache no better than a trainer's freshly encoded candidates do, so the kernels are not
// measured on data streaming from DRAM.
std::vector<Turn>& encoded_turns() {
  static std::vector<Turn> turns = [] {
    auto t = random_turns(2);
    encode_turns(t, encoder_by_name("raw-v1"));
    return t;
  }();
  return turns;
}

// Dense forward of every candidate row (zero inputs skipped).
void BM_FastForward(benchmark::State& state) {
  ValueNet net = ValueNet::create(default_shape(static_cast<int>(state.range(0))), 1);
  FastNet fast(net);
  const auto& turns = encoded_turns();
  int64_t rows = 0;
  for (auto _ : state) {
    for (const Turn& t : turns)
      for (int m = 0; m < t.num_candidates; ++m)
        benchmark::DoNotOptimize(fast.forward(t.candidates.data() + m * net.num_inputs()));
    for (const Turn& t : turns) rows += t.num_candidates;
  }
  state.SetItemsProcessed(rows);
}
BENCHMARK(BM_FastForward)->Arg(128)->Arg(64)->Arg(256);

// Incremental forward of every candidate from its turn's base (base sums computed once per
// turn, included): the trainer's per-candidate cost.
void BM_FastIncremental(benchmark::State& state) {
  ValueNet net = ValueNet::create(
      default_shape(static_cast<int>(state.range(0)), static_cast<int>(state.range(1))), 1);
  FastNet fast(net);
  const auto& turns = encoded_turns();
  std::vector<Evaluation> out(4096);
  int64_t rows = 0;
  for (auto _ : state) {
    for (const Turn& t : turns) {
      fast.evaluate_batch(t.base.data(), t.candidates.data(), t.num_candidates, out.data());
      benchmark::DoNotOptimize(out.data());
      rows += t.num_candidates;
    }
  }
  state.SetItemsProcessed(rows);
}
// Args: hidden units, activation (0 sigmoid, 1 tanh, 2 relu).
BENCHMARK(BM_FastIncremental)
    ->ArgNames({"hidden", "act"})
    ->Args({128, 0})
    ->Args({64, 0})
    ->Args({256, 0})
    ->Args({128, 1})
    ->Args({128, 2});

// One encoder's fill of every candidate of the turns (each encoder's cost alone; the search's
// per-position cost adds it to the net's forward). Items are positions.
void BM_EncoderFill(benchmark::State& state, const char* id) {
  const Encoder& enc = encoder_by_name(id);
  const auto turns = random_turns(2);
  std::vector<Position> positions;
  MoveList moves;
  for (const Turn& t : turns) {
    generate_moves(t.position, t.dice, Rules{}, moves);
    for (const MoveResult& m : moves) positions.push_back(m.position);
  }
  std::vector<float> x(enc.num_inputs());
  for (auto _ : state)
    for (const Position& p : positions) {
      enc.fill(p, x);
      benchmark::DoNotOptimize(x.data());
    }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(positions.size()));
}
BENCHMARK_CAPTURE(BM_EncoderFill, raw, "raw-v1");
BENCHMARK_CAPTURE(BM_EncoderFill, extended, "extended-v1");
BENCHMARK_CAPTURE(BM_EncoderFill, mobility, "mobility-v1");
BENCHMARK_CAPTURE(BM_EncoderFill, reach, "reach-v1");
BENCHMARK_CAPTURE(BM_EncoderFill, zones, "zones-v1");

// A trainer's turn without the TD step: legal moves, encoding of the base and of every
// candidate, incremental evaluation. Items are candidates.
void BM_TurnPipeline(benchmark::State& state) {
  ValueNet net = ValueNet::create(default_shape(), 1);
  FastNet fast(net);
  const Encoder& enc = net.encoder();
  const int ni = enc.num_inputs();
  const auto turns = random_turns(2);
  MoveList moves;
  std::vector<float> base(ni), cand(4096 * ni);
  std::vector<Evaluation> out(4096);
  int64_t rows = 0;
  for (auto _ : state) {
    for (const Turn& t : turns) {
      generate_moves(t.position, t.dice, Rules{}, moves);
      enc.fill(t.position.with_side_to_move(~t.position.side_to_move()), base);
      const int n = static_cast<int>(moves.size());
      for (int m = 0; m < n; ++m)
        enc.fill(moves[m].position,
                 std::span<float>(cand.data() + static_cast<size_t>(m) * ni, ni));
      fast.evaluate_batch(base.data(), cand.data(), n, out.data());
      benchmark::DoNotOptimize(out.data());
      rows += n;
    }
  }
  state.SetItemsProcessed(rows);
  state.counters["turns_per_s"] = benchmark::Counter(
      static_cast<double>(state.iterations() * turns.size()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_TurnPipeline);

// One TD(λ) step per position of the games: accumulate (forward + gradient into the traces)
// and update (θ += α δ·e), as the trainer does once per turn.
void BM_FastTdStep(benchmark::State& state, const char* backend) {
  ValueNet net = ValueNet::create(default_shape(), 1);
  auto td = make_td_backend(backend, net, 0.7f);
  const auto& turns = encoded_turns();
  const Encoder& enc = net.encoder();
  std::vector<std::vector<float>> xs;
  std::vector<Side> movers;
  for (const Turn& t : turns) {
    xs.emplace_back(enc.num_inputs());
    enc.fill(t.position, xs.back());
    movers.push_back(t.position.side_to_move());
  }
  const size_t limit = std::string(backend) == "fast" ? xs.size() : 200;
  int64_t steps = 0;
  for (auto _ : state) {
    td->start_game();
    Evaluation prev = td->accumulate(xs[0], movers[0]);
    for (size_t i = 1; i < limit; ++i) {
      const Evaluation v = td->accumulate(xs[i], movers[i]);
      td->update(prev, v, 1e-4f);  // tiny α: keeps the net still across iterations
      prev = v;
    }
    steps += static_cast<int64_t>(limit) - 1;
  }
  state.SetItemsProcessed(steps);
}
BENCHMARK_CAPTURE(BM_FastTdStep, fast, "fast");
BENCHMARK_CAPTURE(BM_FastTdStep, libtorch, "libtorch");

// LibTorch forward through the TorchScript module: one row, and a turn's candidates batched.
void BM_TorchForward(benchmark::State& state) {
  ValueNet net = ValueNet::create(default_shape(), 1);
  const auto& turns = encoded_turns();
  std::vector<Evaluation> out(4096);
  const bool batched = state.range(0) != 0;
  int64_t rows = 0;
  for (auto _ : state) {
    for (size_t i = 0; i < 50; ++i) {
      const Turn& t = turns[i];
      if (batched) {
        net.evaluate_batch(t.candidates, t.num_candidates, out);
        rows += t.num_candidates;
      } else {
        net.evaluate_batch(t.candidates, 1, out);
        rows += 1;
      }
    }
  }
  state.SetItemsProcessed(rows);
}
BENCHMARK(BM_TorchForward)->ArgName("batched")->Arg(0)->Arg(1);

}  // namespace
}  // namespace nardy::bench
