#include "selfplay/tables/race.h"

namespace nardy {

int highest_route(const Position& pos, Side s) {
  // Position::count() read straight from the mover's board (the self-play trainer asks this for
  // every result near the end of a game).
  const auto& board = pos.mover_board();
  if (s == pos.side_to_move()) {
    for (int r = kNumPoints; r >= 1; --r)
      if (board[r - 1] > 0) return r;
  } else {
    for (int r = kNumPoints; r >= 1; --r)
      if (board[opponent_route(r) - 1] < 0) return r;
  }
  return 0;
}

bool is_race(const Position& pos) {
  if (pos.off(Side::White) == kNumCheckers || pos.off(Side::Black) == kNumCheckers) return false;
  return highest_route(pos, Side::White) <= 12 && highest_route(pos, Side::Black) <= 12;
}

}  // namespace nardy
