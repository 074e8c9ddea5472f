#include "selfplay/training/td_game.h"

#include <cmath>
#include <span>

#include "core/error.h"
#include "selfplay/search/net_agent.h"
#include "selfplay/search/search.h"
#include "selfplay/tables/race.h"

namespace nardy {
namespace {

Evaluation white_view(const Evaluation& e, Side side) {
  return side == Side::White ? e : e.flipped();
}

}  // namespace

TdSelfPlayer::TdSelfPlayer(ValueNet& net, const Rules& rules, std::string_view backend,
                           const BearoffTable* tables)
    : encoder_(net.encoder()),
      rules_(rules),
      backend_(make_td_backend(backend, net, TdGameParams{}.lambda, /*deferred=*/true)),
      num_inputs_(net.num_inputs()),
      base_(num_inputs_),
      state_(num_inputs_),
      tables_(tables),
      net_(net) {}

TdSelfPlayer::~TdSelfPlayer() = default;

Evaluation TdSelfPlayer::search_value(const Position& pos, int ply) {
  if (!search_) {
    evaluator_ = std::make_unique<NetEvaluator>(net_);
    SearchOptions options = uniform_search_options();
    options.tables = tables_;  // exact race values, as the 0-ply targets use
    search_ = std::make_unique<Search>(*evaluator_, rules_, options);
  }
  backend_->sync();                   // the search reads the whole net
  search_->cache().new_generation();  // the weights changed since the last search
  return white_view(search_->evaluate(pos, ply), pos.side_to_move());
}

void TdSelfPlayer::evaluate_moves(const Position& pos) {
  const size_t n = moves_.size();
  if (evals_.size() < n) {
    evals_.resize(n);
    exact_.resize(n);
  }
  const Position base = pos.with_side_to_move(~pos.side_to_move());
  // state_ holds fill(pos) here (play_game encodes each state into it before the next move;
  // fill_difference uses it as scratch only below), so the base is the same inputs seen by the
  // other side: copied by encoders that can (raw-v1), encoded otherwise.
  if (!encoder_.fill_other_side(state_, base_)) encoder_.fill(base, base_);
  // The race table's exact values first. The mover's opponent does not move, so no result is
  // covered while one of its checkers stands beyond the table's points (one look per turn
  // instead of one per result).
  const bool any_exact = tables_ && highest_route(pos, ~pos.side_to_move()) <= tables_->points();
  for (size_t i = 0; i < n; ++i) {
    std::optional<Evaluation> exact;
    if (any_exact) exact = table_evaluation(tables_, moves_[i].position, rules_);
    exact_[i] = exact.has_value();
    if (exact) evals_[i] = *exact;
  }
  if (backend_->evaluates_differences()) {
    // Each result the table does not cover, only as its differences from the board before the
    // move (a few units); each candidate's value is computed on its own (nn/fast_net.h
    // forward_from_rows), so leaving the covered ones out changes no other value.
    if (offsets_.size() < n + 1) {
      offsets_.resize(n + 1);
      net_moves_.resize(n);
      net_evals_.resize(n);
    }
    offsets_[0] = 0;
    int m = 0;
    for (size_t i = 0; i < n; ++i) {
      if (exact_[i]) continue;
      const size_t at = static_cast<size_t>(offsets_[m]);
      if (rows_.size() < at + num_inputs_) {
        rows_.resize(2 * (at + num_inputs_));
        coefs_.resize(rows_.size());
      }
      offsets_[m + 1] =
          offsets_[m] + encoder_.fill_difference(base, base_, moves_[i].position, rows_.data() + at,
                                                 coefs_.data() + at, state_);
      net_moves_[m++] = static_cast<int>(i);
    }
    if (m == 0) return;  // every result has its exact value
    backend_->evaluate_differences(base_, rows_.data(), coefs_.data(), offsets_.data(), m,
                                   std::span<Evaluation>(net_evals_.data(), m));
    for (int k = 0; k < m; ++k) evals_[net_moves_[k]] = net_evals_[k];
    return;
  }
  // Every result encoded in full and evaluated in one batch (as before the table existed, so a
  // batched backend sees the same batches); the table's values then replace the net's.
  if (inputs_.size() < n * num_inputs_) inputs_.resize(n * num_inputs_);
  for (size_t i = 0; i < n; ++i)
    encoder_.fill(moves_[i].position,
                  std::span<float>(inputs_.data() + i * num_inputs_, num_inputs_));
  if (net_evals_.size() < n) net_evals_.resize(n);
  backend_->evaluate(base_, std::span<const float>(inputs_.data(), n * num_inputs_),
                     static_cast<int>(n), std::span<Evaluation>(net_evals_.data(), n));
  for (size_t i = 0; i < n; ++i)
    if (!exact_[i]) evals_[i] = net_evals_[i];
}

TdGameStats TdSelfPlayer::play_game(Rng& rng, const TdGameParams& params, int max_turns) {
  const float alpha = params.alpha, epsilon = params.epsilon;
  const int target_ply = params.target_ply;
  if (target_ply < 0 || target_ply > 3)  // td.target_ply is 1..3; 0 means td.target: next
    throw Error("TD target_ply must be in 0..3, got " + std::to_string(target_ply));
  backend_->set_lambda(params.lambda);
  Rng dice_rng = rng.split(1);
  Rng explore_rng = rng.split(2);
  TdGameStats stats;
  Position pos = Position::start();
  backend_->start_game();
  encoder_.fill(pos, state_);
  Evaluation value = backend_->accumulate(state_, pos.side_to_move());
  while (stats.turns < max_turns) {
    const Dice dice = roll_turn(dice_rng, rules_, stats.turns == 0);
    generate_moves(pos, dice, rules_, moves_);
    evaluate_moves(pos);
    const size_t n = moves_.size();
    size_t chosen = 0;
    if (n > 1 && epsilon > 0 && explore_rng.uniform() < epsilon) {
      chosen = explore_rng.below(static_cast<uint32_t>(n));
    } else {
      // Each candidate's evaluation is from the opponent's side: the mover's equity is its
      // negation.
      float best = evals_[0].equity();
      for (size_t i = 1; i < n; ++i) {
        const float e = evals_[i].equity();
        if (e < best) {
          best = e;
          chosen = i;
        }
      }
    }
    const Position next = moves_[chosen].position;
    ++stats.turns;
    const Evaluation searched = target_ply > 0 ? search_value(pos, target_ply) : Evaluation{};
    if (auto outcome = game_outcome(next, rules_)) {
      const Evaluation target = target_ply > 0 ? searched : outcome_target(*outcome);
      backend_->update(value, target, alpha);
      ++stats.updates;
      stats.abs_td_error += std::fabs(target.equity() - value.equity());
      stats.outcome = *outcome;
      stats.finished = true;
      backend_->sync();  // the net is read by others between games
      return stats;
    }
    const Evaluation target =
        target_ply > 0 ? searched : white_view(evals_[chosen], next.side_to_move());
    backend_->update(value, target, alpha);
    ++stats.updates;
    stats.abs_td_error += std::fabs(target.equity() - value.equity());
    encoder_.fill(next, state_);
    value = backend_->accumulate(state_, next.side_to_move());
    pos = next;
  }
  backend_->sync();
  return stats;
}

}  // namespace nardy
