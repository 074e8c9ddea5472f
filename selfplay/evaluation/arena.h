// selfplay/evaluation/arena.h — matches between two agents with mirrored dice, and their
// statistics.
//
// Games come in pairs that share one dice sequence: in the first A plays White, in the second
// B plays White (colours swapped, same dice), which cancels most of the dice luck. Points are
// from A's side: +1/+2 for A's oin/mars, -1/-2 for B's, 0 for a draw. The per-pair mean is
// the unit of the confidence interval (pairs are independent; games within a pair are not).
//
// Threads: pairs are dealt to T threads; each thread makes its own agents through the
// factories. Pair i always uses dice stream i of the seed, so results do not depend on T
// (agents with their own randomness use stream i too; agents must not carry randomness or
// results-changing state from one game to the next — caches of exact values are fine).
//
// Statistics (selfplay/evaluation/stats.h): a_points_per_game's CI is mean ± t(0.975, pairs-1)·se
// of the per-pair means (pair_points / 2). The win rate counts a draw as half a win; the Elo and
// its CI come from the per-pair scores (each game 1 / 0.5 / 0, averaged over the pair) through
// elo_from_score(). The SPRT (if requested) runs on those pair scores after every pair, in
// pair order, so its stopping point — and the whole result — is the same for any T.
//
// Ranks (`world`, selfplay/distributed/world.h): the pairs are split into one contiguous block
// per rank (block_of), each rank plays its block on its threads, and the ranks all-gather the
// per-game points and turns; every rank then holds the whole result, the same bits as one
// process playing every pair. An SPRT is decided afterwards on the pairs in order (the ranks
// play their whole blocks), so the verdict and the figures equal the single process's; only
// the work done past the stopping point is wasted. A failure on any rank throws on every rank.
// `progress` counts this rank's games.
//
// Stopping on request (`should_stop`, selfplay/search/stop.h): polled before every pair and,
// through the agents, before every move. Once it returns true no pair starts, the pairs being
// played are abandoned, and the result covers the pairs finished from pair 0 on without a gap (so
// it equals the first pairs of the full match) with `stopped` set.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/game.h"
#include "core/random.h"
#include "core/rules.h"
#include "selfplay/agents/agent.h"
#include "selfplay/distributed/world.h"
#include "selfplay/search/stop.h"

namespace nardy {

struct SprtOptions {
  double elo0 = 0, elo1 = 5;  // H0: elo <= elo0, H1: elo >= elo1
  double alpha = 0.05, beta = 0.05;
  int64_t min_pairs = 10;  // no verdict before this many pairs (the variance needs a sample)
};

struct ArenaOptions {
  int64_t games = 1000;  // rounded up to an even number (pairs)
  int threads = 1;
  uint64_t seed = 1;
  Rules rules;
  std::optional<SprtOptions> sprt;  // stop early with a verdict
  // Called from worker threads after each finished pair (may be empty).
  std::function<void(int64_t games_done)> progress;
  // ---- Extensions ----
  ShouldStop should_stop;  // see the header comment; empty: never stops
  World* world = nullptr;  // ranks sharing the pairs (see above); null: this process alone
};

struct ArenaResult {
  int64_t games = 0;
  int64_t a_wins = 0, a_oin = 0, a_mars = 0;
  int64_t b_wins = 0, b_oin = 0, b_mars = 0;
  int64_t draws = 0;
  double a_points = 0;  // total points for A
  double a_points_per_game = 0;
  double ci95_low = 0, ci95_high = 0;                   // 95% CI of a_points_per_game (pair-based)
  double a_win_rate = 0;                                // wins + half draws, per game
  double elo = 0, elo_ci95_low = 0, elo_ci95_high = 0;  // from the win rate
  std::string sprt_verdict;                             // "", "H0", "H1" or "inconclusive"
  std::vector<int> pair_points;  // A's points in each pair (sum of its two games)

  // ---- Extensions ----
  int64_t pairs = 0;                // games / 2
  std::vector<int> game_points;     // A's points per game: [2i] A White, [2i+1] B White
  int64_t turns = 0;                // turns played over all games (passes included)
  std::string a_spec, b_spec;       // spec() of the agents
  std::optional<SprtOptions> sprt;  // the test that was run, if any
  double sprt_llr = 0, sprt_lower = 0, sprt_upper = 0;  // final LLR and Wald bounds
  bool stopped = false;                                 // should_stop ended the match early
  // The rules that differ from the defaults (Rules::non_default; "" for the defaults), stated
  // by to_text(); not part of the JSON.
  std::string rules;

  // The one JSON format of a match result, written by `nardy eval --json`, in each match of a
  // tournament's JSON and for each opponent of a training evaluation (metrics.jsonl,
  // state.json): an object with every field above under its own name (a_spec, b_spec, games,
  // pairs, a_wins, a_oin, a_mars, b_wins, b_oin, b_mars, draws, a_points, a_points_per_game,
  // ci95_low, ci95_high, a_win_rate, elo, elo_ci95_low, elo_ci95_high, turns,
  // mean_turns_per_game, stopped; "sprt" {elo0, elo1, alpha, beta, llr, lower, upper, verdict}
  // when a test ran), infinite CI ends (one pair) as null, and with `per_game` the lists
  // pair_points and game_points. Written through nlohmann-json.
  std::string to_json(bool per_game = true) const;
  // Reads that format back (null CI ends as infinities; missing per-game lists stay empty).
  // Throws Error naming `source` for text that is not such an object.
  static ArenaResult from_json(std::string_view text, const std::string& source);
  // A short human-readable report (counts, points per game with CI, win rate, Elo, SPRT).
  std::string to_text() const;
};

// Statistics of finished games: `game_points` holds A's points of each game, pairs in order
// ([2i] A White, [2i+1] B White). Fills every field but the specs and turns.
ArenaResult arena_statistics(const std::vector<int>& game_points,
                             const std::optional<SprtOptions>& sprt);

// The dice stream of pair `pair` for `seed` (both games of the pair replay it) and the agents'
// stream for game `game` (0 or 1) of the pair.
Rng arena_dice_rng(uint64_t seed, int64_t pair);
Rng arena_agent_rng(uint64_t seed, int64_t pair, int game);

// Plays pair `pair`: game 0 with A as White, game 1 with B as White, on the same dice.
// Returns A's points in each game; `records` (if given) receives both games.
struct PairPlay {
  int a_points[2] = {0, 0};
  int turns[2] = {0, 0};
};
PairPlay play_pair(Agent& a, Agent& b, const Rules& rules, uint64_t seed, int64_t pair,
                   Game* records = nullptr /* array of 2, or null */);

ArenaResult run_arena(const AgentMaker& a, const AgentMaker& b, const ArenaOptions& options);
// Convenience: agents from spec strings (selfplay/agents/agent.h).
ArenaResult run_arena(const std::string& spec_a, const std::string& spec_b,
                      const ArenaOptions& options);

}  // namespace nardy
