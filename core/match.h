// core/match.h — matches to N points: the score, who plays White next, and the match record.
//
// docs/rules.md "Matches": a match is a series of games between two players (0 and 1) to N
// points. A game gives its winner 1 point (oin) or 2 (mars); under `last_roll_draw` a draw gives
// each player half a point ("End of the game and scoring"). There is no doubling cube, so there
// is no Crawford rule. Who plays White in game 1 is free (the one-die throw); after that
// `next_game_starter` decides (core/game.h next_white_player).
//
// The end of a match: a player wins once they have at least N points and more than the
// opponent. Only a draw can bring both to N at once (both needed exactly half a point); the
// match then goes on and the next decisive game wins it. Scores are kept in half points, so
// they are exact.
//
// Match record (the game record of core/record.h extended by match headers; '#' lines and
// blank lines are ignored):
//
//   nardy-match 1
//   target 5
//   rules opening=no_doubles head_exception=standard last_roll_draw=false next_game_starter=...
//   player 0 alice                  (optional: a name for each player, the rest of the line)
//   player 1 net:models/best.pt
//   game white=0                    (who plays White in the game that follows)
//   nardy-record 1                  (a complete game record, core/record.h)
//   rules ...                       (the match's rules)
//   6-5 24/13
//   ...
//   result white 2
//   game white=1
//   nardy-record 1
//   ...
//
// Every game but the last is finished; the last one may be in progress (a match being played).
// Reading checks everything: the header, the target, the rules of each game against the
// match's, who plays White against next_game_starter, each game by replaying it, and that no
// game follows the end of the match. Errors name the line and the problem.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/game.h"

namespace nardy {

// The largest target a match may have (keeps match-equity tables small).
constexpr int kMaxMatchTarget = 99;

// Half points (>= 0) as text: 3 -> "1.5", 4 -> "2".
std::string format_half_points(int half_points);

// The score of a match to `target` points between players 0 and 1, in half points.
class MatchScore {
 public:
  // Throws Error unless 1 <= target <= kMaxMatchTarget and first_white is 0 or 1.
  explicit MatchScore(int target, int first_white = 0);
  // A score reached some other way (half points >= 0, white_player 0 or 1, games_played 0).
  // Throws Error on a value out of range.
  static MatchScore at(int target, int half_points0, int half_points1, int white_player);

  int target() const { return target_; }
  int half_points(int player) const { return half_points_[player]; }
  double points(int player) const { return half_points_[player] / 2.0; }
  // Half points `player` still needs to reach the target (<= 0 once reached).
  int half_points_needed(int player) const { return 2 * target_ - half_points_[player]; }
  // The player who plays White in the coming game (or the game being played).
  int white_player() const { return white_player_; }
  int games_played() const { return games_played_; }
  // The winner once the match is over (see the header comment), else empty.
  std::optional<int> winner() const;
  bool is_over() const { return winner().has_value(); }

  // Adds the outcome of the game just played, with white_player() as White, and sets who plays
  // White next by rules.next_game_starter. Throws Error if the match is already over.
  void add_game(const Outcome& outcome, const Rules& rules);

  // "alice 2 - 1.5 bob (to 5)"-style summary with the given names.
  std::string to_string(const std::array<std::string, 2>& names = {"player 0", "player 1"}) const;

  bool operator==(const MatchScore&) const = default;

 private:
  int target_;
  std::array<int, 2> half_points_{0, 0};
  int white_player_;
  int games_played_ = 0;
};

// A match with its games: the finished ones and the current one (the last, maybe over).
class Match {
 public:
  // Starts game 1 with `first_white` as White. Throws Error as MatchScore does.
  explicit Match(int target, const Rules& rules = {}, int first_white = 0);

  int target() const { return first_score_.target(); }
  const Rules& rules() const { return rules_; }
  // Player names (may be empty); written to and read from the record.
  std::array<std::string, 2> names;

  const std::vector<Game>& games() const { return games_; }
  // Who played White in each game (same length as games()).
  const std::vector<int>& white_players() const { return white_players_; }
  const Game& current_game() const { return games_.back(); }
  // The game being played, to roll, play and undo turns in.
  Game& current_game() { return games_.back(); }
  int current_white_player() const { return white_players_.back(); }
  // The player to move in the current game (its White or Black player).
  int player_to_move() const;

  // The score after every finished game, the current one included if it is over.
  MatchScore score() const;
  // The score before the current game (what its players play for).
  MatchScore score_before_current_game() const;
  bool is_over() const { return score().is_over(); }
  std::optional<int> winner() const { return score().winner(); }

  // Starts the next game. Throws Error unless the current game is over and the match is not.
  void start_next_game();
  // Takes back the last turn of the match: of the current game, or, when it has no turn yet,
  // drops it and takes back the last turn of the previous game. False when there is none.
  bool undo();

 private:
  Rules rules_;
  MatchScore first_score_;
  std::vector<Game> games_;
  std::vector<int> white_players_;
};

std::string write_match_record(const Match& match);
// Replays a match record (see the header comment). Throws Error naming the line and the problem.
Match read_match_record(std::string_view text);
// One game from the start as a match to 1 point, its players' names the match's (player 0 is
// White). Throws Error when the game starts elsewhere (`what` names the caller).
Match match_of_game(const Game& game, std::string_view what);

}  // namespace nardy
