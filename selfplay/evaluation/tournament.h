// selfplay/evaluation/tournament.h — round robins between agents and a ratings table.
//
// Every pair of players (i < j) plays one arena match (selfplay/evaluation/arena.h: mirrored dice
// pairs) of `games` games; match k = (i, j) in lexicographic order uses seed `seed + k`. From each
// match comes A's Elo (from the win rate) with a standard error by the delta method on the
// pair-score standard error:
//     se_elo = 400 / ln 10 · se_s / (s (1 - s)),
// where s is smoothed as (wins + draws/2 + 1/2) / (games + 1) so that a clean sweep still has a
// finite rating and error. Ratings solve the weighted least squares of all results
// (selfplay/evaluation/stats.h least_squares_ratings) with the first player anchored at 0; their
// CIs are ± 1.96 se. Points per game (the equity scale) are reported beside Elo in the cross table.
//
// Stopping on request (`should_stop`, selfplay/search/stop.h): the hook goes to every match, so the
// match being played ends after the pairs finished so far (ArenaOptions::should_stop) and no
// further match starts. The result then holds the matches played (a stopped match with at
// least one pair counts with its pairs), ratings from those (players without a game get
// NaN), and `stopped`.
//
// Players may be given as a run directory: it expands to net:DIR/ckpt-*.pt, ordered by the
// number in the name (ckpt-2 before ckpt-10).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "selfplay/evaluation/arena.h"
#include "selfplay/evaluation/stats.h"

namespace nardy {

struct TournamentOptions {
  int64_t games = 200;  // per pairing (even)
  int threads = 1;
  uint64_t seed = 1;
  Rules rules;
  // Called after each finished match (k of n) from the calling thread (may be empty).
  std::function<void(int k, int n, const ArenaResult&)> progress;
  // ---- Extensions ----
  ShouldStop should_stop;  // see the header comment; empty: never stops
  // Ranks sharing every match's pairs (selfplay/evaluation/arena.h); null: this process alone.
  World* world = nullptr;
};

struct TournamentMatch {
  int a = 0, b = 0;
  ArenaResult result;
  double elo = 0, elo_se = 0;  // as used for the ratings (smoothed)
};

struct TournamentResult {
  std::vector<std::string> players;
  std::vector<TournamentMatch> matches;
  std::vector<Rating> ratings;  // per player, anchored at player 0
  bool stopped = false;         // should_stop ended it before every match was played
  std::string rules;            // the rules that differ from the defaults (stated by to_text)
  std::string to_text() const;  // ratings table (best first) and a cross table
  std::string to_csv() const;   // one row per player
  std::string to_json() const;
};

// Replaces each argument that is a directory by net:DIR/ckpt-*.pt (numeric order); other
// arguments are kept. Throws Error for a directory without checkpoints.
std::vector<std::string> expand_tournament_players(const std::vector<std::string>& args);

// Throws Error for fewer than two players or a bad spec (checked before any game).
TournamentResult run_tournament(const std::vector<std::string>& players,
                                const TournamentOptions& options);

// The Elo and its standard error of one match, as described above.
std::pair<double, double> match_elo(const ArenaResult& r);

}  // namespace nardy
