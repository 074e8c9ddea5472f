// core/match_equity.h: match winning chances by dynamic programming checked against closed forms
// (a match to 1, ties at the target), against simulated matches of the outcome model, and the
// stakes where the score matters (1-away, 2-away vs 1-away).
#include "core/match_equity.h"

#include <gtest/gtest.h>

#include <cmath>

#include "tests/support/error_of.h"
#include "tests/support/scenario.h"

namespace nardy::testing {
namespace {

const GameOutcomeModel kModel{0.30, 0.20, 0.25, 0.15, 0.10};  // with draws
const GameOutcomeModel kNoDraws{0.40, 0.15, 0.35, 0.10, 0.0};

Rules draw_rules(const char* starter = "previous_black") {
  Rules r = with_rule("next_game_starter", starter);
  r.last_roll_draw = true;
  return r;
}

// Player 0's match wins by simulating matches game by game from the model (independent of the
// table's recursion: it only uses MatchScore).
double simulate(const GameOutcomeModel& m, const Rules& rules, MatchScore start, int matches,
                uint64_t seed) {
  Rng rng(seed);
  const std::array<Outcome, 5> outcomes = {Outcome{Side::White, 1}, Outcome{Side::White, 2},
                                           Outcome{Side::Black, 1}, Outcome{Side::Black, 2},
                                           Outcome{std::nullopt, 0}};
  const std::array<double, 5> p = {m.white_oin, m.white_mars, m.black_oin, m.black_mars, m.draw};
  int wins = 0;
  for (int i = 0; i < matches; ++i) {
    MatchScore s = start;
    while (!s.is_over()) {
      double u = static_cast<double>(rng.next() >> 11) * 0x1.0p-53;
      size_t o = 0;
      while (o + 1 < p.size() && u >= p[o]) u -= p[o++];
      s.add_game(outcomes[o], rules);
    }
    wins += *s.winner() == 0;
  }
  return static_cast<double>(wins) / matches;
}

TEST(MatchEquity, MatchToOneWithoutDrawsIsTheWinChanceOfTheColour) {
  const MatchEquityTable t(1, kNoDraws, Rules{});
  EXPECT_DOUBLE_EQ(t.player0_wins(MatchScore(1, 0)), 0.55);  // player 0 White
  EXPECT_DOUBLE_EQ(t.player0_wins(MatchScore(1, 1)), 0.45);  // player 0 Black
  EXPECT_DOUBLE_EQ(t.wins(MatchScore(1, 1), 1), 0.55);
}

// Tied at the target, only draws repeat: v0 = a0 + d v1, v1 = a1 + d v0.
TEST(MatchEquity, TiedAtTheTargetSolvesTheDrawLoop) {
  const MatchEquityTable t(1, kModel, draw_rules());
  const double a0 = 0.5, a1 = 0.4, d = 0.1;
  const double v0 = (a0 + d * a1) / (1 - d * d);
  EXPECT_NEAR(t.player0_wins(MatchScore::at(1, 2, 2, 0)), v0, 1e-12);
  EXPECT_NEAR(v0, a0 + d * t.player0_wins(MatchScore::at(1, 2, 2, 1)), 1e-12);
  // From 0-0 at target 1: a draw leads to 0.5-0.5 with the other player White.
  const double from_start = a0 + d * t.player0_wins(MatchScore::at(1, 1, 1, 1));
  EXPECT_NEAR(t.player0_wins(MatchScore(1, 0)), from_start, 1e-12);
}

TEST(MatchEquity, AgreesWithSimulatedMatches) {
  for (const char* starter : {"previous_black", "previous_winner"}) {
    const Rules rules = draw_rules(starter);
    const MatchEquityTable t(5, kModel, rules);
    for (const MatchScore& s :
         {MatchScore(5, 0), MatchScore::at(5, 6, 1, 1), MatchScore::at(5, 3, 8, 0)}) {
      const int n = 40000;
      const double sim = simulate(kModel, rules, s, n, 17);
      const double p = t.player0_wins(s);
      EXPECT_NEAR(sim, p, 4.5 * std::sqrt(p * (1 - p) / n)) << starter << " " << s.to_string();
    }
  }
}

TEST(MatchEquity, SymmetricModelGivesComplementaryChances) {
  const GameOutcomeModel sym{0.3, 0.15, 0.3, 0.15, 0.1};
  const MatchEquityTable t(7, sym, draw_rules());
  for (int h0 = 0; h0 < 14; ++h0)
    for (int h1 = 0; h1 < 14; ++h1)
      for (int w = 0; w < 2; ++w)
        EXPECT_NEAR(t.player0_wins(MatchScore::at(7, h0, h1, w)) +
                        t.player0_wins(MatchScore::at(7, h1, h0, 1 - w)),
                    1.0, 1e-12);
  EXPECT_NEAR(t.player0_wins(MatchScore(7, 0)), 0.5, 1e-12);
}

// At 1-away (one point or less needed) a mars win is worth exactly an oin.
TEST(MatchEquity, MarsIsWorthNothingExtraAtOneAway) {
  const MatchEquityTable t(5, kNoDraws, Rules{});
  const MatchScore s = MatchScore::at(5, 8, 2, 0);  // player 0 (White) needs 1, player 1 needs 4
  const GameStakes st = t.stakes(s);
  EXPECT_EQ(st.white.win_oin, 1.0);
  EXPECT_EQ(st.white.win_mars, 1.0);
  // Player 1 (Black) needs 4: its mars win is worth more than its oin, and neither wins.
  EXPECT_GT(st.black.win_mars, st.black.win_oin);
  EXPECT_LT(st.black.win_mars, 1.0);
  // The stakes are each player's chances after the outcome, so they are complementary.
  EXPECT_NEAR(st.white.lose_oin, 1 - st.black.win_oin, 1e-12);
  EXPECT_NEAR(st.white.lose_mars, 1 - st.black.win_mars, 1e-12);
}

// 2-away vs 1-away: the trailer's mars wins the match, its oin only ties at 1-away each; the
// leader's lost oin ties, a lost mars loses the match.
TEST(MatchEquity, TwoAwayAgainstOneAwayTurnsOnTheMars) {
  const MatchEquityTable t(3, kNoDraws, Rules{});
  const MatchScore s = MatchScore::at(3, 2, 4, 0);  // player 0 needs 2 (White), player 1 needs 1
  const GameStakes st = t.stakes(s);
  const double tie_after = t.player0_wins(MatchScore::at(3, 4, 4, 1));  // 1-away each
  EXPECT_EQ(st.white.win_mars, 1.0);
  EXPECT_NEAR(st.white.win_oin, tie_after, 1e-12);
  EXPECT_EQ(st.white.lose_oin, 0.0);
  EXPECT_EQ(st.black.lose_mars, 0.0);
  EXPECT_NEAR(st.black.lose_oin, 1 - tie_after, 1e-12);
  EXPECT_EQ(st.black.win_oin, 1.0);
}

TEST(MatchEquity, MoneyValuesAreTheEquity) {
  const OutcomeValues money;
  // win 0.6 (mars 0.2), lose 0.3 (mars 0.1), draw 0.1: 0.4 + 0.4 - 0.2 - 0.2 = 0.4
  EXPECT_NEAR(money.value(0.6, 0.2, 0.1, 0.1), 0.4, 1e-12);
}

TEST(MatchEquity, SelfPlayModelIsValidUnderEitherDrawRule) {
  GameOutcomeModel::self_play(Rules{}).validate();
  const GameOutcomeModel m = GameOutcomeModel::self_play(draw_rules());
  m.validate();
  EXPECT_GT(m.draw, 0.0);
  EXPECT_EQ(GameOutcomeModel::self_play(Rules{}).draw, 0.0);
}

TEST(MatchEquity, RejectsBadModelsAndScores) {
  EXPECT_EQ(error_of([] {
              MatchEquityTable(3, GameOutcomeModel{0.5, 0.5, 0.5, 0, 0}, Rules{});
            }),
            "game outcome model white_oin=0.5 white_mars=0.5 black_oin=0.5 black_mars=0 draw=0: "
            "probabilities sum to 1.500000, not 1");
  EXPECT_EQ(error_of([] {
              MatchEquityTable(3, GameOutcomeModel{-0.1, 0.6, 0.5, 0, 0}, Rules{});
            }),
            "game outcome model white_oin=-0.1 white_mars=0.6 black_oin=0.5 black_mars=0 draw=0: "
            "probabilities must be >= 0");
  EXPECT_EQ(error_of([] {
              MatchEquityTable(3, GameOutcomeModel{0, 0, 0, 0, 1}, Rules{});
            }),
            "game outcome model white_oin=0 white_mars=0 black_oin=0 black_mars=0 draw=1: draw "
            "must be < 1");
  const MatchEquityTable t(3, kNoDraws, Rules{});
  EXPECT_EQ(error_of([&] { t.player0_wins(MatchScore(5)); }),
            "match equity table to 3 points asked about a match to 5");
}

}  // namespace
}  // namespace nardy::testing
