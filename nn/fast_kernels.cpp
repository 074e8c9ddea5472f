// Run-time choice of nn/fast_kernels.h's kernel tables (baseline flags: this file runs first on
// every CPU).
#include "nn/fast_kernels.h"

#include <cstdlib>
#include <string>

#include "core/error.h"
#include "nn/value_net.h"

namespace nardy {

extern const FastKernels kScalarKernels;
#if NARDY_X86_KERNELS
extern const FastKernels kAvx2Kernels;
extern const FastKernels kAvx512Kernels;
#endif

static_assert(static_cast<int>(Activation::Sigmoid) == 0 &&
                  static_cast<int>(Activation::Tanh) == 1 &&
                  static_cast<int>(Activation::Relu) == 2,
              "nn/fast_kernels_impl.h codes the activations as 0, 1, 2");

const char* simd_path_name(SimdPath path) {
  switch (path) {
    case SimdPath::Avx2:
      return "avx2";
    case SimdPath::Avx512:
      return "avx512";
    case SimdPath::Scalar:
      break;
  }
  return "scalar";
}

std::optional<SimdPath> parse_simd_path(std::string_view name) {
  for (SimdPath p : {SimdPath::Scalar, SimdPath::Avx2, SimdPath::Avx512})
    if (name == simd_path_name(p)) return p;
  return std::nullopt;
}

bool simd_path_supported(SimdPath path) {
#if NARDY_X86_KERNELS
  __builtin_cpu_init();  // in case this runs before the CPU model is initialised
#endif
  switch (path) {
    case SimdPath::Scalar:
      return true;
#if NARDY_X86_KERNELS
    case SimdPath::Avx2:
      return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    case SimdPath::Avx512:
      return simd_path_supported(SimdPath::Avx2) && __builtin_cpu_supports("avx512f") &&
             __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq") &&
             __builtin_cpu_supports("avx512vl");
#endif
    default:
      return false;
  }
}

SimdPath best_simd_path() {
  for (SimdPath p : {SimdPath::Avx512, SimdPath::Avx2})
    if (simd_path_supported(p)) return p;
  return SimdPath::Scalar;
}

SimdPath active_simd_path() {
  // The environment is read once; a bad value is reported at every call.
  static const std::string forced = [] {
    const char* env = std::getenv("NARDY_SIMD");
    return std::string(env ? env : "");
  }();
  if (forced.empty()) {
    static const SimdPath best = best_simd_path();
    return best;
  }
  const auto path = parse_simd_path(forced);
  if (!path)
    throw Error("NARDY_SIMD='" + forced + "' is not a kernel path (scalar, avx2 or avx512)");
  if (!simd_path_supported(*path))
    throw Error("NARDY_SIMD='" + forced +
                "': this CPU or build does not support that path (best: " +
                simd_path_name(best_simd_path()) + ")");
  return *path;
}

const FastKernels& fast_kernels(SimdPath path) {
  if (!simd_path_supported(path))
    throw Error(std::string("the ") + simd_path_name(path) +
                " kernels are not supported by this CPU or build");
  switch (path) {
#if NARDY_X86_KERNELS
    case SimdPath::Avx2:
      return kAvx2Kernels;
    case SimdPath::Avx512:
      return kAvx512Kernels;
#endif
    default:
      return kScalarKernels;
  }
}

}  // namespace nardy
