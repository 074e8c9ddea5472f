// nn/blas_threads.h: the OpenBLAS under LibTorch is found at run time, and its thread count is
// set and restored (what fit.blas_threads and `nardy fit --blas-threads` rely on).
#include "nn/blas_threads.h"

#include <gtest/gtest.h>

#include "nn/value_net.h"

namespace nardy {
namespace {

TEST(BlasThreads, SetForAScopeThenRestored) {
  // A net: this process then surely has LibTorch, and with it OpenBLAS, loaded.
  const ValueNet net = ValueNet::create(NetShape{}, 1);
  ASSERT_GT(net.num_inputs(), 0);
  const int before = blas_threads();
  ASSERT_GT(before, 0) << "no OpenBLAS found in a process that runs LibTorch";
  for (int n : {1, 2}) {
    {
      const ScopedBlasThreads scoped(n);
      EXPECT_EQ(blas_threads(), n);
    }
    EXPECT_EQ(blas_threads(), before);
  }
  {
    const ScopedBlasThreads unset(0);  // 0: as the process started
    EXPECT_EQ(blas_threads(), before);
  }
  EXPECT_FALSE(set_blas_threads(0));
  EXPECT_EQ(blas_threads(), before);
}

}  // namespace
}  // namespace nardy
