// core/position.h — a Long Nardy position: the board and the side to move.
//
// Representation (wildbg-style, from the mover's view): 24 signed counts indexed by the
// mover's route coordinate r = 1..24 (see core/types.h): +n are n of the mover's checkers,
// -n are n of the opponent's. A point never holds both colours, so one signed byte per point
// is exact. Borne-off counts are 15 minus the checkers on the board and are cached. The whole
// position is 28 bytes and is copied rather than undone (apply = copy + step).
//
// The absolute view (White positive, points 1..24) is what POS text, the ID and users see;
// at_point() converts.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>

#include "core/types.h"

namespace nardy {

class Position {
 public:
  // ---- Construction ----
  // The empty board (both sides fully borne off), White to move. Mostly a building block.
  Position() = default;
  // 15 checkers on each head, White to move.
  static Position start();
  // From absolute counts (index 0 = point 1; White positive, Black negative) and side to
  // move. Does not validate: call validation_error() (text parsers do).
  static Position from_points(const std::array<int, kNumPoints>& points, Side to_move);

  // ---- Board access ----
  Side side_to_move() const { return side_; }
  // Signed count at the mover's route coordinate r (1..24): + mover, - opponent.
  int at_route(int r) const { return board_[r - 1]; }
  // Signed count at absolute point p (1..24): + White, - Black.
  int at_point(int p) const;
  // Absolute counts for points 1..24 (White positive).
  std::array<int, kNumPoints> points() const;
  // Checkers of side s at its own route coordinate r (>= 0). Inline: the race tests and table
  // lookups of search and self-play ask it of every position they value.
  int count(Side s, int r) const {
    if (s == side_) return board_[r - 1] > 0 ? board_[r - 1] : 0;
    const int v = board_[opponent_route(r) - 1];
    return v < 0 ? -v : 0;
  }
  int off(Side s) const { return s == side_ ? own_off_ : opp_off_; }
  int on_board(Side s) const { return kNumCheckers - off(s); }
  // Pip count of side s: sum of route coordinates of its checkers (start: 360).
  int pips(Side s) const;
  // Checkers of side s still on its head (route 24).
  int on_head(Side s) const { return count(s, kHeadRoute); }

  // ---- Game end ----
  // The side that has borne off all 15 (White first if, under last_roll_draw, both have).
  std::optional<Side> finished_side() const;

  // ---- Transformations ----
  // The same board with the other side to move.
  Position with_side_to_move(Side s) const;

  // ---- Consistency ----
  // Empty if the position is legal; otherwise a message such as
  // "White has 16 checkers on the board (at most 15)" or a forbidden six-block.
  std::optional<std::string> validation_error() const;
  bool is_ok() const { return !validation_error(); }

  bool operator==(const Position& o) const = default;
  // 64-bit hash of board and side; stable across runs and platforms.
  uint64_t hash() const;

  // ---- Raw mover-relative access for movegen and encoders ----
  const std::array<int8_t, kNumPoints>& mover_board() const { return board_; }
  int own_off() const { return own_off_; }
  int opp_off() const { return opp_off_; }
  // Builds a position from a mover-relative board and the mover's side; off counts are
  // recomputed from the board.
  static Position from_mover_board(const std::array<int8_t, kNumPoints>& board, Side mover);
  // Overwrites this position in place with a mover-relative board, the mover and the off
  // counts, which the caller vouches for (core/movegen.cpp keeps them as it plays; writing in
  // place spares its hot path a temporary).
  void assign_mover_board(const int8_t* board, Side mover, int own_off, int opp_off) {
    std::memcpy(board_.data(), board, kNumPoints);
    side_ = mover;
    own_off_ = static_cast<uint8_t>(own_off);
    opp_off_ = static_cast<uint8_t>(opp_off);
  }

 private:
  std::array<int8_t, kNumPoints> board_{};  // index r-1, mover-relative
  Side side_ = Side::White;
  uint8_t own_off_ = kNumCheckers;
  uint8_t opp_off_ = kNumCheckers;
};

// The six-block rule (docs/rules.md "A turn", rule 4) on bitmasks of points, bit i = opponent
// route i+1. six_runs() has bit s set when the mask holds the six points s+1..s+6 along the
// opponent's route; forbidden_windows() has bit s set when such a run is forbidden: no opposing
// checker is past it (none on a route below s+1) and none is borne off. `opp_lowest` is the
// lowest opponent route coordinate holding an opposing checker (25 if none) and `opp_off` how
// many the opponent has borne off. Both opp_lowest and opp_off stay fixed during a turn, so
// core/movegen.cpp computes forbidden_windows() once per turn and keeps the mask incrementally.
constexpr uint32_t six_runs(uint32_t occupied) {
  return occupied & (occupied >> 1) & (occupied >> 2) & (occupied >> 3) & (occupied >> 4) &
         (occupied >> 5);
}
constexpr uint32_t forbidden_windows(int opp_lowest, int opp_off) {
  if (opp_off > 0) return 0;
  // The run starting at bit s covers opponent routes s+1..s+6; it is allowed only if some
  // opposing checker stands below route s+1, i.e. opp_lowest <= s.
  if (opp_lowest > 24) opp_lowest = 24;
  return (2u << (opp_lowest - 1)) - 1;  // bits s <= opp_lowest - 1
}

// Whether `side` holds a six-block that rule 4 forbids: six consecutive points along the
// opponent's route with no opposing checker past the block's last point and none borne off.
// `occupied` is a bitmask of the points `side` holds, bit i = opponent route i+1; opp_lowest
// and opp_off as above.
constexpr bool forbidden_block(uint32_t occupied, int opp_lowest, int opp_off) {
  return (six_runs(occupied) & forbidden_windows(opp_lowest, opp_off)) != 0;
}

}  // namespace nardy
