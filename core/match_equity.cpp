#include "core/match_equity.h"

#include <cmath>
#include <cstdio>

#include "core/error.h"

namespace nardy {

namespace {

// The five outcomes of a game, in GameOutcomeModel's order.
const std::array<Outcome, 5> kOutcomes = {Outcome{Side::White, 1}, Outcome{Side::White, 2},
                                          Outcome{Side::Black, 1}, Outcome{Side::Black, 2},
                                          Outcome{std::nullopt, 0}};

std::array<double, 5> probabilities(const GameOutcomeModel& m) {
  return {m.white_oin, m.white_mars, m.black_oin, m.black_mars, m.draw};
}

}  // namespace

GameOutcomeModel GameOutcomeModel::self_play(const Rules& rules) {
  // Outcome frequencies of 20,000 games of 0-ply self-play of the shipped model nardy-td-1
  // (models/README.md; standard errors at most 0.0035): White wins 11,595 (mars 2,756), Black
  // wins 8,405 (mars 1,136).
  //   build/nardy selfplay --agent default --games 20000 --seed 1
  if (!rules.last_roll_draw)
    return {8839 / 20000.0, 2756 / 20000.0, 7269 / 20000.0, 1136 / 20000.0, 0.0};
  // Under last_roll_draw (the same model, trained without draws): 1,827 draws; White wins 9,726
  // (mars 2,298: Black's extra turn saves some marses), Black wins 8,447 (mars 1,199).
  //   build/nardy selfplay --agent default --games 20000 --seed 2 --rule last_roll_draw=true
  return {7428 / 20000.0, 2298 / 20000.0, 7248 / 20000.0, 1199 / 20000.0, 1827 / 20000.0};
}

void GameOutcomeModel::validate() const {
  const auto p = probabilities(*this);
  double sum = 0;
  for (double x : p) {
    if (!(x >= 0))
      throw Error("game outcome model " + to_string() + ": probabilities must be >= 0");
    sum += x;
  }
  if (std::fabs(sum - 1.0) > 1e-6)
    throw Error("game outcome model " + to_string() + ": probabilities sum to " +
                std::to_string(sum) + ", not 1");
  if (!(draw < 1.0)) throw Error("game outcome model " + to_string() + ": draw must be < 1");
}

std::string GameOutcomeModel::to_string() const {
  char buf[160];
  std::snprintf(buf, sizeof buf, "white_oin=%g white_mars=%g black_oin=%g black_mars=%g draw=%g",
                white_oin, white_mars, black_oin, black_mars, draw);
  return buf;
}

MatchEquityTable::MatchEquityTable(int target, const GameOutcomeModel& model, const Rules& rules)
    : target_(target), model_(model), rules_(rules) {
  (void)MatchScore(target);  // validates the target
  model.validate();
  const auto p = probabilities(model);
  // Tied at the target: the next decisive game wins; a draw passes White on (both rules).
  const double white_wins = model.white_oin + model.white_mars;
  const double black_wins = model.black_oin + model.black_mars;
  const double a0 = white_wins, a1 = black_wins;  // player 0 wins as White / as Black
  const double d = model.draw;
  tied_ = {(a0 + d * a1) / (1 - d * d), (a1 + d * a0) / (1 - d * d)};

  const int n = 2 * target;
  table_.assign(static_cast<size_t>(n * n * 2), 0.0);
  // Every outcome lowers at least one need, so states in order of need0 + need1 only look at
  // states already filled (or at decided and tied ones).
  for (int sum = 2; sum <= 2 * n; ++sum)
    for (int need0 = std::max(1, sum - n); need0 <= std::min(n, sum - 1); ++need0) {
      const int need1 = sum - need0;
      for (int white = 0; white < 2; ++white) {
        const MatchScore before = MatchScore::at(target, n - need0, n - need1, white);
        double v = 0;
        for (size_t o = 0; o < kOutcomes.size(); ++o) {
          if (p[o] == 0) continue;
          MatchScore after = before;
          after.add_game(kOutcomes[o], rules);
          v += p[o] * player0_wins(after);
        }
        table_[static_cast<size_t>(((need0 - 1) * n + (need1 - 1)) * 2 + white)] = v;
      }
    }
}

double MatchEquityTable::state(int need0, int need1, int white) const {
  const int n = 2 * target_;
  return table_[static_cast<size_t>(((need0 - 1) * n + (need1 - 1)) * 2 + white)];
}

double MatchEquityTable::player0_wins(const MatchScore& score) const {
  if (score.target() != target_)
    throw Error("match equity table to " + std::to_string(target_) +
                " points asked about a match to " + std::to_string(score.target()));
  if (auto w = score.winner()) return *w == 0 ? 1.0 : 0.0;
  const int need0 = score.half_points_needed(0), need1 = score.half_points_needed(1);
  if (need0 <= 0 || need1 <= 0) return tied_[static_cast<size_t>(score.white_player())];
  return state(need0, need1, score.white_player());
}

double MatchEquityTable::wins(const MatchScore& score, int player) const {
  const double p0 = player0_wins(score);
  return player == 0 ? p0 : 1.0 - p0;
}

GameStakes MatchEquityTable::stakes(const MatchScore& score) const {
  auto after = [&](const Outcome& o, int player) {
    MatchScore s = score;
    s.add_game(o, rules_);
    return wins(s, player);
  };
  auto values_for = [&](Side side) {
    const int player = side == Side::White ? score.white_player() : 1 - score.white_player();
    const Side other = side == Side::White ? Side::Black : Side::White;
    OutcomeValues v;
    v.win_oin = after({side, 1}, player);
    v.win_mars = after({side, 2}, player);
    v.lose_oin = after({other, 1}, player);
    v.lose_mars = after({other, 2}, player);
    v.draw = after({std::nullopt, 0}, player);
    return v;
  };
  return {values_for(Side::White), values_for(Side::Black)};
}

}  // namespace nardy
