// The JSON API of `nardy serve` without sockets: answers checked against the engine, and bad
// requests answered with 400 and a message naming the parameter.
#include "selfplay/protocol/http_api.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "core/game.h"
#include "core/movegen.h"
#include "core/notation.h"
#include "core/pos_text.h"
#include "core/position_id.h"
#include "nn/value_net.h"
#include "selfplay/tables/race_odds.h"
#include "tests/support/temp_dir.h"

namespace nardy {
namespace {

using Json = nlohmann::json;
using Params = std::multimap<std::string, std::string>;

const std::string kStart = "0,0,0,0,0,0,0,0,0,0,0,-15,0,0,0,0,0,0,0,0,0,0,0,15 w";
const std::string kMid = "0,0,0,0,0,0,-1,0,0,0,0,-14,0,0,0,0,0,0,1,0,0,1,0,13 w";
// docs/rules.md "Checks anyone can do by hand": a bear-off position.
const std::string kBearOff = "1,1,1,2,2,2,0,0,0,0,0,0,-3,-3,-3,-2,-2,-2,0,0,0,0,0,0 w";
// White has borne off all 15; Black none: White wins a mars.
const std::string kOver = "0,0,0,0,0,0,0,0,0,0,0,-15,0,0,0,0,0,0,0,0,0,0,0,0 b";

class HttpApiTest : public ::testing::Test {
 protected:
  HttpApi api{HttpApiOptions{}};
  Json get(const std::string& path, const Params& q = {}, int status = 200) {
    const HttpReply r = api.handle(path, q);
    EXPECT_EQ(r.status, status) << path << " " << r.body;
    EXPECT_EQ(r.content_type, "application/json");
    return Json::parse(r.body);
  }
  std::string error(const std::string& path, const Params& q, int status = 400) {
    return get(path, q, status).at("error").get<std::string>();
  }
};

TEST_F(HttpApiTest, LegalListsEveryResultLikeTheEngine) {
  for (const std::string& pos : {kStart, kMid, kBearOff}) {
    const Json j = get("/api/legal", {{"pos", pos}, {"dice", "6,5"}});
    MoveList moves = legal_moves(parse_pos(pos), {6, 5}, {});
    sort_by_position(moves);
    ASSERT_EQ(j["moves"].size(), moves.size()) << pos;
    for (size_t i = 0; i < moves.size(); ++i) {
      EXPECT_EQ(j["moves"][i]["pos"], format_pos(moves[i].position));
      EXPECT_EQ(j["moves"][i]["notation"], format_move(moves[i].move));
      EXPECT_EQ(j["moves"][i]["id"], position_id(moves[i].position));
    }
    EXPECT_EQ(j["position"]["pos"], pos);
    EXPECT_EQ(j["dice"], Json::array({6, 5}));
  }
  // The start with 6-5: only 24/13 (docs/rules.md checks), paths in absolute points.
  const Json s = get("/api/legal", {{"pos", kStart}, {"dice", "65"}});
  ASSERT_EQ(s["moves"].size(), 1u);
  EXPECT_EQ(s["moves"][0]["notation"], "24/13");
  EXPECT_EQ(s["moves"][0]["paths"], Json::parse("[[24,13]]"));
  // A position ID works like POS text.
  const Json by_id = get("/api/legal", {{"pos", "-_PAAAw__BAAAA"}, {"dice", "6-5"}});
  EXPECT_EQ(by_id["moves"], s["moves"]);
}

TEST_F(HttpApiTest, PositionDescribesPipsOffAndOutcome) {
  const Json b = get("/api/position", {{"pos", kBearOff}});
  EXPECT_EQ(b["pips"]["white"], 36);
  EXPECT_EQ(b["pips"]["black"], 48);
  EXPECT_EQ(b["off"]["white"], 6);
  EXPECT_EQ(b["side"], "white");
  EXPECT_EQ(b["id"], position_id(parse_pos(kBearOff)));
  EXPECT_TRUE(b["outcome"].is_null());
  const Json o = get("/api/position", {{"pos", kOver}});
  EXPECT_EQ(o["outcome"]["winner"], "white");
  EXPECT_EQ(o["outcome"]["points"], 2);
}

TEST_F(HttpApiTest, MoveIsALegalResultAndReproducible) {
  const Json m = get("/api/move", {{"pos", kMid}, {"dice", "4,2"}});
  const MoveResult r = find_move(parse_pos(kMid), {4, 2}, {}, m["notation"].get<std::string>());
  EXPECT_EQ(m["pos"], format_pos(r.position));
  EXPECT_EQ(m["agent"], "heuristic");
  EXPECT_EQ(get("/api/move", {{"pos", kMid}, {"dice", "4,2"}}), m);
}

TEST_F(HttpApiTest, RollIsSeededAndKeepsTheOpeningRule) {
  const Json a = get("/api/roll", {{"pos", kStart}, {"seed", "5"}, {"turn", "0"}});
  EXPECT_EQ(a, get("/api/roll", {{"pos", kStart}, {"seed", "5"}, {"turn", "0"}}));
  int doubles_at_start = 0, doubles_later = 0;
  for (int t = 0; t < 200; ++t) {
    const Json s = get("/api/roll", {{"pos", kStart}, {"seed", "5"}, {"turn", std::to_string(t)}});
    const Json m = get("/api/roll", {{"pos", kMid}, {"seed", "5"}, {"turn", std::to_string(t)}});
    doubles_at_start += s["dice"][0] == s["dice"][1];
    doubles_later += m["dice"][0] == m["dice"][1];
    for (const Json& d : {s["dice"][0], s["dice"][1], m["dice"][0], m["dice"][1]})
      EXPECT_TRUE(d.get<int>() >= 1 && d.get<int>() <= 6);
  }
  EXPECT_EQ(doubles_at_start, 0);  // opening=no_doubles
  EXPECT_GT(doubles_later, 10);    // about 200/6
}

TEST_F(HttpApiTest, StepsEnterAMoveCheckerByChecker) {
  const Json s0 = get("/api/steps", {{"pos", kStart}, {"dice", "6,5"}});
  EXPECT_EQ(s0["next"].size(), 2u);
  EXPECT_TRUE(s0["complete"].is_null());
  const Json s2 = get("/api/steps", {{"pos", kStart}, {"dice", "6,5"}, {"played", "24/19,19/13"}});
  EXPECT_EQ(s2["complete"]["notation"], "24/13");
  EXPECT_TRUE(s2["next"].empty());
  EXPECT_NE(error("/api/steps", {{"pos", kStart}, {"dice", "6,5"}, {"played", "24/20"}})
                .find("played: step 1 '24/20'"),
            std::string::npos);
}

TEST_F(HttpApiTest, NextGameFollowsNextGameStarter) {
  const Json j = get("/api/next_game", {{"pos", kOver}, {"white", "0"}});
  EXPECT_EQ(j["outcome"]["points"], 2);
  EXPECT_EQ(j["next_white"], 1);  // previous_black: colours alternate
  HttpApiOptions o;
  o.rules.set("next_game_starter", "previous_winner");
  HttpApi winner_starts(o);
  const Json w =
      Json::parse(winner_starts.handle("/api/next_game", {{"pos", kOver}, {"white", "0"}}).body);
  EXPECT_EQ(w["next_white"], 0);  // White (player 0) won and stays White
}

TEST_F(HttpApiTest, AnalyzeAndEvalWithRolloutsForAHeuristicAgent) {
  const Json a = get("/api/analyze", {{"pos", kBearOff}, {"dice", "6,5"}, {"trials", "20"}});
  MoveList moves = legal_moves(parse_pos(kBearOff), {6, 5}, {});
  ASSERT_EQ(a["moves"].size(), moves.size());
  for (size_t i = 1; i < a["moves"].size(); ++i)
    EXPECT_GE(a["moves"][i - 1]["equity"].get<double>(), a["moves"][i]["equity"].get<double>());
  const Json e = get("/api/eval", {{"pos", kBearOff}, {"trials", "50"}});
  // White is 12 pips ahead with a roll in hand. With the race table the rollout ends at once
  // with the table's exact odds; without it, all 50 heuristic trials win.
  if (const BearoffTable* table = default_bearoff_table())
    EXPECT_NEAR(e["win"].get<double>(), race_odds(*table, parse_pos(kBearOff), {})->win, 1e-6);
  else
    EXPECT_EQ(e["win"].get<double>(), 1.0);
  EXPECT_EQ(e["method"], "rollouts (50 trials)");
  const Json m = get("/api/eval", {{"pos", kMid}, {"trials", "50"}});
  EXPECT_GT(m["win"].get<double>(), 0.0);
  EXPECT_LT(m["win"].get<double>(), 1.0);
  EXPECT_GT(m["equity_se"].get<double>(), 0.0);
}

TEST_F(HttpApiTest, ShowIsAnSvgWithTheMove) {
  const HttpReply r = api.handle("/api/show", {{"pos", kStart}, {"move", "24/13"}});
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.content_type, "image/svg+xml");
  EXPECT_EQ(r.body.rfind("<svg", 0), 0u) << r.body.substr(0, 80);
}

TEST_F(HttpApiTest, ServesTheWebBoard) {
  const HttpReply r = api.handle("/", {});
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.content_type, "text/html; charset=utf-8");
  EXPECT_NE(r.body.find("<html"), std::string::npos);
  EXPECT_EQ(api.handle("/board.js", {}).content_type, "text/javascript; charset=utf-8");
  EXPECT_EQ(api.handle("/nothing.html", {}).status, 404);
}

TEST_F(HttpApiTest, BadRequestsGet400NamingTheProblem) {
  struct Case {
    std::string path;
    Params q;
    std::string expect;  // a part of the message
  };
  const std::vector<Case> cases = {
      {"/api/legal", {{"dice", "6,5"}}, "missing parameter 'pos'"},
      {"/api/legal", {{"pos", kStart}}, "missing parameter 'dice'"},
      {"/api/legal", {{"pos", "1,2,3 w"}, {"dice", "6,5"}}, "pos: "},
      {"/api/legal", {{"pos", "not-an-id!!"}, {"dice", "6,5"}}, "pos: "},
      {"/api/legal", {{"pos", kStart}, {"dice", "7,1"}}, "dice: "},
      {"/api/legal", {{"pos", kStart}, {"dice", "6,6"}}, "may not open the game"},
      {"/api/legal", {{"pos", kOver}, {"dice", "6,5"}}, "the game is over"},
      {"/api/move", {{"pos", kMid}, {"dice", "6,5"}, {"seed", "-1"}}, "seed: "},
      {"/api/analyze", {{"pos", kMid}, {"dice", "6,5"}, {"trials", "0"}}, "trials: 0 is outside"},
      {"/api/analyze", {{"pos", kMid}, {"dice", "6,5"}, {"trials", "99999999"}}, "trials: "},
      {"/api/eval", {{"pos", kMid}, {"trials", "x"}}, "trials: 'x' is not an integer"},
      {"/api/show", {{"pos", kStart}, {"move", "24/x"}}, "move '24/x'"},
      {"/api/show",
       {{"pos", kStart}, {"move", "24/20"}, {"dice", "6,5"}},
       "move '24/20' is not legal"},
      {"/api/roll", {{"pos", kStart}, {"turn", "-3"}}, "turn: "},
      {"/api/steps", {{"pos", kStart}, {"dice", "6,5"}, {"played", "24"}}, "played: "},
      {"/api/next_game", {{"pos", kMid}, {"white", "0"}}, "not over"},
      {"/api/next_game", {{"pos", kOver}, {"white", "2"}}, "white: "},
  };
  for (const Case& c : cases) {
    const std::string e = error(c.path, c.q);
    EXPECT_NE(e.find(c.expect), std::string::npos) << c.path << ": " << e;
  }
  EXPECT_NE(error("/api/nothing", {}, 404).find("unknown endpoint"), std::string::npos);
}

TEST(HttpApi, NetAgentEvaluatesMovesAndAnalyzesWithItsNet) {
  testing::TempDir dir;
  const std::string path = dir.file("net.pt");
  const ValueNet net = ValueNet::create(NetShape{}, 7);
  net.save(path, CheckpointInfo{});
  HttpApiOptions o;
  o.agent = "net:" + path;
  HttpApi api(o);
  const Json e = Json::parse(api.handle("/api/eval", {{"pos", kMid}}).body);
  const Evaluation ref = net.evaluate(parse_pos(kMid));
  EXPECT_EQ(e["method"], "net");
  EXPECT_NEAR(e["win"].get<double>(), ref.win, 1e-5);
  EXPECT_NEAR(e["equity"].get<double>(), ref.equity(), 1e-5);
  EXPECT_EQ(api.handle("/api/eval", {{"pos", kMid}, {"trials", "5"}}).status, 400);

  const Json m = Json::parse(api.handle("/api/move", {{"pos", kMid}, {"dice", "6,3"}}).body);
  const MoveResult r = find_move(parse_pos(kMid), {6, 3}, {}, m["notation"].get<std::string>());
  EXPECT_NEAR(m["equity_before"].get<double>(), ref.equity(), 1e-5);
  EXPECT_NEAR(m["equity_after"].get<double>(), -net.evaluate(r.position).equity(), 1e-5);

  const Json a = Json::parse(api.handle("/api/analyze", {{"pos", kMid}, {"dice", "6,3"}}).body);
  ASSERT_FALSE(a["moves"].empty());
  EXPECT_EQ(a["moves"][0]["notation"], m["notation"]);  // the agent plays the best 0-ply move
  EXPECT_EQ(a["agent"], "net:" + path);
}

TEST(HttpApi, BadAgentSpecIsAnError) {
  HttpApiOptions o;
  o.agent = "nonsense";
  EXPECT_THROW(HttpApi{o}, Error);
}

}  // namespace
}  // namespace nardy
