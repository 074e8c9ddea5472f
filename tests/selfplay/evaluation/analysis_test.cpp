// Move analysis: net search ranking, rollout ranking for agents without a net, errors.
#include "selfplay/evaluation/analysis.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "core/error.h"
#include "core/pos_text.h"
#include "selfplay/search/net_agent.h"
#include "tests/support/temp_dir.h"
#include "selfplay/search/agent_kinds.h"

namespace nardy {
namespace {

// Early game: White 13 on its head (24), one each on 22 and 19; Black 14 on its head (12), one
// on 7.
const char* kMid = "0,0,0,0,0,0,-1,0,0,0,0,-14,0,0,0,0,0,0,1,0,0,1,0,13 w";

// A small random net saved in a TempDir (use inside a TEST), and its agent spec.
struct TempNet {
  testing::TempDir dir;
  std::string spec;
  explicit TempNet(uint64_t seed = 7) {
    const std::string path = dir.file("net.pt");
    ValueNet::create(NetShape{}, seed).save(path, CheckpointInfo{});
    spec = "net:" + path;
  }
};

TEST(Analysis, NetAgentsRankByTheirSearchBestFirst) {
  const TempNet net(5);
  const Position pos = parse_pos(kMid);
  for (int ply : {0, 1}) {
    const Analysis a =
        analyze_moves(pos, Dice{4, 2}, net.spec + ":ply=" + std::to_string(ply), AnalysisOptions{});
    ASSERT_EQ(a.moves.size(), legal_moves(pos, Dice{4, 2}, Rules{}).size());
    EXPECT_TRUE(a.moves[0].agent_choice);
    EXPECT_EQ(a.moves[0].ply, ply);
    for (size_t i = 0; i < a.moves.size(); ++i) {
      const auto& m = a.moves[i];
      EXPECT_NEAR(m.equity, m.win + m.win_mars - (1 - m.win - m.draw) - m.lose_mars, 1e-5);
      EXPECT_EQ(m.equity_se, 0);
      if (i > 0 && m.ply == a.moves[i - 1].ply) {
        EXPECT_LE(m.equity, a.moves[i - 1].equity);
      }
      EXPECT_EQ(m.agent_choice, i == 0);
    }
  }
}

TEST(Analysis, OtherAgentsRankByRollouts) {
  AnalysisOptions o;
  o.rollout_trials = 36;
  const Analysis a = analyze_moves(parse_pos(kMid), Dice{6, 6}, "heuristic", o);
  ASSERT_GT(a.moves.size(), 1u);
  int choices = 0;
  for (size_t i = 0; i < a.moves.size(); ++i) {
    EXPECT_EQ(a.moves[i].ply, -1);
    EXPECT_GT(a.moves[i].equity_se, 0);
    if (i > 0) {
      EXPECT_LE(a.moves[i].equity, a.moves[i - 1].equity);
    }
    choices += a.moves[i].agent_choice;
  }
  EXPECT_EQ(choices, 1);
  EXPECT_NE(a.method.find("rollouts (36 trials"), std::string::npos);
}

AgentMaker maker_of(const std::string& spec) {
  return [spec] { return make_agent(spec, Rules{}); };
}

TEST(Analysis, AnAgentMakerGivesTheSpecsAnalysis) {
  const TempNet net;
  const Position pos = parse_pos(kMid);
  AnalysisOptions o;
  o.rollout_trials = 12;
  o.seed = 3;
  for (const std::string& spec : {std::string("heuristic"), net.spec, net.spec + ":ply=1"}) {
    const Analysis by_spec = analyze_moves(pos, Dice{5, 3}, spec, o);
    const Analysis by_maker = analyze_moves(pos, Dice{5, 3}, maker_of(spec), o);
    EXPECT_EQ(by_maker.to_json(), by_spec.to_json()) << spec;
  }
  // A ply given in the options replaces the agent's own (the agent, and so its spec, stay).
  o.ply = 1;
  auto overridden =
      nlohmann::json::parse(analyze_moves(pos, Dice{5, 3}, maker_of(net.spec), o).to_json());
  auto own = nlohmann::json::parse(
      analyze_moves(pos, Dice{5, 3}, net.spec + ":ply=1", AnalysisOptions{}).to_json());
  EXPECT_EQ(overridden["agent"], net.spec);
  EXPECT_EQ(overridden["method"], "1-ply expectimax search");
  EXPECT_EQ(overridden["moves"], own["moves"]);
}

TEST(Analysis, TheMarkedChoiceOfANoisyNetIsTheAgentsOwn) {
  const TempNet net;
  const Position pos = parse_pos(kMid);
  const std::string spec = net.spec + ":noise=0.5";
  MoveList moves = legal_moves(pos, Dice{6, 1}, Rules{});
  sort_by_position(moves);
  int differs_from_best = 0;
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    AnalysisOptions o;
    o.seed = seed;
    const Analysis a = analyze_moves(pos, Dice{6, 1}, spec, o);
    Rng rng(seed);
    const size_t own = make_agent(spec, Rules{})->choose(pos, Dice{6, 1}, moves, rng);
    size_t marked = moves.size();
    for (const auto& m : a.moves)
      if (m.agent_choice) marked = m.index;
    EXPECT_EQ(marked, own) << "seed " << seed;
    differs_from_best += own != a.moves[0].index;
  }
  EXPECT_GT(differs_from_best, 0);  // the noise is large enough to matter
}

TEST(Analysis, TheStopHookEndsTheAnalysis) {
  const TempNet net;
  const Position pos = parse_pos(kMid);
  // Given a hook that fires at its 5th poll, when a search or a rollout analysis runs, then
  // it throws Stopped; a hook that never fires changes nothing.
  for (const std::string& spec : {net.spec + ":ply=2", std::string("heuristic")}) {
    AnalysisOptions o;
    o.rollout_trials = 36;
    int polls = 0;
    o.should_stop = [&] { return ++polls >= 5; };
    EXPECT_THROW(analyze_moves(pos, Dice{4, 4}, spec, o), Stopped) << spec;
    EXPECT_EQ(polls, 5) << spec;
    o.should_stop = [] { return false; };
    AnalysisOptions plain;
    plain.rollout_trials = 36;
    EXPECT_EQ(analyze_moves(pos, Dice{4, 4}, spec, o).to_json(),
              analyze_moves(pos, Dice{4, 4}, spec, plain).to_json());
  }
}

TEST(Analysis, PlyNeedsANetAgentAndARange) {
  const TempNet net;
  AnalysisOptions o;
  o.ply = 1;
  try {
    analyze_moves(parse_pos(kMid), Dice{6, 5}, "heuristic", o);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("needs a net agent ('heuristic'"), std::string::npos)
        << e.what();
  }
  o.ply = 5;
  EXPECT_THROW(analyze_moves(parse_pos(kMid), Dice{6, 5}, net.spec, o), Error);
  o.ply.reset();
  o.rollout_trials = 0;
  EXPECT_THROW(analyze_moves(parse_pos(kMid), Dice{6, 5}, "heuristic", o), Error);
}

TEST(Analysis, RejectsImpossibleRequests) {
  EXPECT_THROW(analyze_moves(Position::start(), Dice{6, 6}, "heuristic", AnalysisOptions{}), Error);
  const Position done = parse_pos("0,0,0,0,0,0,0,0,0,0,0,0,-15,0,0,0,0,0,0,0,0,0,0,0 b");
  EXPECT_THROW(analyze_moves(done, Dice{6, 5}, "heuristic", AnalysisOptions{}), Error);
  EXPECT_THROW(analyze_moves(Position::start(), Dice{6, 5}, "bogus", AnalysisOptions{}), Error);
}

}  // namespace
}  // namespace nardy
