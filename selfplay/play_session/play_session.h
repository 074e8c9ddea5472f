// selfplay/play_session/play_session.h — a game or match between a person and an agent, driven
// by lines of text (`nardy play`; the web board reuses it).
//
// The person is player 0 and the agent player 1 of a Match (core/match.h) to `target` points;
// the person plays `human_colour` in game 1 and next_game_starter decides after that. The
// session rolls the dice (seeded) or, with manual dice, asks for every roll, the agent's
// included; plays the agent's turns at once, each with a short explanation (for net agents its
// equity before and after the move, and in the match its match winning chance); and waits for
// the person's move. Net agents play score-aware (core/match_equity.h) unless `match=off`.
//
// Input, one line at a time (input()): in a move prompt, a move in the documented notation
// (core/notation.h: any equivalent way of writing it, e.g. `24/18/13` or `24/13`), or the number
// of a move in the `legal` list; in a dice prompt, dice as `6-5`, `65` or `6 5`. Commands at any
// prompt:
//   legal         the legal moves, numbered
//   hint          the agent's ranked moves with equities (and match winning chances)
//   keep          (tutor) plays the move the tutor warned about
//   undo          takes back the person's last move and the agent's moves after it (across
//                 games of the match too); the person plays the same roll again
//   save FILE     writes the match record (core/match.h) to FILE
//   board         draws the board again
//   help          lists the commands
//   quit          ends the session
// Tutor (`tutor_threshold` set): before the person's move of a decision is played, it is
// analysed as `hint` analyses (selfplay/evaluation/analysis.h, the session's agent); if it loses
// more than the threshold (points of equity) against the best move, it is not played yet: the
// reply names the best move and the loss, and the person enters another move, the same move again
// or `keep` to play it. The loss is the error `nardy review` gives the move
// (selfplay/evaluation/review.h) with the same agent.
//
// Bad input (a malformed or illegal move, bad dice, an opening double under no_doubles, an
// unknown command, an unwritable file) never throws: the reply names the problem and the
// session waits for the same input again.
//
// Resuming: a match record (core/match.h) continues that match, with the person as player 0;
// a game record (core/record.h) continues that game as a match to 1 point, with the person as
// `human_colour`. Everything the session prints is plain text (the caller may colour it).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "core/match.h"
#include "core/match_equity.h"
#include "selfplay/agents/agent.h"

namespace nardy {

struct PlaySessionOptions {
  std::string agent = "heuristic";  // the opponent's spec (selfplay/search/agent_kinds.h)
  int target = 1;                   // points to win the match (1 = one game)
  Side human_colour = Side::White;  // the person's colour in game 1
  bool manual_dice = false;         // ask for every roll instead of rolling
  uint64_t seed = 1;                // the dice and the agent's randomness
  Rules rules;
  int64_t hint_trials = 36;  // rollouts per move for hints by agents without a net
  std::string human_name = "you";
  // A match or game record to resume (see the header comment); empty: a new match.
  std::string resume_record;
  // Where resume_record came from (e.g. "record file 'm.txt'"), prefixed to its errors.
  std::string resume_source;
  // The tutor's threshold (points of equity, > 0; see the header comment); empty: no tutor.
  std::optional<double> tutor_threshold;
};

class PlaySession {
 public:
  enum class Waiting { Dice, Move, Nothing };

  // Throws Error for a bad agent spec, target or record (the session cannot start).
  explicit PlaySession(const PlaySessionOptions& options);
  ~PlaySession();

  // What to show first: the players, the board and the agent's turns up to the person's first
  // decision.
  std::string start();
  // Handles one line of the person's input and returns what to show (see the header comment).
  std::string input(std::string_view line);
  // The prompt for the next line, e.g. "you (White) 6-5> " or "dice for bot (Black)> ".
  std::string prompt() const;
  Waiting waiting() const { return waiting_; }
  // True once the match is over or the person quit.
  bool finished() const { return waiting_ == Waiting::Nothing; }

  const Match& match() const { return match_; }
  std::string record() const { return write_match_record(match_); }
  // The dice of the turn being decided, if rolled.
  const std::optional<Dice>& dice() const { return dice_; }

 private:
  bool human_to_move() const { return match_.player_to_move() == 0; }
  std::string who(int player) const;  // "you (White)"
  std::string board() const;          // score line and the board
  std::string advance();              // plays until the person must answer
  std::string play_agent_turn();
  std::string command(std::string_view cmd, std::string_view arg);
  std::string legal_list() const;
  std::string hint();
  // The tutor's warning if the person's result `chosen` (into legal_) loses more than the
  // threshold; empty when it does not.
  std::optional<std::string> tutor_warning(size_t chosen);
  std::string play_human_move(size_t chosen);
  std::string undo();
  GameStakes stakes() const;

  PlaySessionOptions options_;
  Match match_;
  std::unique_ptr<Agent> agent_;
  MatchEquityTable table_;
  Rng dice_rng_, agent_rng_;
  std::optional<Dice> dice_;
  MoveList legal_;
  std::optional<size_t> tutor_pending_;  // the move the tutor warned about, into legal_
  Waiting waiting_ = Waiting::Move;
};

}  // namespace nardy
