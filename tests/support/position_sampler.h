// tests/support/position_sampler.h — seeded sources of test positions.
//
// Two kinds of source, both deterministic for a given Rng:
//  * positions met in games played from the start by a policy: uniformly random, or biased
//    towards racing home (reaches bearing off with contact left) or towards building long runs
//    of points (reaches six-block situations and locked checkers);
//  * positions scattered at random by a theme (anything, bearing off with opposing checkers in
//    the home, all or almost all on the head, a five-point run next to a free point), which
//    reach corners that games rarely visit.
// Every position returned is valid (Position::is_ok()) with at least one checker of the side
// to move on the board.
#pragma once

#include <cstdint>
#include <vector>

#include "core/position.h"
#include "core/random.h"
#include "core/rules.h"

namespace nardy::testing {

enum class Policy { Uniform, Race, Blocker, Mixed };
enum class Scatter { Any, BearOff, Head, Blocks };

inline constexpr Policy kAllPolicies[] = {Policy::Uniform, Policy::Race, Policy::Blocker,
                                          Policy::Mixed};
inline constexpr Scatter kAllScatters[] = {Scatter::Any, Scatter::BearOff, Scatter::Head,
                                           Scatter::Blocks};

// The positions before every turn of one game played by `policy` under `rules` (the game's
// final position is not included). The game uses the opening rule for the first roll.
std::vector<Position> game_positions(Rng& rng, const Rules& rules, Policy policy);

// The position after `turns` uniformly random moves of a game from the start under the
// default rules (fewer if the game ends first), with Rng(seed) rolling and choosing.
Position random_game_position(uint64_t seed, int turns);

// One random valid position of the given theme.
Position scattered_position(Rng& rng, Scatter theme);

// A random roll, a double with probability 1/6.
Dice random_dice(Rng& rng);

}  // namespace nardy::testing
