#include "tests/support/random_sim.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "core/error.h"
#include "core/notation.h"
#include "core/pos_text.h"
#include "core/position_id.h"
#include "core/record.h"
#include "tests/support/reference_movegen.h"

namespace nardy::testing {
namespace {

// Collects the problems of one state; empty when all is well.
class StateCheck {
 public:
  explicit StateCheck(std::string where) : where_(std::move(where)) {}
  void expect(bool ok, const std::string& what) {
    if (!ok && problems_.empty()) problems_ = where_ + ": " + what;
  }
  bool failed() const { return !problems_.empty(); }
  const std::string& problems() const { return problems_; }

 private:
  std::string where_;
  std::string problems_;
};

void check_position(StateCheck& c, const Position& pos) {
  for (Side s : {Side::White, Side::Black}) {
    int on_board = 0;
    for (int p = 1; p <= kNumPoints; ++p) {
      int v = pos.at_point(p);
      on_board += s == Side::White ? std::max(v, 0) : std::max(-v, 0);
    }
    c.expect(on_board + pos.off(s) == kNumCheckers,
             std::string(s == Side::White ? "White" : "Black") +
                 " does not have 15 checkers (board + off)");
    c.expect(on_board == pos.on_board(s), "on_board() disagrees with the board");
  }
  auto err = pos.validation_error();
  c.expect(!err, "invalid position: " + err.value_or(""));
  // POS and ID round trips.
  try {
    c.expect(parse_pos(format_pos(pos)) == pos, "POS does not round-trip");
    c.expect(parse_position_id(position_id(pos)) == pos, "position ID does not round-trip");
  } catch (const Error& e) {
    c.expect(false, std::string("round trip threw: ") + e.what());
  }
  // Copies are equal and hash alike.
  Position copy = pos;
  c.expect(copy == pos && copy.hash() == pos.hash(), "a copy differs from the original");
  // The view from the other side is the same board.
  Position flipped = pos.with_side_to_move(~pos.side_to_move());
  c.expect(flipped.points() == pos.points() && flipped.with_side_to_move(pos.side_to_move()) == pos,
           "with_side_to_move changes the board");
}

void check_results(StateCheck& c, const Game& game, Dice dice, const MoveList& moves,
                   int full_notation_check, Rng& rng) {
  const Position& pos = game.position();
  const Side me = pos.side_to_move();
  c.expect(!moves.empty(), "no results (a pass must be a single result)");
  std::vector<std::array<int, kNumPoints>> boards;
  for (const MoveResult& m : moves) boards.push_back(m.position.points());
  std::sort(boards.begin(), boards.end());
  c.expect(std::adjacent_find(boards.begin(), boards.end()) == boards.end(),
           "results are not distinct");
  int dice_list[4] = {dice.d1, dice.d2, dice.d1, dice.d2};
  const int num_dice = dice.is_double() ? 4 : 2;
  for (const MoveResult& m : moves) {
    c.expect(m.position.side_to_move() == ~me, "a result does not have the opponent to move");
    c.expect(m.move.side == me, "a result's move names the wrong side");
    c.expect(m.move.num_steps <= num_dice, "a result has more steps than dice");
    c.expect(m.move.num_steps > 0 || moves.size() == 1, "a pass among other results");
    c.expect(m.position.is_ok(),
             "a result is invalid: " + m.position.validation_error().value_or(""));
    // The steps use the rolled dice (an overshooting bear-off uses a larger die) and account
    // for the mover's pip change.
    std::vector<int> left(dice_list, dice_list + num_dice);
    int pip_change = 0;
    for (int i = 0; i < m.move.num_steps; ++i) {
      const Step& s = m.move.steps[i];
      const int dist = s.from - s.to;
      pip_change += dist;
      auto it = std::find(left.begin(), left.end(), dist);
      if (it == left.end() && s.to == 0)
        it = std::find_if(left.begin(), left.end(), [&](int d) { return d > dist; });
      c.expect(it != left.end(), "step " + std::to_string(s.from) + "/" + std::to_string(s.to) +
                                     " does not match a die of " + format_dice(dice));
      if (it != left.end()) left.erase(it);
    }
    c.expect(pos.pips(me) - m.position.pips(me) == pip_change, "pips do not match the steps");
    c.expect(m.position.pips(~me) == pos.pips(~me), "the opponent's checkers moved");
  }
  // A pass only when nothing moves: the reference generator must agree.
  if (moves.size() == 1 && moves[0].move.num_steps == 0) {
    std::vector<Position> ref = reference_results(pos, dice, game.rules());
    c.expect(ref.size() == 1 && ref[0] == moves[0].position,
             "a pass although the reference finds a move");
  }
  // Notation round trip (every result when few, otherwise a sample).
  std::vector<size_t> sample;
  for (size_t i = 0; i < moves.size(); ++i)
    if (static_cast<int>(moves.size()) <= full_notation_check ||
        rng.below(static_cast<uint32_t>(moves.size())) < 8)
      sample.push_back(i);
  for (size_t i : sample) {
    const MoveResult& m = moves[i];
    const std::string text = format_move(m.move);
    try {
      MoveResult back = find_move(pos, dice, game.rules(), text);
      c.expect(back.position == m.position,
               "notation '" + text + "' does not lead back to its result");
      c.expect(format_move(back.move) == text, "notation '" + text + "' is not canonical");
    } catch (const Error& e) {
      c.expect(false, "notation '" + text + "' does not parse back: " + e.what());
    }
  }
}

}  // namespace

std::vector<Rules> all_rule_combinations() {
  std::vector<Rules> out;
  for (const std::string& opening : Rules::values_of("opening"))
    for (const std::string& head : Rules::values_of("head_exception"))
      for (const std::string& lrd : Rules::values_of("last_roll_draw"))
        for (const std::string& starter : Rules::values_of("next_game_starter")) {
          Rules r;
          r.set("opening", opening);
          r.set("head_exception", head);
          r.set("last_roll_draw", lrd);
          r.set("next_game_starter", starter);
          out.push_back(r);
        }
  return out;
}

RandomSimStats random_sim_test(const RandomSimOptions& o) {
  RandomSimStats stats;
  Rng rng(o.seed);
  for (int g = 0; g < o.num_games; ++g) {
    Game game(o.rules);
    bool failed = false;
    int turn = 0;
    for (; turn < o.max_turns && !game.is_over() && !failed; ++turn) {
      std::ostringstream where;
      where << "rules '" << o.rules.to_string() << "' seed " << o.seed << " game " << g << " turn "
            << turn << " position " << format_pos(game.position());
      StateCheck c(where.str());
      check_position(c, game.position());
      Dice dice = game.roll(rng);
      MoveList moves;
      try {
        moves = game.legal(dice);
      } catch (const Error& e) {
        c.expect(false, std::string("legal() threw: ") + e.what());
      }
      if (!c.failed()) check_results(c, game, dice, moves, o.full_notation_check, rng);
      if (!c.failed() && o.state_checker) o.state_checker(game, dice, moves);
      if (c.failed()) {
        ADD_FAILURE() << c.problems() << " dice " << format_dice(dice);
        failed = true;
        break;
      }
      size_t pick = 0;
      if (moves.size() > 1) {
        pick = rng.below(static_cast<uint32_t>(moves.size()));
        // The racing policy takes the result with the fewest mover pips half the time, which
        // brings both sides home with contact left and makes last-roll draws possible.
        if (o.policy != Policy::Uniform && rng.below(2)) {
          const Side me = game.position().side_to_move();
          for (size_t i = 0; i < moves.size(); ++i)
            if (moves[i].position.pips(me) < moves[pick].position.pips(me)) pick = i;
        }
      }
      stats.passes += moves[pick].move.num_steps == 0;
      stats.results += static_cast<long>(moves.size());
      game.play(dice, moves[pick]);
      ++stats.turns;
    }
    if (failed) continue;
    if (!game.is_over()) {
      ADD_FAILURE() << "rules '" << o.rules.to_string() << "' seed " << o.seed << " game " << g
                    << " did not end within " << o.max_turns << " turns";
      continue;
    }
    // The end is consistent with the position.
    StateCheck c("rules '" + o.rules.to_string() + "' game " + std::to_string(g) +
                 " final position " + format_pos(game.position()));
    check_position(c, game.position());
    Outcome out = *game.outcome();
    const Position& end = game.position();
    if (out.winner) {
      c.expect(end.off(*out.winner) == kNumCheckers, "the winner has not borne off all 15");
      c.expect(out.points == (end.off(~*out.winner) == 0 ? 2 : 1),
               "oin/mars does not match the loser's off count");
    } else {
      c.expect(o.rules.last_roll_draw, "a draw without last_roll_draw");
      c.expect(end.off(Side::White) == kNumCheckers && end.off(Side::Black) == kNumCheckers,
               "a draw but not both off");
    }
    // The record replays to the same game.
    try {
      std::string text = write_record(game);
      Game replayed = read_record(text);
      c.expect(replayed.position() == end, "the record replays to a different position");
      c.expect(replayed.outcome() == game.outcome(), "the record replays to a different outcome");
      c.expect(replayed.history().size() == game.history().size(),
               "the record replays a different number of turns");
      c.expect(replayed.rules() == o.rules, "the record replays under different rules");
      c.expect(write_record(replayed) == text, "the replayed record is written differently");
    } catch (const Error& e) {
      c.expect(false, std::string("the record does not replay: ") + e.what());
    }
    if (c.failed()) {
      ADD_FAILURE() << c.problems();
      continue;
    }
    ++stats.games;
    if (!out.winner)
      ++stats.draws;
    else if (*out.winner == Side::White)
      ++stats.white_wins;
    else
      ++stats.black_wins;
    stats.mars += out.is_mars();
  }
  return stats;
}

}  // namespace nardy::testing
