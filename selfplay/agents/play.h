// selfplay/agents/play.h — playing complete games between agents.
//
// The dice of a game come from their own Rng (`dice_rng`), separate from the agents' Rng, so
// the same dice sequence can be replayed with colours swapped (mirrored dice in the arena).
// play_game() does not allocate per turn beyond the first game's MoveList growth.
#pragma once

#include <optional>

#include "core/game.h"
#include "selfplay/agents/agent.h"

namespace nardy {

struct GameSummary {
  Outcome outcome;
  int turns = 0;  // turns played by both sides, passes included
};

// Plays one game from the start position. If `record` is given, the game is also replayed
// into it (its rules must be `rules`) so it can be written as a record.
// `max_turns` guards against a non-terminating agent bug: reaching it throws Error.
GameSummary play_game(Agent& white, Agent& black, const Rules& rules, Rng& dice_rng, Rng& agent_rng,
                      Game* record = nullptr, int max_turns = 10000);

}  // namespace nardy
