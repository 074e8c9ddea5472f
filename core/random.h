// core/random.h — the one source of randomness: a small seeded generator and dice.
//
// Every random stream in nardy (dice, exploration, sampling) is an Rng seeded from a config
// value, so the same seed and thread count give the same games. xoshiro256** (Blackman and
// Vigna, 2018) seeded through splitmix64; fast, 256-bit state, statistically sound.
#pragma once

#include <cstdint>

#include "core/rules.h"
#include "core/types.h"

namespace nardy {

// splitmix64 (Steele, Lea and Flood, 2014): advances `state` by the golden-ratio increment and
// returns it mixed. The one integer mixer for seeds: Rng states and derived seeds come from it.
inline uint64_t splitmix64(uint64_t& state) {
  uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// A well-mixed 64-bit value of `x` (one splitmix64 step from state x): for deriving seeds from
// (seed, salt, index) combinations, so nearby seeds give unrelated streams.
inline uint64_t mix_seed(uint64_t x) {
  return splitmix64(x);
}

// Seeding scheme: a stream is Rng(seed) for a config or command-line seed; a family of
// independent streams (per game, pair, trial, worker) is Rng(seed).split(i) or
// Rng(mix_seed(...)), with a fixed salt per purpose so that two purposes never share a stream.
class Rng {
 public:
  explicit Rng(uint64_t seed = 0) { reseed(seed); }
  void reseed(uint64_t seed) {
    for (auto& w : s_) w = splitmix64(seed);
  }
  uint64_t next() {
    const uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }
  // Uniform integer in [0, n), n >= 1 (Lemire's multiply-shift; bias < 2^-32 for n <= 2^32).
  uint32_t below(uint32_t n) {
    return static_cast<uint32_t>((static_cast<unsigned __int128>(next()) * n) >> 64);
  }
  // Uniform double in [0, 1).
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
  // Derives an independent stream (for worker threads, games, trials).
  Rng split(uint64_t stream) { return Rng(next() ^ (stream * 0xD1B54A32D192ED03ull)); }

 private:
  static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  uint64_t s_[4];
};

// A roll of two fair dice.
inline Dice roll_dice(Rng& rng) {
  return Dice{static_cast<uint8_t>(1 + rng.below(6)), static_cast<uint8_t>(1 + rng.below(6))};
}

// The dice of a turn: the one place that decides between a game's first roll and the others.
// `opening_turn` is true for the first turn of a game played from the start position (see
// Game::is_opening_turn and opening_excludes_doubles in core/game.h). That roll follows the
// `opening` rule (docs/rules.md Start): under `no_doubles` two different numbers, as thrown one
// die each by the two players; under `any_roll` a fresh roll. Every other roll is roll_dice().
inline Dice roll_turn(Rng& rng, const Rules& rules, bool opening_turn) {
  if (!opening_turn || rules.opening == Opening::AnyRoll) return roll_dice(rng);
  uint8_t a = static_cast<uint8_t>(1 + rng.below(6));
  uint8_t b = static_cast<uint8_t>(1 + rng.below(5));
  if (b >= a) ++b;
  return Dice{a, b};
}

}  // namespace nardy
