// The kernel paths of nn/fast_kernels.h against each other: every path this CPU supports
// against the portable scalar one (within float rounding), and avx2 against avx512 bit for bit
// (the reproducibility nn/fast_kernels.h promises), for the dense and incremental forward and
// for TD(λ) traces and updates over a game.
#include "nn/fast_kernels.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/movegen.h"
#include "nn/fast_net.h"
#include "tests/nn/test_nets.h"

namespace nardy {
namespace {

using testing::all_parameters;
using testing::PlayedGame;
using testing::random_game;
using testing::sample_positions;
using testing::shape_of;
using testing::spread_net;

constexpr SimdPath kAllPaths[] = {SimdPath::Scalar, SimdPath::Avx2, SimdPath::Avx512};

std::vector<SimdPath> supported_paths() {
  std::vector<SimdPath> out;
  for (SimdPath p : kAllPaths)
    if (simd_path_supported(p)) out.push_back(p);
  return out;
}

bool same_bits(const Evaluation& a, const Evaluation& b) {
  return std::memcmp(&a, &b, sizeof a) == 0;
}

TEST(SimdPath, NamesParseAndTheChosenPathIsSupported) {
  for (SimdPath p : kAllPaths) {
    ASSERT_TRUE(parse_simd_path(simd_path_name(p)).has_value());
    EXPECT_EQ(*parse_simd_path(simd_path_name(p)), p);
  }
  EXPECT_FALSE(parse_simd_path("sse9").has_value());
  EXPECT_TRUE(simd_path_supported(SimdPath::Scalar));
  EXPECT_TRUE(simd_path_supported(best_simd_path()));
  EXPECT_TRUE(simd_path_supported(active_simd_path()));
  for (SimdPath p : kAllPaths) {
    if (simd_path_supported(p))
      EXPECT_EQ(fast_kernels(p).path, p);
    else
      EXPECT_THROW(fast_kernels(p), Error) << simd_path_name(p);
  }
}

struct Case {
  const char* encoder;
  int hidden;
  Activation activation;
  int outputs;
  int hidden2 = 0;  // a second hidden layer, if non-zero
  std::vector<int> widths() const { return testing::widths(hidden, {hidden2}); }
  NetShape shape() const { return shape_of(encoder, widths(), activation, outputs); }
  Rules rules() const {  // a net with the draw output plays under last_roll_draw
    Rules r;
    r.last_roll_draw = outputs == 4;
    return r;
  }
};

std::string case_name(const ::testing::TestParamInfo<Case>& info) {
  return std::string(info.param.encoder[0] == 'r' ? "raw" : "extended") + "_h" +
         std::to_string(info.param.hidden) +
         (info.param.hidden2 ? "_" + std::to_string(info.param.hidden2) : std::string()) + "_" +
         activation_name(info.param.activation) + "_k" + std::to_string(info.param.outputs);
}

class KernelPaths : public ::testing::TestWithParam<Case> {};

// Dense and incremental evaluations of every candidate of some turns.
TEST_P(KernelPaths, ForwardAgreesWithScalarAndWideningKeepsTheBits) {
  const Case c = GetParam();
  ValueNet net = spread_net(c.shape(), 5);
  const Encoder& enc = net.encoder();
  const int in = net.num_inputs();
  const auto positions = sample_positions(7, 2);
  std::vector<std::vector<Evaluation>> dense, incremental;
  const auto paths = supported_paths();
  Rng rng(3);
  for (SimdPath p : paths) {
    FastNet fast(net, p);
    ASSERT_EQ(fast.simd_path(), p);
    std::vector<Evaluation> d, inc;
    std::vector<float> base(in), x;
    for (size_t i = 0; i < positions.size(); i += 7) {
      const Position& pos = positions[i];
      const MoveList moves = legal_moves(pos, Dice{2, 5}, Rules{});
      enc.fill(pos.with_side_to_move(~pos.side_to_move()), base);
      x.assign(moves.size() * in, 0.0f);
      for (size_t m = 0; m < moves.size(); ++m)
        enc.fill(moves[m].position, std::span<float>(x.data() + m * in, in));
      std::vector<Evaluation> out(moves.size());
      fast.evaluate_batch(base.data(), x.data(), static_cast<int>(moves.size()), out.data());
      inc.insert(inc.end(), out.begin(), out.end());
      fast.evaluate_batch(nullptr, x.data(), static_cast<int>(moves.size()), out.data());
      d.insert(d.end(), out.begin(), out.end());
    }
    dense.push_back(d);
    incremental.push_back(inc);
  }
  ASSERT_GT(dense[0].size(), 50u);
  for (size_t p = 1; p < paths.size(); ++p) {
    const std::string what = std::string(simd_path_name(paths[p])) + " vs scalar";
    for (size_t i = 0; i < dense[0].size(); ++i) {
      EXPECT_NEAR(dense[p][i].win, dense[0][i].win, 1e-5) << what << " dense " << i;
      EXPECT_NEAR(dense[p][i].win_mars, dense[0][i].win_mars, 1e-5) << what << " dense " << i;
      EXPECT_NEAR(dense[p][i].lose_mars, dense[0][i].lose_mars, 1e-5) << what << " dense " << i;
      EXPECT_NEAR(dense[p][i].draw, dense[0][i].draw, 1e-5) << what << " dense " << i;
      EXPECT_NEAR(incremental[p][i].equity(), incremental[0][i].equity(), 2e-5)
          << what << " incremental " << i;
    }
  }
  if (paths.size() == 3)
    for (size_t i = 0; i < dense[0].size(); ++i) {
      EXPECT_TRUE(same_bits(dense[1][i], dense[2][i])) << "avx2 vs avx512 dense " << i;
      EXPECT_TRUE(same_bits(incremental[1][i], incremental[2][i]))
          << "avx2 vs avx512 incremental " << i;
    }
}

// A trainer's loop over one game with one net per path: values, traces and parameters after
// every step. The nets are not re-aligned, so differences would compound: avx2 and avx512 must
// stay identical to the end, and each path within a loose bound of scalar.
TEST_P(KernelPaths, TdStepsAgreeWithScalarAndWideningKeepsTheBits) {
  const Case c = GetParam();
  const Rules rules = c.rules();
  const ValueNet start = spread_net(c.shape(), 21, 1.5f);
  const auto paths = supported_paths();
  std::vector<ValueNet> nets;
  std::vector<std::unique_ptr<FastTd>> tds;
  for (SimdPath p : paths) {
    nets.push_back(start.clone());
    tds.push_back(std::make_unique<FastTd>(nets.back(), 0.7f, p));
  }
  const PlayedGame game = random_game(31, rules);
  const Encoder& enc = start.encoder();
  std::vector<float> x(enc.num_inputs());
  std::vector<float> trace_a(tds[0]->trace_size()), trace_b(tds[0]->trace_size());
  std::vector<Evaluation> values(paths.size());
  for (auto& td : tds) td->clear();
  for (size_t t = 0; t < game.states.size(); ++t) {
    const Position& s = game.states[t];
    enc.fill(s, x);
    for (size_t p = 0; p < paths.size(); ++p)
      values[p] = tds[p]->accumulate(x.data(), s.side_to_move());
    const Evaluation target =
        t + 1 < game.states.size() ? values[0].flipped() : outcome_target(game.outcome);
    for (size_t p = 0; p < paths.size(); ++p) tds[p]->update(values[p], target, 0.1f);
    if (t % 10 != 0 && t + 1 != game.states.size()) continue;
    const std::string where = "state " + std::to_string(t);
    for (size_t p = 1; p < paths.size(); ++p) {
      const std::string what = std::string(simd_path_name(paths[p])) + " vs scalar, " + where;
      EXPECT_NEAR(values[p].equity(), values[0].equity(), 1e-4) << what;
      for (int k = 0; k < tds[0]->num_traces(); ++k) {
        tds[0]->copy_trace(k, trace_a);
        tds[p]->copy_trace(k, trace_b);
        for (size_t i = 0; i < trace_a.size(); ++i)
          ASSERT_NEAR(trace_b[i], trace_a[i], 1e-4 * (1 + std::abs(trace_a[i])))
              << what << " trace " << k << " entry " << i;
      }
      const auto pa = all_parameters(nets[0]), pb = all_parameters(nets[p]);
      for (size_t i = 0; i < pa.size(); ++i)
        ASSERT_NEAR(pb[i], pa[i], 1e-4 * (1 + std::abs(pa[i]))) << what << " parameter " << i;
    }
    if (paths.size() == 3) {
      EXPECT_TRUE(same_bits(values[1], values[2])) << "avx2 vs avx512 value, " << where;
      EXPECT_EQ(all_parameters(nets[1]), all_parameters(nets[2]))
          << "avx2 vs avx512 parameters, " << where;
    }
  }
}

// FastTd adds each state's gradient to the traces during the next update (one pass over the
// rows), and in Deferred mode steps the rows not being read only when synced; on every path
// that must give exactly the bits of adding it at once and updating every row after. Some states
// are accumulated twice without an update between them, and traces are read between an
// accumulate and its update, so the pending gradient is also added on its own; the net is
// synced and compared every 13 states (the values of every state are compared, and their
// forward passes read synced rows).
TEST_P(KernelPaths, FusedTdUpdateGivesTheTwoPassBits) {
  const Case c = GetParam();
  const Rules rules = c.rules();
  const ValueNet start = spread_net(c.shape(), 23, 1.5f);
  const PlayedGame game = random_game(37, rules);
  const Encoder& enc = start.encoder();
  std::vector<float> x(enc.num_inputs());
  for (SimdPath p : supported_paths()) {
    for (FastTd::Mode mode : {FastTd::Mode::Fused, FastTd::Mode::Deferred}) {
      ValueNet fused_net = start.clone(), plain_net = start.clone();
      FastTd fused(fused_net, 0.7f, p, mode), plain(plain_net, 0.7f, p, FastTd::Mode::TwoPass);
      std::vector<float> trace_a(fused.trace_size()), trace_b(fused.trace_size());
      for (int round = 0; round < 2; ++round) {  // the second game starts from traces cleared
        fused.clear();
        plain.clear();
        for (size_t t = 0; t < game.states.size(); ++t) {
          const Position& s = game.states[t];
          enc.fill(s, x);
          const Evaluation va = fused.accumulate(x.data(), s.side_to_move());
          const Evaluation vb = plain.accumulate(x.data(), s.side_to_move());
          const std::string where = std::string(simd_path_name(p)) + " round " +
                                    std::to_string(round) + " state " + std::to_string(t);
          ASSERT_TRUE(same_bits(va, vb)) << where;
          if (t % 7 == 3) {
            for (int k = 0; k < fused.num_traces(); ++k) {
              fused.copy_trace(k, trace_a);
              plain.copy_trace(k, trace_b);
              ASSERT_EQ(trace_a, trace_b) << where << " trace " << k;
            }
          }
          if (t % 11 == 5) continue;  // no update: the next accumulate adds the gradient alone
          const Evaluation target =
              t + 1 < game.states.size() ? va.flipped() : outcome_target(game.outcome);
          fused.update(va, target, 0.1f);
          plain.update(vb, target, 0.1f);
          if (t % 13 != 0 && t + 1 != game.states.size()) continue;  // rows left for a while
          fused.sync();  // deferred rows: the whole net up to date before reading it
          ASSERT_EQ(all_parameters(fused_net), all_parameters(plain_net)) << where;
        }
      }
    }
  }
}

// The sigmoid and tanh of exp_approx (nn/fast_kernels_impl.h) as the FMA paths compute them:
// its multiply-adds fused, and 1 + p 2^n fused too, written out with std::fma.
float fused_one_plus_exp(float x) {
  x = x < -87.0f ? -87.0f : (x > 88.0f ? 88.0f : x);
  const float n = std::fma(x, 1.44269504088896341f, 12582912.0f) - 12582912.0f;
  float r = std::fma(-n, 0.693359375f, x);
  r = std::fma(n, 2.12194440e-4f, r);
  float p = 1.9875691500e-4f;
  for (float c :
       {1.3981999507e-3f, 8.3334519073e-3f, 4.1665795894e-2f, 1.6666665459e-1f, 5.0000001201e-1f})
    p = std::fma(p, r, c);
  const float q = std::fma(p * r, r, r) + 1.0f;
  const int32_t bits = (static_cast<int32_t>(n) + 127) << 23;
  return std::fma(q, std::bit_cast<float>(bits), 1.0f);
}

// Every path's activations over floats spread through the whole range (every 509th bit pattern,
// and [-2, 2] at a 2^-12 spacing): avx2 and avx512 give exactly the fused formula's bits (a NaN
// gives a NaN), the scalar path (no FMA) the same within float rounding (relative, and absolute
// near tanh's 0). The hidden layer is 4,109 units wide, so the last ones are a partial vector on
// both widths.
TEST(KernelActivations, EveryPathComputesTheFusedFormula) {
  constexpr int kHidden = 4096 + 13;
  std::vector<float> sums, hidden(kHidden), w2(kHidden * 3, 0.0f), zeros(kHidden, 0.0f);
  for (uint64_t b = 0; b < (uint64_t{1} << 32); b += 509)
    sums.push_back(std::bit_cast<float>(static_cast<uint32_t>(b)));
  for (int i = -8192; i <= 8192; ++i) sums.push_back(static_cast<float>(i) / 4096.0f);
  sums.resize((sums.size() / kHidden + 1) * kHidden, 88.0f);
  for (Activation act : {Activation::Sigmoid, Activation::Tanh}) {
    // tanh near 0 is 2/(1 + e^-2a) - 1, a difference: its rounding is absolute there.
    const float floor = act == Activation::Tanh ? 3e-7f : 1e-37f;
    std::vector<float> expected(sums.size());
    for (size_t i = 0; i < sums.size(); ++i)
      expected[i] = act == Activation::Sigmoid ? 1.0f / fused_one_plus_exp(-sums[i])
                                               : 2.0f / fused_one_plus_exp(-2.0f * sums[i]) - 1.0f;
    for (SimdPath p : supported_paths()) {
      const KernelNet net{zeros.data(),
                          zeros.data(),
                          w2.data(),
                          zeros.data(),
                          1,
                          kHidden,
                          3,
                          static_cast<uint8_t>(act)};
      float z[4];
      size_t wrong = 0;
      for (size_t at = 0; at < sums.size(); at += kHidden) {
        fast_kernels(p).logits_from_sums(net, sums.data() + at, hidden.data(), z);
        for (int j = 0; j < kHidden; ++j) {
          const float got = hidden[j], want = expected[at + j];
          const bool ok = std::isnan(want) ? std::isnan(got)
                          : p == SimdPath::Scalar
                              ? std::abs(got - want) <= 1e-6f * std::abs(want) + floor
                              : std::bit_cast<uint32_t>(got) == std::bit_cast<uint32_t>(want);
          if (!ok && wrong++ < 5)
            ADD_FAILURE() << simd_path_name(p) << " " << activation_name(act) << "(" << sums[at + j]
                          << ") = " << got << ", expected " << want;
        }
      }
      EXPECT_EQ(wrong, 0u) << simd_path_name(p) << " " << activation_name(act);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Nets, KernelPaths,
                         ::testing::Values(Case{"raw-v1", 128, Activation::Sigmoid, 3},
                                           Case{"raw-v1", 200, Activation::Tanh, 4},
                                           Case{"extended-v1", 48, Activation::Relu, 3},
                                           Case{"extended-v1", 96, Activation::Sigmoid, 4},
                                           Case{"raw-v1", 64, Activation::Sigmoid, 3, 32},
                                           Case{"extended-v1", 48, Activation::Relu, 4, 24},
                                           Case{"raw-v1", 40, Activation::Tanh, 4, 20}),
                         case_name);

}  // namespace
}  // namespace nardy
