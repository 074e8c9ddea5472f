// nn/blas_threads.h — the OpenBLAS threads under LibTorch's matrix products.
//
// Debian's LibTorch multiplies matrices through OpenBLAS, whose thread count is read from
// OPENBLAS_NUM_THREADS or OMP_NUM_THREADS when the process starts. A supervised fit's weights
// depend on it in the last bits (measured: `nardy fit` on the same data with OMP_NUM_THREADS=1
// and 2 differs by ~1e-7 per weight), so a recipe that reproduces a fit names it: `nardy fit
// --blas-threads N` and the config key fit.blas_threads set it in a running process, as the
// variable would have at its start. Found at run time (dlsym), so this header and its file need
// neither LibTorch nor OpenBLAS to build.
#pragma once

namespace nardy {

// The OpenBLAS threads now; 0 when the process has no OpenBLAS.
int blas_threads();

// Sets the OpenBLAS threads (n >= 1; OpenBLAS caps it at the cores it was built for). Returns
// false, changing nothing, when the process has no OpenBLAS.
bool set_blas_threads(int n);

// Sets the OpenBLAS threads for its lifetime, then restores the count it found; n = 0 (or no
// OpenBLAS): nothing.
class ScopedBlasThreads {
 public:
  explicit ScopedBlasThreads(int n);
  ~ScopedBlasThreads();
  ScopedBlasThreads(const ScopedBlasThreads&) = delete;
  ScopedBlasThreads& operator=(const ScopedBlasThreads&) = delete;

 private:
  int restore_ = 0;
};

}  // namespace nardy
