#include "core/game.h"

#include "core/error.h"
#include "core/printable.h"
#include "core/notation.h"

namespace nardy {

bool opening_excludes_doubles(const Position& pos, const Rules& rules) {
  return rules.opening == Opening::NoDoubles && pos == Position::start();
}

std::string format_outcome(const Outcome& o) {
  if (o.is_draw()) return "draw";
  return std::string(*o.winner == Side::White ? "white " : "black ") + std::to_string(o.points);
}

Game::Game(const Rules& rules, const Position& start) : rules_(rules), start_(start), pos_(start) {
  if (auto err = start.validation_error()) throw Error("game start position: " + *err);
}

void Game::set_name(Side side, std::string name) {
  // Names are shown and sent as JSON: printable UTF-8 on one line only.
  if (printable_message(name) != name || name.find('\n') != std::string::npos)
    throw Error(std::string(side == Side::White ? "White" : "Black") + "'s name " + quote(name) +
                " is not printable UTF-8 text on one line");
  names_[static_cast<size_t>(index_of(side))] = std::move(name);
}

Dice Game::roll(Rng& rng) const {
  return roll_turn(rng, rules_, is_opening_turn());
}

void Game::check_dice(Dice dice) const {
  if (!dice.valid()) throw Error("dice: values must be 1..6");
  if (is_over()) throw Error("the game is over (" + format_outcome(*outcome()) + ")");
  if (is_opening_turn() && rules_.opening == Opening::NoDoubles && dice.is_double())
    throw Error("dice " + format_dice(dice) +
                ": the opening roll cannot be a double under opening=no_doubles");
}

MoveList Game::legal(Dice dice) const {
  check_dice(dice);
  return legal_moves(pos_, dice, rules_);
}

void Game::play(Dice dice, const MoveResult& result) {
  MoveList moves = legal(dice);
  for (const MoveResult& m : moves) {
    if (m.position == result.position) {
      history_.push_back({dice, pos_, m.move});
      pos_ = m.position;
      return;
    }
  }
  throw Error("illegal move " + format_move(result.move) + " with " + format_dice(dice));
}

void Game::play(Dice dice, std::string_view notation) {
  check_dice(dice);
  MoveResult m = find_move(pos_, dice, rules_, notation);
  history_.push_back({dice, pos_, m.move});
  pos_ = m.position;
}

bool Game::undo() {
  if (history_.empty()) return false;
  pos_ = history_.back().before;
  history_.pop_back();
  return true;
}

int next_white_player(int white_player, const Outcome& last, const Rules& rules) {
  if (rules.next_game_starter == NextGameStarter::PreviousWinner && last.winner)
    return *last.winner == Side::White ? white_player : 1 - white_player;
  return 1 - white_player;  // the player who had Black starts as White
}

}  // namespace nardy
