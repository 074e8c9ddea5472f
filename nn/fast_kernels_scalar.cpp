// The portable kernels: nn/fast_kernels_impl.h with the compiler's baseline flags (no FMA).
#define NARDY_KERNEL_LANES 8
#include "nn/fast_kernels_impl.h"

namespace nardy {
extern const FastKernels kScalarKernels;
const FastKernels kScalarKernels = make_kernels(SimdPath::Scalar);
}  // namespace nardy
