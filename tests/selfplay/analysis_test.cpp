// Move analysis: net search ranking, rollout ranking for agents without a net, errors.
#include "selfplay/analysis.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "core/error.h"
#include "core/pos_text.h"
#include "selfplay/net_agent.h"

namespace nardy {
namespace {

// Early game: White 13 on its head (24), one each on 22 and 19; Black 14 on its head (12), one on 7.
const char* kMid = "0,0,0,0,0,0,-1,0,0,0,0,-14,0,0,0,0,0,0,1,0,0,1,0,13 w";

TEST(Analysis, NetAgentsRankByTheirSearchBestFirst) {
  const auto dir = std::filesystem::temp_directory_path() / ("nardy_analysis_test_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "net.pt").string();
  ValueNet::create(NetShape{}, 5).save(path, CheckpointInfo{});
  register_net_agents();
  const Position pos = parse_pos(kMid);
  for (int ply : {0, 1}) {
    const Analysis a = analyze_moves(pos, Dice{4, 2}, "net:" + path + ":ply=" + std::to_string(ply), AnalysisOptions{});
    ASSERT_EQ(a.moves.size(), legal_moves(pos, Dice{4, 2}, Rules{}).size());
    EXPECT_TRUE(a.moves[0].agent_choice);
    EXPECT_EQ(a.moves[0].ply, ply);
    for (size_t i = 0; i < a.moves.size(); ++i) {
      const auto& m = a.moves[i];
      EXPECT_NEAR(m.equity, m.win + m.win_mars - (1 - m.win - m.draw) - m.lose_mars, 1e-5);
      EXPECT_EQ(m.equity_se, 0);
      if (i > 0 && m.ply == a.moves[i - 1].ply) EXPECT_LE(m.equity, a.moves[i - 1].equity);
      EXPECT_EQ(m.agent_choice, i == 0);
    }
  }
  std::filesystem::remove_all(dir);
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
    if (i > 0) EXPECT_LE(a.moves[i].equity, a.moves[i - 1].equity);
    choices += a.moves[i].agent_choice;
  }
  EXPECT_EQ(choices, 1);
  EXPECT_NE(a.method.find("rollouts (36 trials"), std::string::npos);
}

TEST(Analysis, RejectsImpossibleRequests) {
  EXPECT_THROW(analyze_moves(Position::start(), Dice{6, 6}, "heuristic", AnalysisOptions{}), Error);
  const Position done = parse_pos("0,0,0,0,0,0,0,0,0,0,0,0,-15,0,0,0,0,0,0,0,0,0,0,0 b");
  EXPECT_THROW(analyze_moves(done, Dice{6, 5}, "heuristic", AnalysisOptions{}), Error);
  EXPECT_THROW(analyze_moves(Position::start(), Dice{6, 5}, "bogus", AnalysisOptions{}), Error);
}

}  // namespace
}  // namespace nardy
