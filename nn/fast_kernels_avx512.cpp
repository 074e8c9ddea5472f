// The AVX-512 kernels: nn/fast_kernels_impl.h built with -mavx512f -mavx512bw -mavx512dq
// -mavx512vl -mfma and 512-bit vectors preferred (nn/CMakeLists.txt), used only when the CPU
// has all of them (nn/fast_kernels.cpp).
#define NARDY_KERNEL_LANES 16
#include "nn/fast_kernels_impl.h"

namespace nardy {
extern const FastKernels kAvx512Kernels;
const FastKernels kAvx512Kernels = make_kernels(SimdPath::Avx512);
}  // namespace nardy
