// bench/kernel_bench.h — the float kernels' speed behind `nardy bench kernels`: time per call and
// floating-point operations per second of the dense forward, the incremental forward and the
// TD(λ) step (nn/fast_net.h) on one kernel path (nn/fast_kernels.h), against the peak of the same
// path measured on this core.
//
// Inputs: the turns of two seeded random games (bench/bench_data.h), every candidate encoded.
// FLOPs counted are the multiply-adds of the layers, 2 per weight used (a multiply and an add,
// fused or not), with H the first hidden layer's units and M the weights after it (H·K for one
// hidden layer): dense 2·(H·nonzero inputs + M), incremental 2·(H·changed inputs + M), the TD
// step its forward plus the gradient (2·K·(M + H)), the trace updates (2·K·(H·nonzero + M + H))
// and θ += Σ c_k e_k over the live rows (2·K·(H·touched + M + H)); the activations' exp and the
// bookkeeping are not counted, so the rates understate the work a little. The peak is the path's
// own probe (FastKernels::peak_probe: independent multiply-add chains on registers), i.e. what
// this core sustains on that instruction set, not a data-sheet figure.
#pragma once

#include <cstdint>
#include <string>

#include "nn/fast_kernels.h"
#include "nn/value_net.h"

namespace nardy {

struct KernelRate {
  int64_t calls = 0;
  double seconds = 0;
  double flops = 0;  // counted as above, over all calls
  double us_per_call() const { return calls > 0 ? 1e6 * seconds / calls : 0; }
  double gflops() const { return seconds > 0 ? flops / seconds / 1e9 : 0; }
};

struct KernelBenchResult {
  SimdPath path = SimdPath::Scalar;
  KernelRate dense, incremental, td_step;
  double peak_gflops = 0;  // the path's probe on this core
  // Sum of the equities of every candidate's incremental evaluation (untimed): the same on every
  // run of one path and machine.
  double checksum = 0;
};

// Runs each kernel for about `seconds` (> 0) of this thread's CPU time (the times reported are CPU
// time too) on a fresh net of `shape` (seed 1).
KernelBenchResult bench_kernels(SimdPath path, const NetShape& shape, double seconds);

}  // namespace nardy
