// core/game.h — turns, the end of a game, scoring and match colours.
//
// docs/rules.md "End of the game and scoring": the first side to bear off all 15 wins; 1 point
// (oin) when the loser has borne off at least one checker, 2 (mars) when none. Under
// `last_roll_draw`, when White bears off its 15th checker Black plays one more turn; if Black
// then finishes too the game is a draw, and mars is judged after that turn. Because White always
// moves first, the game state is a function of the position alone: a position with White
// finished and Black to move is Black's last turn, not an end.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/movegen.h"
#include "core/random.h"
#include "core/rules.h"

namespace nardy {

struct Outcome {
  std::optional<Side> winner;  // empty for a draw
  int points = 0;              // 1 oin, 2 mars, 0 draw (each side gets half a point)
  bool is_draw() const { return !winner; }
  bool is_mars() const { return points == 2; }
  // Signed result for `s`: +points won, -points lost, 0 for a draw.
  int points_for(Side s) const { return !winner ? 0 : (*winner == s ? points : -points); }
  bool operator==(const Outcome&) const = default;
};

// The outcome if `pos` ends the game under `rules`, else empty. Inline: search and self-play
// ask it of every position they value, and nearly always nobody has finished.
inline std::optional<Outcome> game_outcome(const Position& pos, const Rules& rules) {
  const int white_off = pos.off(Side::White), black_off = pos.off(Side::Black);
  if (white_off != kNumCheckers && black_off != kNumCheckers) return std::nullopt;
  auto win = [](Side w, int loser_off) { return Outcome{w, loser_off == 0 ? 2 : 1}; };
  if (black_off == kNumCheckers) {
    // Black can only finish second under last_roll_draw, on its extra turn.
    if (white_off == kNumCheckers) return Outcome{std::nullopt, 0};
    return win(Side::Black, white_off);
  }
  if (rules.last_roll_draw && pos.side_to_move() == Side::Black)
    return std::nullopt;  // White has finished: Black's last turn
  return win(Side::White, black_off);
}

std::string format_outcome(const Outcome& o);  // "white 1", "black 2", "draw"

// True when the roll about to be made at `pos` is a game's opening roll and may not be a
// double: `pos` is the start position and rules.opening is no_doubles (docs/rules.md `opening`).
// For analyses and rollouts of a bare position; a Game knows its own opening turn.
bool opening_excludes_doubles(const Position& pos, const Rules& rules);

// A game from a start position: the chance node (roll), the legal moves, apply and undo.
// Moves are validated against the legal set; an illegal one throws Error.
class Game {
 public:
  struct Turn {
    Dice dice;
    Position before;
    Move move;  // num_steps == 0 is a pass
  };

  explicit Game(const Rules& rules = {}, const Position& start = Position::start());

  const Rules& rules() const { return rules_; }
  const Position& start() const { return start_; }
  const Position& position() const { return pos_; }
  const std::vector<Turn>& history() const { return history_; }
  bool is_over() const { return game_outcome(pos_, rules_).has_value(); }
  std::optional<Outcome> outcome() const { return game_outcome(pos_, rules_); }
  // The first turn of a game from the start position, where the `opening` rule applies.
  bool is_opening_turn() const { return history_.empty() && start_ == Position::start(); }

  // Rolls the dice for the coming turn (the opening rule for the first one).
  Dice roll(Rng& rng) const;
  // The legal results of `dice` for the side to move (throws Error if the game is over, or if
  // the dice are a double on an opening turn under `no_doubles`).
  MoveList legal(Dice dice) const;
  // Plays one legal result: by result, by notation, or by resulting position.
  void play(Dice dice, const MoveResult& result);
  void play(Dice dice, std::string_view notation);
  // Takes back the last turn; false when there is none.
  bool undo();

  // Who plays White and Black (empty: unnamed); a record writes and reads them. Throws Error
  // for a name that is not printable text on one line.
  const std::array<std::string, 2>& names() const { return names_; }
  void set_name(Side side, std::string name);

 private:
  void check_dice(Dice dice) const;
  Rules rules_;
  Position start_;
  Position pos_;
  std::vector<Turn> history_;
  std::array<std::string, 2> names_;  // White's, Black's
};

// Which player (0 or 1) plays White in the next game of a match (docs/rules.md "Matches"):
// `previous_black` alternates colours; `previous_winner` gives White to the winner, and
// alternates after a draw.
int next_white_player(int white_player, const Outcome& last, const Rules& rules);

}  // namespace nardy
