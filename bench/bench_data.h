// bench/bench_data.h — fixed, seeded inputs shared by the micro-benchmarks.
#pragma once

#include <vector>

#include "core/game.h"
#include "core/movegen.h"
#include "core/random.h"
#include "nn/encoder.h"

namespace nardy::bench {

// One turn: the position, its roll and (after encode_turns) the encoded candidates.
struct Turn {
  Position position;
  Dice dice;
  std::vector<float> base;        // the position seen from the opponent (incremental base)
  std::vector<float> candidates;  // one row per legal result, each from its side to move
  int num_candidates = 0;
};

// The turns of `games` uniformly random games from a fixed seed (default rules).
inline std::vector<Turn> random_turns(int games, uint64_t seed = 2024) {
  Rng rng(seed);
  std::vector<Turn> turns;
  for (int g = 0; g < games; ++g) {
    Game game;
    while (!game.is_over()) {
      const Dice dice = game.roll(rng);
      const MoveList moves = game.legal(dice);
      turns.push_back(Turn{game.position(), dice, {}, {}, static_cast<int>(moves.size())});
      game.play(dice, moves[rng.below(static_cast<uint32_t>(moves.size()))]);
    }
  }
  return turns;
}

inline void encode_turns(std::vector<Turn>& turns, const Encoder& enc) {
  const int ni = enc.num_inputs();
  MoveList moves;
  for (Turn& t : turns) {
    generate_moves(t.position, t.dice, Rules{}, moves);
    t.base.assign(ni, 0.0f);
    enc.fill(t.position.with_side_to_move(~t.position.side_to_move()), t.base);
    t.candidates.assign(moves.size() * ni, 0.0f);
    for (size_t m = 0; m < moves.size(); ++m)
      enc.fill(moves[m].position, std::span<float>(t.candidates.data() + m * ni, ni));
    t.num_candidates = static_cast<int>(moves.size());
  }
}

}  // namespace nardy::bench
