// tests/support/random_sim.h — one shared random-simulation test for every rules variant
// (after OpenSpiel's RandomSimTest in open_spiel/tests/basic_tests.h).
//
// random_sim_test() plays `num_games` complete games through the Game API with seeded dice and
// uniformly random choices (or biased towards racing) and checks at every state, reporting each
// problem as a GoogleTest failure that names the game, turn, POS and dice:
//  * 15 checkers per side (board + off) and Position::validation_error() empty;
//  * the legal results are non-empty and distinct, each with the opponent to move; a pass
//    only as the single result and only when the reference generator agrees nothing moves;
//    every result's steps use the rolled dice and account for the pip change;
//  * POS text and position ID round-trip; a copy equals the original (and hashes alike);
//  * notation round-trips: find_move(format_move(result)) gives the same result (for every
//    result when there are few, for a sample otherwise, as OpenSpiel does its costly checks);
//  * every game ends within a turn limit, with an outcome consistent with the position;
//  * the game's record replays (write_record -> read_record) to the same final position,
//    history and outcome.
// An optional per-state checker adds test-specific checks.
#pragma once

#include <cstdint>
#include <functional>

#include "core/game.h"
#include "core/rules.h"
#include "tests/support/position_sampler.h"

namespace nardy::testing {

struct RandomSimOptions {
  Rules rules;
  int num_games = 100;
  uint64_t seed = 1;
  Policy policy = Policy::Uniform;  // Uniform, or any other value for a racing bias
  int max_turns = 5000;             // a game longer than this is a failure
  int full_notation_check = 40;  // check every result's notation when there are at most this many
  // Called before every turn with the game (not over), the dice and the legal results.
  std::function<void(const Game&, Dice, const MoveList&)> state_checker;
};

struct RandomSimStats {
  long games = 0, turns = 0, passes = 0, results = 0;
  long white_wins = 0, black_wins = 0, draws = 0, mars = 0;
};

// Plays the games and checks every state (see above). Failures are reported through
// GoogleTest (ADD_FAILURE); a game with a failure is abandoned so one bug reports once.
RandomSimStats random_sim_test(const RandomSimOptions& options);

// All 24 combinations of the rules variants (opening x head_exception x last_roll_draw x
// next_game_starter).
std::vector<Rules> all_rule_combinations();

}  // namespace nardy::testing
