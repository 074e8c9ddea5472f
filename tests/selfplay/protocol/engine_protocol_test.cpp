// Engine protocol on string streams: replies, errors that keep the engine running, quit, EOF.
#include "selfplay/protocol/engine_protocol.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <sstream>

#include "core/movegen.h"
#include "core/notation.h"
#include "core/pos_text.h"
#include "selfplay/search/net_agent.h"
#include "selfplay/search/agent_kinds.h"

namespace nardy {
namespace {

const std::string kStart = "0,0,0,0,0,0,0,0,0,0,0,-15,0,0,0,0,0,0,0,0,0,0,0,15 w";
// Early game: White 13 on its head (24), one each on 22 and 19; Black 14 on its head (12), one
// on 7.
const std::string kMid = "0,0,0,0,0,0,-1,0,0,0,0,-14,0,0,0,0,0,0,1,0,0,1,0,13 w";

std::vector<std::string> lines_of(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream is(s);
  std::string l;
  while (std::getline(is, l)) out.push_back(l);
  return out;
}

std::vector<std::string> run(Agent& agent, const std::string& input, int64_t* handled = nullptr) {
  std::istringstream in(input);
  std::ostringstream out;
  const int64_t n = run_engine(in, out, agent, EngineOptions{});
  if (handled) *handled = n;
  return lines_of(out.str());
}

TEST(EngineProtocol, LegalListsEveryResultSortedByPosition) {
  auto agent = make_agent("heuristic", Rules{});
  const auto out = run(*agent, "legal " + kMid + " 5 3\n");
  MoveList moves = legal_moves(parse_pos(kMid), Dice{5, 3}, Rules{});
  sort_by_position(moves);
  ASSERT_EQ(out.size(), moves.size() + 1);
  EXPECT_EQ(out[0], "legal " + std::to_string(moves.size()));
  for (size_t i = 0; i < moves.size(); ++i)
    EXPECT_EQ(out[i + 1], format_pos(moves[i].position) + "\t" + format_move(moves[i].move));
}

TEST(EngineProtocol, MoveAnswersTheAgentsLegalChoice) {
  auto agent = make_agent("heuristic", Rules{});
  const auto out = run(*agent, "move " + kStart + " 6 5\nmove " + kMid + " 4 2\n");
  ASSERT_EQ(out.size(), 2u);
  // From the start, 6-5 has one legal move: 24/13 (docs/rules.md "Checks anyone can do by hand").
  EXPECT_EQ(out[0], "move 0,0,0,0,0,0,0,0,0,0,0,-15,1,0,0,0,0,0,0,0,0,0,0,14 b\t24/13");
  // The second reply is one of the legal results, as the heuristic agent picks it.
  const Position mid = parse_pos(kMid);
  MoveList moves = legal_moves(mid, Dice{4, 2}, Rules{});
  sort_by_position(moves);
  Rng rng(1);
  const size_t i = agent->choose(mid, Dice{4, 2}, moves, rng);
  EXPECT_EQ(out[1], "move " + format_pos(moves[i].position) + "\t" + format_move(moves[i].move));
}

TEST(EngineProtocol, MalformedInputGetsOneErrorLineAndTheEngineGoesOn) {
  auto agent = make_agent("heuristic", Rules{});
  const std::string input =
      "\n"
      "# a comment\n"
      "hello\n"
      "legal\n"
      "legal " +
      kStart +
      " 6\n"
      "legal " +
      kStart +
      " 7 1\n"
      "legal 1,2,3 w 6 5\n"
      "move " +
      kStart +
      " x 5\n"
      "legal " +
      kStart.substr(0, kStart.size() - 2) +
      " 6 5\n" /* POS without its side: 4 fields */
      "eval " +
      kStart +
      "\n"
      "legal 0,0,0,0,0,0,0,0,0,0,0,0,-15,0,0,0,0,0,0,0,0,0,0,0 b 6 5\n" /* game over */
      "quit now\n"
      "legal " +
      kStart + " 6 5\n";
  int64_t handled = 0;
  const auto out = run(*agent, input, &handled);
  ASSERT_EQ(out.size(), 12u);
  for (size_t i = 0; i + 2 < out.size(); ++i)
    EXPECT_EQ(out[i].rfind("error ", 0), 0u) << i << ": " << out[i];
  EXPECT_NE(out[0].find("unknown command 'hello'"), std::string::npos) << out[0];
  EXPECT_NE(out[1].find("legal POS D1 D2"), std::string::npos) << out[1];
  EXPECT_NE(out[3].find("die '7' is not 1..6"), std::string::npos) << out[3];
  EXPECT_NE(out[4].find("1,2,3"), std::string::npos) << out[4];
  EXPECT_EQ(out[7], "error no evaluator for agent heuristic");
  EXPECT_NE(out[8].find("game is over"), std::string::npos) << out[8];
  EXPECT_NE(out[9].find("'quit'"), std::string::npos) << out[9];
  // ... and the engine still answers after all that.
  EXPECT_EQ(out[10], "legal 1");
  EXPECT_EQ(handled, 11);
}

// Issue 14: error replies echo the input printably and whole (a NUL byte used to cut the reply
// short, binary junk came back raw) and name the first of two bad dice.
TEST(EngineProtocol, ErrorRepliesArePrintableAndNameTheFirstProblem) {
  auto agent = make_agent("random", Rules{});
  Engine engine(*agent, EngineOptions{});
  EXPECT_EQ(engine.handle("move " + kStart + " 9 8"), "error die '9' is not 1..6");
  EXPECT_EQ(engine.handle("legal " + kStart + " 6 0"), "error die '0' is not 1..6");
  const std::string nul = engine.handle(std::string("legal 1,2") + '\0' + "xyz w 6 5");
  EXPECT_EQ(nul, "error position '1,2\\0xyz w': point 2: '2\\0xyz' is not a count -15..15");
  const std::string junk = engine.handle("\xff\xfe\x01junk\x1b[2J");
  EXPECT_EQ(junk,
            "error unknown command '\\xff\\xfe\\x01junk\\x1b[2J' (expected legal, move, eval "
            "or quit)");
  EXPECT_EQ(engine.handle("move " + kStart + std::string(" 6") + '\0' + " 5"),
            "error die '6\\0' is not 1..6");
  const std::string huge = engine.handle("legal " + std::string(100000, '7') + " w 6 5");
  EXPECT_LT(huge.size(), 600u);
  EXPECT_NE(huge.find("more bytes)'"), std::string::npos) << huge;
}

TEST(EngineProtocol, QuitStopsAndEndOfInputEndsCleanly) {
  auto agent = make_agent("random", Rules{});
  int64_t handled = -1;
  auto out = run(*agent, "legal " + kStart + " 6 5\nquit\nlegal " + kStart + " 6 5\n", &handled);
  EXPECT_EQ(out.size(), 2u);  // "legal 1" and its line; nothing after quit
  EXPECT_EQ(handled, 1);
  out = run(*agent, "legal " + kStart + " 6 5", &handled);  // no final newline, then EOF
  EXPECT_EQ(out.size(), 2u);
  out = run(*agent, "", &handled);
  EXPECT_TRUE(out.empty());
  EXPECT_EQ(handled, 0);
}

TEST(EngineProtocol, EvalWithANetAgent) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("nardy_engine_test_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "net.pt").string();
  const ValueNet net = ValueNet::create(NetShape{}, 7);
  net.save(path, CheckpointInfo{});
  auto agent = make_agent("net:" + path, Rules{});
  const auto out = run(*agent, "eval " + kMid + "\neval " + kMid + " extra\n");
  ASSERT_EQ(out.size(), 2u);
  float win, wm, lm, draw, eq;
  ASSERT_EQ(std::sscanf(out[0].c_str(), "eval win=%f win_mars=%f lose_mars=%f draw=%f equity=%f",
                        &win, &wm, &lm, &draw, &eq),
            5)
      << out[0];
  const Evaluation ref = net.evaluate(parse_pos(kMid));
  EXPECT_NEAR(win, ref.win, 1e-4);
  EXPECT_NEAR(eq, ref.equity(), 1e-4);
  EXPECT_NEAR(eq, win + wm - (1 - win - draw) - lm, 1e-5);
  EXPECT_EQ(out[1].rfind("error ", 0), 0u);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace nardy
