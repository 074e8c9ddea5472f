// selfplay/tables/bearoff_index.h — a dense index of one side's arrangements on its last N points.
//
// An arrangement is the counts c[0..N-1] of one side's checkers on its route coordinates 1..N
// with c[0] + ... + c[N-1] <= 15 (the rest borne off). There are C(N + 15, N) of them; the index
// is their rank in lexicographic order of (c[0], c[1], ...), so index 0 is the empty board
// (all borne off) and the index is a bijection onto 0 .. count - 1.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "core/types.h"

namespace nardy {

inline constexpr int kMaxBearoffPoints = 12;  // a race keeps every checker at r <= 12 (race.h)

using Arrangement = std::array<uint8_t, kMaxBearoffPoints>;  // c[r - 1], entries >= N are 0

class BearoffIndex {
 public:
  // Throws Error unless 1 <= points <= kMaxBearoffPoints.
  explicit BearoffIndex(int points);

  int points() const { return points_; }
  // Number of arrangements of up to 15 checkers on `points` points.
  uint32_t size() const { return ways_[static_cast<std::size_t>(points_)][kNumCheckers]; }
  // The rank of `a` (its entries at r > points must be 0; sum <= 15).
  uint32_t rank(const Arrangement& a) const;
  Arrangement unrank(uint32_t index) const;

 private:
  int points_;
  // ways_[n][k]: arrangements of at most k checkers on n points = C(n + k, n).
  std::array<std::array<uint32_t, kNumCheckers + 1>, kMaxBearoffPoints + 1> ways_{};
};

}  // namespace nardy
