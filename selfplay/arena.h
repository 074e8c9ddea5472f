// selfplay/arena.h — matches between two agents with mirrored dice, and their statistics.
//
// Games come in pairs that share one dice sequence: in the first A plays White, in the second
// B plays White (colours swapped, same dice), which cancels most of the dice luck. Points are
// from A's side: +1/+2 for A's oin/mars, -1/-2 for B's, 0 for a draw. The per-pair mean is
// the unit of the confidence interval (pairs are independent; games within a pair are not).
//
// Threads: pairs are dealt to T threads; each thread makes its own agents through the
// factories. Pair i always uses dice stream i of the seed, so results do not depend on T
// (agents with their own randomness use stream i too).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/rules.h"
#include "selfplay/agent.h"

namespace nardy {

using AgentMaker = std::function<std::unique_ptr<Agent>()>;

struct SprtOptions {
  double elo0 = 0, elo1 = 5;  // H0: elo <= elo0, H1: elo >= elo1
  double alpha = 0.05, beta = 0.05;
};

struct ArenaOptions {
  int64_t games = 1000;  // rounded up to an even number (pairs)
  int threads = 1;
  uint64_t seed = 1;
  Rules rules;
  std::optional<SprtOptions> sprt;  // stop early with a verdict
  // Called from worker threads after each finished pair (may be empty).
  std::function<void(int64_t games_done)> progress;
};

struct ArenaResult {
  int64_t games = 0;
  int64_t a_wins = 0, a_oin = 0, a_mars = 0;
  int64_t b_wins = 0, b_oin = 0, b_mars = 0;
  int64_t draws = 0;
  double a_points = 0;                 // total points for A
  double a_points_per_game = 0;
  double ci95_low = 0, ci95_high = 0;  // 95% CI of a_points_per_game (pair-based)
  double a_win_rate = 0;               // wins + half draws, per game
  double elo = 0, elo_ci95_low = 0, elo_ci95_high = 0;  // from the win rate
  std::string sprt_verdict;            // "", "H0", "H1" or "inconclusive"
  std::vector<int> pair_points;        // A's points in each pair (sum of its two games)
  std::string to_json() const;
};

ArenaResult run_arena(const AgentMaker& a, const AgentMaker& b, const ArenaOptions& options);
// Convenience: agents from spec strings (selfplay/agent.h).
ArenaResult run_arena(const std::string& spec_a, const std::string& spec_b, const ArenaOptions& options);

}  // namespace nardy
