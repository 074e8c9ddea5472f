// widen_net (nn/net_widening.h): a wider net computes the original's values, keeps its
// parameters and metadata, has live seeded new units, and bad widths are refused by name.
#include "nn/net_widening.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "nn/fast_net.h"
#include "tests/nn/test_nets.h"
#include "tests/support/error_of.h"

namespace nardy {
namespace {

using testing::error_of;
using testing::shape_of;
using testing::spread_net;

std::vector<Evaluation> evaluate_all(const ValueNet& net, const std::vector<Position>& ps) {
  const auto x = testing::encode_all(net.encoder(), ps);
  std::vector<Evaluation> out(ps.size());
  net.evaluate_batch(x, static_cast<int>(ps.size()), out);
  return out;
}

struct WideningCase {
  std::vector<int> narrow, wide;
  Activation activation;
};

class Widening : public ::testing::TestWithParam<WideningCase> {};

TEST_P(Widening, TheWiderNetComputesTheSameValuesAndKeepsTheOldParameters) {
  const auto& c = GetParam();
  ValueNet narrow = spread_net(shape_of("extended", c.narrow, c.activation, 3), 5);
  CheckpointInfo info;
  info.games = 77;
  info.extra["run"] = "narrow";
  narrow.set_info(info);
  const ValueNet wide = widen_net(narrow, c.wide, 9);
  EXPECT_EQ(wide.shape().hidden, c.wide);
  EXPECT_EQ(wide.shape().encoder, narrow.shape().encoder);
  EXPECT_EQ(wide.shape().activation, c.activation);
  EXPECT_EQ(wide.info().games, 77);
  EXPECT_EQ(wide.info().extra.at("run"), "narrow");

  const auto ps = testing::sample_positions(3);
  const auto a = evaluate_all(narrow, ps), b = evaluate_all(wide, ps);
  double spread = 0;
  for (size_t i = 0; i < ps.size(); ++i) {
    const auto x = a[i].as_array(), y = b[i].as_array();
    for (size_t k = 0; k < x.size(); ++k) EXPECT_NEAR(x[k], y[k], 1e-6) << i << " " << k;
    spread = std::max(spread, static_cast<double>(std::abs(a[i].equity() - a.front().equity())));
  }
  EXPECT_GT(spread, 0.01);  // the values compared are not all alike
  // The fast kernels run the wider net to the same values too.
  FastNet fast(wide);
  std::vector<float> x(static_cast<size_t>(wide.num_inputs()));
  for (size_t i = 0; i < ps.size(); i += 7) {
    wide.encoder().fill(ps[i], x);
    EXPECT_NEAR(fast.forward(x.data()).equity(), a[i].equity(), 1e-5) << i;
  }

  const auto lo = narrow.layers(), lw = wide.layers();
  ASSERT_EQ(lo.size(), lw.size());
  int live_new_inputs = 0;
  for (size_t l = 0; l < lo.size(); ++l) {
    for (int i = 0; i < lw[l].in; ++i)
      for (int j = 0; j < lw[l].out; ++j) {
        const float w = lw[l].weight[static_cast<size_t>(i) * lw[l].out + j];
        if (j >= lo[l].out) {
          live_new_inputs += w != 0.0f;  // a new unit: fresh weights
        } else if (i < lo[l].in) {
          ASSERT_EQ(w, lo[l].weight[static_cast<size_t>(i) * lo[l].out + j]) << l;
        } else {
          ASSERT_EQ(w, 0.0f) << "new unit " << i << " into old unit " << j << ", layer " << l;
        }
      }
    for (int j = 0; j < lo[l].out; ++j) ASSERT_EQ(lw[l].bias[j], lo[l].bias[j]);
  }
  int new_units = 0;
  for (size_t l = 0; l < c.wide.size(); ++l) new_units += c.wide[l] - c.narrow[l];
  EXPECT_GT(live_new_inputs, new_units);  // every new unit has non-zero input weights
}

INSTANTIATE_TEST_SUITE_P(Shapes, Widening,
                         ::testing::Values(WideningCase{{16}, {40}, Activation::Sigmoid},
                                           WideningCase{{16, 8}, {24, 8}, Activation::Tanh},
                                           WideningCase{{12, 6}, {12, 10}, Activation::Relu},
                                           WideningCase{{12, 6}, {20, 9}, Activation::Sigmoid}),
                         [](const ::testing::TestParamInfo<WideningCase>& p) {
                           std::string name = "h" + hidden_name(p.param.narrow) + "_to_" +
                                              hidden_name(p.param.wide) + "_" +
                                              activation_name(p.param.activation);
                           std::replace(name.begin(), name.end(), '-', 'x');
                           return name;
                         });

TEST(Widening, NewUnitsAreSeededAndTheSameWidthsCopy) {
  const ValueNet narrow = spread_net(shape_of("raw", 8, Activation::Sigmoid, 3), 2);
  const auto p = [](const ValueNet& n) { return testing::all_parameters(n); };
  EXPECT_EQ(p(widen_net(narrow, {20}, 4)), p(widen_net(narrow, {20}, 4)));
  EXPECT_NE(p(widen_net(narrow, {20}, 4)), p(widen_net(narrow, {20}, 5)));
  EXPECT_EQ(p(widen_net(narrow, {8}, 4)), p(narrow));
  // The result is a net of its own: changing it leaves the original alone.
  ValueNet wide = widen_net(narrow, {8}, 4);
  wide.layers()[0].weight[0] += 1.0f;
  EXPECT_NE(p(wide), p(narrow));
}

TEST(Widening, BadWidthsAreRefusedByName) {
  const ValueNet net = ValueNet::create(shape_of("raw", {16, 8}, Activation::Sigmoid, 3), 1);
  std::string e = error_of([&] { widen_net(net, {32}, 1); });
  EXPECT_NE(e.find("'32'"), std::string::npos) << e;
  EXPECT_NE(e.find("'16-8'"), std::string::npos) << e;
  EXPECT_NE(e.find("one width per hidden layer (2)"), std::string::npos) << e;
  e = error_of([&] { widen_net(net, {32, 4}, 1); });
  EXPECT_NE(e.find("layer 2 cannot shrink"), std::string::npos) << e;
  e = error_of([&] { widen_net(net, {kMaxHiddenUnits + 1, 8}, 1); });
  EXPECT_NE(e.find("at most"), std::string::npos) << e;
}

// with_encoder: a net of extended-v1 (or raw-v1) given mobility-v1's inputs computes the same
// values, through LibTorch and the fast kernels; its new inputs carry zero weights and learn
// from there; an encoder that does not extend the net's is refused by name.
TEST(Reencoding, TheNetWithMoreInputsComputesTheSameValues) {
  for (const char* from : {"extended", "raw"}) {
    const ValueNet net = spread_net(shape_of(from, {12, 6}, Activation::Sigmoid, 3), 7);
    const ValueNet more = with_encoder(net, "mobility");
    EXPECT_EQ(more.shape().encoder, "mobility-v1");
    EXPECT_EQ(more.shape().hidden, net.shape().hidden);
    EXPECT_EQ(more.num_inputs(), 233);
    const auto ps = testing::sample_positions(4);
    const auto a = evaluate_all(net, ps), b = evaluate_all(more, ps);
    double spread = 0;
    for (size_t i = 0; i < ps.size(); ++i) {
      const auto x = a[i].as_array(), y = b[i].as_array();
      for (size_t k = 0; k < x.size(); ++k) ASSERT_NEAR(x[k], y[k], 1e-6) << from << " " << i;
      spread = std::max(spread, static_cast<double>(std::abs(a[i].equity() - a[0].equity())));
    }
    EXPECT_GT(spread, 0.01) << from;
    FastNet fast(more);
    std::vector<float> x(static_cast<size_t>(more.num_inputs()));
    for (size_t i = 0; i < ps.size(); i += 5) {
      more.encoder().fill(ps[i], x);
      EXPECT_NEAR(fast.forward(x.data()).equity(), a[i].equity(), 1e-5) << from << " " << i;
    }
    // The first layer's new rows are zero; every other parameter is the original's.
    const auto lo = net.layers(), lm = more.layers();
    const size_t kept = static_cast<size_t>(lo[0].in) * lo[0].out;
    for (size_t k = 0; k < static_cast<size_t>(lm[0].in) * lm[0].out; ++k)
      ASSERT_EQ(lm[0].weight[k], k < kept ? lo[0].weight[k] : 0.0f) << k;
    for (size_t l = 1; l < lo.size(); ++l)
      for (size_t k = 0; k < static_cast<size_t>(lo[l].in) * lo[l].out; ++k)
        ASSERT_EQ(lm[l].weight[k], lo[l].weight[k]);
  }
  const ValueNet same = spread_net(shape_of("extended", 8, Activation::Sigmoid, 3), 2);
  EXPECT_EQ(testing::all_parameters(with_encoder(same, "extended-v1")),
            testing::all_parameters(same));
  const ValueNet mob = with_encoder(same, "mobility");
  const std::string e = error_of([&] { with_encoder(mob, "extended"); });
  EXPECT_NE(e.find("'extended-v1' does not extend the net's encoder 'mobility-v1'"),
            std::string::npos)
      << e;
  EXPECT_NE(error_of([&] { with_encoder(same, "wide"); }).find("unknown encoder 'wide'"),
            std::string::npos);
}

}  // namespace
}  // namespace nardy
