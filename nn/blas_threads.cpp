#include "nn/blas_threads.h"

#include <dlfcn.h>

namespace nardy {
namespace {

using GetThreads = int (*)();
using SetThreads = void (*)(int);

// OpenBLAS's own entry points, when the process loaded it (LibTorch links it).
GetThreads get_fn() {
  static const auto f =
      reinterpret_cast<GetThreads>(dlsym(RTLD_DEFAULT, "openblas_get_num_threads"));
  return f;
}
SetThreads set_fn() {
  static const auto f =
      reinterpret_cast<SetThreads>(dlsym(RTLD_DEFAULT, "openblas_set_num_threads"));
  return f;
}

}  // namespace

int blas_threads() {
  return get_fn() ? get_fn()() : 0;
}

bool set_blas_threads(int n) {
  if (!set_fn() || n < 1) return false;
  set_fn()(n);
  return true;
}

ScopedBlasThreads::ScopedBlasThreads(int n) {
  if (n < 1) return;
  const int before = blas_threads();
  if (before > 0 && set_blas_threads(n)) restore_ = before;
}

ScopedBlasThreads::~ScopedBlasThreads() {
  if (restore_ > 0) set_blas_threads(restore_);
}

}  // namespace nardy
