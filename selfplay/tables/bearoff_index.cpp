#include "selfplay/tables/bearoff_index.h"

#include <string>

#include "core/error.h"

namespace nardy {

BearoffIndex::BearoffIndex(int points) : points_(points) {
  if (points < 1 || points > kMaxBearoffPoints)
    throw Error("bear-off index: points must be 1.." + std::to_string(kMaxBearoffPoints) +
                " (got " + std::to_string(points) + ")");
  for (int k = 0; k <= kNumCheckers; ++k) ways_[0][static_cast<size_t>(k)] = 1;
  for (int n = 1; n <= kMaxBearoffPoints; ++n) {
    uint32_t sum = 0;  // ways_[n][k] = sum over j <= k of ways_[n-1][j]
    for (int k = 0; k <= kNumCheckers; ++k) {
      sum += ways_[static_cast<size_t>(n - 1)][static_cast<size_t>(k)];
      ways_[static_cast<size_t>(n)][static_cast<size_t>(k)] = sum;
    }
  }
}

uint32_t BearoffIndex::rank(const Arrangement& a) const {
  uint32_t index = 0;
  int budget = kNumCheckers;
  for (int i = 0; i < points_; ++i) {
    const int rest = points_ - 1 - i;
    for (int j = 0; j < a[static_cast<size_t>(i)]; ++j)
      index += ways_[static_cast<size_t>(rest)][static_cast<size_t>(budget - j)];
    budget -= a[static_cast<size_t>(i)];
  }
  return index;
}

Arrangement BearoffIndex::unrank(uint32_t index) const {
  Arrangement a{};
  int budget = kNumCheckers;
  for (int i = 0; i < points_; ++i) {
    const int rest = points_ - 1 - i;
    int c = 0;
    while (index >= ways_[static_cast<size_t>(rest)][static_cast<size_t>(budget - c)]) {
      index -= ways_[static_cast<size_t>(rest)][static_cast<size_t>(budget - c)];
      ++c;
    }
    a[static_cast<size_t>(i)] = static_cast<uint8_t>(c);
    budget -= c;
  }
  return a;
}

}  // namespace nardy
