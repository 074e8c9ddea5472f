// The AVX2 + FMA kernels: nn/fast_kernels_impl.h built with -mavx2 -mfma (nn/CMakeLists.txt),
// used only when the CPU has both (nn/fast_kernels.cpp).
#define NARDY_KERNEL_LANES 8
#include "nn/fast_kernels_impl.h"

namespace nardy {
extern const FastKernels kAvx2Kernels;
const FastKernels kAvx2Kernels = make_kernels(SimdPath::Avx2);
}  // namespace nardy
