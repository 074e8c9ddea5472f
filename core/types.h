// core/types.h — the vocabulary of the engine: sides, points, route coordinates, dice.
//
// Coordinates (docs/rules.md "Board and coordinates"):
//  * A *point* is an absolute board number 1..24 as in the seeds' figure and the POS format.
//  * A *route* coordinate r = 24..1 is a point seen from one side's own path: r = 24 is that
//    side's head, r = 1..6 its home, and a die d moves a checker from r to r - d; r <= 0 means
//    borne off. White's r is the point number; Black's r is point + 12 for points 1..12 and
//    point - 12 for points 13..24. The map is an involution (route_of == point_of), and the
//    opponent's route coordinate of the point the mover calls r is opponent_route(r) = r ± 12.
#pragma once

#include <cstdint>

namespace nardy {

enum class Side : uint8_t { White = 0, Black = 1 };

constexpr Side operator~(Side s) {
  return s == Side::White ? Side::Black : Side::White;
}
constexpr int index_of(Side s) {
  return static_cast<int>(s);
}
constexpr char side_letter(Side s) {
  return s == Side::White ? 'w' : 'b';
}

constexpr int kNumPoints = 24;
constexpr int kNumCheckers = 15;
constexpr int kHomeSize = 6;                           // route 1..6 is home
constexpr int kHeadRoute = 24;                         // route coordinate of a side's head
constexpr int kStartPips = kNumCheckers * kHeadRoute;  // 360

// Absolute point of route coordinate r (1..24) for side s, and its inverse (the same map).
constexpr int point_of(Side s, int r) {
  return s == Side::White ? r : (r > 12 ? r - 12 : r + 12);
}
constexpr int route_of(Side s, int point) {
  return point_of(s, point);
}

// The opponent's route coordinate of the point that the mover calls r.
constexpr int opponent_route(int r) {
  return r > 12 ? r - 12 : r + 12;
}

// A roll of two dice, each 1..6. Order is kept for display only; movegen treats 6-5 and 5-6
// alike. A double gives four steps of its number, otherwise two steps.
struct Dice {
  uint8_t d1 = 1, d2 = 1;
  constexpr bool is_double() const { return d1 == d2; }
  constexpr int high() const { return d1 > d2 ? d1 : d2; }
  constexpr int low() const { return d1 > d2 ? d2 : d1; }
  constexpr int num_steps() const { return is_double() ? 4 : 2; }
  constexpr bool valid() const { return d1 >= 1 && d1 <= 6 && d2 >= 1 && d2 <= 6; }
  constexpr bool operator==(const Dice&) const = default;
};

// The 21 distinct rolls with their probabilities in 36ths (doubles 1, others 2): the chance
// node of a turn, used by search and by stratified rollouts.
struct WeightedRoll {
  Dice dice;
  int weight36;
};
inline constexpr WeightedRoll kDistinctRolls[21] = {
    {{1, 1}, 1}, {{2, 1}, 2}, {{2, 2}, 1}, {{3, 1}, 2}, {{3, 2}, 2}, {{3, 3}, 1}, {{4, 1}, 2},
    {{4, 2}, 2}, {{4, 3}, 2}, {{4, 4}, 1}, {{5, 1}, 2}, {{5, 2}, 2}, {{5, 3}, 2}, {{5, 4}, 2},
    {{5, 5}, 1}, {{6, 1}, 2}, {{6, 2}, 2}, {{6, 3}, 2}, {{6, 4}, 2}, {{6, 5}, 2}, {{6, 6}, 1}};

}  // namespace nardy
