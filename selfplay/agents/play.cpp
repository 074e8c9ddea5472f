#include "selfplay/agents/play.h"

#include "core/error.h"

namespace nardy {

GameSummary play_game(Agent& white, Agent& black, const Rules& rules, Rng& dice_rng, Rng& agent_rng,
                      Game* record, int max_turns) {
  Position pos = Position::start();
  MoveList moves;
  GameSummary summary;
  for (;;) {
    if (auto o = game_outcome(pos, rules)) {
      summary.outcome = *o;
      return summary;
    }
    if (summary.turns >= max_turns)
      throw Error("game exceeded " + std::to_string(max_turns) + " turns");
    Dice dice = roll_turn(dice_rng, rules, summary.turns == 0);
    generate_moves(pos, dice, rules, moves);
    Agent& agent = pos.side_to_move() == Side::White ? white : black;
    size_t i = agent.choose(pos, dice, moves, agent_rng);
    if (record) record->play(dice, moves[i]);
    pos = moves[i].position;
    ++summary.turns;
  }
}

}  // namespace nardy
