// The float kernels against LibTorch's forward, and the incremental forward against the dense.
#include "nn/fast_net.h"

#include <gtest/gtest.h>

#include <cstring>

#include "core/error.h"
#include "core/movegen.h"
#include "tests/nn/test_nets.h"

namespace nardy {
namespace {

using testing::encode_all;
using testing::sample_positions;
using testing::shape_of;
using testing::spread_net;

void expect_close(const Evaluation& a, const Evaluation& b, float tol, const std::string& what) {
  EXPECT_NEAR(a.win, b.win, tol) << what;
  EXPECT_NEAR(a.win_mars, b.win_mars, tol) << what;
  EXPECT_NEAR(a.lose_mars, b.lose_mars, tol) << what;
  EXPECT_NEAR(a.draw, b.draw, tol) << what;
  EXPECT_NEAR(a.equity(), b.equity(), 2 * tol) << what;
}

struct Case {
  const char* encoder;
  Activation activation;
  int outputs;
};

class FastForward : public ::testing::TestWithParam<Case> {};

TEST_P(FastForward, MatchesLibTorchOnPositionsFromRandomGames) {
  const Case c = GetParam();
  ValueNet net = spread_net(shape_of(c.encoder, 96, c.activation, c.outputs), 11);
  const auto positions = sample_positions(5);
  const auto x = encode_all(net.encoder(), positions);
  const int n = static_cast<int>(positions.size());
  std::vector<Evaluation> reference(n);
  net.evaluate_batch(x, n, reference);
  FastNet fast(net);
  double spread = 0;
  for (int i = 0; i < n; ++i) {
    const Evaluation e = fast.forward(x.data() + static_cast<size_t>(i) * net.num_inputs());
    expect_close(e, reference[i], 1e-5f, "position " + std::to_string(i));
    spread += std::abs(reference[i].win - reference[0].win);
  }
  EXPECT_GT(spread / n, 0.01) << "outputs do not vary: the comparison would prove little";
}

INSTANTIATE_TEST_SUITE_P(AllActivations, FastForward,
                         ::testing::Values(Case{"raw-v1", Activation::Sigmoid, 3},
                                           Case{"raw-v1", Activation::Tanh, 3},
                                           Case{"raw-v1", Activation::Relu, 3},
                                           Case{"raw-v1", Activation::Sigmoid, 4},
                                           Case{"extended-v1", Activation::Tanh, 4},
                                           Case{"extended-v1", Activation::Relu, 3}));

TEST(FastNet, IncrementalForwardEqualsDenseForEveryCandidate) {
  ValueNet net = spread_net(shape_of("raw-v1", 128, Activation::Sigmoid, 3), 3);
  FastNet fast(net);
  const Encoder& enc = net.encoder();
  const int ni = enc.num_inputs();
  Rng rng(17);
  MoveList moves;
  std::vector<float> base(ni), cand;
  int candidates = 0, max_changed = 0;
  for (const Position& pos : sample_positions(8, 2)) {
    const Dice dice = testing::random_dice(rng);
    generate_moves(pos, dice, Rules{}, moves);
    enc.fill(pos.with_side_to_move(~pos.side_to_move()), base);
    cand.assign(moves.size() * ni, 0.0f);
    for (size_t m = 0; m < moves.size(); ++m)
      enc.fill(moves[m].position, std::span<float>(cand.data() + m * ni, ni));
    std::vector<Evaluation> inc(moves.size()), dense(moves.size());
    fast.evaluate_batch(base.data(), cand.data(), static_cast<int>(moves.size()), inc.data());
    fast.evaluate_batch(nullptr, cand.data(), static_cast<int>(moves.size()), dense.data());
    for (size_t m = 0; m < moves.size(); ++m) {
      expect_close(inc[m], dense[m], 2e-6f, "candidate " + std::to_string(m));
      int changed = 0;
      for (int i = 0; i < ni; ++i) changed += cand[m * ni + i] != base[i];
      max_changed = std::max(max_changed, changed);
    }
    candidates += static_cast<int>(moves.size());
  }
  EXPECT_GT(candidates, 500);
  EXPECT_GT(max_changed, 0);
}

// The training loop's path: candidates as Encoder::fill_difference lists, evaluated from the
// base's sums, give the bits of the incremental forward of their full encodings (on every kernel
// path this CPU has).
TEST(FastNet, ForwardFromDifferencesGivesTheIncrementalBits) {
  for (SimdPath path : {SimdPath::Scalar, SimdPath::Avx2, SimdPath::Avx512}) {
    if (!simd_path_supported(path)) continue;
    for (const char* encoder : {"raw-v1", "extended-v1"}) {
      ValueNet net = spread_net(shape_of(encoder, 96, Activation::Sigmoid, 3), 4);
      FastNet a(net, path), b(net, path);
      const Encoder& enc = net.encoder();
      const int ni = enc.num_inputs();
      Rng rng(19);
      MoveList moves;
      std::vector<float> base(ni), x(ni), scratch(ni), coef(ni);
      std::vector<int> rows(ni);
      int candidates = 0;
      for (const Position& pos : sample_positions(9, 2)) {
        generate_moves(pos, testing::random_dice(rng), Rules{}, moves);
        const Position base_pos = pos.with_side_to_move(~pos.side_to_move());
        enc.fill(base_pos, base);
        a.set_base(base.data());
        b.set_base(base.data());
        for (const MoveResult& m : moves) {
          enc.fill(m.position, x);
          const int k =
              enc.fill_difference(base_pos, base, m.position, rows.data(), coef.data(), scratch);
          const Evaluation full = a.forward_from_base(x.data());
          const Evaluation diff = b.forward_from_rows(rows.data(), coef.data(), k);
          ASSERT_EQ(std::memcmp(&full, &diff, sizeof full), 0)
              << simd_path_name(path) << " " << encoder << " candidate " << candidates;
          ++candidates;
        }
      }
      EXPECT_GT(candidates, 300);
    }
  }
}

TEST(FastNet, HiddenSumsFromBaseEqualDenseSums) {
  ValueNet net = spread_net(shape_of("extended-v1", 40, Activation::Tanh, 4), 9);
  FastNet fast(net);
  const auto positions = sample_positions(2, 1);
  const auto x = encode_all(net.encoder(), positions);
  const int ni = net.num_inputs(), nh = fast.num_hidden();
  std::vector<float> base_sums(nh), dense(nh), inc(nh);
  fast.hidden_sums(x.data(), base_sums.data());
  for (size_t p = 1; p < positions.size(); ++p) {
    const float* xp = x.data() + p * ni;
    fast.hidden_sums(xp, dense.data());
    fast.hidden_sums_from_base(base_sums.data(), x.data(), xp, inc.data());
    for (int j = 0; j < nh; ++j) EXPECT_NEAR(inc[j], dense[j], 1e-4f * (1 + std::abs(dense[j])));
  }
}

TEST(FastNet, RejectsNetsWithoutExactlyOneHiddenLayer) {
  NetShape s = shape_of("raw-v1", 16, Activation::Sigmoid, 3);
  s.hidden = {16, 8};
  ValueNet deep = ValueNet::create(s, 1);
  EXPECT_FALSE(fast_net_supports(deep.shape()));
  try {
    FastNet fast(deep);
    FAIL() << "expected Error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("exactly one hidden layer"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace nardy
