// The JSON API of `nardy serve` without sockets: answers checked against the engine, and bad
// requests answered with 400 and a message naming the parameter.
#include "selfplay/protocol/http_api.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "core/game.h"
#include "core/match.h"
#include "core/match_equity.h"
#include "core/movegen.h"
#include "core/notation.h"
#include "core/pos_text.h"
#include "core/position_id.h"
#include "core/random.h"
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
  Json post(const std::string& path, const Params& q, const std::string& body, int status = 200) {
    const HttpReply r = api.handle("POST", path, q, body);
    EXPECT_EQ(r.status, status) << path << " " << r.body;
    return Json::parse(r.body);
  }
};

// Plays a match to `target` through POST /api/match...: player 0 plays the first legal result
// of each roll (/api/match/play), player 1 is the server's agent (/api/match/agent); the same
// turns are played into a core Match alongside. After every request the server's state must be
// the core Match's: score, who is White, the end of a game and of the match, the record.
void play_match_through_the_api(HttpApi& api, int target, int first_white, uint64_t seed) {
  auto post = [&](const std::string& path, const Params& q, const std::string& body) {
    const HttpReply r = api.handle("POST", path, q, body);
    EXPECT_EQ(r.status, 200) << path << " " << r.body;
    return Json::parse(r.body);
  };
  const Rules& rules = api.options().rules;
  Match ref(target, rules, first_white);
  ref.names = {"you", api.options().agent};
  Json state = post("/api/match",
                    {{"to", std::to_string(target)}, {"white", std::to_string(first_white)}}, "");
  Rng rng(seed);
  int games_seen = 1;
  for (int turn = 0; turn < 5000; ++turn) {
    const MatchScore score = ref.score();
    ASSERT_EQ(state["record"], write_match_record(ref));
    ASSERT_EQ(state["score"], Json::array({score.points(0), score.points(1)}));
    ASSERT_EQ(state["white"], ref.current_white_player());
    ASSERT_EQ(state["game"], static_cast<int>(ref.games().size()));
    ASSERT_EQ(state["position"]["pos"], format_pos(ref.current_game().position()));
    ASSERT_EQ(state["game_over"], ref.current_game().is_over());
    ASSERT_EQ(state["match_over"], ref.is_over());
    if (ref.is_over()) {
      EXPECT_EQ(state["winner"], *ref.winner());
      EXPECT_TRUE(state["next_white"].is_null());
      break;
    }
    const std::string record = state["record"];
    if (ref.current_game().is_over()) {
      // Who is White next: the core score's (next_game_starter).
      EXPECT_EQ(state["next_white"], score.white_player());
      state = post("/api/match/next", {}, record);
      ref.start_next_game();
      ++games_seen;
      continue;
    }
    const Game& game = ref.current_game();
    const Dice dice = game.roll(rng);
    const Params q = {{"dice", format_dice(dice)}};
    const bool mine = ref.player_to_move() == 0;
    state =
        mine ? post("/api/match/play",
                    {{"dice", format_dice(dice)}, {"move", format_move(game.legal(dice)[0].move)}},
                    record)
             : post("/api/match/agent", q, record);
    ASSERT_TRUE(state.contains("played")) << state.dump();
    EXPECT_EQ(state["played"]["player"], mine ? 0 : 1);
    ref.current_game().play(dice, state["played"]["notation"].get<std::string>());
  }
  EXPECT_TRUE(ref.is_over());
  EXPECT_GE(games_seen, 1);
}

TEST_F(HttpApiTest, MatchEndpointsKeepTheScoreLikeCoreMatch) {
  // Matches to 2 and 3 with both first colours, under both next_game_starter rules.
  play_match_through_the_api(api, 2, 0, 1);
  play_match_through_the_api(api, 3, 1, 2);
  HttpApiOptions o;
  o.rules.set("next_game_starter", "previous_winner");
  HttpApi winner_starts(o);
  play_match_through_the_api(winner_starts, 3, 0, 3);
}

TEST_F(HttpApiTest, MatchStateOfARecordAndItsErrors) {
  const Json fresh = post("/api/match", {{"to", "2"}, {"white", "1"}}, "");
  EXPECT_EQ(fresh["target"], 2);
  EXPECT_EQ(fresh["white"], 1);
  EXPECT_EQ(fresh["player_to_move"], 1);
  EXPECT_EQ(fresh["names"], Json::array({"you", "heuristic"}));
  const std::string record = fresh["record"];
  // The state of a record is the same state.
  EXPECT_EQ(post("/api/match", {}, record), fresh);
  struct Case {
    std::string path;
    Params q;
    std::string body, expect;
  };
  const std::string other_rules =
      "nardy-match 1\ntarget 2\nrules opening=any_roll head_exception=standard "
      "last_roll_draw=false next_game_starter=previous_black\ngame white=0\nnardy-record 1\n"
      "rules opening=any_roll head_exception=standard last_roll_draw=false "
      "next_game_starter=previous_black\n";
  const std::vector<Case> cases = {
      {"/api/match", {}, "", "missing parameter 'to'"},
      {"/api/match", {{"to", "0"}}, "", "to: "},
      {"/api/match", {{"to", "3"}, {"white", "2"}}, "", "white: "},
      {"/api/match", {{"to", "3"}}, record, "to: only for a new match"},
      {"/api/match", {}, "garbage", "record: "},
      {"/api/match", {}, other_rules, "not the server's"},
      {"/api/match/play", {{"dice", "6,5"}}, "", "body: empty"},
      {"/api/match/play", {{"dice", "6,5"}}, record, "missing parameter 'move'"},
      {"/api/match/play",
       {{"dice", "6,5"}, {"move", "24/20"}},
       record,
       "move '24/20' is not legal"},
      {"/api/match/play", {{"dice", "6,6"}, {"move", "24/18(2)"}}, record, "may not open"},
      {"/api/match/agent", {{"dice", "9,1"}}, record, "dice: "},
      {"/api/match/next", {}, record, "not over"},
  };
  for (const Case& c : cases) {
    const Json j = post(c.path, c.q, c.body, 400);
    const std::string e = j.at("error");
    EXPECT_NE(e.find(c.expect), std::string::npos) << c.path << ": " << e;
  }
  // The method: POST for matches, GET for the rest.
  EXPECT_EQ(api.handle("/api/match", {}).status, 405);
  EXPECT_EQ(api.handle("POST", "/api/legal", {}, "").status, 405);
  EXPECT_EQ(post("/api/match/nothing", {}, record, 404)["error"],
            "unknown endpoint '/api/match/nothing'");
}

TEST_F(HttpApiTest, InfoGivesTypedRulesAndEveryEndpoint) {
  const Json j = get("/api/info");
  EXPECT_EQ(j["agent"], "heuristic");
  EXPECT_EQ(j["evaluator"], false);
  EXPECT_EQ(j["start"]["pos"], kStart);
  // last_roll_draw (values false, true) is a JSON boolean; the other keys their value's name.
  EXPECT_EQ(j["rules"], Json::parse(R"({"opening": "no_doubles", "head_exception": "standard",
      "last_roll_draw": false, "next_game_starter": "previous_black"})"));
  HttpApiOptions draw;
  draw.rules.last_roll_draw = true;
  HttpApi with_draws(draw);
  const Json d = Json::parse(with_draws.handle("/api/info", {}).body);
  EXPECT_EQ(d["rules"]["last_roll_draw"], true);
  // Every endpoint listed exists (POST for matches and reviews, GET for the rest): a request
  // without its parameters is a 400 naming them, never a 404; and none is left out.
  std::vector<std::string> listed;
  for (const Json& e : j["endpoints"]) {
    const std::string name = e.get<std::string>();
    listed.push_back(name);
    const bool post_only = name.rfind("match", 0) == 0 || name == "review";
    const HttpReply r = api.handle(post_only ? "POST" : "GET", "/api/" + name, {}, "");
    EXPECT_NE(r.status, 404) << name << " " << r.body;
    EXPECT_NE(r.status, 405) << name << " " << r.body;
  }
  EXPECT_EQ(listed,
            (std::vector<std::string>{"info", "position", "legal", "move", "eval", "analyze",
                                      "show", "roll", "steps", "next_game", "match", "match/play",
                                      "match/agent", "match/next", "review"}));
}

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

  // In a match the agent reports the mover's match winning chance after its move: the net's
  // outcome probabilities valued by the game's stakes at the score (here 0-0 to 3).
  const Json fresh = Json::parse(api.handle("POST", "/api/match", {{"to", "3"}}, "").body);
  const Json played =
      Json::parse(api.handle("POST", "/api/match/agent", {{"dice", "6,3"}}, fresh["record"]).body);
  const MoveResult p =
      find_move(Position::start(), {6, 3}, {}, played["played"]["notation"].get<std::string>());
  const Evaluation after = net.evaluate(p.position).flipped();
  const MatchEquityTable table(3, GameOutcomeModel::self_play(), {});
  const OutcomeValues v = table.stakes(MatchScore(3)).white;
  EXPECT_NEAR(played["played"]["mwc_after"].get<double>(),
              v.value(after.win, after.win_mars, after.lose_mars, after.draw), 1e-5);
  EXPECT_EQ(played["player_to_move"], 1);
}

TEST(HttpApi, BadAgentSpecIsAnError) {
  HttpApiOptions o;
  o.agent = "nonsense";
  EXPECT_THROW(HttpApi{o}, Error);
}

}  // namespace
}  // namespace nardy
