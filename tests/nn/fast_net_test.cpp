// The float kernels against LibTorch's forward, and the incremental forward against the dense.
#include "nn/fast_net.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>

#include "core/error.h"
#include "core/movegen.h"
#include "tests/nn/test_nets.h"
#include "tests/support/temp_dir.h"

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
// path this CPU has), one at a time and as a batch (two at a time through the output layer; odd
// and even counts of candidates, widths with and without a partial block of eight, K = 3 and 4).
TEST(FastNet, ForwardFromDifferencesGivesTheIncrementalBits) {
  struct Net {
    int hidden;
    Activation activation;
    int outputs;
  };
  for (SimdPath path : {SimdPath::Scalar, SimdPath::Avx2, SimdPath::Avx512}) {
    if (!simd_path_supported(path)) continue;
    for (const char* encoder : {"raw-v1", "extended-v1"}) {
      for (const Net& shape : {Net{96, Activation::Sigmoid, 3}, Net{53, Activation::Tanh, 4}}) {
        ValueNet net =
            spread_net(shape_of(encoder, shape.hidden, shape.activation, shape.outputs), 4);
        FastNet a(net, path), b(net, path);
        const Encoder& enc = net.encoder();
        const int ni = enc.num_inputs();
        Rng rng(19);
        MoveList moves;
        std::vector<float> base(ni), x(ni), scratch(ni), coef(ni), all_coef;
        std::vector<int> rows(ni), all_rows, offsets;
        std::vector<Evaluation> full, batch;
        int candidates = 0, odd = 0;
        for (const Position& pos : sample_positions(9, 2)) {
          generate_moves(pos, testing::random_dice(rng), Rules{}, moves);
          const Position base_pos = pos.with_side_to_move(~pos.side_to_move());
          enc.fill(base_pos, base);
          a.set_base(base.data());
          b.set_base(base.data());
          full.clear();
          offsets.assign(1, 0);
          for (const MoveResult& m : moves) {
            enc.fill(m.position, x);
            const int k =
                enc.fill_difference(base_pos, base, m.position, rows.data(), coef.data(), scratch);
            full.push_back(a.forward_from_base(x.data()));
            const Evaluation diff = b.forward_from_rows(rows.data(), coef.data(), k);
            ASSERT_EQ(std::memcmp(&full.back(), &diff, sizeof diff), 0)
                << simd_path_name(path) << " " << encoder << " candidate " << candidates;
            all_rows.resize(static_cast<size_t>(offsets.back() + k));
            all_coef.resize(all_rows.size());
            std::copy_n(rows.data(), k, all_rows.data() + offsets.back());
            std::copy_n(coef.data(), k, all_coef.data() + offsets.back());
            offsets.push_back(offsets.back() + k);
            ++candidates;
          }
          const int n = static_cast<int>(moves.size());
          odd += n % 2;
          batch.assign(full.size(), Evaluation{});
          b.forward_from_rows(all_rows.data(), all_coef.data(), offsets.data(), n, batch.data());
          for (int c = 0; c < n; ++c)
            ASSERT_EQ(std::memcmp(&full[c], &batch[c], sizeof full[c]), 0)
                << simd_path_name(path) << " " << encoder << " batch of " << n << ", candidate "
                << c;
        }
        EXPECT_GT(candidates, 300);
        EXPECT_GT(odd, 0);
      }
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

// Nets with two or more hidden layers: the dense forward, the incremental one from a base and
// the one from difference lists (the training loop's) against LibTorch's module, on every kernel
// path this CPU has, for every candidate of some turns.
struct DeepCase {
  const char* encoder;
  std::vector<int> hidden;
  Activation activation;
  int outputs;
};

class DeepForward : public ::testing::TestWithParam<DeepCase> {};

TEST_P(DeepForward, EveryPathMatchesLibTorchDenseAndIncremental) {
  const DeepCase c = GetParam();
  ValueNet net = spread_net(shape_of(c.encoder, c.hidden, c.activation, c.outputs), 13, 2.0f);
  const Encoder& enc = net.encoder();
  const int ni = enc.num_inputs();
  for (SimdPath path : {SimdPath::Scalar, SimdPath::Avx2, SimdPath::Avx512}) {
    if (!simd_path_supported(path)) continue;
    FastNet fast(net, path);
    EXPECT_EQ(fast.num_hidden_layers(), static_cast<int>(c.hidden.size()));
    EXPECT_EQ(fast.num_hidden(), c.hidden[0]);
    Rng rng(23);
    MoveList moves;
    std::vector<float> base(ni), cand, scratch(ni), coef(ni);
    std::vector<int> rows(ni);
    int candidates = 0;
    double spread = 0;
    for (const Position& pos : sample_positions(6, 2)) {
      generate_moves(pos, testing::random_dice(rng), Rules{}, moves);
      const int n = static_cast<int>(moves.size());
      const Position base_pos = pos.with_side_to_move(~pos.side_to_move());
      enc.fill(base_pos, base);
      cand.assign(static_cast<size_t>(n) * ni, 0.0f);
      for (int m = 0; m < n; ++m)
        enc.fill(moves[m].position,
                 std::span<float>(cand.data() + static_cast<size_t>(m) * ni, ni));
      std::vector<Evaluation> reference(n), dense(n), inc(n);
      net.evaluate_batch(cand, n, reference);
      fast.evaluate_batch(nullptr, cand.data(), n, dense.data());
      fast.evaluate_batch(base.data(), cand.data(), n, inc.data());  // leaves `base` set
      for (int m = 0; m < n; ++m, ++candidates) {
        const std::string what =
            std::string(simd_path_name(path)) + " candidate " + std::to_string(candidates);
        expect_close(dense[m], reference[m], 1e-5f, what + " dense");
        expect_close(inc[m], reference[m], 1e-5f, what + " incremental");
        const int k = enc.fill_difference(base_pos, base, moves[m].position, rows.data(),
                                          coef.data(), scratch);
        const Evaluation from_rows = fast.forward_from_rows(rows.data(), coef.data(), k);
        const Evaluation from_base =
            fast.forward_from_base(cand.data() + static_cast<size_t>(m) * ni);
        ASSERT_EQ(std::memcmp(&from_rows, &from_base, sizeof from_rows), 0) << what;
        spread += std::abs(reference[m].win - 0.5);
      }
    }
    EXPECT_GT(candidates, 300);
    EXPECT_GT(spread / candidates, 0.01)
        << "outputs do not vary: the comparison would prove little";
  }
}

INSTANTIATE_TEST_SUITE_P(
    Deeper, DeepForward,
    ::testing::Values(DeepCase{"raw-v1", {64, 32}, Activation::Sigmoid, 3},
                      DeepCase{"raw-v1", {40, 24, 17}, Activation::Tanh, 4},
                      DeepCase{"extended-v1", {64, 32}, Activation::Relu, 3},
                      DeepCase{"extended-v1", {48, 40, 33, 16}, Activation::Sigmoid, 4}));

// A two-layer net through its TorchScript checkpoint: the loaded net has the same parameters and
// gives the same bits through LibTorch and through the fast kernels.
TEST(FastNet, TwoLayerCheckpointSavesLoadsAndEvaluatesIdentically) {
  testing::TempDir dir;
  const std::string path = dir.file("deep.pt");
  ValueNet net = spread_net(shape_of("extended-v1", {64, 32}, Activation::Sigmoid, 3), 8);
  CheckpointInfo info;
  info.games = 7;
  net.save(path, info);
  const ValueNet loaded = ValueNet::load(path);
  EXPECT_EQ(loaded.shape(), net.shape());
  EXPECT_EQ(loaded.info().games, 7);
  ASSERT_TRUE(testing::same_parameters(loaded, net));
  const auto positions = sample_positions(3, 1);
  const auto x = encode_all(net.encoder(), positions);
  const int n = static_cast<int>(positions.size());
  std::vector<Evaluation> a(n), b(n);
  net.evaluate_batch(x, n, a);
  loaded.evaluate_batch(x, n, b);
  FastNet fast_a(net), fast_b(loaded);
  for (int i = 0; i < n; ++i) {
    const float* xi = x.data() + static_cast<size_t>(i) * net.num_inputs();
    ASSERT_EQ(std::memcmp(&a[i], &b[i], sizeof a[i]), 0) << "libtorch, position " << i;
    const Evaluation fa = fast_a.forward(xi), fb = fast_b.forward(xi);
    ASSERT_EQ(std::memcmp(&fa, &fb, sizeof fa), 0) << "fast, position " << i;
    expect_close(fb, b[i], 1e-5f, "fast vs libtorch, position " + std::to_string(i));
  }
}

TEST(FastNet, CoversOneToFourHiddenLayers) {
  NetShape s = shape_of("raw-v1", 16, Activation::Sigmoid, 3);
  for (size_t layers = 1; layers <= static_cast<size_t>(kMaxHiddenLayers); ++layers) {
    s.hidden.assign(layers, 8);
    EXPECT_TRUE(fast_net_supports(s)) << layers;
  }
  s.hidden.assign(kMaxHiddenLayers + 1, 8);
  EXPECT_FALSE(fast_net_supports(s));
  s.hidden.clear();
  EXPECT_FALSE(fast_net_supports(s));
  s.hidden = {8, 8};
  s.num_outputs = 5;
  EXPECT_FALSE(fast_net_supports(s));
}

}  // namespace
}  // namespace nardy
