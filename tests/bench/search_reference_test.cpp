// The search reproduces the decisions recorded from the implementation before the speed work
// of issue 11 (tests/data/search_reference_ply{0,1,2}.txt, commands in their headers, net
// tests/data/search_net.pt, see tests/data/README.md): the same candidates valued at the
// same plies, the same values up to float rounding, and the same choice. The 2-ply file was
// recorded when every level of the tree used the root's filter: it is replayed with those
// options given explicitly (inner=8,0.16). The default 2-ply of net agents since then (the
// inner filter inner=1,0, net_agent.h) has its own file, search_reference_ply2_inner1.txt,
// recorded from its first implementation.
#include "bench/search_reference.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <map>
#include <sstream>

#include "core/error.h"
#include "core/position_id.h"
#include "selfplay/search/agent_kinds.h"
#include "selfplay/search/net_agent.h"
#include "tests/support/error_of.h"

namespace nardy {
namespace {

// Values may differ by float rounding (an incremental forward from another base, another
// summation order); anything larger is a change of the search.
constexpr double kTolerance = 2e-5;

SearchReference load(const std::string& name) {
  const std::string path = std::string(NARDY_TEST_DATA) + "/" + name;
  std::ifstream in(path);
  if (!in) throw Error("cannot read " + path);
  return read_search_reference(in, path);
}

// `recorded`: the options the file's agent line ends with; `options`: those replayed (the same
// search under today's option names).
void expect_same_decisions(const std::string& file, int ply, const std::string& recorded,
                           const std::string& options) {
  const SearchReference ref = load(file);
  ASSERT_TRUE(ref.agent.ends_with(recorded)) << ref.agent;
  ASSERT_FALSE(ref.decisions.empty());
  auto agent =
      // tables=0: the reference guards the search itself, which the race table bypasses.
      make_agent("net:" + std::string(NARDY_TEST_DATA) + "/search_net.pt" + options + ":tables=0",
                 Rules{});
  auto& net = dynamic_cast<NetAgent&>(*agent);
  std::vector<ScoredMove> scored;
  int deep = 0;
  for (const auto& d : ref.decisions) {
    const std::string where =
        position_id(d.position) + " dice " + std::to_string(d.dice.d1) + std::to_string(d.dice.d2);
    const MoveList moves = legal_moves(d.position, d.dice, Rules{});
    net.rank(d.position, moves, scored);
    ASSERT_EQ(scored.size(), d.moves.size()) << where;
    std::map<std::string, const SearchReferenceMove*> recorded;
    for (const auto& m : d.moves) recorded[position_id(m.result)] = &m;
    for (const auto& s : scored) {
      const std::string id = position_id(moves[s.index].position);
      ASSERT_TRUE(recorded.count(id)) << where << ": unexpected result " << id;
      const SearchReferenceMove& r = *recorded[id];
      EXPECT_EQ(s.ply, r.ply) << where << " result " << id;
      EXPECT_NEAR(s.eval.win, r.eval.win, kTolerance) << where << " result " << id;
      EXPECT_NEAR(s.eval.win_mars, r.eval.win_mars, kTolerance) << where << " result " << id;
      EXPECT_NEAR(s.eval.lose_mars, r.eval.lose_mars, kTolerance) << where << " result " << id;
      EXPECT_NEAR(s.equity(), r.eval.equity(), 2 * kTolerance) << where << " result " << id;
      deep += s.ply > 0;
    }
    // The choice: the same result, unless the recorded best two are a tie within rounding.
    const bool tie = d.moves.size() > 1 && d.moves[1].ply == d.moves[0].ply &&
                     d.moves[0].eval.equity() - d.moves[1].eval.equity() < 2 * kTolerance;
    if (!tie)
      EXPECT_EQ(position_id(moves[scored[0].index].position), position_id(d.moves[0].result))
          << where;
  }
  if (ply > 0) EXPECT_GT(deep, static_cast<int>(ref.decisions.size())) << "filter kept too few";
}

TEST(SearchReference, GreedyMatchesTheRecordedDecisions) {
  expect_same_decisions("search_reference_ply0.txt", 0, ":ply=0", ":ply=0");
}

TEST(SearchReference, OnePlyMatchesTheRecordedDecisions) {
  expect_same_decisions("search_reference_ply1.txt", 1, ":ply=1", ":ply=1:blend=0");
}

TEST(SearchReference, TwoPlyWithTheOldFiltersMatchesTheRecordedDecisions) {
  expect_same_decisions("search_reference_ply2.txt", 2, ":ply=2", ":ply=2:inner=8,0.16");
}

TEST(SearchReference, TwoPlyWithTheInnerFilterMatchesTheRecordedDecisions) {
  expect_same_decisions("search_reference_ply2_inner1.txt", 2, ":ply=2:inner=1,0:tables=0",
                        ":ply=2");
}

TEST(SearchReference, WrittenFilesReadBackExactly) {
  const std::string spec = "net:" + std::string(NARDY_TEST_DATA) + "/search_net.pt:ply=1";
  const SearchReference ref = record_search_reference(spec, 3, 1, Rules{});
  ASSERT_EQ(ref.decisions.size(), 3u);
  std::stringstream text;
  write_search_reference(ref, "test", text);
  const SearchReference back = read_search_reference(text, "memory");
  EXPECT_EQ(back.agent, spec);
  ASSERT_EQ(back.decisions.size(), ref.decisions.size());
  for (size_t i = 0; i < ref.decisions.size(); ++i) {
    const auto& a = ref.decisions[i];
    const auto& b = back.decisions[i];
    EXPECT_EQ(a.position, b.position);
    EXPECT_EQ(a.dice, b.dice);
    ASSERT_EQ(a.moves.size(), b.moves.size());
    for (size_t k = 0; k < a.moves.size(); ++k) {
      EXPECT_EQ(a.moves[k].result, b.moves[k].result);
      EXPECT_EQ(a.moves[k].ply, b.moves[k].ply);
      EXPECT_EQ(a.moves[k].eval.win, b.moves[k].eval.win);  // 9 digits: floats round-trip
      EXPECT_EQ(a.moves[k].eval.lose_mars, b.moves[k].eval.lose_mars);
    }
  }
}

TEST(SearchReference, MalformedFilesNameTheLine) {
  std::istringstream bad("agent net:x.pt\nposition 1,2 w\t6 5\n");
  const std::string e = testing::error_of([&] { read_search_reference(bad, "bad.txt"); });
  EXPECT_NE(e.find("bad.txt"), std::string::npos) << e;
  EXPECT_NE(e.find("line 2"), std::string::npos) << e;
  std::istringstream no_agent("position " + std::string(55, ' ') + "\n");
  EXPECT_NE(testing::error_of([&] { read_search_reference(no_agent, "x"); }).find("x"),
            std::string::npos);
}

}  // namespace
}  // namespace nardy
