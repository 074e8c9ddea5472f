// nn/evaluation.h: the TorchScript text of the output head computes what evaluation_from_logits
// computes, for 3 and 4 logits, over ordinary and saturated logits. (Whole nets, the module's
// forward() against the fast kernels, are compared in fast_net_test.cpp.)
#include <gtest/gtest.h>
#include <torch/jit.h>
#include <torch/script.h>

#include <vector>

#include "core/random.h"
#include "nn/evaluation.h"

namespace nardy {
namespace {

TEST(EvaluationHead, TorchScriptTextAgreesWithTheFloatHead) {
  auto unit = torch::jit::compile(evaluation_head_torchscript("head(z: Tensor) -> Tensor"));
  Rng rng(17);
  for (int k : {3, 4}) {
    const int n = 200;
    std::vector<float> z(static_cast<size_t>(n * k));
    for (size_t i = 0; i < z.size(); ++i) {
      const double scale = i % 7 == 0 ? 40.0 : 4.0;  // some saturated logits
      z[i] = static_cast<float>((rng.uniform() * 2 - 1) * scale);
    }
    const torch::Tensor zt = torch::from_blob(z.data(), {n, k}, torch::kFloat32);
    const torch::Tensor out = unit->run_method("head", zt).toTensor().contiguous();
    ASSERT_EQ(out.size(0), n);
    ASSERT_EQ(out.size(1), 5);
    const float* o = out.data_ptr<float>();
    for (int r = 0; r < n; ++r) {
      const Evaluation e = evaluation_from_logits(&z[static_cast<size_t>(r * k)], k);
      const float* row = o + 5 * r;
      EXPECT_NEAR(row[0], e.win, 1e-6) << "k=" << k << " row " << r;
      EXPECT_NEAR(row[1], e.win_mars, 1e-6) << "k=" << k << " row " << r;
      EXPECT_NEAR(row[2], e.lose_mars, 1e-6) << "k=" << k << " row " << r;
      EXPECT_NEAR(row[3], e.draw, 1e-6) << "k=" << k << " row " << r;
      EXPECT_NEAR(row[4], e.equity(), 2e-6) << "k=" << k << " row " << r;
      if (k == 3) {
        EXPECT_EQ(row[3], 0.0f);
      }
    }
  }
}

}  // namespace
}  // namespace nardy
