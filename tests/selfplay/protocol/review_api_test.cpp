// POST /api/review (selfplay/protocol/http_api.h): the review of a record in the body, equal to
// the library's; bad records and options are 400s naming the problem.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "core/record.h"
#include "selfplay/agents/play.h"
#include "selfplay/evaluation/review.h"
#include "selfplay/protocol/http_api.h"
#include "selfplay/search/agent_kinds.h"

namespace nardy {
namespace {

TEST(ReviewApi, ARecordInTheBodyGetsTheReviewsJson) {
  HttpApiOptions o;
  o.agent = "heuristic";
  HttpApi api(o);
  const auto white = make_agent("random", Rules{}), black = make_agent("random", Rules{});
  Rng dice(3), agents(4);
  Game game;
  play_game(*white, *black, Rules{}, dice, agents, &game, 10000);
  while (game.history().size() > 12) game.undo();  // a short game keeps the rollouts quick
  const std::string record = write_record(game);
  const HttpReply r = api.handle("POST", "/api/review", {{"trials", "4"}}, record);
  ASSERT_EQ(r.status, 200) << r.body;
  ReviewOptions ro;
  ro.rollout_trials = 4;
  ro.seed = o.seed;
  const Review expected = review_games(read_review_input(record), "heuristic", ro);
  EXPECT_EQ(nlohmann::json::parse(r.body), nlohmann::json::parse(expected.to_json()));
  EXPECT_EQ(nlohmann::json::parse(r.body)["games"][0]["turns"].size(), 12u);

  const HttpReply empty = api.handle("POST", "/api/review", {}, "");
  EXPECT_EQ(empty.status, 400);
  EXPECT_NE(empty.body.find("body: empty"), std::string::npos) << empty.body;
  const HttpReply bad = api.handle("POST", "/api/review", {}, "nardy-record 1\n6-5 24/12\n");
  EXPECT_EQ(bad.status, 400);
  EXPECT_NE(bad.body.find("line 2"), std::string::npos) << bad.body;
  const HttpReply ply = api.handle("POST", "/api/review", {{"ply", "1"}}, record);
  EXPECT_EQ(ply.status, 400);
  EXPECT_NE(ply.body.find("ply needs a net agent"), std::string::npos) << ply.body;
  EXPECT_EQ(api.handle("GET", "/api/review", {}, "").status, 405);
}

}  // namespace
}  // namespace nardy
