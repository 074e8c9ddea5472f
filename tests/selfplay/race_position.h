// Race positions for table tests: each side's checkers counted on its own route 1, 2, ...
#pragma once

#include <array>
#include <vector>

#include "core/position.h"

namespace nardy::testing {

// White's counts `w` on its route 1.. (points 1..), Black's `b` on its route 1.. (points 13..).
inline Position race_position(const std::vector<int>& w, const std::vector<int>& b,
                              Side to_move = Side::White) {
  std::array<int, kNumPoints> pts{};
  for (size_t i = 0; i < w.size(); ++i)
    pts[point_of(Side::White, static_cast<int>(i) + 1) - 1] = w[i];
  for (size_t i = 0; i < b.size(); ++i)
    pts[point_of(Side::Black, static_cast<int>(i) + 1) - 1] = -b[i];
  return Position::from_points(pts, to_move);
}

}  // namespace nardy::testing
