#include "tests/support/position_sampler.h"

#include <algorithm>
#include <array>

#include "core/game.h"
#include "core/movegen.h"
#include "tests/support/reference_movegen.h"

namespace nardy::testing {
namespace {

constexpr int kMaxTurns = 3000;  // a safety net: every game ends long before this

// Longest run of points held by `s` along the opponent's route (what a block is made of).
int longest_run(const Position& pos, Side s) {
  const auto& route = reference_route(~s);
  int best = 0, run = 0;
  for (int p : route) {
    run = pos.count(s, route_of(s, p)) > 0 ? run + 1 : 0;
    best = std::max(best, run);
  }
  return best;
}

int points_held(const Position& pos, Side s) {
  int n = 0;
  for (int r = 1; r <= kNumPoints; ++r) n += pos.count(s, r) > 0;
  return n;
}

size_t choose(const MoveList& moves, Side mover, Policy policy, Rng& rng) {
  if (moves.size() == 1) return 0;
  if (policy == Policy::Mixed) policy = static_cast<Policy>(rng.below(3));
  if (policy == Policy::Uniform) return rng.below(static_cast<uint32_t>(moves.size()));
  // A noisy greedy choice: the best score, ties and near-ties broken at random.
  size_t best = 0;
  double best_score = -1e9;
  for (size_t i = 0; i < moves.size(); ++i) {
    const Position& p = moves[i].position;
    double score = policy == Policy::Race ? -p.pips(mover) + 3.0 * p.off(mover)
                                          : 10.0 * std::min(longest_run(p, mover), 6) +
                                                points_held(p, mover) - 0.05 * p.pips(mover);
    score += 2.0 * rng.uniform();
    if (score > best_score) best_score = score, best = i;
  }
  return best;
}

// A board under construction, by route index per side (0 = head, 18..23 = home).
struct Builder {
  std::array<int, kNumPoints> points{};  // absolute, index p-1, White positive
  std::array<int, 2> placed{};

  int at(int p) const { return points[p - 1]; }
  bool free_for(Side s, int p) const { return s == Side::White ? at(p) >= 0 : at(p) <= 0; }
  // Places one checker of `s` at route index `i` if the point is not held by the other side.
  bool place(Side s, int i) {
    if (placed[index_of(s)] >= kNumCheckers) return false;
    int p = reference_route(s)[i];
    if (!free_for(s, p)) return false;
    points[p - 1] += s == Side::White ? 1 : -1;
    ++placed[index_of(s)];
    return true;
  }
  // Places up to n checkers of `s` at random route indices in [lo, hi].
  void scatter(Rng& rng, Side s, int n, int lo, int hi) {
    for (int k = 0, tries = 0; k < n && tries < 200; ++tries)
      if (place(s, lo + static_cast<int>(rng.below(static_cast<uint32_t>(hi - lo + 1))))) ++k;
  }
  Position build(Side to_move) const { return Position::from_points(points, to_move); }
};

Side random_side(Rng& rng) {
  return rng.below(2) ? Side::Black : Side::White;
}

// How many checkers a side keeps on the board: often all 15, otherwise 1..14.
int random_on_board(Rng& rng) {
  return rng.below(3) == 0 ? kNumCheckers : 1 + static_cast<int>(rng.below(14));
}

Position try_scatter(Rng& rng, Scatter theme) {
  Builder b;
  const Side me = random_side(rng);
  const Side opp = ~me;
  switch (theme) {
    case Scatter::Any: {
      b.scatter(rng, me, random_on_board(rng), 0, 23);
      b.scatter(rng, opp, random_on_board(rng), 0, 23);
      break;
    }
    case Scatter::BearOff: {
      // The mover is home (now or after a step or two); opposing checkers sit in its home and
      // just outside it, where they close points to moves inside home.
      const int opp_in_my_home = static_cast<int>(rng.below(5));
      for (int k = 0; k < opp_in_my_home; ++k) {
        // The mover's home points are the opponent's route indices 6..11.
        b.place(opp, 6 + static_cast<int>(rng.below(6)));
      }
      const int on_board = random_on_board(rng);
      const int outside = rng.below(3) == 0 ? 1 + static_cast<int>(rng.below(2)) : 0;
      b.scatter(rng, me, outside, 12, 17);
      b.scatter(rng, me, on_board - outside, 18, 23);
      int rest = rng.below(2) ? kNumCheckers : 1 + static_cast<int>(rng.below(14));
      b.scatter(rng, opp, rest - b.placed[index_of(opp)], 0, 23);
      break;
    }
    case Scatter::Head: {
      // All (or nearly all) of the mover on its head; the opponent on its head and around.
      const int on_head =
          rng.below(4) == 0 ? kNumCheckers - 1 - static_cast<int>(rng.below(3)) : kNumCheckers;
      for (int k = 0; k < on_head; ++k) b.place(me, 0);
      const int opp_head =
          rng.below(3) == 0 ? static_cast<int>(rng.below(15)) : 14 + static_cast<int>(rng.below(2));
      for (int k = 0; k < opp_head; ++k) b.place(opp, 0);
      b.scatter(rng, opp, static_cast<int>(rng.below(4)), 0, 23);
      b.scatter(rng, me, kNumCheckers - on_head, 1, 23);
      break;
    }
    case Scatter::Blocks: {
      // A run of 4 or 5 points along the opponent's route with spare checkers just behind it,
      // so one step can make a six-block; the opponent ahead of it, behind it, or off.
      const auto& opp_route = reference_route(opp);
      const int len = 4 + static_cast<int>(rng.below(2));
      const int first = static_cast<int>(rng.below(kNumPoints - len + 1));
      for (int k = 0; k < len; ++k) {
        int p = opp_route[first + k];
        int i = route_index_of(me, p);
        b.place(me, i);
        if (rng.below(2)) b.place(me, i);
      }
      const int opp_ahead = rng.below(3) == 0 ? 1 : 0;
      if (opp_ahead && first + len < kNumPoints)
        b.scatter(rng, opp, 1, first + len, kNumPoints - 1);
      if (first > 0) b.scatter(rng, opp, 1 + static_cast<int>(rng.below(8)), 0, first - 1);
      b.scatter(rng, me, static_cast<int>(rng.below(10)), 0, 23);
      if (rng.below(4) == 0) b.scatter(rng, opp, kNumCheckers - b.placed[index_of(opp)], 0, 23);
      break;
    }
  }
  return b.build(rng.below(8) == 0 ? opp : me);
}

}  // namespace

Dice random_dice(Rng& rng) {
  return roll_dice(rng);
}

std::vector<Position> game_positions(Rng& rng, const Rules& rules, Policy policy) {
  std::vector<Position> out;
  Position pos = Position::start();
  MoveList moves;
  for (int turn = 0; turn < kMaxTurns && !game_outcome(pos, rules); ++turn) {
    out.push_back(pos);
    Dice dice = roll_turn(rng, rules, turn == 0);
    generate_moves(pos, dice, rules, moves);
    pos = moves[choose(moves, pos.side_to_move(), policy, rng)].position;
  }
  return out;
}

Position random_game_position(uint64_t seed, int turns) {
  Rng rng(seed);
  Game g;
  for (int t = 0; t < turns && !g.is_over(); ++t) {
    Dice d = g.roll(rng);
    MoveList ms = g.legal(d);
    g.play(d, ms[rng.below(static_cast<uint32_t>(ms.size()))]);
  }
  return g.position();
}

Position scattered_position(Rng& rng, Scatter theme) {
  for (;;) {
    Position p = try_scatter(rng, theme);
    if (p.is_ok() && p.on_board(p.side_to_move()) > 0 && p.on_board(~p.side_to_move()) > 0)
      return p;
  }
}

}  // namespace nardy::testing
