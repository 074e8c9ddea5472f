// merge_deltas: the master gains every copy's change, θ ← θ + Σ_t (θ_t − θ), in every layer.
#include "nn/delta_merge.h"

#include <gtest/gtest.h>

#include <vector>

#include "core/error.h"
#include "tests/nn/test_nets.h"

namespace nardy {
namespace {

using testing::all_parameters;

// Adds `step * (i % 7 - 3)` to parameter i of every layer (a recognisable change per copy).
void nudge(ValueNet& net, float step) {
  size_t i = 0;
  for (auto& l : net.layers()) {
    for (int j = 0; j < l.in * l.out; ++j)
      l.weight[j] += step * static_cast<float>(i++ % 7) - 3 * step;
    for (int j = 0; j < l.out; ++j) l.bias[j] += step * static_cast<float>(i++ % 7) - 3 * step;
  }
}

TEST(DeltaMerge, MasterGainsEveryCopysChangeInEveryLayer) {
  NetShape shape;
  shape.hidden = {16, 8};
  ValueNet master = ValueNet::create(shape, 3);
  std::vector<ValueNet> copies = {master.clone(), master.clone(), master.clone()};
  nudge(copies[0], 0.01f);
  nudge(copies[1], -0.002f);
  // copies[2] unchanged: contributes nothing
  const std::vector<float> m0 = all_parameters(master), a = all_parameters(copies[0]),
                           b = all_parameters(copies[1]), c = all_parameters(copies[2]);
  merge_deltas(master, copies);
  const std::vector<float> merged = all_parameters(master);
  ASSERT_EQ(merged.size(), m0.size());
  int changed = 0;
  for (size_t i = 0; i < merged.size(); ++i) {
    const float expected = m0[i] + ((a[i] - m0[i]) + (b[i] - m0[i]) + (c[i] - m0[i]));
    EXPECT_EQ(merged[i], expected) << "parameter " << i;
    changed += merged[i] != m0[i];
  }
  EXPECT_GT(changed, static_cast<int>(merged.size()) / 2);
  // The copies are left as they were.
  EXPECT_EQ(all_parameters(copies[0]), a);
  EXPECT_EQ(all_parameters(copies[2]), c);
}

TEST(DeltaMerge, OneCopyMakesTheMasterThatCopyAndNoCopiesChangeNothing) {
  ValueNet master = ValueNet::create(NetShape{}, 4);
  const std::vector<float> m0 = all_parameters(master);
  merge_deltas(master, std::vector<ValueNet>{});
  EXPECT_EQ(all_parameters(master), m0);
  std::vector<ValueNet> one = {master.clone()};
  nudge(one[0], 0.03f);
  merge_deltas(master, one);
  const std::vector<float> m1 = all_parameters(master), c = all_parameters(one[0]);
  for (size_t i = 0; i < m1.size(); ++i) EXPECT_NEAR(m1[i], c[i], 1e-6f) << i;
}

TEST(DeltaMerge, ACopyOfAnotherShapeIsAnError) {
  ValueNet master = ValueNet::create(NetShape{}, 4);
  NetShape other;
  other.hidden = {32};
  std::vector<ValueNet> copies = {ValueNet::create(other, 4)};
  EXPECT_THROW(merge_deltas(master, copies), Error);
}

TEST(DeltaMerge, DeltaBuffersSummedInOrderGiveMergeDeltasBits) {
  NetShape shape;
  shape.hidden = {16, 8};
  ValueNet a = ValueNet::create(shape, 5), b = a.clone();
  std::vector<ValueNet> copies = {a.clone(), a.clone(), a.clone()};
  nudge(copies[0], 0.013f);
  nudge(copies[1], -0.0071f);
  nudge(copies[2], 0.0029f);
  const size_t n = parameter_count(a);
  EXPECT_EQ(n, all_parameters(a).size());
  std::vector<float> deltas(3 * n);
  for (size_t t = 0; t < 3; ++t)
    write_delta(b, copies[t], std::span<float>(deltas).subspan(t * n, n));
  // Layer order: the first delta float is w0[0]'s change.
  EXPECT_EQ(deltas[0], all_parameters(copies[0])[0] - all_parameters(b)[0]);
  merge_deltas(a, copies);
  add_deltas(b, deltas);
  EXPECT_EQ(all_parameters(a), all_parameters(b));
  std::vector<float> short_buffer(n - 1);
  EXPECT_THROW(write_delta(b, copies[0], short_buffer), Error);
  EXPECT_THROW(add_deltas(b, short_buffer), Error);
}

}  // namespace
}  // namespace nardy
