// `nardy --version`: the version, the commit and build type it was built from, the fast-kernel
// path this machine runs (nn/fast_kernels.h) and the LibTorch version it links.
#include <torch/version.h>  // macros only: no LibTorch compile cost

#include <string>

#include "cli/command.h"
#include "core/error.h"
#include "core/version.h"
#include "nn/fast_kernels.h"

namespace nardy::cli {

std::string version_text() {
  std::string kernels;
  try {
    kernels = simd_path_name(active_simd_path());
  } catch (const Error& e) {
    kernels = std::string("none (") + e.what() + ")";
  }
  const std::string build = nardy_build_type();
  return std::string("nardy ") + nardy_version() + " (commit " + nardy_git_commit() + ", " +
         (build.empty() ? "no build type" : build) + " build)\nfast kernels: " + kernels +
         "\nLibTorch: " + TORCH_VERSION;
}

}  // namespace nardy::cli
