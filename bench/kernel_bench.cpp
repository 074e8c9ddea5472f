#include "bench/kernel_bench.h"

#include <ctime>
#include <vector>

#include "bench/bench_data.h"
#include "core/error.h"
#include "nn/fast_net.h"

namespace nardy {
namespace {

// This thread's CPU seconds: the figures hold on a busy machine, where wall time would count the
// time other processes hold the core.
double cpu_now() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

int count_nonzero(const float* x, int n, const float* base = nullptr) {
  int c = 0;
  for (int i = 0; i < n; ++i) c += (base ? x[i] - base[i] : x[i]) != 0.0f;
  return c;
}

// Repeats `pass` (which returns its calls and FLOPs) until `seconds` have passed.
template <class F>
KernelRate timed(double seconds, F&& pass) {
  KernelRate r;
  const double t0 = cpu_now();
  do {
    const auto [calls, flops] = pass();
    r.calls += calls;
    r.flops += flops;
  } while (cpu_now() - t0 < seconds);
  r.seconds = cpu_now() - t0;
  return r;
}

}  // namespace

KernelBenchResult bench_kernels(SimdPath path, const NetShape& shape, double seconds) {
  if (!(seconds > 0)) throw Error("bench kernels: seconds must be > 0");
  ValueNet net = ValueNet::create(shape, 1);
  const Encoder& enc = net.encoder();
  const int in = net.num_inputs(), h = shape.hidden.at(0), k = shape.num_outputs;
  // Weights after the first layer (H·K for one hidden layer): every forward uses all of them.
  double m = 0;
  for (size_t l = 1; l < net.layers().size(); ++l)
    m += static_cast<double>(net.layers()[l].in) * net.layers()[l].out;
  auto turns = bench::random_turns(2);
  bench::encode_turns(turns, enc);

  // FLOPs of one pass over the turns, counted before timing.
  double dense_flops = 0, incremental_flops = 0, td_flops = 0;
  int64_t candidates = 0;
  {
    std::vector<uint8_t> touched(in);
    int num_touched = 0;
    for (const auto& t : turns) {
      incremental_flops += 2.0 * h * count_nonzero(t.base.data(), in);  // the base's sums
      for (int m = 0; m < t.num_candidates; ++m) {
        const float* x = t.candidates.data() + static_cast<size_t>(m) * in;
        dense_flops += 2.0 * (h * count_nonzero(x, in) + m);
        incremental_flops += 2.0 * (h * count_nonzero(x, in, t.base.data()) + m);
        ++candidates;
      }
      if (t.position == Position::start()) {
        std::fill(touched.begin(), touched.end(), 0);
        num_touched = 0;
      }
      const float* x = t.base.data();
      for (int i = 0; i < in; ++i)
        if (x[i] != 0.0f && !touched[i]) {
          touched[i] = 1;
          ++num_touched;
        }
      const int nz = count_nonzero(x, in);
      td_flops += 2.0 * (h * nz + m) + 2.0 * k * (m + h) + 2.0 * k * (h * nz + m + h) +
                  2.0 * k * (h * num_touched + m + h);
    }
  }

  KernelBenchResult res;
  res.path = path;
  FastNet fast(net, path);
  std::vector<Evaluation> out(4096);
  for (const auto& t : turns) {
    fast.evaluate_batch(t.base.data(), t.candidates.data(), t.num_candidates, out.data());
    for (int m = 0; m < t.num_candidates; ++m) res.checksum += out[m].equity();
  }
  volatile float sink = 0;  // keeps the timed results alive
  res.dense = timed(seconds, [&] {
    for (const auto& t : turns)
      for (int m = 0; m < t.num_candidates; ++m)
        sink = sink + fast.forward(t.candidates.data() + static_cast<size_t>(m) * in).win;
    return std::pair{candidates, dense_flops};
  });
  res.incremental = timed(seconds, [&] {
    for (const auto& t : turns) {
      fast.evaluate_batch(t.base.data(), t.candidates.data(), t.num_candidates, out.data());
      sink = sink + out[0].win;
    }
    return std::pair{candidates, incremental_flops};
  });

  // The TD step over the games' states as a trainer makes it: accumulate, then update; traces
  // cleared at each game's start (a turn whose position is the start position).
  ValueNet td_net = net.clone();
  FastTd td(td_net, 0.7f, path);
  res.td_step = timed(seconds, [&] {
    for (const auto& t : turns) {
      if (t.position == Position::start()) td.clear();
      const Evaluation v = td.accumulate(t.base.data(), ~t.position.side_to_move());
      td.update(v, v.flipped(), 0.001f);
      sink = sink + v.win;
    }
    return std::pair{static_cast<int64_t>(turns.size()), td_flops};
  });

  const FastKernels& kern = fast_kernels(path);
  long iterations = 1 << 16;
  double probe_s = 0;
  for (;;) {
    const double t0 = cpu_now();
    sink = sink + kern.peak_probe(iterations, 1.0f);
    probe_s = cpu_now() - t0;
    if (probe_s > seconds / 4 || iterations > (1L << 40)) break;
    iterations *= 4;
  }
  res.peak_gflops =
      iterations * static_cast<double>(kern.peak_probe_flops_per_iteration) / probe_s / 1e9;
  return res;
}

}  // namespace nardy
