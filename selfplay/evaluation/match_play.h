// selfplay/evaluation/match_play.h — matches to N points between two agents, in mirrored pairs.
//
// A match (core/match.h) is played game after game until one player reaches the target; before
// each game both agents are told the game's stakes at the current score
// (Agent::set_game_stakes, from a MatchEquityTable of the outcome model), so score-aware agents
// (net agents unless `match=off`) choose by match winning chance.
//
// Mirrored dice: matches come in pairs. In match 0 of pair i, A is White in game 1; in match 1,
// B is. Game g of both matches replays dice stream (i, g), so as long as the two matches stay
// in step (same scores, hence the same colours game by game), each game is replayed with colours
// swapped, as in the arena (selfplay/evaluation/arena.h). A is player 0 in both.
//
// Statistics: the unit is the pair. A's pair score x_i = (A's match wins in the pair) / 2; the
// win rate is their mean and its 95% CI is mean ± t(0.975, pairs-1)·se of the x_i
// (selfplay/evaluation/stats.h). Pair i always uses its own streams of the seed, so results do
// not depend on the thread count. `should_stop` works as in the arena: the result then covers
// the pairs finished from pair 0 on without a gap, with `stopped` set.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/match.h"
#include "core/match_equity.h"
#include "selfplay/agents/agent.h"
#include "selfplay/search/stop.h"

namespace nardy {

struct MatchOptions {
  int target = 3;         // points to win a match (1..kMaxMatchTarget)
  int64_t matches = 100;  // rounded up to an even number (pairs)
  int threads = 1;
  uint64_t seed = 1;
  Rules rules;
  // The per-game outcome model behind the stakes; empty: GameOutcomeModel::self_play(rules).
  std::optional<GameOutcomeModel> model;
  // Called from worker threads after each finished pair (may be empty).
  std::function<void(int64_t matches_done)> progress;
  ShouldStop should_stop;
};

struct MatchResult {
  int target = 0;
  int64_t matches = 0, pairs = 0;
  int64_t a_wins = 0, b_wins = 0;
  int64_t games = 0;  // games over all matches
  double a_win_rate = 0;
  double ci95_low = 0, ci95_high = 0;  // of a_win_rate, pair-based
  double mean_games_per_match = 0;
  std::vector<int> pair_wins;    // A's match wins in each pair: 0, 1 or 2
  std::vector<int> match_games;  // games of each match: [2i] A White first, [2i+1] B White first
  std::string a_spec, b_spec;
  GameOutcomeModel model;
  bool stopped = false;

  // JSON object with every field above (nlohmann-json); infinite CI ends (one pair) are null.
  std::string to_json() const;
  // A short report: match wins, win rate with its CI, mean games per match.
  std::string to_text() const;
};

// One match of a pair: `a` is player 0; `first_white` (0: A, 1: B) plays White in game 1.
struct MatchPlay {
  MatchScore score{1};  // the final score
  int games = 0;
};
// Plays match `first_white` of pair `pair`. `record` (if given) receives the match's games.
MatchPlay play_match(Agent& a, Agent& b, const MatchEquityTable& table, const Rules& rules,
                     uint64_t seed, int64_t pair, int first_white, Match* record = nullptr);

// Statistics of finished pairs: pair_wins[i] = A's wins in pair i (0..2), match_games as above.
MatchResult match_statistics(int target, const std::vector<int>& pair_wins,
                             const std::vector<int>& match_games);

// Throws Error naming the option on a bad target, count or thread number.
MatchResult run_matches(const AgentMaker& a, const AgentMaker& b, const MatchOptions& options);
// Convenience: agents from spec strings (selfplay/search/agent_kinds.h).
MatchResult run_matches(const std::string& spec_a, const std::string& spec_b,
                        const MatchOptions& options);

}  // namespace nardy
