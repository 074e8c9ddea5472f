// The review of whole games and matches (selfplay/evaluation/review.h): errors against the
// analysis, forced turns, games played by the reviewing agent, luck, matches, bad input.
#include "selfplay/evaluation/review.h"

#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "core/error.h"
#include "core/match.h"
#include "core/record.h"
#include "selfplay/agents/play.h"
#include "selfplay/evaluation/analysis.h"
#include "selfplay/evaluation/review_html.h"
#include "selfplay/search/agent_kinds.h"
#include "selfplay/search/shipped_models.h"
#include "tests/support/error_of.h"

namespace nardy {
namespace {

using testing::error_of;

// The shipped default model of the source tree: strong enough for real errors to be marked.
std::string model_spec(const std::string& options = "") {
  return "net:" NARDY_SOURCE_DIR "/models/" + std::string(kDefaultModel) + ".pt" + options;
}

AnalysisOptions analysis_options(const Rules& rules, std::optional<int> ply = {}) {
  AnalysisOptions o;
  o.rules = rules;
  o.ply = ply;
  return o;
}

// A game where White always plays the worst legal result by the agent's analysis and Black the
// best, for `turns` turns (or to the end).
Game worst_against_best(const std::string& spec, uint64_t seed, int turns) {
  Game game;
  Rng rng(seed);
  for (int t = 0; t < turns && !game.is_over(); ++t) {
    const Dice dice = game.roll(rng);
    const Analysis a = analyze_moves(game.position(), dice, spec, analysis_options(game.rules()));
    const bool white = game.position().side_to_move() == Side::White;
    const Position& choice = white ? a.moves.back().position : a.moves.front().position;
    for (const MoveResult& m : game.legal(dice))
      if (m.position == choice) {
        game.play(dice, m);
        break;
      }
  }
  return game;
}

TEST(Review, TheSideThatPlaysTheWorstMoveHasTheErrorsAndTheOtherNone) {
  const std::string spec = model_spec();
  const Game game = worst_against_best(spec, 11, 40);
  const Review r = review_games(review_input_of(game), spec, ReviewOptions{});
  ASSERT_EQ(r.games.size(), 1u);
  const PlayerSummary& white = r.players[0];
  const PlayerSummary& black = r.players[1];
  EXPECT_EQ(white.all.turns + black.all.turns, 40);
  EXPECT_GT(white.all.decisions, 5);
  EXPECT_GT(white.all.total_error, 0.0);
  EXPECT_GT(white.all.marks[0] + white.all.marks[1] + white.all.marks[2], 0);
  EXPECT_EQ(black.all.total_error, 0.0);
  EXPECT_EQ(black.all.marks, (std::array<int, 3>{0, 0, 0}));
  EXPECT_GT(white.all.rating(), black.all.rating());
  // Every White decision was the last-ranked result: its error is the spread of the analysis.
  for (const TurnReview& t : r.games[0].turns) {
    if (t.side != Side::White || !t.decision) continue;
    EXPECT_EQ(t.played.rank, t.legal);
    const Analysis a = analyze_moves(t.before, t.dice, spec, analysis_options(game.rules()));
    EXPECT_DOUBLE_EQ(t.error, a.moves.front().equity - a.moves.back().equity);
    EXPECT_EQ(t.mark, r.thresholds.mark_of(t.error));
  }
}

TEST(Review, EveryTurnForcedMeansNoDecisionsAndNoError) {
  // Six checkers each on the last point of home: every roll bears off one checker per die.
  std::array<int, kNumPoints> pts{};
  pts[0] = 6;    // White, point 1
  pts[12] = -6;  // Black, point 13 (its route 1)
  const Position start = Position::from_points(pts, Side::White);
  ASSERT_TRUE(start.is_ok());
  Game game(Rules{}, start);
  Rng rng(5);
  while (!game.is_over()) {
    const Dice d = game.roll(rng);
    ASSERT_EQ(game.legal(d).size(), 1u);
    game.play(d, game.legal(d)[0]);
  }
  const Review r = review_games(review_input_of(game), model_spec(), ReviewOptions{});
  int turns = 0;
  for (const PlayerSummary& p : r.players) {
    EXPECT_EQ(p.all.decisions, 0);
    EXPECT_EQ(p.all.total_error, 0.0);
    EXPECT_EQ(p.all.marks, (std::array<int, 3>{0, 0, 0}));
    EXPECT_TRUE(std::isfinite(p.all.total_luck));
    turns += p.all.turns;
  }
  EXPECT_EQ(turns, static_cast<int>(game.history().size()));
  for (const TurnReview& t : r.games[0].turns) {
    EXPECT_FALSE(t.decision);
    EXPECT_EQ(t.phase, Phase::Bearoff);
  }
}

// Self-play of the reviewing agent: at its own ply it never errs, whatever the thread count.
TEST(Review, AGamePlayedByTheReviewingAgentHasNoError) {
  for (const std::string options : {"", ":ply=1"}) {
    const std::string spec = model_spec(options);
    const auto white = make_agent(spec, Rules{}), black = make_agent(spec, Rules{});
    Rng dice(21), agents(22);
    Game game;
    play_game(*white, *black, Rules{}, dice, agents, &game);
    ASSERT_TRUE(game.is_over());
    ReviewOptions o;
    o.threads = 1;
    const Review one = review_games(review_input_of(game), spec, o);
    EXPECT_EQ(one.players[0].all.total_error, 0.0) << spec;
    EXPECT_EQ(one.players[1].all.total_error, 0.0) << spec;
    EXPECT_GT(one.players[0].all.decisions + one.players[1].all.decisions, 20);
    EXPECT_EQ(one.players[0].result, -one.players[1].result);
    EXPECT_NE(one.players[0].result, 0);
    o.threads = 3;
    EXPECT_EQ(review_games(review_input_of(game), spec, o).to_json(), one.to_json()) << spec;
  }
  // The same game reviewed deeper than it was played finds errors.
  const std::string spec = model_spec();
  const auto agent = make_agent(spec, Rules{});
  Rng dice(23), agents(24);
  Game game;
  play_game(*agent, *agent, Rules{}, dice, agents, &game);
  ReviewOptions deeper;
  deeper.ply = 2;
  const Review r = review_games(review_input_of(game), spec, deeper);
  EXPECT_GT(r.players[0].all.total_error + r.players[1].all.total_error, 0.0);
  EXPECT_NE(r.method.find("2-ply"), std::string::npos) << r.method;
}

TEST(Review, TheErrorIsTheAnalysisBestMinusPlayedAtTheReviewPly) {
  const std::string spec = model_spec();
  const auto white = make_agent("random", Rules{}), black = make_agent(spec, Rules{});
  Rng dice(31), agents(32);
  Game game;
  play_game(*white, *black, Rules{}, dice, agents, &game);
  ReviewOptions o;
  o.ply = 1;
  o.alternatives = 3;
  const Review r = review_games(review_input_of(game), spec, o);
  int checked = 0;
  for (const TurnReview& t : r.games[0].turns) {
    if (t.turn % 7 != 0) continue;  // a sample keeps the test quick
    const Analysis a = analyze_moves(t.before, t.dice, spec, analysis_options(game.rules(), 1));
    ASSERT_EQ(static_cast<int>(a.moves.size()), t.legal);
    size_t played = 0;
    for (size_t i = 0; i < a.moves.size(); ++i)
      if (a.moves[i].notation == t.played.notation) played = i;
    EXPECT_EQ(t.played.rank, static_cast<int>(played) + 1);
    EXPECT_EQ(t.best.notation, a.moves[0].notation);
    EXPECT_DOUBLE_EQ(t.error, std::max(0.0, a.moves[0].equity - a.moves[played].equity));
    EXPECT_LE(t.alternatives.size(), 3u);
    EXPECT_EQ(t.decision, a.moves.size() > 1);
    ++checked;
  }
  EXPECT_GT(checked, 3);
  // The random side errs more than the model (at 0-ply, reviewed at 1-ply).
  EXPECT_GT(r.players[0].all.mean_error(), r.players[1].all.mean_error());
}

TEST(Review, TheLuckOfTheRollsAveragesToZero) {
  // One-turn games from a middle-game position, one for each of the 21 rolls.
  const Position pos = [] {
    Game g;
    Rng rng(41);
    const auto a = make_agent("heuristic", Rules{});
    for (int t = 0; t < 12; ++t) {
      const Dice d = g.roll(rng);
      const MoveList moves = g.legal(d);
      g.play(d, moves[a->choose(g.position(), d, moves, rng)]);
    }
    return g.position();
  }();
  ReviewInput input;
  for (const WeightedRoll& w : kDistinctRolls) {
    Game g(Rules{}, pos);
    g.play(w.dice, g.legal(w.dice)[0]);
    input.games.push_back(g);
    input.white_players.push_back(0);
  }
  const Review r = review_games(input, model_spec(), ReviewOptions{});
  double mean = 0, spread = 0;
  for (size_t i = 0; i < 21; ++i) {
    const double luck = r.games[i].turns[0].luck;
    mean += kDistinctRolls[i].weight36 / 36.0 * luck;
    spread = std::max(spread, std::abs(luck));
  }
  EXPECT_NEAR(mean, 0.0, 1e-5);
  EXPECT_GT(spread, 0.01);  // the rolls do differ
  // The best roll is the luckiest.
  size_t best_roll = 0;
  for (size_t i = 1; i < 21; ++i)
    if (r.games[i].turns[0].luck > r.games[best_roll].turns[0].luck) best_roll = i;
  EXPECT_GT(r.games[best_roll].turns[0].luck, 0.0);
}

TEST(Review, MatchesGiveTheLossInMatchWinningChanceAtTheScore) {
  Match match(3);
  match.names = {"alice", "bob"};
  const auto a = make_agent("heuristic", Rules{}), b = make_agent("random", Rules{});
  Rng rng(51);
  while (!match.is_over() && match.games().size() < 3) {
    Game& g = match.current_game();
    while (!g.is_over()) {
      const Dice d = g.roll(rng);
      const MoveList moves = g.legal(d);
      Agent& mover = match.player_to_move() == 0 ? *a : *b;
      g.play(d, moves[mover.choose(g.position(), d, moves, rng)]);
    }
    if (!match.is_over()) match.start_next_game();
  }
  const ReviewInput input = read_review_input(write_match_record(match));
  ASSERT_TRUE(input.match);
  const Review r = review_games(input, model_spec(), ReviewOptions{});
  EXPECT_TRUE(r.is_match);
  EXPECT_EQ(r.target, 3);
  EXPECT_EQ(r.names[0], "alice");
  ASSERT_EQ(r.games.size(), match.games().size());
  for (size_t g = 0; g < r.games.size(); ++g) {
    ASSERT_TRUE(r.games[g].score_before);
    EXPECT_EQ(r.games[g].white_player, match.white_players()[g]);
    for (const TurnReview& t : r.games[g].turns) {
      ASSERT_TRUE(t.mwc_error);
      EXPECT_GE(*t.mwc_error, 0.0);
      EXPECT_LE(*t.mwc_error, 1.0);
      ASSERT_TRUE(t.played.mwc);
      EXPECT_GE(*t.played.mwc, -1e-6);
      EXPECT_LE(*t.played.mwc, 1 + 1e-6);
      EXPECT_EQ(t.player,
                t.side == Side::White ? r.games[g].white_player : 1 - r.games[g].white_player);
    }
  }
  EXPECT_GT(r.players[1].all.total_mwc_error, 0.0);
  // The reports hold the names and every game.
  const std::string text = r.to_text(), html = review_html(r);
  EXPECT_NE(text.find("alice"), std::string::npos);
  EXPECT_NE(html.find("<svg"), std::string::npos);
  const auto j = nlohmann::json::parse(r.to_json());
  EXPECT_EQ(j["games"].size(), r.games.size());
  EXPECT_TRUE(j["is_match"].get<bool>());
  EXPECT_DOUBLE_EQ(j["players"][1]["total_error"].get<double>(), r.players[1].all.total_error);
}

TEST(Review, MarksFollowTheThresholds) {
  const MarkThresholds th;
  EXPECT_EQ(th.mark_of(0.0), Mark::None);
  EXPECT_EQ(th.mark_of(0.039), Mark::None);
  EXPECT_EQ(th.mark_of(0.04), Mark::Doubtful);
  EXPECT_EQ(th.mark_of(0.08), Mark::Bad);
  EXPECT_EQ(th.mark_of(0.2), Mark::VeryBad);
  EXPECT_STREQ(rating_band(0.5), "supernatural");
  EXPECT_STREQ(rating_band(5), "advanced");
  EXPECT_STREQ(rating_band(30), "awful");
  // Lower thresholds mark more of the same game.
  const std::string spec = model_spec();
  const Game game = worst_against_best(spec, 12, 16);
  ReviewOptions strict;
  strict.thresholds = {0.001, 0.002, 0.003};
  const Review a = review_games(review_input_of(game), spec, ReviewOptions{});
  const Review b = review_games(review_input_of(game), spec, strict);
  auto marked = [](const Review& r) {
    int n = 0;
    for (const auto& p : r.players) n += p.all.marks[0] + p.all.marks[1] + p.all.marks[2];
    return n;
  };
  EXPECT_GE(marked(b), marked(a));
  EXPECT_GT(marked(b), 0);
}

TEST(Review, BadInputIsAnErrorNamingIt) {
  const std::string not_record = error_of([] { read_review_input("hello\n", "game.txt"); });
  EXPECT_NE(not_record.find("game.txt"), std::string::npos) << not_record;
  EXPECT_NE(not_record.find("'hello'"), std::string::npos) << not_record;
  const std::string illegal =
      error_of([] { read_review_input("nardy-record 1\n6-5 24/12\n", "game.txt"); });
  EXPECT_NE(illegal.find("game.txt"), std::string::npos) << illegal;
  EXPECT_NE(illegal.find("line 2"), std::string::npos) << illegal;
  const ReviewInput one = read_review_input("nardy-record 1\n6-5 24/13\n");
  ReviewOptions o;
  o.ply = 1;
  EXPECT_NE(error_of([&] { review_games(one, "heuristic", o); }).find("ply needs a net agent"),
            std::string::npos);
  ReviewOptions bad;
  bad.thresholds = {0.1, 0.05, 0.2};
  EXPECT_NE(error_of([&] { review_games(one, model_spec(), bad); }).find("thresholds"),
            std::string::npos);
  bad = {};
  bad.threads = 0;
  EXPECT_NE(error_of([&] { review_games(one, model_spec(), bad); }).find("threads"),
            std::string::npos);
  EXPECT_NE(error_of([&] { review_games(one, "nosuch", ReviewOptions{}); }).find("nosuch"),
            std::string::npos);
}

TEST(Review, AgentsWithoutANetRollTheMovesOutAndMeasureNoLuck) {
  const ReviewInput one = read_review_input("nardy-record 1\n6-5 24/13\n3-1 12/9 9/8\n");
  ReviewOptions o;
  o.rollout_trials = 8;
  const Review r = review_games(one, "heuristic", o);
  EXPECT_NE(r.method.find("rollouts"), std::string::npos);
  ASSERT_EQ(r.games[0].turns.size(), 2u);
  EXPECT_TRUE(std::isnan(r.games[0].turns[1].luck));
  EXPECT_EQ(r.games[0].turns[1].played.ply, -1);
  EXPECT_NO_THROW((void)nlohmann::json::parse(r.to_json()));
}

TEST(Review, RolloutsValueANetAgentsMovesAsAnalysisRolloutsDo) {
  // --rollouts N: every move of a net agent rolled out, the same figures analyze_moves gives
  // with rollouts; and a ply with rollouts is refused.
  const ReviewInput one = read_review_input("nardy-record 1\n6-5 24/13\n3-1 12/9 9/8\n");
  ReviewOptions o;
  o.rollouts = true;
  o.rollout_trials = 6;
  const std::string spec = model_spec();
  const Review r = review_games(one, spec, o);
  EXPECT_NE(r.method.find("rollouts (6 trials per move"), std::string::npos) << r.method;
  const TurnReview& t = r.games[0].turns[1];
  EXPECT_EQ(t.played.ply, -1);
  EXPECT_FALSE(std::isnan(t.luck));  // the luck still comes from the net's values
  EXPECT_EQ(t.best.ply, -1);
  EXPECT_DOUBLE_EQ(t.error, std::max(0.0, t.best.equity - t.played.equity));
  // analyze_moves with rollouts: rolled out for a net agent as well, all legal results.
  AnalysisOptions ao = analysis_options(Rules{});
  ao.rollouts = true;
  ao.rollout_trials = 6;
  const Analysis searched = analyze_moves(t.before, t.dice, spec, analysis_options(Rules{}));
  EXPECT_EQ(static_cast<int>(searched.moves.size()), t.legal);
  EXPECT_GE(t.error, 0);
  o.ply = 1;
  EXPECT_NE(error_of([&] { review_games(one, spec, o); }).find("exclude each other"),
            std::string::npos);
  EXPECT_NE(error_of([&] {
              analyze_moves(t.before, t.dice, spec, [&] {
                AnalysisOptions bad = ao;
                bad.ply = 2;
                return bad;
              }());
            }).find("exclude each other"),
            std::string::npos);
  const Analysis rolled = analyze_moves(t.before, t.dice, spec, ao);
  EXPECT_NE(rolled.method.find("rollouts"), std::string::npos);
  EXPECT_EQ(rolled.moves.size(), searched.moves.size());
  for (const MoveAnalysis& m : rolled.moves) EXPECT_EQ(m.ply, -1);
}

}  // namespace
}  // namespace nardy
