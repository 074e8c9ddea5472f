// The exact output of generate_moves() — which results, in which order, each with which step
// sequence — pinned by a digest over many positions (core/movegen.h: "Results come in a
// deterministic order"). The reference test (movegen_reference_test.cpp) checks the SET of
// results; this test checks that a faster generator keeps the order and the canonical steps
// that the bench signature, seeded games and recorded notation rely on.
//
// The digests were computed with the generator before the incremental rewrite (the plain
// depth-first search with a transposition table, issue 11); a change to them is a change of
// behaviour and needs a reason, not a new constant.
#include <gtest/gtest.h>

#include <cstdint>

#include "core/movegen.h"
#include "tests/support/position_sampler.h"

namespace nardy::testing {
namespace {

struct Digest {
  uint64_t h = 1469598103934665603ull;
  uint64_t results = 0;
  void add(uint64_t v) { h = (h ^ v) * 1099511628211ull; }
  void add(const MoveList& moves) {
    add(moves.size());
    for (const MoveResult& m : moves) {
      ++results;
      for (int v : m.position.points()) add(static_cast<uint64_t>(v + 100));
      add(static_cast<uint64_t>(m.position.side_to_move()));
      add(m.move.num_steps);
      for (int s = 0; s < m.move.num_steps; ++s)
        add(m.move.steps[s].from * 32u + m.move.steps[s].to);
      add(static_cast<uint64_t>(m.move.side));
    }
  }
};

constexpr Dice kAllRolls[] = {{1, 1}, {2, 1}, {2, 2}, {3, 1}, {3, 2}, {3, 3}, {4, 1},
                              {4, 2}, {4, 3}, {4, 4}, {5, 1}, {5, 2}, {5, 3}, {5, 4},
                              {5, 5}, {6, 1}, {6, 2}, {6, 3}, {6, 4}, {6, 5}, {6, 6}};

// Every roll on the positions of games played by each policy, under each head rule variant.
TEST(MovegenOrder, GamePositionsAllRolls) {
  Digest d;
  MoveList moves;
  for (HeadException he : {HeadException::Standard, HeadException::Strict, HeadException::None}) {
    Rules rules;
    rules.head_exception = he;
    Rng rng(11);
    for (Policy policy : kAllPolicies) {
      for (int game = 0; game < 8; ++game) {
        for (const Position& pos : game_positions(rng, rules, policy)) {
          for (Dice dice : kAllRolls) {
            generate_moves(pos, dice, rules, moves);
            d.add(moves);
          }
        }
      }
    }
  }
  EXPECT_EQ(d.results, 3258373u);
  EXPECT_EQ(d.h, 12535737298116040576u);
}

// Scattered positions of every theme (blocks, bearing off with contact, the head), every roll.
TEST(MovegenOrder, ScatteredPositionsAllRolls) {
  Digest d;
  MoveList moves;
  Rules rules;
  Rng rng(12);
  for (Scatter theme : kAllScatters) {
    for (int i = 0; i < 800; ++i) {
      const Position pos = scattered_position(rng, theme);
      for (Dice dice : kAllRolls) {
        generate_moves(pos, dice, rules, moves);
        d.add(moves);
      }
    }
  }
  EXPECT_EQ(d.results, 1622638u);
  EXPECT_EQ(d.h, 6836883517025774692u);
}

}  // namespace
}  // namespace nardy::testing
