// tests/nn/test_nets.h — shared helpers of the nn suites: seeded nets and positions.
#pragma once

#include <cstring>
#include <string>
#include <vector>

#include "core/game.h"
#include "core/random.h"
#include "nn/value_net.h"
#include "tests/support/position_sampler.h"

namespace nardy::testing {

// Positions from several seeded random games (Uniform, Race and Blocker policies), plus
// scattered ones, so that encoders and nets see openings, contact, bear-off and blocks.
inline std::vector<Position> sample_positions(uint64_t seed, int games = 3) {
  Rng rng(seed);
  std::vector<Position> out;
  const Policy policies[] = {Policy::Uniform, Policy::Race, Policy::Blocker};
  for (int g = 0; g < games; ++g) {
    auto ps = game_positions(rng, Rules{}, policies[g % 3]);
    out.insert(out.end(), ps.begin(), ps.end());
  }
  for (Scatter s : kAllScatters)
    for (int i = 0; i < 5; ++i) out.push_back(scattered_position(rng, s));
  return out;
}

// The encodings of `positions`, row after row.
inline std::vector<float> encode_all(const Encoder& enc, const std::vector<Position>& positions) {
  std::vector<float> x(positions.size() * enc.num_inputs());
  for (size_t i = 0; i < positions.size(); ++i)
    enc.fill(positions[i], std::span<float>(x.data() + i * enc.num_inputs(), enc.num_inputs()));
  return x;
}

inline NetShape shape_of(const std::string& encoder, std::vector<int> hidden, Activation a,
                         int outputs) {
  NetShape s;
  s.encoder = encoder;
  s.hidden = std::move(hidden);
  s.activation = a;
  s.num_outputs = outputs;
  return s;
}

inline NetShape shape_of(const std::string& encoder, int hidden, Activation a, int outputs) {
  return shape_of(encoder, std::vector<int>{hidden}, a, outputs);
}

// The hidden widths `first`, then `more` where non-zero (test cases list deeper nets so).
inline std::vector<int> widths(int first, std::initializer_list<int> more) {
  std::vector<int> w{first};
  for (int m : more)
    if (m > 0) w.push_back(m);
  return w;
}

// A fresh net whose parameters are scaled up so that hidden units saturate and outputs spread
// (a freshly initialised net sits near 0.5 everywhere, which would hide errors).
inline ValueNet spread_net(const NetShape& shape, uint64_t seed, float gain = 3.0f) {
  ValueNet net = ValueNet::create(shape, seed);
  for (auto& l : net.layers()) {
    for (int i = 0; i < l.in * l.out; ++i) l.weight[i] *= gain;
    for (int i = 0; i < l.out; ++i) l.bias[i] *= gain;
  }
  return net;
}

// Every parameter of `net`, layer after layer (weights, then biases).
inline std::vector<float> all_parameters(const ValueNet& net) {
  std::vector<float> p;
  for (const auto& l : net.layers()) {
    p.insert(p.end(), l.weight, l.weight + static_cast<size_t>(l.in) * l.out);
    p.insert(p.end(), l.bias, l.bias + l.out);
  }
  return p;
}

// Whether two nets hold exactly the same parameters (bit for bit).
inline bool same_parameters(const ValueNet& a, const ValueNet& b) {
  const auto la = a.layers(), lb = b.layers();
  if (la.size() != lb.size()) return false;
  for (size_t i = 0; i < la.size(); ++i) {
    if (la[i].in != lb[i].in || la[i].out != lb[i].out) return false;
    if (std::memcmp(la[i].weight, lb[i].weight, sizeof(float) * la[i].in * la[i].out) != 0)
      return false;
    if (std::memcmp(la[i].bias, lb[i].bias, sizeof(float) * la[i].out) != 0) return false;
  }
  return true;
}

// The states of one random game (before every turn) and its outcome.
struct PlayedGame {
  std::vector<Position> states;
  Outcome outcome;
};

inline PlayedGame random_game(uint64_t seed, const Rules& rules) {
  Rng rng(seed);
  Game game(rules);
  PlayedGame g;
  while (!game.is_over()) {
    g.states.push_back(game.position());
    const Dice dice = game.roll(rng);
    const MoveList moves = game.legal(dice);
    game.play(dice, moves[rng.below(static_cast<uint32_t>(moves.size()))]);
  }
  g.outcome = *game.outcome();
  return g;
}

}  // namespace nardy::testing
