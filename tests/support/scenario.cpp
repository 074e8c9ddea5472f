#include "tests/support/scenario.h"

#include <algorithm>

#include "core/error.h"
#include "core/movegen.h"
#include "core/notation.h"
#include "core/pos_text.h"

namespace nardy::testing {

Position board(PointCounts white, PointCounts black, Side to_move) {
  std::array<int, kNumPoints> points{};
  for (auto [p, n] : white) points[p - 1] += n;
  for (auto [p, n] : black) points[p - 1] -= n;
  Position pos = Position::from_points(points, to_move);
  // Through the POS parser, which validates fully (counts, colours, six-blocks).
  return parse_pos(format_pos(pos));
}

Rules with_rule(const std::string& key, const std::string& value) {
  Rules r;
  r.set(key, value);
  return r;
}

std::vector<std::string> legal_notations(const Position& pos, Dice dice, const Rules& rules) {
  std::vector<std::string> out;
  for (const MoveResult& m : legal_moves(pos, dice, rules)) out.push_back(format_move(m.move));
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> legal_positions(const Position& pos, Dice dice, const Rules& rules) {
  std::vector<std::string> out;
  for (const MoveResult& m : legal_moves(pos, dice, rules)) out.push_back(format_pos(m.position));
  std::sort(out.begin(), out.end());
  return out;
}

Position after(const Position& pos, Dice dice, const std::string& notation, const Rules& rules) {
  return find_move(pos, dice, rules, notation).position;
}

bool is_legal(const Position& pos, Dice dice, const std::string& notation, const Rules& rules) {
  try {
    find_move(pos, dice, rules, notation);
    return true;
  } catch (const Error&) {
    return false;
  }
}

}  // namespace nardy::testing
