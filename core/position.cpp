#include "core/position.h"

#include <bit>
#include <cstring>

namespace nardy {

Position Position::start() {
  Position p;
  p.board_[kHeadRoute - 1] = kNumCheckers;                   // mover's head
  p.board_[opponent_route(kHeadRoute) - 1] = -kNumCheckers;  // opponent's head
  p.side_ = Side::White;
  p.own_off_ = p.opp_off_ = 0;
  return p;
}

Position Position::from_mover_board(const std::array<int8_t, kNumPoints>& board, Side mover) {
  Position p;
  p.board_ = board;
  p.side_ = mover;
  int own = 0, opp = 0;
  for (int8_t v : board) (v > 0 ? own : opp) += v > 0 ? v : -v;
  p.own_off_ = static_cast<uint8_t>(kNumCheckers - own);
  p.opp_off_ = static_cast<uint8_t>(kNumCheckers - opp);
  return p;
}

Position Position::from_points(const std::array<int, kNumPoints>& points, Side to_move) {
  std::array<int8_t, kNumPoints> b{};
  const int sign = to_move == Side::White ? 1 : -1;
  int own = 0, opp = 0;
  for (int p = 1; p <= kNumPoints; ++p) {
    int v = points[p - 1] * sign;
    b[route_of(to_move, p) - 1] = static_cast<int8_t>(v);
    (v > 0 ? own : opp) += v > 0 ? v : -v;
  }
  Position pos;
  pos.board_ = b;
  pos.side_ = to_move;
  // Clamp so that an over-full board still yields a position that validation reports.
  pos.own_off_ = static_cast<uint8_t>(own > kNumCheckers ? 0 : kNumCheckers - own);
  pos.opp_off_ = static_cast<uint8_t>(opp > kNumCheckers ? 0 : kNumCheckers - opp);
  return pos;
}

int Position::at_point(int p) const {
  int v = board_[route_of(side_, p) - 1];
  return side_ == Side::White ? v : -v;
}

std::array<int, kNumPoints> Position::points() const {
  std::array<int, kNumPoints> a{};
  for (int p = 1; p <= kNumPoints; ++p) a[p - 1] = at_point(p);
  return a;
}

int Position::pips(Side s) const {
  int total = 0;
  for (int r = 1; r <= kNumPoints; ++r) total += r * count(s, r);
  return total;
}

std::optional<Side> Position::finished_side() const {
  if (off(Side::White) == kNumCheckers) return Side::White;
  if (off(Side::Black) == kNumCheckers) return Side::Black;
  return std::nullopt;
}

Position Position::with_side_to_move(Side s) const {
  if (s == side_) return *this;
  Position p;
  for (int r = 1; r <= kNumPoints; ++r)
    p.board_[opponent_route(r) - 1] = static_cast<int8_t>(-board_[r - 1]);
  p.side_ = s;
  p.own_off_ = opp_off_;
  p.opp_off_ = own_off_;
  return p;
}

std::optional<std::string> Position::validation_error() const {
  int counts[2] = {0, 0};
  for (int r = 1; r <= kNumPoints; ++r) {
    int v = board_[r - 1];
    (v > 0 ? counts[0] : counts[1]) += v > 0 ? v : -v;
  }
  const char* names[2] = {side_ == Side::White ? "White" : "Black",
                          side_ == Side::White ? "Black" : "White"};
  for (int i = 0; i < 2; ++i)
    if (counts[i] > kNumCheckers)
      return std::string(names[i]) + " has " + std::to_string(counts[i]) +
             " checkers on the board (at most 15)";
  // Six-block rule for both sides (docs/rules.md, A turn, rule 4). Blocks stay legal once legal
  // (the opposing checker past them only moves further), so no reachable position has one.
  for (Side s : {Side::White, Side::Black}) {
    Side o = ~s;
    uint32_t occupied = 0;
    int opp_lowest = 25;
    for (int r = 1; r <= kNumPoints; ++r) {
      if (count(s, r) > 0) occupied |= 1u << (opponent_route(r) - 1);
      if (count(o, r) > 0 && r < opp_lowest) opp_lowest = r;
    }
    if (forbidden_block(occupied, opp_lowest, off(o))) {
      return std::string(s == Side::White ? "White" : "Black") +
             " holds a forbidden six-block (six consecutive points with no opposing checker "
             "past them)";
    }
  }
  return std::nullopt;
}

uint64_t Position::hash() const {
  uint64_t w[3];
  std::memcpy(w, board_.data(), sizeof w);
  uint64_t h = 0x9E3779B97F4A7C15ull ^ static_cast<uint64_t>(side_);
  for (uint64_t x : w) {
    h ^= x + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
    h *= 0xBF58476D1CE4E5B9ull;
    h ^= h >> 31;
  }
  return h;
}

}  // namespace nardy
