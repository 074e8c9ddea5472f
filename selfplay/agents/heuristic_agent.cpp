#include "selfplay/agents/heuristic_agent.h"

namespace nardy {

double block_pressure(const Position& pos, Side blocker, Side victim) {
  // Walk the victim's route from its home end (u = 1) backwards to its head (u = 24),
  // keeping a running count of victim checkers behind each point: behind[u] = checkers at
  // victim routes > u.
  int behind_total = pos.on_board(victim);
  double total = 0;
  int run = 0;
  int behind_at_run_top = 0;
  int seen = 0;  // victim checkers at routes <= u
  for (int u = 1; u <= kNumPoints; ++u) {
    seen += pos.count(victim, u);
    const bool held = pos.count(blocker, opponent_route(u)) > 0;
    if (held) {
      ++run;
      behind_at_run_top = behind_total - seen;
    }
    if ((!held || u == kNumPoints) && run > 0) {
      total += static_cast<double>(run * run) * behind_at_run_top / kNumCheckers;
      run = 0;
    }
  }
  return total;
}

double heuristic_score(const Position& pos, Side mover, const HeuristicWeights& w) {
  double score = -w.pip * pos.pips(mover) + w.off * pos.off(mover) - w.head * pos.on_head(mover);
  for (int r = 1; r < kHeadRoute; ++r) {
    const int n = pos.count(mover, r);
    if (n == 0) continue;
    if (r > kHomeSize) {
      score += w.outfield_point;
      if (n > 3) score -= w.stack_outfield * (n - 3);
    } else {
      score += w.home_point;
      if (n > 4) score -= w.stack_home * (n - 4);
    }
  }
  score += w.block * block_pressure(pos, mover, ~mover);
  score -= w.blocked * block_pressure(pos, ~mover, mover);
  return score;
}

size_t HeuristicAgent::choose(const Position& pos, Dice, const MoveList& moves, Rng&) {
  if (moves.size() == 1) return 0;
  const Side mover = pos.side_to_move();
  size_t best = 0;
  double best_score = heuristic_score(moves[0].position, mover);
  for (size_t i = 1; i < moves.size(); ++i) {
    const double s = heuristic_score(moves[i].position, mover);
    if (s > best_score) {
      best_score = s;
      best = i;
    }
  }
  return best;
}

}  // namespace nardy
