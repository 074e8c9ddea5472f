// `nardy bench kernels`: the float kernels' time per call and FLOP/s against the core's peak on
// each kernel path (bench/kernel_bench.h, nn/fast_kernels.h).
#include <cstdio>

#include "bench/kernel_bench.h"
#include "cli/command.h"
#include "core/error.h"

namespace nardy::cli {

void add_bench_kernels_command(CLI::App& bench) {
  struct Args {
    std::string path = "all";
    std::string encoder = "raw";
    std::vector<int> hidden = {128};
    double seconds = 0.5;
  };
  auto a = std::make_shared<Args>();
  auto* cmd = bench.add_subcommand(
      "kernels",
      "Dense forward, incremental forward and TD(lambda) step of the fast kernels on one thread:\n"
      "microseconds per call and GFLOP/s (the layers' multiply-adds) against the peak of the same\n"
      "instruction set measured on this core. The process's own path is NARDY_SIMD's or the\n"
      "widest the CPU has.");
  cmd->add_option("--path", a->path, "scalar, avx2, avx512, or all (every path the CPU supports)")
      ->capture_default_str()
      ->check(CLI::IsMember({"all", "scalar", "avx2", "avx512"}));
  cmd->add_option("--encoder", a->encoder, "Encoder (raw, extended)")->capture_default_str();
  add_hidden_option(*cmd, a->hidden, "Hidden units");
  cmd->add_option("--seconds", a->seconds, "Seconds per kernel and path")
      ->capture_default_str()
      ->check(CLI::Range(0.01, 600.0));
  cmd->callback([a] {
    NetShape shape;
    shape.encoder = a->encoder;
    shape.hidden = a->hidden;
    std::vector<SimdPath> paths;
    for (SimdPath p : {SimdPath::Scalar, SimdPath::Avx2, SimdPath::Avx512})
      if (a->path == "all" ? simd_path_supported(p) : a->path == simd_path_name(p))
        paths.push_back(p);
    if (!simd_path_supported(paths.at(0)))
      throw Error("bench kernels: this CPU or build does not support --path " + a->path);
    std::printf("fast kernels, net %s %s hidden sigmoid, 1 thread (process path: %s)\n",
                shape.encoder.c_str(), hidden_name(a->hidden).c_str(),
                simd_path_name(active_simd_path()));
    std::printf("%-8s %-12s %10s %10s %8s  %s\n", "path", "kernel", "us/call", "GFLOP/s", "of peak",
                "checksum");
    for (SimdPath p : paths) {
      const KernelBenchResult r = bench_kernels(p, shape, a->seconds);
      const std::pair<const char*, const KernelRate*> rows[] = {
          {"dense", &r.dense}, {"incremental", &r.incremental}, {"td step", &r.td_step}};
      for (const auto& [name, rate] : rows)
        std::printf("%-8s %-12s %10.3f %10.2f %7.1f%%  %.6f\n", simd_path_name(p), name,
                    rate->us_per_call(), rate->gflops(), 100 * rate->gflops() / r.peak_gflops,
                    r.checksum);
      std::printf("%-8s %-12s %10s %10.2f %7.1f%%\n", simd_path_name(p), "peak probe", "",
                  r.peak_gflops, 100.0);
      std::fflush(stdout);
    }
  });
}

}  // namespace nardy::cli
