// selfplay/evaluation/review.h — the review of whole games and matches: every turn of both
// players scored against the best move, errors marked, the luck of every roll, and a summary
// per player and per game (`nardy review`, nardy.review; docs/review.md).
//
// Each turn (a roll and the move played) is analysed as `nardy analyze` analyses one position
// (selfplay/evaluation/analysis.h analyze_moves, with the review's agent and ply): every legal
// result ranked best first. Then, all from the mover's view and in points of equity (there is
// no cube, so "normalised equity" is the equity itself, -2..2):
//
//   error    the best result's equity minus the played one's, as the analysis gives them (0
//            when the played move is the best; the benchmark's loss, position_benchmark.h, with
//            the analysis' values instead of rollouts). A played move that the search's move
//            filter left at 0-ply keeps that 0-ply value, and a loss below zero (its 0-ply value
//            above the best's deeper one) counts as 0. A forced turn (one distinct result,
//            a pass included) has no error and is not a decision.
//   decision a turn whose roll has more than one distinct result (core/movegen.h).
//   mark     of a decision by its error: doubtful >= 0.04, bad >= 0.08, very bad >= 0.16
//            (gnubg's defaults; ReviewOptions::thresholds).
//   luck     of the roll: the mover's best 0-ply value after this roll minus the mean of the
//            same over the 21 rolls (15 on an opening turn under opening=no_doubles):
//              luck(P, d) = f(P, d) − Σ_d' w(d') f(P, d'),  f(P, d) = max_results value0,
//            the rollouts' luck term (selfplay/evaluation/rollout.h, "Luck adjustment"),
//            computed by the same calls (Search::best_static, Search::evaluate(P, 1)) of the
//            reviewing agent's search. Agents without a value network measure no luck (NaN).
//   phase    of the position before the roll (position_benchmark.h phase_of).
//
// In a match record each turn's loss is also given in match winning chance (MWC) at the score
// of its game: the stakes of the game (core/match_equity.h MatchEquityTable with the self-play
// outcome model) turn each result's outcome probabilities into the mover's MWC, and the MWC
// error is the best MWC among the results valued at the analysis' deepest ply minus the played
// one's (>= 0).
//
// Summaries (ErrorTally), per player and game and per phase: turns, decisions (the unforced
// turns), total error, error rate = mean error per decision in millipoints (1/1000 point),
// rating = 500 × mean error per decision (an eXtreme Gammon-like "PR"; bands below), the count
// of each mark, total luck; per player and per game also the result and the luck-adjusted
// result = points won − (own luck − the opponent's luck), in points.
//
// Rating bands (rating_band): gnubg's error-rate bands per decision, 0.002, 0.005, 0.008, 0.012,
// 0.018, 0.026, 0.035 points, times 500:
//   < 1 supernatural, < 2.5 world class, < 4 expert, < 6 advanced, < 9 intermediate,
//   < 13 casual, < 17.5 beginner, else awful.
// They are backgammon's and not calibrated on Long Nardy, which has no cube and fewer close
// decisions in its races: read them as a rough scale, and compare ratings of the same agent.
//
// Determinism: the turns are split between `threads` workers, each with its own agent; every
// turn is analysed from a fresh search cache generation and, for rollout analyses, on its own
// seed (Rng(seed).split(turn number in the record)), so the review does not depend on the
// thread count.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/game.h"
#include "core/match.h"
#include "selfplay/agents/agent.h"
#include "selfplay/evaluation/position_benchmark.h"
#include "selfplay/search/stop.h"

namespace nardy {

enum class Mark { None, Doubtful, Bad, VeryBad };
const char* mark_name(Mark m);  // "", "doubtful", "bad", "very bad"
// The symbol the text report puts beside a marked move: "", "?!", "?", "??".
const char* mark_symbol(Mark m);

struct MarkThresholds {
  double doubtful = 0.04, bad = 0.08, very_bad = 0.16;  // points; increasing, > 0
  Mark mark_of(double error) const;
};

// The band of a rating (see the header comment): "supernatural" ... "awful".
const char* rating_band(double rating);

struct ReviewOptions {
  std::optional<int> ply;        // net agents: the analysis' search depth (0..4) instead of its own
  int64_t rollout_trials = 360;  // agents without a net, or `rollouts`: trials per move (>= 1)
  bool rollouts = false;         // net agents too: every move rolled out (excludes `ply`)
  int threads = 1;               // turns analysed at once (>= 1); the result does not depend on it
  uint64_t seed = 1;
  int alternatives = 5;  // the best results kept per turn (>= 1; the played one is kept too)
  MarkThresholds thresholds;
  bool luck = true;  // measure the luck of every roll (net agents)
  ShouldStop should_stop;
};

// One result of a turn as the analysis valued it (mover's view).
struct ReviewedMove {
  std::string notation;
  Position position;  // after the move
  double equity = 0, win = 0, win_mars = 0, lose_mars = 0, draw = 0, equity_se = 0;
  std::optional<double> mwc;  // the mover's match winning chance after it (matches)
  int ply = 0;                // -1: rolled out
  bool exact = false;
  int rank = 0;  // 1 = best
};

struct TurnReview {
  int game = 0;    // index into Review::games
  int turn = 0;    // index into the game's turns
  int player = 0;  // 0 or 1 (in a game record: 0 = White, 1 = Black)
  Side side = Side::White;
  Position before;
  Dice dice;
  Phase phase = Phase::Contact;
  int legal = 1;          // distinct results of the roll
  bool decision = false;  // legal > 1
  ReviewedMove played;
  ReviewedMove best;
  std::vector<ReviewedMove> alternatives;  // the best few, best first
  double error = 0;                        // >= 0, points
  std::optional<double> mwc_error;         // matches
  Mark mark = Mark::None;
  double luck = 0;  // NaN when not measured
};

// Error and luck figures of a set of turns (one player's, of one phase, ...).
struct ErrorTally {
  int turns = 0, decisions = 0;
  double total_error = 0;
  double total_mwc_error = 0;  // matches
  std::array<int, 3> marks{};  // doubtful, bad, very bad
  double total_luck = 0;       // NaN when not measured
  void add(const TurnReview& t);
  double mean_error() const { return decisions ? total_error / decisions : 0; }
  double error_rate_millipoints() const { return 1000 * mean_error(); }
  double rating() const { return 500 * mean_error(); }
};

struct PlayerSummary {
  ErrorTally all;
  std::array<ErrorTally, 4> phases;     // by Phase
  double result = 0;                    // points won minus points lost (draw: 0)
  double luck_adjusted_result() const;  // result - (own luck - the opponent's luck)
  double opponent_luck = 0;
};

struct GameReview {
  int white_player = 0;
  std::optional<MatchScore> score_before;  // matches
  std::optional<Outcome> outcome;          // empty when unfinished
  std::vector<TurnReview> turns;
  std::array<PlayerSummary, 2> players;
};

struct Review {
  std::string agent_spec, method;
  bool is_match = false;
  int target = 0;  // matches
  std::array<std::string, 2> names;
  Rules rules;
  MarkThresholds thresholds;
  std::vector<GameReview> games;
  std::array<PlayerSummary, 2> players;  // over all games

  // The terminal report: one line per turn (marks beside the moves), the summary table, and a
  // board picture at every marked turn.
  std::string to_text() const;
  // Every number (docs/review.md "JSON").
  std::string to_json() const;
};

// The games to review, with who played them: a game record's games (player 0 White, 1 Black in
// each), or a match's.
struct ReviewInput {
  std::vector<Game> games;
  std::vector<int> white_players;
  std::optional<Match> match;
  std::array<std::string, 2> names{"White", "Black"};
};
ReviewInput review_input_of(const Game& game);
ReviewInput review_input_of(const Match& match);
// A record as text: a match record (core/match.h), one or more game records (core/record.h), or
// a .mat match (core/mat_format.h, replayed under `mat_rules` unless the file has a Rules tag).
// Throws Error naming `source` (a path, or "record") and the line.
ReviewInput read_review_input(std::string_view text, const std::string& source = "record",
                              const Rules& mat_rules = {});

// Reviews every turn of the input with agents from `agent` (one per thread; a NetAgent's search
// values the moves, others roll them out). Throws Error for options out of range or ply without
// a net agent; Stopped if `should_stop` asked.
Review review_games(const ReviewInput& input, const AgentMaker& agent,
                    const ReviewOptions& options);
// The same by agent spec (a bad spec is one Error naming it).
Review review_games(const ReviewInput& input, const std::string& agent_spec,
                    const ReviewOptions& options);

}  // namespace nardy
