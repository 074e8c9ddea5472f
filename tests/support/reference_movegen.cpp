#include "tests/support/reference_movegen.h"

#include <algorithm>
#include <array>
#include <set>
#include <tuple>
#include <vector>

namespace nardy::testing {
namespace {

// The routes written out as in docs/rules.md "Board and coordinates".
constexpr std::array<int, kNumPoints> kWhiteRoute = {24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13,
                                                     12, 11, 10, 9,  8,  7,  6,  5,  4,  3,  2,  1};
constexpr std::array<int, kNumPoints> kBlackRoute = {
    12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13};
constexpr int kFirstHomeIndex = 18;  // route positions 18..23 are the last six points: home

// The board in absolute points: cell[p] > 0 White checkers, < 0 Black checkers on point p.
struct Board {
  std::array<int, kNumPoints + 1> cell{};
  std::array<int, 2> off{};

  int count(Side s, int point) const {
    int v = cell[point];
    return s == Side::White ? std::max(v, 0) : std::max(-v, 0);
  }
  void add(Side s, int point, int n) { cell[point] += s == Side::White ? n : -n; }
  bool operator<(const Board& o) const { return std::tie(cell, off) < std::tie(o.cell, o.off); }
  bool operator==(const Board& o) const { return cell == o.cell && off == o.off; }
};

Board board_of(const Position& pos) {
  Board b;
  for (int p = 1; p <= kNumPoints; ++p) b.cell[p] = pos.at_point(p);
  b.off[0] = pos.off(Side::White);
  b.off[1] = pos.off(Side::Black);
  return b;
}

bool holds_forbidden_block(const Board& b, Side s) {
  const Side opp = ~s;
  const auto& opp_route = reference_route(opp);
  for (int first = 0; first + 6 <= kNumPoints; ++first) {
    bool block = true;
    for (int k = 0; k < 6; ++k) block = block && b.count(s, opp_route[first + k]) > 0;
    if (!block) continue;
    // Allowed if an opposing checker is already past the block's last point along its route,
    // or has been borne off.
    bool passed = b.off[index_of(opp)] > 0;
    for (int i = first + 6; i < kNumPoints; ++i) passed = passed || b.count(opp, opp_route[i]) > 0;
    if (!passed) return true;
  }
  return false;
}

// Longest run of points held by `s` along the opponent's route.
int longest_run(const Board& b, Side s) {
  int best = 0, run = 0;
  for (int p : reference_route(~s)) {
    run = b.count(s, p) > 0 ? run + 1 : 0;
    best = std::max(best, run);
  }
  return best;
}

bool all_home(const Board& b, Side s) {
  const auto& route = reference_route(s);
  for (int i = 0; i < kFirstHomeIndex; ++i)
    if (b.count(s, route[i]) > 0) return false;
  return true;
}

// Plays one step of `die` for the checker on `point` if it is legal; returns false otherwise.
// `head_left` is how many more checkers may still leave the head this turn.
bool try_step(Board& b, Side s, int point, int die, int& head_left, ReferenceNotes* notes) {
  ReferenceNotes ignored;
  ReferenceNotes& n = notes ? *notes : ignored;
  const auto& route = reference_route(s);
  const int i = route_index_of(s, point);
  if (b.count(s, point) == 0) return false;
  if (i == 0 && head_left == 0) {  // head rule
    ++n.head_rule_stops;
    return false;
  }
  const int target = i + die;
  Board next = b;
  if (target < kNumPoints) {
    const int to = route[target];
    if (next.count(~s, to) > 0) {  // a point held by the opponent is closed
      ++n.closed_point_stops;
      return false;
    }
    next.add(s, point, -1);
    next.add(s, to, 1);
    if (holds_forbidden_block(next, s)) {
      ++n.block_stops;
      return false;
    }
    if (longest_run(next, s) >= 6) ++n.allowed_blocks;
  } else {
    if (!all_home(b, s)) return false;
    if (target > kNumPoints) {
      // Overshoot: only from the highest occupied home point (no checker further back).
      for (int k = 0; k < i; ++k)
        if (b.count(s, route[k]) > 0) {
          ++n.overshoot_stops;
          return false;
        }
      ++n.overshoot_bear_offs;
    } else {
      ++n.exact_bear_offs;
    }
    next.add(s, point, -1);
    next.off[index_of(s)] += 1;
  }
  if (i == 0) --head_left;
  b = next;
  return true;
}

struct Leaf {
  Board board;
  int dice_used = 0;
  bool used_high = false;
};

struct Search {
  ReferenceNotes* notes = nullptr;
  Side mover;
  int total_dice = 2;
  int high = 0;
  bool is_double = false;
  std::vector<Leaf> leaves;
  std::set<std::tuple<Board, int, std::vector<int>>> seen;

  void run(const Board& b, int head_left, std::vector<int> remaining) {
    // The same board with the same dice left and the same head allowance has the same
    // continuations and the same leaf records: explore it once.
    if (!seen.insert({b, head_left, remaining}).second) return;
    bool any = false;
    for (size_t k = 0; k < remaining.size(); ++k) {
      if (k > 0 && remaining[k] == remaining[k - 1]) continue;  // same die value again
      const int die = remaining[k];
      for (int point = 1; point <= kNumPoints; ++point) {
        Board next = b;
        int next_head_left = head_left;
        if (!try_step(next, mover, point, die, next_head_left, notes)) continue;
        any = true;
        std::vector<int> rest = remaining;
        rest.erase(rest.begin() + static_cast<long>(k));
        if (next.off[index_of(mover)] == kNumCheckers) {
          // The last checker is off: the game ends and the unused dice are void.
          leaves.push_back({next, total_dice, true});
          if (notes) ++notes->game_ends;
        } else {
          run(next, next_head_left, rest);
        }
      }
    }
    if (!any) {
      const int used = total_dice - static_cast<int>(remaining.size());
      bool used_high = !is_double && used == 1 &&
                       std::find(remaining.begin(), remaining.end(), high) == remaining.end();
      leaves.push_back({b, used, used_high});
    }
  }
};

}  // namespace

const std::array<int, kNumPoints>& reference_route(Side s) {
  return s == Side::White ? kWhiteRoute : kBlackRoute;
}

void ReferenceNotes::add(const ReferenceNotes& o) {
  head_rule_stops += o.head_rule_stops;
  head_exception += o.head_exception;
  block_stops += o.block_stops;
  allowed_blocks += o.allowed_blocks;
  closed_point_stops += o.closed_point_stops;
  exact_bear_offs += o.exact_bear_offs;
  overshoot_bear_offs += o.overshoot_bear_offs;
  overshoot_stops += o.overshoot_stops;
  game_ends += o.game_ends;
  partial += o.partial;
  larger_die_only += o.larger_die_only;
  smaller_die_only += o.smaller_die_only;
  passes += o.passes;
}

int route_index_of(Side s, int point) {
  const auto& route = reference_route(s);
  for (int i = 0; i < kNumPoints; ++i)
    if (route[i] == point) return i;
  return -1;
}

bool reference_has_forbidden_block(const Position& pos, Side s) {
  return holds_forbidden_block(board_of(pos), s);
}

int reference_head_allowance(const Position& pos, Dice dice, const Rules& rules) {
  const Side s = pos.side_to_move();
  const auto& route = reference_route(s);
  if (rules.head_exception == HeadException::None) return 1;
  if (!dice.is_double()) return 1;
  const int d = dice.d1;
  if (d != 6 && d != 4 && d != 3) return 1;
  Board b = board_of(pos);
  if (b.count(s, route[0]) != kNumCheckers) return 1;
  if (rules.head_exception == HeadException::Standard) return 2;
  // Strict: let one head checker run alone; the second is allowed only if the run is stopped
  // by the opponent's head point itself.
  const int opp_head = reference_route(~s)[0];
  int point = route[0];
  int head_left = 1;
  for (int step = 0; step < 4; ++step) {
    Board next = b;
    if (!try_step(next, s, point, d, head_left, nullptr)) {
      const int i = route_index_of(s, point) + d;
      return i < kNumPoints && route[i] == opp_head && b.count(~s, opp_head) > 0 ? 2 : 1;
    }
    b = next;
    point = route[route_index_of(s, point) + d];
  }
  return 1;
}

std::vector<Position> reference_results(const Position& pos, Dice dice, const Rules& rules,
                                        ReferenceNotes* notes) {
  ReferenceNotes local;
  const Side mover = pos.side_to_move();
  const Board start = board_of(pos);
  Search search;
  search.mover = mover;
  search.notes = &local;
  search.is_double = dice.is_double();
  search.high = std::max(dice.d1, dice.d2);
  std::vector<int> dice_list =
      search.is_double ? std::vector<int>(4, dice.d1)
                       : std::vector<int>{std::min(dice.d1, dice.d2), std::max(dice.d1, dice.d2)};
  search.total_dice = static_cast<int>(dice_list.size());
  const int allowance = reference_head_allowance(pos, dice, rules);
  if (allowance > 1) ++local.head_exception;
  if (start.off[index_of(mover)] < kNumCheckers) search.run(start, allowance, dice_list);

  int most = 0;
  bool high_possible = false;
  for (const Leaf& l : search.leaves) most = std::max(most, l.dice_used);
  for (const Leaf& l : search.leaves)
    high_possible = high_possible || (l.dice_used == most && l.used_high);
  std::set<Board> boards;
  for (const Leaf& l : search.leaves) {
    if (l.dice_used != most) continue;
    if (!search.is_double && most == 1 && high_possible && !l.used_high) {
      ++local.larger_die_only;
      continue;
    }
    boards.insert(l.board);
  }
  if (most == 0) boards = {start};  // pass
  if (most == 0) ++local.passes;
  if (most > 0 && most < search.total_dice) ++local.partial;
  if (!search.is_double && most == 1 && !high_possible) ++local.smaller_die_only;
  if (local.larger_die_only > 0) local.larger_die_only = 1;  // count calls, not leaves
  if (notes) notes->add(local);

  std::vector<Position> out;
  for (const Board& b : boards) {
    std::array<int, kNumPoints> points{};
    for (int p = 1; p <= kNumPoints; ++p) points[p - 1] = b.cell[p];
    out.push_back(Position::from_points(points, ~mover));
  }
  std::sort(out.begin(), out.end(),
            [](const Position& a, const Position& b) { return a.points() < b.points(); });
  return out;
}

}  // namespace nardy::testing
