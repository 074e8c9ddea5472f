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
  // Both highest routes <= 12, read from the mover's board (the search asks this of every
  // position it values): the mover's route r is board index r-1, and the opponent's route q >
  // 12 is board index q-13 (opponent_route(q) = q-12).
  static_assert(kNumPoints == 24 && opponent_route(13) == 1);
  const auto& board = pos.mover_board();
  for (int i = 12; i < kNumPoints; ++i)
    if (board[static_cast<size_t>(i)] > 0) return false;
  for (int i = 0; i < 12; ++i)
    if (board[static_cast<size_t>(i)] < 0) return false;
  return true;
}

}  // namespace nardy
