#include "selfplay/tables/race_odds.h"

#include <algorithm>

namespace nardy {

RaceOdds race_odds(const TurnDistribution& ta, const TurnDistribution& fa,
                   const TurnDistribution& tb, const TurnDistribution& fb, bool mover_is_white,
                   bool last_roll_draw) {
  RaceOdds o;
  const int hi = std::max({ta.last(), tb.last(), fa.last(), fb.last()}) + 2;
  if (!last_roll_draw) {
    for (int t = 1; t <= hi; ++t) {
      const double pa = ta.probability(t), pb = tb.probability(t);
      o.win += pa * tb.at_least(t);
      o.win_mars += pa * fb.at_least(t);
      o.lose_mars += pb * fa.at_least(t + 1);
    }
  } else if (mover_is_white) {
    for (int t = 1; t <= hi; ++t) {
      const double pa = ta.probability(t), pb = tb.probability(t);
      o.win += pa * tb.at_least(t + 1);
      o.draw += pa * pb;
      o.win_mars += pa * fb.at_least(t + 1);
      o.lose_mars += pb * fa.at_least(t + 1);
    }
  } else {
    double lose = 0;
    for (int t = 1; t <= hi; ++t) {
      const double pa = ta.probability(t), pb = tb.probability(t);
      o.win_mars += pa * fb.at_least(t);
      lose += pb * ta.at_least(t + 2);
      o.draw += pb * ta.probability(t + 1);
      o.lose_mars += pb * fa.at_least(t + 2);
    }
    o.win = 1.0 - lose - o.draw;
  }
  // Keep the probabilities consistent against float rounding of the stored bins.
  o.win = std::clamp(o.win, 0.0, 1.0);
  o.draw = std::clamp(o.draw, 0.0, 1.0 - o.win);
  o.win_mars = std::clamp(o.win_mars, 0.0, o.win);
  o.lose_mars = std::clamp(o.lose_mars, 0.0, o.lose());
  return o;
}

std::optional<RaceOdds> race_odds(const BearoffTable& table, const Position& pos,
                                  const Rules& rules) {
  if (!table.covers(pos)) return std::nullopt;
  const Side me = pos.side_to_move();
  const uint32_t a = *table.index_of(pos, me), b = *table.index_of(pos, ~me);
  return race_odds(table.finish(a), table.first_off(a), table.finish(b), table.first_off(b),
                   me == Side::White, rules.last_roll_draw);
}

}  // namespace nardy
