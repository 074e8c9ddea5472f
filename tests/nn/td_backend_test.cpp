// TD(λ): the fast backend against the LibTorch/autograd reference, step by step over real games.
#include "nn/td_backend.h"

#include <gtest/gtest.h>

#include <cmath>

#include "core/error.h"
#include "core/game.h"
#include "tests/nn/test_nets.h"
#include "tests/support/error_of.h"
#include "tests/support/temp_dir.h"

namespace nardy {
namespace {

using testing::all_parameters;
using testing::error_of;
using testing::PlayedGame;
using testing::random_game;
using testing::sample_positions;
using testing::shape_of;
using testing::spread_net;

// |a - b| <= tol * max(1, |b|) element-wise; reports the worst element.
void expect_all_close(const std::vector<float>& a, const std::vector<float>& b, float tol,
                      const std::string& what) {
  ASSERT_EQ(a.size(), b.size()) << what;
  size_t worst = 0;
  float worst_err = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    const float err = std::abs(a[i] - b[i]) / std::max(1.0f, std::abs(b[i]));
    if (err > worst_err) worst_err = err, worst = i;
  }
  EXPECT_LE(worst_err, tol) << what << ": element " << worst << " fast " << a[worst] << " libtorch "
                            << b[worst];
}

void expect_eval_close(const Evaluation& a, const Evaluation& b, float tol,
                       const std::string& what) {
  EXPECT_NEAR(a.win, b.win, tol) << what;
  EXPECT_NEAR(a.win_mars, b.win_mars, tol) << what;
  EXPECT_NEAR(a.lose_mars, b.lose_mars, tol) << what;
  EXPECT_NEAR(a.draw, b.draw, tol) << what;
}

struct Case {
  const char* encoder;
  Activation activation;
  int outputs;
  float lambda;
  int hidden2 = 0, hidden3 = 0;  // further hidden layers after the first (48 units), if non-zero
};

class FastTdVsLibTorch : public ::testing::TestWithParam<Case> {};

// Runs the TD loop of a trainer over the first and the last turns of a game (so both sides
// move, including Black-to-move states, and the last target is the outcome) with two copies of
// one net, and compares values, traces and parameters after every step. Traces carry over from
// step to step, so each comparison also checks the decay of the earlier ones.
TEST_P(FastTdVsLibTorch, TracesAndUpdatesAgreeOverAGame) {
  const Case c = GetParam();
  Rules rules;
  rules.last_roll_draw = c.outputs == 4;
  ValueNet fast_net = spread_net(
      shape_of(c.encoder, testing::widths(48, {c.hidden2, c.hidden3}), c.activation, c.outputs), 21,
      1.5f);
  ValueNet torch_net = fast_net.clone();
  auto fast = make_td_backend("fast", fast_net, c.lambda);
  auto ref = make_td_backend("libtorch", torch_net, c.lambda);
  ASSERT_EQ(fast->num_traces(), c.outputs);
  ASSERT_EQ(ref->num_traces(), c.outputs);
  ASSERT_EQ(fast->trace_size(), ref->trace_size());

  const PlayedGame game = random_game(31, rules);
  ASSERT_GT(game.states.size(), 20u);
  std::vector<size_t> steps;
  for (size_t t = 0; t < 8; ++t) steps.push_back(t);
  for (size_t t = game.states.size() - 6; t < game.states.size(); ++t) steps.push_back(t);

  const Encoder& enc = fast_net.encoder();
  std::vector<float> x(enc.num_inputs()), next(enc.num_inputs());
  std::vector<float> trace_fast(fast->trace_size()), trace_ref(ref->trace_size());
  int black_states = 0;
  for (int pass = 0; pass < 2; ++pass) {  // two "games": traces must restart cleanly
    fast->start_game();
    ref->start_game();
    for (size_t idx = 0; idx < steps.size(); ++idx) {
      const size_t t = steps[idx];
      const Position& s = game.states[t];
      black_states += s.side_to_move() == Side::Black;
      enc.fill(s, x);
      const std::string where = "pass " + std::to_string(pass) + " state " + std::to_string(t);
      const Evaluation v_fast = fast->accumulate(x, s.side_to_move());
      const Evaluation v_ref = ref->accumulate(x, s.side_to_move());
      expect_eval_close(v_fast, v_ref, 1e-5f, where + " value");
      for (int k = 0; k < c.outputs; ++k) {
        fast->copy_trace(k, trace_fast);
        ref->copy_trace(k, trace_ref);
        expect_all_close(trace_fast, trace_ref, 1e-5f, where + " trace " + std::to_string(k));
      }
      // Target: the next state's White-perspective value (from the reference net, given to
      // both), or the outcome after the last state.
      Evaluation target;
      if (t + 1 < game.states.size()) {
        const Position& s1 = game.states[t + 1];
        enc.fill(s1, next);
        Evaluation e;
        torch_net.evaluate_batch(next, 1, std::span<Evaluation>(&e, 1));
        target = s1.side_to_move() == Side::White ? e : e.flipped();
      } else {
        target = outcome_target(game.outcome);
      }
      fast->update(v_fast, target, 0.2f);
      ref->update(v_ref, target, 0.2f);
      expect_all_close(all_parameters(fast_net), all_parameters(torch_net), 1e-5f,
                       where + " parameters");
      // Re-align the copies so that float rounding does not compound through later steps
      // (a large λ·α loop amplifies 1e-7 differences); each step is then checked on its own.
      torch_net.copy_parameters_from(fast_net);
    }
  }
  EXPECT_GT(black_states, 4);
}

INSTANTIATE_TEST_SUITE_P(
    Nets, FastTdVsLibTorch,
    ::testing::Values(Case{"raw-v1", Activation::Sigmoid, 3, 0.7f},
                      Case{"raw-v1", Activation::Tanh, 4, 0.9f},
                      Case{"extended-v1", Activation::Relu, 3, 0.0f},
                      Case{"extended-v1", Activation::Sigmoid, 4, 1.0f},
                      // λ^t falls below the fast traces' renormalisation threshold mid-game.
                      Case{"raw-v1", Activation::Relu, 4, 0.1f},
                      // Deeper nets: back-propagation through the further layers.
                      Case{"raw-v1", Activation::Sigmoid, 3, 0.7f, 32},
                      Case{"extended-v1", Activation::Tanh, 4, 0.9f, 40, 24},
                      Case{"extended-v1", Activation::Relu, 3, 0.0f, 24},
                      Case{"raw-v1", Activation::Sigmoid, 4, 0.1f, 32, 16}));

// With λ = 0 a trace is exactly the gradient of one White-perspective output; for Black to move
// the White outputs are the mover's flipped (win <-> lose, win_mars <-> lose_mars).
TEST(FastTd, LambdaZeroTraceIsTheGradientAndBlackFlipsOutputs) {
  ValueNet net = spread_net(shape_of("raw-v1", 16, Activation::Sigmoid, 3), 2, 1.5f);
  auto td = make_td_backend("fast", net, 0.0f);
  const PlayedGame game = random_game(5, Rules{});
  const Position& s = game.states[7];  // after a few turns
  ASSERT_EQ(s.side_to_move(), Side::Black);
  std::vector<float> x(net.num_inputs());
  net.encoder().fill(s, x);
  const Evaluation mover = net.evaluate(s);
  const Evaluation white = td->accumulate(x, Side::Black);
  EXPECT_NEAR(white.win, mover.lose(), 1e-6f);
  EXPECT_NEAR(white.win_mars, mover.lose_mars, 1e-6f);
  EXPECT_NEAR(white.lose_mars, mover.win_mars, 1e-6f);
  // The win trace's output-bias entries: ∂V_win/∂b2 = ∂(1 - s(z0))/∂z = (-s0(1-s0), 0, 0).
  std::vector<float> trace(td->trace_size());
  td->copy_trace(0, trace);
  const size_t b2 = trace.size() - 3;
  const float s0 = mover.win;
  EXPECT_NEAR(trace[b2], -s0 * (1 - s0), 1e-6f);
  EXPECT_EQ(trace[b2 + 1], 0.0f);
  EXPECT_EQ(trace[b2 + 2], 0.0f);
  // A second state replaces, not adds to, the trace.
  net.encoder().fill(game.states[8], x);
  td->accumulate(x, Side::White);
  td->copy_trace(0, trace);
  const float w0 = net.evaluate(game.states[8]).win;
  EXPECT_NEAR(trace[b2], w0 * (1 - w0), 1e-6f);
}

TEST(FastTd, UpdateMovesTheValueTowardsTheTarget) {
  for (const char* backend : {"fast", "libtorch"}) {
    ValueNet net = ValueNet::create(NetShape{}, 4);
    auto td = make_td_backend(backend, net, 0.7f);
    td->start_game();
    std::vector<float> x(net.num_inputs());
    const Position s = Position::start();
    net.encoder().fill(s, x);
    const Evaluation before = td->accumulate(x, Side::White);
    const Evaluation target{1.0f, 1.0f, 0.0f, 0.0f};
    td->update(before, target, 0.1f);
    const Evaluation after = net.evaluate(s);
    EXPECT_GT(after.win, before.win) << backend;
    EXPECT_GT(after.win_mars, before.win_mars) << backend;
    EXPECT_LT(after.lose_mars, before.lose_mars) << backend;
  }
}

TEST(TdBackend, FactoryErrors) {
  ValueNet net = ValueNet::create(NetShape{}, 1);
  EXPECT_NE(error_of([&] { make_td_backend("gpu", net, 0.7f); }).find("unknown TD backend 'gpu'"),
            std::string::npos);
  EXPECT_NE(error_of([&] { make_td_backend("fast", net, 1.5f); }).find("lambda"),
            std::string::npos);
  NetShape deep = NetShape{};
  deep.hidden = {16, 8};
  ValueNet deep_net = ValueNet::create(deep, 1);
  // Both backends cover deeper nets (nn/fast_net.h); each steps every layer.
  for (const char* backend : {"fast", "libtorch"}) {
    auto td = make_td_backend(backend, deep_net, 0.7f);
    EXPECT_EQ(td->trace_size(), size_t{197 * 16 + 16 + 16 * 8 + 8 + 8 * 3 + 3}) << backend;
    std::vector<float> x(deep_net.num_inputs());
    deep_net.encoder().fill(Position::start(), x);
    const Evaluation v = td->accumulate(x, Side::White);
    std::vector<float> before;
    for (const auto& l : deep_net.layers()) before.push_back(l.bias[0]);
    td->update(v, Evaluation{1.0f, 0.0f, 0.0f, 0.0f}, 0.5f);
    for (size_t l = 0; l < before.size(); ++l)
      EXPECT_NE(deep_net.layers()[l].bias[0], before[l]) << backend << " layer " << l;
  }
}

TEST(TdBackend, SetLambdaActsAsIfTheBackendWereMadeWithIt) {
  // A λ schedule changes λ between games: a backend made with 0.7 and set to 0.3 must keep the
  // same traces as one made with 0.3, and a λ outside [0, 1] is refused.
  const std::vector<Position> states = sample_positions(5, 1);
  ASSERT_GT(states.size(), 4u);
  for (const std::string backend : {"fast", "libtorch"}) {
    ValueNet a = spread_net(NetShape{}, 12), b = a.clone();
    auto set = make_td_backend(backend, a, 0.7f);
    auto made = make_td_backend(backend, b, 0.3f);
    set->set_lambda(0.3f);
    set->start_game();
    made->start_game();
    std::vector<float> x(a.num_inputs()), ta(set->trace_size()), tb(made->trace_size());
    for (size_t i = 0; i < 4; ++i) {
      a.encoder().fill(states[i], x);
      set->accumulate(x, states[i].side_to_move());
      made->accumulate(x, states[i].side_to_move());
    }
    for (int k = 0; k < set->num_traces(); ++k) {
      set->copy_trace(k, ta);
      made->copy_trace(k, tb);
      EXPECT_EQ(ta, tb) << backend << " trace " << k;
    }
    EXPECT_NE(error_of([&] { set->set_lambda(1.5f); }).find("lambda must be in [0, 1]"),
              std::string::npos)
        << backend;
    EXPECT_NE(error_of([&] { set->set_lambda(-0.1f); }).find("lambda"), std::string::npos)
        << backend;
  }
}

TEST(TdBackend, EvaluateMatchesAcrossBackendsWithAndWithoutBase) {
  ValueNet net = spread_net(NetShape{}, 8);
  auto fast = make_td_backend("fast", net, 0.7f);
  auto ref = make_td_backend("libtorch", net, 0.7f);
  const PlayedGame game = random_game(9, Rules{});
  const Encoder& enc = net.encoder();
  const int ni = enc.num_inputs();
  Rng rng(1);
  MoveList moves;
  std::vector<float> base(ni), cand;
  for (size_t t = 0; t < game.states.size(); t += 7) {
    const Position& s = game.states[t];
    generate_moves(s, roll_dice(rng), Rules{}, moves);
    enc.fill(s.with_side_to_move(~s.side_to_move()), base);
    cand.assign(moves.size() * ni, 0.0f);
    for (size_t m = 0; m < moves.size(); ++m)
      enc.fill(moves[m].position, std::span<float>(cand.data() + m * ni, ni));
    const int n = static_cast<int>(moves.size());
    std::vector<Evaluation> a(n), b(n), c(n);
    fast->evaluate(base, cand, n, a);
    fast->evaluate({}, cand, n, b);
    ref->evaluate(base, cand, n, c);
    for (int m = 0; m < n; ++m) {
      expect_eval_close(a[m], c[m], 1e-5f, "incremental");
      expect_eval_close(b[m], c[m], 1e-5f, "dense");
    }
  }
}

// The self-play trainer leaves the candidates the race table decides out of the fast backend's
// evaluate_differences() (selfplay/training/td_game.cpp): each candidate's value must then be
// the same bits whichever others are evaluated with it, also when the deferred backend has rows
// still to catch up (a subset syncs fewer of them before it reads).
TEST(TdBackend, FastDifferencesOfAnyCandidateSubsetAreTheSameBits) {
  for (const char* encoder : {"raw-v1", "extended-v1"}) {
    ValueNet net = spread_net(NetShape{encoder, {16}, Activation::Sigmoid, 3}, 4);
    auto fast = make_td_backend("fast", net, 0.7f, /*deferred=*/true);
    const PlayedGame game = random_game(5, Rules{});
    const Encoder& enc = net.encoder();
    const int ni = enc.num_inputs();
    Rng rng(3);
    MoveList moves;
    std::vector<float> base(ni), state(ni), scratch(ni);
    int compared = 0;
    fast->start_game();
    for (size_t t = 0; t + 1 < game.states.size(); ++t) {
      // A TD step per state, so that the deferred rows fall behind.
      const Position& s = game.states[t];
      enc.fill(s, state);
      const Evaluation v = fast->accumulate(state, s.side_to_move());
      enc.fill(game.states[t + 1], state);
      fast->update(v, Evaluation{0.9f, 0.2f, 0.1f, 0.0f}, 0.5f);
      if (t % 5 != 0) continue;
      generate_moves(s, roll_dice(rng), Rules{}, moves);
      const int n = static_cast<int>(moves.size());
      if (n < 3) continue;
      const Position b = s.with_side_to_move(~s.side_to_move());
      enc.fill(b, base);
      std::vector<int> rows(static_cast<size_t>(n) * ni), offsets(n + 1, 0);
      std::vector<float> coef(rows.size());
      for (int m = 0; m < n; ++m)
        offsets[m + 1] =
            offsets[m] + enc.fill_difference(b, base, moves[m].position, rows.data() + offsets[m],
                                             coef.data() + offsets[m], scratch);
      // Every other candidate first (its own differences, packed), then all of them.
      std::vector<int> sub_rows, sub_offsets{0};
      std::vector<float> sub_coef;
      for (int m = 1; m < n; m += 2) {
        sub_rows.insert(sub_rows.end(), rows.begin() + offsets[m], rows.begin() + offsets[m + 1]);
        sub_coef.insert(sub_coef.end(), coef.begin() + offsets[m], coef.begin() + offsets[m + 1]);
        sub_offsets.push_back(static_cast<int>(sub_rows.size()));
      }
      const int k = static_cast<int>(sub_offsets.size()) - 1;
      std::vector<Evaluation> some(k), all(n);
      fast->evaluate_differences(base, sub_rows.data(), sub_coef.data(), sub_offsets.data(), k,
                                 some);
      fast->evaluate_differences(base, rows.data(), coef.data(), offsets.data(), n, all);
      for (int j = 0; j < k; ++j, ++compared)
        EXPECT_EQ(some[j].as_array(), all[2 * j + 1].as_array()) << encoder << " state " << t;
    }
    EXPECT_GT(compared, 20) << encoder;
  }
}

}  // namespace
}  // namespace nardy
