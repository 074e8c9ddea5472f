// selfplay/training/td_game.h — one self-play game that trains the net by TD(λ) as it is played.
//
// Both sides are the same network (TD-Gammon, Tesauro 1992/1995). At every turn:
//   1. the dice are rolled (roll_turn(), which applies the opening rule on the first turn) and
//   generate_moves() lists the
//      legal results into a reused MoveList;
//   2. every result is evaluated (from its side to move, the opponent) in one batch through the
//      backend's incremental path, with the current board seen by the opponent
//      (pos.with_side_to_move(~mover)) as the base: the base is the state's inputs seen by the
//      other side (raw-v1 swaps them; other encoders encode it) and each result is encoded
//      only as its differences from it (Encoder::fill_difference, a few units for raw-v1), which
//      the fast backend adds to the base's hidden sums; a backend without that path gets every
//      result encoded in full (the same values either way);
//   3. the mover plays the result with the best equity for itself (0-ply greedy); with
//      probability epsilon it plays a uniformly random result instead (exploration);
//      Candidates that the race table covers (`tables`, selfplay/tables/bearoff_table.h) get
//      the table's exact value instead of the net's, for the choice and as the TD target (the
//      fast backend does not evaluate them at all: the other candidates' values are the same);
//   4. TD(λ) step (nn/td_backend.h), all values from White's view: the value of the state
//      before the move is moved toward the chosen result's value (or, when the move ends the
//      game, toward the outcome: win / win_mars / lose_mars / draw as 0-1 indicators), then
//      the new state's gradient is added to the traces.
//      With search targets (TdGameParams::target_ply = n >= 1, config `td.target: search`) the
//      target of the state before the move is instead its own n-ply value under the current
//      weights (selfplay/search/search.h: the 21 rolls, the best replies, exact values where the
//      game ends), also on the last turn; for n = 1 that is the expectation over the dice of the
//      next 0-ply value (with greedy replies). Moves are still chosen at 0-ply.
// The fast backend runs with deferred rows (nn/td_backend.h): it steps the W1 rows its own
// evaluations read and brings the rest up to date at the end of each game (and before a search
// target), with the same bits as stepping every row at once.
// The dice and the exploration draw from two streams derived from the game's Rng, so the same
// Rng and weights give the same game. Nothing here allocates once the buffers have grown.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "core/game.h"
#include "core/movegen.h"
#include "core/random.h"
#include "nn/td_backend.h"
#include "nn/value_net.h"
#include "selfplay/tables/bearoff_table.h"

namespace nardy {

class NetEvaluator;
class Search;

// The learning parameters of one game (a run's schedules give them per game).
struct TdGameParams {
  float alpha = 0.1f;    // TD step size
  float lambda = 0.7f;   // trace decay, [0, 1]
  float epsilon = 0.0f;  // probability of a uniformly random move instead of the greedy one
  int target_ply = 0;    // 0: TD(λ)'s target (next 0-ply value); n >= 1: the state's n-ply value
};

struct TdGameStats {
  Outcome outcome;
  bool finished = false;    // false: stopped by max_turns (no terminal update)
  int turns = 0;            // turns played, passes included
  int updates = 0;          // TD updates (one per turn)
  double abs_td_error = 0;  // sum over updates of |target equity - value equity| (White's view)
};

class TdSelfPlayer {
 public:
  // Binds a TD backend ("fast" or "libtorch") to `net`, which must outlive this object, and
  // the race table `tables` (may be null; not owned; by default the process's table). Throws Error
  // for an unknown backend or an unsupported shape.
  TdSelfPlayer(ValueNet& net, const Rules& rules, std::string_view backend,
               const BearoffTable* tables = default_bearoff_table());
  ~TdSelfPlayer();

  // Plays and learns one game. Throws Error for a lambda outside [0, 1] or a target_ply outside
  // 0..3.
  TdGameStats play_game(Rng& rng, const TdGameParams& params, int max_turns = 10000);

  const char* backend_name() const { return backend_->name(); }

 private:
  // Evaluates moves_ into evals_ (each from its own side to move).
  void evaluate_moves(const Position& pos);
  // The n-ply value of `pos` (White's view) under the current weights, for search targets.
  Evaluation search_value(const Position& pos, int ply);

  const Encoder& encoder_;
  Rules rules_;
  std::unique_ptr<TdBackend> backend_;
  int num_inputs_;
  MoveList moves_;
  std::vector<float> base_;
  std::vector<float> inputs_;  // results encoded in full (backends without differences)
  std::vector<int> rows_;      // results as differences: changed inputs ...
  std::vector<float> coefs_;   // ... by how much ...
  std::vector<int> offsets_;   // ... result i's in [offsets_[i], offsets_[i + 1])
  std::vector<float> state_;   // the current state's inputs (and fill_difference's scratch)
  std::vector<Evaluation> evals_;
  std::vector<uint8_t> exact_;         // result i's value is the race table's
  std::vector<int> net_moves_;         // the results the net evaluates ...
  std::vector<Evaluation> net_evals_;  // ... and their values
  const BearoffTable* tables_;
  ValueNet net_;                             // a handle on the trained net (search targets)
  std::unique_ptr<NetEvaluator> evaluator_;  // made on the first search target
  std::unique_ptr<Search> search_;
};

}  // namespace nardy
