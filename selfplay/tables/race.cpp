#include "selfplay/tables/race.h"

namespace nardy {

int highest_route(const Position& pos, Side s) {
  for (int r = kNumPoints; r >= 1; --r)
    if (pos.count(s, r) > 0) return r;
  return 0;
}

bool is_race(const Position& pos) {
  if (pos.off(Side::White) == kNumCheckers || pos.off(Side::Black) == kNumCheckers) return false;
  return highest_route(pos, Side::White) <= 12 && highest_route(pos, Side::Black) <= 12;
}

}  // namespace nardy
