// bench/summary_bench.h — the one table `nardy bench` prints: every speed figure of issue 11
// with the signature that shows the code still computes the same things.
//
// Rows (one thread each, fixed seeds):
//   movegen          random complete games/s (bench/movegen_bench.h); signature: results
//   TD training      self-play training games/s, default bench net raw 128, fast kernels
//                    (bench/train_bench.h); signature: turns played
//   kernels dense / peak
//                    GFLOP/s of the dense forward on the process's kernel path and that path's
//                    peak on this core (bench/kernel_bench.h); signature: checksum of evaluations
//   search ply 0/1/2 ms per move of net:NET:ply=N on the `nardy bench search` positions
//                    (bench/search_bench.h); signature: hash of the choices
//   rollout plain / luck-adjusted / luck head, rollout 1-ply plain / luck-adjusted
//                    trials/s of a rollout of the start with net:NET (0-ply) and
//                    net:NET:ply=1 (selfplay/evaluation/rollout.h): plain, luck measured
//                    exactly over the 21 rolls, and (0-ply, when NET has a luck head NAME.luck
//                    beside it, selfplay/evaluation/luck_head.h) luck from the head;
//                    signature: the equity estimate
// Without a net (empty path) the search and rollout rows are left out.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/rules.h"

namespace nardy {

struct BenchRow {
  std::string name;       // e.g. "search ply 2"
  double value = 0;       // in `unit`
  std::string unit;       // e.g. "ms/move"
  std::string signature;  // printed as is
  std::string command;    // the `nardy bench ...` command that measures this row alone
};

struct SummaryBenchOptions {
  std::string net;     // checkpoint for the search and rollout rows ("" = leave them out)
  double scale = 1.0;  // multiplies every row's workload (> 0)
  Rules rules;
};

// Runs every row and returns them in the order above. Throws Error on a bad net or scale.
std::vector<BenchRow> bench_summary(const SummaryBenchOptions& options);

}  // namespace nardy
