#include "selfplay/search/search.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

#include "core/error.h"
#include "core/game.h"
#include "selfplay/tables/race.h"
#include "selfplay/tables/race_odds.h"

namespace nardy {

namespace {

Evaluation outcome_evaluation(const Outcome& o, Side me) {
  if (o.is_draw()) return Evaluation{0, 0, 0, 1};
  const float mars = o.is_mars() ? 1.0f : 0.0f;
  return *o.winner == me ? Evaluation{1, mars, 0, 0} : Evaluation{0, 0, mars, 0};
}

void add_scaled(Evaluation& acc, const Evaluation& e, float w) {
  acc.win += w * e.win;
  acc.win_mars += w * e.win_mars;
  acc.lose_mars += w * e.lose_mars;
  acc.draw += w * e.draw;
}

// The chance node of a position: the opening's 15 non-doubles at the start under no_doubles,
// else the 21 distinct rolls.
struct RollSet {
  WeightedRoll rolls[21];
  int count = 0;
  float total = 0;
};
const RollSet& rolls_for(const Position& pos, const Rules& rules) {
  static const RollSet all = [] {
    RollSet r;
    for (const auto& w : kDistinctRolls)
      r.rolls[r.count++] = w, r.total += static_cast<float>(w.weight36);
    return r;
  }();
  static const RollSet opening = [] {
    RollSet r;
    for (const auto& w : kDistinctRolls)
      if (!w.dice.is_double()) r.rolls[r.count++] = w, r.total += static_cast<float>(w.weight36);
    return r;
  }();
  return opening_excludes_doubles(pos, rules) ? opening : all;
}

// Orders scored moves: deeper first, then higher equity, then lower index.
bool better(const ScoredMove& a, const ScoredMove& b) {
  if (a.ply != b.ply) return a.ply > b.ply;
  const double ea = a.equity(), eb = b.equity();
  if (ea != eb) return ea > eb;
  return a.index < b.index;
}

}  // namespace

std::optional<Evaluation> exact_evaluation(const Position& pos, const Rules& rules) {
  const Side me = pos.side_to_move();
  if (auto o = game_outcome(pos, rules)) return outcome_evaluation(*o, me);
  if (pos.off(~me) != kNumCheckers) return std::nullopt;
  // White has finished and Black plays its last turn (last_roll_draw): after it the game is
  // decided, so the value is exact over the 21 rolls, Black choosing its best outcome.
  Evaluation acc{0, 0, 0, 0};
  const RollSet& rs = rolls_for(pos, rules);
  MoveList moves;
  for (int r = 0; r < rs.count; ++r) {
    generate_moves(pos, rs.rolls[r].dice, rules, moves);
    Evaluation best{0, 0, 0, 0};
    float best_eq = -std::numeric_limits<float>::infinity();
    for (const auto& m : moves) {
      auto o = game_outcome(m.position, rules);
      // After Black's extra turn White is to move with all off: always an end.
      Evaluation e = o ? outcome_evaluation(*o, me) : Evaluation{0, 0, 0, 0};
      if (e.equity() > best_eq) best_eq = e.equity(), best = e;
    }
    add_scaled(acc, best, static_cast<float>(rs.rolls[r].weight36) / rs.total);
  }
  return acc;
}

namespace {
// A race's odds as an evaluation, or nothing.
std::optional<Evaluation> race_evaluation(const std::optional<RaceOdds>& odds) {
  if (!odds) return std::nullopt;
  return Evaluation{static_cast<float>(odds->win), static_cast<float>(odds->win_mars),
                    static_cast<float>(odds->lose_mars), static_cast<float>(odds->draw)};
}
}  // namespace

std::optional<Evaluation> table_evaluation(const BearoffTable* table, const Position& pos,
                                           const Rules& rules) {
  if (!table) return std::nullopt;
  return race_evaluation(race_odds(*table, pos, rules));
}

namespace {
// The cache's depth tag of 0-ply values by the race net (kept apart from the evaluator's 0-ply
// values of the same positions; searches are far shallower).
constexpr int kRaceNetKey = 100;
}  // namespace

Search::Search(Evaluator& evaluator, const Rules& rules, const SearchOptions& options)
    : evaluator_(evaluator), rules_(rules), options_(options), cache_(options.cache_bits) {
  if (const std::string problem = search_options_problem(options); !problem.empty())
    throw Error("search: " + problem);
  if (options.race_net) race_ = std::make_unique<RaceValuer>(options.tables, *options.race_net);
}

SearchOptions uniform_search_options() {
  SearchOptions o;
  o.inner_keep = o.filter_keep;
  o.inner_delta = o.filter_delta;
  o.blend = 0;
  return o;
}

std::string search_options_problem(const SearchOptions& o) {
  auto got = [](auto v) { return " (got " + std::to_string(v) + ")"; };
  if (o.filter_keep < 1) return "filter keep K must be >= 1" + got(o.filter_keep);
  if (!(o.filter_delta >= 0)) return "filter delta D must be >= 0" + got(o.filter_delta);
  if (o.inner_keep < 1) return "inner filter keep K must be >= 1" + got(o.inner_keep);
  if (!(o.inner_delta >= 0)) return "inner filter delta D must be >= 0" + got(o.inner_delta);
  if (!(o.blend >= 0 && o.blend <= 1)) return "blend must be 0..1" + got(o.blend);
  if (o.cache_bits < 0 || o.cache_bits > 28) return "cache bits must be 0..28" + got(o.cache_bits);
  return "";
}

Search::Level& Search::level(int depth) {
  while (static_cast<int>(levels_.size()) <= depth) levels_.push_back(std::make_unique<Level>());
  return *levels_[static_cast<size_t>(depth)];
}

std::optional<Evaluation> Search::settled_value(const Position& child) const {
  if (auto t = table_evaluation(options_.tables, child, rules_)) return t;
  if (child.off(~child.side_to_move()) == kNumCheckers)  // last_roll_draw: Black's last turn
    return exact_evaluation(child, rules_);
  return std::nullopt;
}

std::optional<Evaluation> Search::race_net_value(const Position& pos) {
  if (!race_) return std::nullopt;
  return race_evaluation(race_->odds(pos, rules_));
}

void Search::evaluate_batch(const Position& pos, Level& lv) {
  lv.batch_evals.resize(lv.batch_positions.size());
  evaluator_.evaluate(pos.with_side_to_move(~pos.side_to_move()), lv.batch_positions,
                      lv.batch_evals);
  ++evaluator_calls_;
  evaluator_positions_ += lv.batch_positions.size();
}

void Search::static_values(const Position& pos, std::span<const Position> children, Level& lv,
                           bool one_roll) {
  const size_t n = children.size();
  lv.evals.resize(n);
  lv.batch.clear();
  lv.batch_positions.clear();
  // The results of a race (all races) are valued by the race net where the table does not
  // cover them, the results of any other position by the evaluator: one roll's results are
  // never valued by both (see search.h). The race net's values are cached apart.
  const bool by_race_net = race_ && is_race(pos);
  const int key = by_race_net ? kRaceNetKey : 0;
  if (one_roll && cache_.generation_empty()) {
    // Distinct positions and nothing cached: the same values without the cache's lookups.
    for (size_t i = 0; i < n; ++i) {
      const Position& c = children[i];
      if (auto o = game_outcome(c, rules_)) {
        lv.evals[i] = outcome_evaluation(*o, c.side_to_move());
      } else if (auto v = settled_value(c)) {
        lv.evals[i] = *v;
      } else if (auto r = by_race_net ? race_net_value(c) : std::nullopt) {
        lv.evals[i] = *r;
      } else {
        lv.batch.push_back(static_cast<int>(i));
        lv.batch_positions.push_back(c);
      }
    }
    if (lv.batch.empty()) return;
    evaluate_batch(pos, lv);
    for (size_t k = 0; k < lv.batch.size(); ++k)
      lv.evals[static_cast<size_t>(lv.batch[k])] = lv.batch_evals[k];
    return;
  }
  // The cache's slots are scattered over megabytes: ask for them 24 children ahead (this loop
  // takes some tens of nanoseconds per child, a slot from memory about a hundred; 8 ahead left
  // the lookup waiting for it: 40% of this function's time at 1-ply). Each child's slot (its
  // hash) is computed once for the prefetch, lookup and stores.
  constexpr size_t kAhead = 24;
  lv.slots.resize(n);
  lv.batch_slots.clear();
  for (size_t i = 0; i < std::min(n, kAhead); ++i) {
    lv.slots[i] = cache_.slot(children[i], key);
    cache_.prefetch_at(lv.slots[i]);
  }
  for (size_t i = 0; i < n; ++i) {
    if (i + kAhead < n) {
      lv.slots[i + kAhead] = cache_.slot(children[i + kAhead], key);
      cache_.prefetch_at(lv.slots[i + kAhead]);
    }
    const Position& c = children[i];
    const size_t slot = lv.slots[i];
    if (auto o = game_outcome(c, rules_)) {
      lv.evals[i] = outcome_evaluation(*o, c.side_to_move());
      continue;
    }
    if (cache_.lookup_at(slot, c, key, lv.evals[i])) {
      // A pending entry (below): the same position earlier in this batch.
      if (lv.evals[i].win < 0) lv.batch.push_back(static_cast<int>(i));
      continue;
    }
    if (auto v = settled_value(c)) {
      lv.evals[i] = *v;
      cache_.store_at(slot, c, key, lv.evals[i]);
      continue;
    }
    if (auto r = by_race_net ? race_net_value(c) : std::nullopt) {
      lv.evals[i] = *r;
      cache_.store_at(slot, c, key, lv.evals[i]);
      continue;
    }
    // Pending until the batch is evaluated: win = -1 - (its place in the batch). Every
    // pending entry is overwritten below (same position, same slot), so none outlives this
    // call; one evicted meanwhile only costs a second evaluation of the same value.
    const int k = static_cast<int>(lv.batch_positions.size());
    Evaluation pending;
    pending.win = -1.0f - static_cast<float>(k);
    lv.evals[i] = pending;
    cache_.store_at(slot, c, key, pending);
    lv.batch.push_back(static_cast<int>(i));
    lv.batch_positions.push_back(c);
    lv.batch_slots.push_back(slot);
  }
  if (lv.batch.empty()) return;
  evaluate_batch(pos, lv);
  for (size_t k = 0; k < lv.batch_positions.size(); ++k)
    cache_.store_at(lv.batch_slots[k], lv.batch_positions[k], key, lv.batch_evals[k]);
  for (int i : lv.batch) {
    Evaluation& e = lv.evals[static_cast<size_t>(i)];
    e = lv.batch_evals[static_cast<size_t>(-1.0f - e.win)];
  }
}

Evaluation Search::evaluate(const Position& pos, int depth) {
  Evaluation out;
  if (auto o = game_outcome(pos, rules_)) return outcome_evaluation(*o, pos.side_to_move());
  // A race on its own at 0-ply: the race net's value (cached apart, as in static_values).
  const bool by_race_net = depth <= 0 && race_ && is_race(pos);
  const int key = by_race_net ? kRaceNetKey : std::max(depth, 0);
  if (cache_.lookup(pos, key, out)) return out;
  if (auto t = table_evaluation(options_.tables, pos, rules_)) {
    out = *t;  // exact at every depth
  } else if (pos.off(~pos.side_to_move()) == kNumCheckers) {
    out = *exact_evaluation(pos, rules_);
  } else if (auto r = by_race_net ? race_net_value(pos) : std::nullopt) {
    out = *r;
  } else if (depth <= 0) {
    evaluator_.evaluate(pos, std::span<const Position>(&pos, 1), std::span<Evaluation>(&out, 1));
    ++evaluator_calls_;
    ++evaluator_positions_;
  } else {
    // The whole level at once: every roll's results valued at 0-ply in one batched call
    // (one base), then each roll's best at depth - 1.
    Level& lv = level(depth);
    const RollSet& rs = rolls_for(pos, rules_);
    lv.children.clear();
    lv.roll_end.clear();
    for (int r = 0; r < rs.count; ++r) {
      generate_moves(pos, rs.rolls[r].dice, rules_, lv.moves);
      for (const auto& m : lv.moves) lv.children.push_back(m.position);
      lv.roll_end.push_back(static_cast<int>(lv.children.size()));
    }
    static_values(pos, lv.children, lv);
    out = Evaluation{0, 0, 0, 0};
    for (int r = 0; r < rs.count; ++r) {
      const int begin = r == 0 ? 0 : lv.roll_end[static_cast<size_t>(r) - 1];
      add_scaled(out, best_child(begin, lv.roll_end[static_cast<size_t>(r)], depth - 1, lv),
                 static_cast<float>(rs.rolls[r].weight36) / rs.total);
    }
  }
  cache_.store(pos, key, out);
  return out;
}

void Search::set_stakes(const std::optional<GameStakes>& stakes) {
  stakes_ = stakes;
  cache_.new_generation();
}

double Search::choice_value(const Evaluation& e, Side mover) const {
  if (!stakes_) return e.equity();
  return stakes_->for_side(mover).value(e.win, e.win_mars, e.lose_mars, e.draw);
}

Evaluation Search::best_child(int begin, int end, int depth, Level& lv) {
  const size_t n = static_cast<size_t>(end - begin);
  const Evaluation* evals = lv.evals.data() + begin;
  const Position* children = lv.children.data() + begin;
  const Side mover = ~children[0].side_to_move();
  if (depth == 0 || n == 1) {
    if (n == 1 && depth > 0) return evaluate(children[0], depth).flipped();
    size_t best = 0;
    double best_v = -std::numeric_limits<double>::infinity();
    for (size_t i = 0; i < n; ++i) {
      const double v = choice_value(evals[i].flipped(), mover);  // mover's view
      if (v > best_v) best_v = v, best = i;
    }
    return evals[best].flipped();
  }
  lv.scored.clear();
  for (size_t i = 0; i < n; ++i) lv.scored.push_back(ScoredMove{i, evals[i].flipped(), 0});
  // Only the first `keep` in order matter: `better` is a total order (ties by index), so a
  // partial sort puts the same ones first as a full sort.
  const size_t keep = std::min(n, static_cast<size_t>(options_.inner_keep));
  std::partial_sort(lv.scored.begin(), lv.scored.begin() + static_cast<std::ptrdiff_t>(keep),
                    lv.scored.end(), better);
  const double floor = lv.scored[0].equity() - options_.inner_delta;
  Evaluation best;
  double best_eq = -std::numeric_limits<double>::infinity();
  // evaluate() at depth uses the scratch of deeper levels only, never lv.
  for (size_t k = 0; k < keep && lv.scored[k].equity() >= floor; ++k) {
    const Evaluation v = evaluate(children[lv.scored[k].index], depth).flipped();
    const double value = choice_value(v, mover);
    if (value > best_eq) best_eq = value, best = v;
  }
  return best;
}

void Search::static_values_of(const Position& pos, const MoveList& moves, Level& lv) {
  lv.children.clear();
  for (const auto& m : moves) lv.children.push_back(m.position);
  static_values(pos, lv.children, lv, /*one_roll=*/true);
}

void Search::score_moves(const Position& pos, const MoveList& moves, int ply,
                         std::vector<ScoredMove>& out) {
  Level& lv = level(std::max(ply, 0) + 1);
  static_values_of(pos, moves, lv);
  out.clear();
  for (size_t i = 0; i < moves.size(); ++i) {
    const Position& c = moves[i].position;
    const bool exact = game_outcome(c, rules_) || (options_.tables && options_.tables->covers(c));
    out.push_back(ScoredMove{i, lv.evals[i].flipped(), 0, exact});
  }
  std::sort(out.begin(), out.end(), better);
  if (ply <= 0 || out.empty()) return;
  const double floor = out[0].equity() - options_.filter_delta;
  const size_t keep = std::min(out.size(), static_cast<size_t>(options_.filter_keep));
  for (size_t k = 0; k < keep && out[k].equity() >= floor; ++k) {
    if (!out[k].exact) {
      Evaluation value = evaluate(moves[out[k].index].position, ply).flipped();
      if (ply == 1 && options_.blend > 0) {  // mixed with its 0-ply value
        const float w = static_cast<float>(options_.blend);
        Evaluation mixed{0, 0, 0, 0};
        add_scaled(mixed, value, 1 - w);
        add_scaled(mixed, out[k].eval, w);
        value = mixed;
      }
      out[k].eval = value;
    }
    out[k].ply = ply;
  }
  // Exact values are final at any depth: they rank with the deepest ones.
  for (auto& m : out)
    if (m.exact) m.ply = ply;
  std::sort(out.begin(), out.end(), better);
}

ScoredMove Search::best_scored(const Position& pos, const MoveList& moves) {
  Level& lv = level(1);
  static_values_of(pos, moves, lv);
  ScoredMove best{0, lv.evals[0].flipped(), 0};
  for (size_t i = 1; i < moves.size(); ++i) {
    const ScoredMove m{i, lv.evals[i].flipped(), 0};
    if (better(m, best)) best = m;
  }
  const Position& c = moves[best.index].position;
  best.exact = game_outcome(c, rules_) || (options_.tables && options_.tables->covers(c));
  return best;
}

std::pair<size_t, Evaluation> Search::best_static(const Position& pos, const MoveList& moves) {
  Level& lv = level(0);
  static_values_of(pos, moves, lv);
  size_t best = 0;
  float best_eq = -std::numeric_limits<float>::infinity();
  for (size_t i = 0; i < moves.size(); ++i) {
    const float eq = -lv.evals[i].equity();
    if (eq > best_eq) best_eq = eq, best = i;
  }
  return {best, lv.evals[best].flipped()};
}

double gaussian(Rng& rng) {
  const double u1 = 1.0 - rng.uniform();  // (0, 1]
  const double u2 = rng.uniform();
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
}

}  // namespace nardy
