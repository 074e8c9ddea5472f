// Net agents: spec parsing, greedy choice against the LibTorch reference, both backends,
// search plies, noise, and net agents in the arena.
#include "selfplay/search/net_agent.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <set>

#include "core/error.h"
#include "core/game.h"
#include "selfplay/agents/callback_agent.h"
#include "selfplay/evaluation/arena.h"
#include "selfplay/evaluation/rollout.h"
#include "tests/support/error_of.h"
#include "tests/support/position_sampler.h"
#include "selfplay/search/agent_kinds.h"

namespace nardy {
namespace {

using testing::error_of;
using testing::random_game_position;

// A fresh (untrained) checkpoint written once for the whole suite.
const std::string& checkpoint_path() {
  static const std::string path = [] {
    const auto dir = std::filesystem::temp_directory_path() /
                     ("nardy_net_agent_test_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const std::string p = (dir / "ckpt-1.pt").string();
    ValueNet::create(NetShape{}, 42).save(p, CheckpointInfo{});
    return p;
  }();
  return path;
}

TEST(NetAgentSpec, ParsesOptions) {
  NetAgentSpec s = parse_net_agent_spec(
      "runs/a/ckpt-10.pt:ply=2:noise=0.05:filter=4,0.1:cache=10:backend=libtorch");
  EXPECT_EQ(s.path, "runs/a/ckpt-10.pt");
  EXPECT_EQ(s.options.ply, 2);
  EXPECT_DOUBLE_EQ(s.options.noise, 0.05);
  EXPECT_EQ(s.options.search.filter_keep, 4);
  EXPECT_DOUBLE_EQ(s.options.search.filter_delta, 0.1);
  EXPECT_EQ(s.options.search.cache_bits, 10);
  EXPECT_EQ(s.options.backend, "libtorch");
  NetAgentSpec d = parse_net_agent_spec("x.pt");
  EXPECT_EQ(d.options.ply, 0);
  EXPECT_EQ(d.options.search.filter_keep, 8);
  // Inside the tree each reply is the opponent's 0-ply best by default (gnubg's choice).
  EXPECT_EQ(d.options.search.inner_keep, 1);
  EXPECT_DOUBLE_EQ(d.options.search.inner_delta, 0.0);
  // The inner filter is its own option and reaches the search.
  NetAgentSpec in = parse_net_agent_spec("x.pt:ply=2:inner=2,0.04");
  EXPECT_EQ(in.options.search.inner_keep, 2);
  EXPECT_DOUBLE_EQ(in.options.search.inner_delta, 0.04);
  EXPECT_EQ(in.options.search.filter_keep, 8);
  const SearchOptions so = net_search_options(in.options);
  EXPECT_EQ(so.inner_keep, 2);
  // The 1-ply blend: 0.6 by default, reaching the search.
  EXPECT_DOUBLE_EQ(so.blend, 0.6);
  EXPECT_DOUBLE_EQ(net_search_options(parse_net_agent_spec("x.pt:blend=0.3").options).blend, 0.3);
  // race_net=0, or tables=0 (the value net everywhere), leaves the race net out of the search.
  EXPECT_TRUE(in.options.race_net);
  EXPECT_FALSE(parse_net_agent_spec("x.pt:race_net=0").options.race_net);
  EXPECT_EQ(net_search_options(parse_net_agent_spec("x.pt:race_net=0").options).race_net, nullptr);
  EXPECT_EQ(net_search_options(parse_net_agent_spec("x.pt:tables=0").options).race_net, nullptr);
  EXPECT_DOUBLE_EQ(so.inner_delta, 0.04);
  EXPECT_EQ(so.filter_keep, 8);
}

TEST(NetAgentSpec, ErrorsNameTheProblem) {
  EXPECT_NE(error_of([] { parse_net_agent_spec(""); }).find("missing checkpoint path"),
            std::string::npos);
  EXPECT_NE(error_of([] { parse_net_agent_spec("x.pt:depth=2"); }).find("unknown option 'depth'"),
            std::string::npos);
  EXPECT_NE(error_of([] {
              parse_net_agent_spec("x.pt:ply=two");
            }).find("ply='two' is not a valid integer"),
            std::string::npos);
  EXPECT_NE(error_of([] { parse_net_agent_spec("x.pt:noise=0.1x"); }).find("not a valid number"),
            std::string::npos);
  EXPECT_NE(error_of([] { parse_net_agent_spec("x.pt:ply=7"); }).find("ply must be 0..4"),
            std::string::npos);
  EXPECT_NE(error_of([] { parse_net_agent_spec("x.pt:noise=-1"); }).find("noise must be >= 0"),
            std::string::npos);
  EXPECT_NE(error_of([] { parse_net_agent_spec("x.pt:filter=3"); }).find("must be K,D"),
            std::string::npos);
  EXPECT_NE(error_of([] { parse_net_agent_spec("x.pt:inner=1"); }).find("inner='1' must be K,D"),
            std::string::npos);
  EXPECT_NE(error_of([] { parse_net_agent_spec("x.pt:inner=0,0.1"); }).find("inner filter keep"),
            std::string::npos);
  EXPECT_NE(error_of([] { parse_net_agent_spec("x.pt:ply"); }).find("needs a value"),
            std::string::npos);
  EXPECT_NE(error_of([] { parse_net_agent_spec("x.pt:backend=gpu"); }).find("backend must be"),
            std::string::npos);
  EXPECT_NE(error_of([] { parse_net_agent_spec("x.pt:blend=2"); }).find("blend must be 0..1"),
            std::string::npos);
  EXPECT_NE(error_of([] {
              parse_net_agent_spec("x.pt:race_net=yes");
            }).find("option race_net='yes' must be 0 or 1"),
            std::string::npos);
  const std::string missing = error_of([] { make_agent("net:/nonexistent/ckpt.pt", Rules{}); });
  EXPECT_NE(missing.find("/nonexistent/ckpt.pt"), std::string::npos) << missing;
  EXPECT_NE(missing.find("does not exist"), std::string::npos) << missing;
}

TEST(NetAgent, GreedyPlaysTheBestEquityForTheMover) {
  const ValueNet net = ValueNet::load(checkpoint_path());
  const Rules rules;
  for (const char* backend : {"fast", "libtorch"}) {
    NetAgentOptions o;
    o.backend = backend;
    NetAgent agent(net, o, rules, "net:test");
    int checked = 0;
    for (uint64_t seed = 1; seed <= 12; ++seed) {
      const Position pos = random_game_position(seed, 15 + static_cast<int>(seed));
      Rng rng(seed);
      const Dice dice = roll_dice(rng);
      MoveList moves = legal_moves(pos, dice, rules);
      if (moves.size() < 2) continue;
      // Reference: each result through LibTorch from the opponent's view, flipped.
      std::vector<double> eq;
      for (const auto& m : moves) eq.push_back(-net.evaluate(m.position).equity());
      std::vector<double> sorted = eq;
      std::sort(sorted.rbegin(), sorted.rend());
      if (sorted[0] - sorted[1] < 1e-4) continue;  // a near tie: float noise may decide
      const size_t expected =
          static_cast<size_t>(std::max_element(eq.begin(), eq.end()) - eq.begin());
      EXPECT_EQ(agent.choose(pos, dice, moves, rng), expected) << backend << " seed " << seed;
      ++checked;
    }
    EXPECT_GE(checked, 8) << backend;
  }
}

TEST(NetAgent, RegisteredSpecsMakeAgentsAtEveryPly) {
  const Rules rules;
  const Position pos = random_game_position(3, 30);
  const Dice dice{6, 4};
  MoveList moves = legal_moves(pos, dice, rules);
  for (int ply : {0, 1, 2}) {
    const std::string spec = "net:" + checkpoint_path() + ":ply=" + std::to_string(ply);
    auto agent = make_agent(spec, rules);
    EXPECT_EQ(agent->spec(), spec);
    auto* net = dynamic_cast<NetAgent*>(agent.get());
    ASSERT_NE(net, nullptr);
    std::vector<ScoredMove> scored;
    net->rank(pos, moves, scored);
    Rng rng(1);
    EXPECT_EQ(agent->choose(pos, dice, moves, rng), scored[0].index);
    EXPECT_EQ(scored[0].ply, ply);
  }
}

TEST(NetAgent, NoiseVariesTheChoiceReproducibly) {
  const ValueNet net = ValueNet::load(checkpoint_path());
  NetAgentOptions noisy;
  noisy.noise = 5.0;  // far larger than the equity differences of an untrained net
  NetAgent agent(net, noisy, Rules{}, "net:noisy");
  const Position pos = random_game_position(4, 20);
  MoveList moves = legal_moves(pos, Dice{5, 3}, Rules{});
  ASSERT_GT(moves.size(), 3u);
  std::set<size_t> seen;
  std::vector<size_t> first, second;
  Rng a(9), b(9);
  for (int i = 0; i < 40; ++i) {
    first.push_back(agent.choose(pos, Dice{5, 3}, moves, a));
    second.push_back(agent.choose(pos, Dice{5, 3}, moves, b));
    seen.insert(first.back());
  }
  EXPECT_GT(seen.size(), 1u);
  EXPECT_EQ(first, second);
}

TEST(NetAgent, ArenaResultsWithNetsDoNotDependOnThreads) {
  ArenaOptions o;
  o.games = 8;
  o.seed = 4;
  o.threads = 1;
  const std::string spec = "net:" + checkpoint_path();
  ArenaResult one = run_arena(spec, std::string("heuristic"), o);
  o.threads = 2;
  ArenaResult two = run_arena(spec, std::string("heuristic"), o);
  EXPECT_EQ(one.game_points, two.game_points);
  EXPECT_EQ(one.turns, two.turns);
}

TEST(NetAgent, DecisionsDoNotDependOnTheAgentsHistory) {
  const ValueNet net = ValueNet::load(checkpoint_path());
  NetAgentOptions o;
  o.ply = 1;
  NetAgent fresh(net, o, Rules{}, "net:fresh"), used(net, o, Rules{}, "net:used");
  // Given an agent that has already decided many other positions (its cache full of values
  // reached from other parents),
  Rng rng(3);
  for (uint64_t s = 10; s < 40; ++s) {
    const Position p = random_game_position(s, 20);
    const Dice d = roll_dice(rng);
    MoveList ms = legal_moves(p, d, Rules{});
    used.choose(p, d, ms, rng);
  }
  // when both rank the same roll, then every value agrees to the bit.
  const Position pos = random_game_position(7, 26);
  MoveList moves = legal_moves(pos, Dice{6, 2}, Rules{});
  std::vector<ScoredMove> a, b;
  fresh.rank(pos, moves, a);
  used.rank(pos, moves, b);
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].index, b[i].index);
    EXPECT_EQ(a[i].eval.win, b[i].eval.win);
    EXPECT_EQ(a[i].eval.win_mars, b[i].eval.win_mars);
    EXPECT_EQ(a[i].eval.lose_mars, b[i].eval.lose_mars);
  }
}

TEST(NetAgent, LuckAdjustedRolloutsDoNotDependOnThreads) {
  const std::string spec = "net:" + checkpoint_path();
  RolloutOptions o;
  o.trials = 6;
  o.seed = 2;
  o.threads = 1;
  const Position pos = random_game_position(9, 40);
  auto maker = [spec] { return make_agent(spec, Rules{}); };
  const RolloutResult one = rollout(pos, maker, {}, o);
  EXPECT_TRUE(one.luck_adjusted);  // the net agent brings its own evaluator
  o.threads = 3;
  const RolloutResult three = rollout(pos, maker, {}, o);
  EXPECT_EQ(one.to_json(), three.to_json());
}

// A net agent's rollout shares its values with the luck measurement (the 0-ply choice among the
// luck's values; at 1-ply the expected value left by the previous choice): the same result, bit
// for bit, as measuring luck with a separate search of the same net beside an agent that hides
// its search (a callback around it), which values everything afresh each turn.
TEST(NetAgent, LuckAdjustedRolloutsShareValuesWithoutChangingThem) {
  const ValueNet net = ValueNet::load(checkpoint_path());
  const Position pos = random_game_position(9, 40);
  for (const std::string ply : {"0", "1"}) {
    const std::string spec = "net:" + checkpoint_path() + ":ply=" + ply;
    RolloutOptions o;
    o.trials = ply == "0" ? 12 : 4;
    o.seed = 5;
    auto shared = [spec] { return make_agent(spec, Rules{}); };
    auto hidden = [spec]() -> std::unique_ptr<Agent> {
      std::shared_ptr<Agent> inner = make_agent(spec, Rules{});
      return std::make_unique<CallbackAgent>(
          [inner](const Position& p, Dice d, const MoveList& m) {
            Rng unused(0);  // no noise: the agent draws nothing
            return inner->choose(p, d, m, unused);
          },
          spec);
    };
    auto luck = [net] { return std::make_unique<NetEvaluator>(net); };
    const RolloutResult a = rollout(pos, shared, {}, o);
    const RolloutResult b = rollout(pos, hidden, luck, o);
    ASSERT_TRUE(a.luck_adjusted && b.luck_adjusted);
    EXPECT_EQ(a.to_json(), b.to_json()) << spec;
    EXPECT_NE(a.adjusted[kRoEquity].mean, a.raw[kRoEquity].mean) << spec;
  }
}

TEST(NetAgent, EvaluateIsFromTheSideToMove) {
  const ValueNet net = ValueNet::load(checkpoint_path());
  NetAgent agent(net, NetAgentOptions{}, Rules{}, "net:test");
  const Position pos = random_game_position(6, 24);
  const Evaluation ref = net.evaluate(pos);
  const Evaluation got = agent.evaluate(pos);
  EXPECT_NEAR(got.win, ref.win, 1e-4);
  EXPECT_NEAR(got.equity(), ref.equity(), 1e-4);
}

}  // namespace
}  // namespace nardy
