// Hand-written evaluators for search and rollout tests (no network needed).
#pragma once

#include <cmath>

#include "selfplay/search/search.h"

namespace nardy::testing {

// A race formula from the side to move. Effective pips (pips + 2 per checker left, for bear-off
// wastage) are turned into turns still needed (8.17 pips per roll); being on roll is worth half
// a turn; the spread of the turn count grows like its square root (a roll's sd is 4.3 pips).
// Mars chances only while the loser has borne nothing off.
class RaceEvaluator final : public Evaluator {
 public:
  int64_t positions = 0;
  static Evaluation value(const Position& p) {
    const Side me = p.side_to_move();
    const double mine = (p.pips(me) + 2.0 * p.on_board(me)) / 8.17;
    const double theirs = (p.pips(~me) + 2.0 * p.on_board(~me)) / 8.17;
    const double z = (theirs - mine + 0.5) / (0.53 * std::sqrt(mine + theirs + 1.0));
    Evaluation e;
    e.win = static_cast<float>(0.5 * std::erfc(-z / std::sqrt(2.0)));
    e.win_mars = p.off(~me) == 0 ? e.win * 0.2f : 0.0f;
    e.lose_mars = p.off(me) == 0 ? (1 - e.win) * 0.2f : 0.0f;
    return e;
  }
  void evaluate(const Position&, std::span<const Position> ps, std::span<Evaluation> out) override {
    for (size_t i = 0; i < ps.size(); ++i) out[i] = value(ps[i]);
    positions += static_cast<int64_t>(ps.size());
  }
  std::string name() const override { return "test-race"; }
};

// A deterministic pseudo-random value per position (from its hash): every candidate of a roll
// gets a different value, which exercises orderings and filters.
class HashEvaluator final : public Evaluator {
 public:
  static Evaluation value(const Position& p) {
    const uint64_t h = p.hash();
    Evaluation e;
    e.win = 0.05f + 0.9f * static_cast<float>(h % 10007) / 10007.0f;
    e.win_mars = e.win * 0.25f * static_cast<float>((h >> 20) % 101) / 100.0f;
    e.lose_mars = (1 - e.win) * 0.25f * static_cast<float>((h >> 40) % 101) / 100.0f;
    return e;
  }
  void evaluate(const Position&, std::span<const Position> ps, std::span<Evaluation> out) override {
    for (size_t i = 0; i < ps.size(); ++i) out[i] = value(ps[i]);
  }
  std::string name() const override { return "test-hash"; }
};

// Knows nothing: every undecided position is an even game.
class ConstantEvaluator final : public Evaluator {
 public:
  void evaluate(const Position&, std::span<const Position> ps, std::span<Evaluation> out) override {
    for (size_t i = 0; i < ps.size(); ++i) out[i] = Evaluation{0.5f, 0, 0, 0};
  }
  std::string name() const override { return "test-constant"; }
};

}  // namespace nardy::testing
