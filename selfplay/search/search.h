// selfplay/search/search.h — static evaluation of candidates and expectimax search over the dice.
//
// Vocabulary (gnubg's):
//   0-ply  a candidate (the position after the mover's move, opponent to move) is valued by the
//          evaluator directly: one batched call for all candidates of a roll.
//   N-ply  a candidate is valued by averaging, over the opponent's 21 distinct rolls weighted by
//          their 36ths (core/types.h kDistinctRolls), the opponent's best reply valued at
//          (N-1)-ply. value(pos, 0) is the static evaluation; for d >= 1
//              value(pos, d) = Σ_roll w/36 · max_{result m} flip(value(m, d - 1)).
//   Move filter (gnubg-style, at every level with d >= 1 below it): all results of a roll are
//          first valued at 0-ply; only the best `filter_keep` within `filter_delta` equity of
//          the best go on to the deeper value; the others are dropped (inside the tree) or keep
//          their 0-ply value (at the root, for display; they rank below every deeper one).
//          Defaults keep=8, delta=0.16: gnubg's 0-ply filter for its 1- and 2-ply analysis.
//   Inner filter: the same rule with its own `inner_keep`, `inner_delta` for the choices
//          inside the tree — every reply chosen within value(pos, d) for d >= 2 (at d = 1 the
//          replies are valued at 0-ply and no filter applies). The root's candidates
//          (score_moves) use filter_keep/filter_delta. The default, inner_keep = 1, chooses
//          each reply inside the tree at 0-ply, as gnubg does (eval.c: FindBestMovePlied(..., 0,
//          ...) / FindBestMoveInEval in EvaluatePositionFull); 8 and 0.16 filter every level
//          like the root.
//
// Perspective: value(pos, d) is from pos's side to move. Evaluator outputs are from each
// position's side to move; Evaluation::flipped() turns a candidate's value into the mover's.
// Probabilities are averaged along with the equity, so every returned Evaluation stays
// consistent (win_mars <= win, ...), and the move chosen at each node maximises equity — or,
// once set_stakes() gives the stakes of a match game (core/match_equity.h), the mover's match
// winning chance Σ P(outcome) · MWC(score after it) by that mover's OutcomeValues: each side
// replies by its own match chance. MWC is linear in the probabilities, so the averaged
// Evaluation of a chance node still gives the node's MWC. The move filter keeps ranking the
// candidates by their 0-ply equity.
//
// Exact values replace the evaluator where the game is decided: a finished game (core/game.h)
// gets its outcome, and under last_roll_draw Black's extra turn after White has finished is
// solved exactly over the 21 rolls (a draw if Black can bear off all, else the loss, mars
// judged after the turn). At the start position under `opening=no_doubles` the chance node
// holds only the 15 non-double rolls.
//
// A node at depth >= 1 generates the results of all its rolls first and values them at 0-ply
// in one batched evaluator call (one base: the node with the other side to move; a position
// reached by two rolls is sent once), then takes each roll's best at depth - 1.
// Exact race values (selfplay/tables/): when SearchOptions::tables is set, a position the table
// covers (a race with every checker on the table's points, BearoffTable::covers) is valued by the
// table's exact odds (selfplay/tables/race_odds.h) at every depth instead of by the evaluator or a
// deeper search; ScoredMove::exact says so. Net agents use the process's default table
// (bearoff_table.h default_bearoff_table) unless their spec says tables=0.
// Estimated race values: when SearchOptions::race_net is set too, the results of a race (all of
// them races) that the table does not cover are valued at 0-ply from the two sides' turn
// distributions, the table's for a side within its points and the race net's for the other
// (selfplay/tables/race_net.h RaceValuer), and so is a race evaluated on its own at 0-ply; deeper
// searches still search them, and they are not exact. The results of any other position keep the
// evaluator's values even when they are races, so that one roll's results are never valued partly
// by the evaluator and partly by the race net: mixed, the two estimators' different biases decide
// whether to break contact (measured: docs/evaluation.md "Race net"). The race net's 0-ply values
// are cached apart from the evaluator's. Net agents use the shipped race net
// (models/race-net.nrn; shipped_models.h default_shipped_race_net) unless their spec says
// race_net=0 or tables=0.
//
// Every value (static and deeper) goes through an EvalCache keyed by (position, depth).
// A Search belongs to one thread; it keeps scratch buffers per depth and allocates nothing
// once they have grown.
#pragma once

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/movegen.h"
#include "core/match_equity.h"
#include "core/random.h"
#include "core/rules.h"
#include "nn/evaluation.h"
#include "selfplay/search/eval_cache.h"
#include "selfplay/tables/bearoff_table.h"
#include "selfplay/tables/race_net.h"

namespace nardy {

// The static (0-ply) evaluation of positions, e.g. a value network (selfplay/search/net_agent.h)
// or, in tests, a hand-written formula. Not thread-safe: one per thread.
class Evaluator {
 public:
  virtual ~Evaluator() = default;
  // out[i] = evaluation of positions[i] from its side to move, for every i. `base` is a
  // position that all of them differ from in few points (the parent board with the other
  // side to move), which an incremental evaluator may exploit; it is only a hint.
  virtual void evaluate(const Position& base, std::span<const Position> positions,
                        std::span<Evaluation> out) = 0;
  virtual std::string name() const = 0;
};

// The knobs of a search, with the defaults every net agent starts from (net_agent.h's options
// hold one SearchOptions).
struct SearchOptions {
  int filter_keep = 8;         // candidates kept per roll for a deeper look (>= 1)
  double filter_delta = 0.16;  // ... and only those within this equity of the best (>= 0)
  int cache_bits = EvalCache::kDefaultBits;  // 2^bits cache slots (0..28; 0 disables the cache)
  const BearoffTable* tables = nullptr;      // exact race values where it covers (not owned)
  const RaceNet* race_net = nullptr;         // estimated values of other races (not owned)
  // At ply 1, a root candidate that passes the filter is valued (1 - blend) x its 1-ply value +
  // blend x its 0-ply value (0..1; 0: the plain 1-ply). An odd ply's values lean the other way
  // from an even ply's; the blend evens them out (net_agent.h `blend`, measured there).
  double blend = 0.6;
  int inner_keep = 1;        // the filter inside the tree (replies below the root's candidates)
  double inner_delta = 0.0;  // ... (see "Inner filter" above)
};

// What is wrong with `options` ("inner filter keep K must be >= 1 (got 0)"), or "" when every
// knob is in range. The Search constructor and the net agents' spec check both use it.
std::string search_options_problem(const SearchOptions& options);

// The defaults with every level of the tree filtered like the root (inner = filter) and no
// 1-ply blend: the search of TD targets (td.target) and of the search's own tests.
SearchOptions uniform_search_options();

// One candidate of a roll, scored from the mover's view.
struct ScoredMove {
  size_t index = 0;  // into the MoveList
  Evaluation eval;   // mover's view
  int ply = 0;  // depth its value was computed at (0, or the requested ply if it passed the filter
                // or is exact)
  bool exact = false;  // a finished game or a race position valued by the table: no error
  double equity() const { return eval.equity(); }
};

// The exact evaluation of `pos` (side to move's view) when the game is decided, else empty:
// a finished game, or (last_roll_draw) Black's last turn after White has finished.
std::optional<Evaluation> exact_evaluation(const Position& pos, const Rules& rules);

// The table's exact race value of `pos` (side to move's view) if `table` is set and covers it.
std::optional<Evaluation> table_evaluation(const BearoffTable* table, const Position& pos,
                                           const Rules& rules);

class Search {
 public:
  // `evaluator` must outlive the Search.
  Search(Evaluator& evaluator, const Rules& rules, const SearchOptions& options = {});

  // value(pos, depth) for pos's side to move (see the header comment). depth >= 0.
  Evaluation evaluate(const Position& pos, int depth);

  // Scores every result of one roll from `pos` (mover's view): all at 0-ply, then the
  // filtered ones at `ply`. `out` is sorted best first (deeper values before 0-ply ones, then
  // by equity, ties by index). `moves` must be the legal results of some roll from pos.
  void score_moves(const Position& pos, const MoveList& moves, int ply,
                   std::vector<ScoredMove>& out);

  // The mover's best result at 0-ply: its index and value (mover's view). No filter.
  std::pair<size_t, Evaluation> best_static(const Position& pos, const MoveList& moves);
  // The candidate score_moves(pos, moves, 0, out) puts first (out[0]), without sorting the others.
  ScoredMove best_scored(const Position& pos, const MoveList& moves);

  // The stakes of the match game being played: replies are chosen by each side's match winning
  // chance instead of equity (see the header comment); empty: by equity. Starts a new cache
  // generation.
  void set_stakes(const std::optional<GameStakes>& stakes);
  const std::optional<GameStakes>& stakes() const { return stakes_; }

  // Statistics for benchmarks and tests.
  const EvalCache& cache() const { return cache_; }
  EvalCache& cache() { return cache_; }
  uint64_t evaluator_positions() const { return evaluator_positions_; }  // sent to the evaluator
  uint64_t evaluator_calls() const { return evaluator_calls_; }
  const SearchOptions& options() const { return options_; }
  const Rules& rules() const { return rules_; }
  Evaluator& evaluator() { return evaluator_; }

 private:
  struct Level {  // scratch of one recursion depth
    MoveList moves;
    std::vector<Position> children;  // every roll's results, roll after roll
    std::vector<int> roll_end;       // children[roll_end[r-1] .. roll_end[r]) are roll r's
    std::vector<Evaluation> evals;   // children's 0-ply values, child's view
    std::vector<int> batch;          // indices sent to the evaluator
    std::vector<Position> batch_positions;
    std::vector<size_t> slots;        // children's cache slots at depth 0
    std::vector<size_t> batch_slots;  // ... of batch_positions
    std::vector<Evaluation> batch_evals;
    std::vector<ScoredMove> scored;
  };
  Level& level(int depth);
  // 0-ply values of `children` (all children of pos) into evals, child's view: decided
  // positions exactly, the rest from the cache or one batched evaluator call. A position that
  // occurs twice is sent once. `one_roll`: the children are one roll's results, all distinct;
  // then, if the cache's generation is empty (no lookup could hit), the cache is left out.
  void static_values(const Position& pos, std::span<const Position> children, Level& lv,
                     bool one_roll = false);
  // The value of a child that is not over but decided without the net: a race the table
  // covers, or Black's last turn under last_roll_draw; nullopt otherwise.
  std::optional<Evaluation> settled_value(const Position& child) const;
  // The race net's value of a race the table does not cover (nullopt without a race net or for
  // any other position); used for the results of a race and for a race on its own at 0-ply.
  std::optional<Evaluation> race_net_value(const Position& pos);
  // lv.batch_evals = the evaluator's values of lv.batch_positions (children of pos).
  void evaluate_batch(const Position& pos, Level& lv);
  // The root's results of one roll as lv.children, valued by static_values.
  void static_values_of(const Position& pos, const MoveList& moves, Level& lv);
  // The mover's best value over children [begin, end) of lv (0-ply values in lv.evals) with
  // the children valued at `depth` (filtered).
  Evaluation best_child(int begin, int end, int depth, Level& lv);
  // What the mover (`mover`'s view of `e`) chooses by: equity, or its match winning chance.
  double choice_value(const Evaluation& e, Side mover) const;

  Evaluator& evaluator_;
  Rules rules_;
  SearchOptions options_;
  EvalCache cache_;
  std::unique_ptr<RaceValuer> race_;  // when options_.race_net is set
  std::vector<std::unique_ptr<Level>> levels_;
  std::optional<GameStakes> stakes_;
  uint64_t evaluator_positions_ = 0, evaluator_calls_ = 0;
};

// Standard normal deviate from the Rng (Box–Muller), for move noise.
double gaussian(Rng& rng);

}  // namespace nardy
