// Fuzz target: dice and move input (core/notation.h, Game::play with notation).
//
// Input: three lines, "POSITION\nDICE\nNOTATION", POSITION as POS text or a position ID (the seed
// corpus holds real positions, so mutations reach find_move). Checked:
//  * parse_dice / parse_die give die values 1..6, and parse_dice(format_dice(d)) == d;
//  * parse_notation gives paths from a point 1..24 to a point or off;
//  * a move found by find_move is one of the legal results, its canonical notation finds the same
//    result again, and Game::play accepts exactly what find_move accepts (outside the opening
//    turn, whose dice rule Game applies on top).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/game.h"
#include "core/notation.h"
#include "core/pos_text.h"
#include "core/position_id.h"
#include "tests/fuzz/fuzz_contract.h"

namespace {

// The next line of `rest` (without its '\n'), removed from `rest`.
std::string_view take_line(std::string_view& rest) {
  const size_t nl = rest.find('\n');
  const std::string_view line = rest.substr(0, nl);
  rest = nl == std::string_view::npos ? std::string_view() : rest.substr(nl + 1);
  return line;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace nardy;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  std::string_view rest = input;
  const std::string_view pos_text = take_line(rest);
  const std::string_view dice_text = take_line(rest);
  const std::string_view notation = rest;

  if (const auto die = fuzz::parse_or_error(input, [&] { return parse_die(dice_text); }))
    fuzz::check(*die >= 1 && *die <= 6, "parse_die gave a value outside 1..6", input);
  const auto dice = fuzz::parse_or_error(input, [&] { return parse_dice(dice_text); });
  if (dice) {
    fuzz::check(dice->valid(), "parse_dice gave a die outside 1..6", input);
    fuzz::check(parse_dice(format_dice(*dice)) == *dice, "parse_dice(format_dice(d)) != d", input);
  }
  if (const auto paths = fuzz::parse_or_error(input, [&] { return parse_notation(notation); })) {
    for (const PathMove& p : *paths)
      fuzz::check(p.from >= 1 && p.from <= 24 && p.to >= 0 && p.to <= 24,
                  "parse_notation gave a path outside the board", input);
  }

  const auto pos = fuzz::parse_or_error(input, [&] {
    return pos_text.find(',') != std::string_view::npos ? parse_pos(pos_text)
                                                        : parse_position_id(pos_text);
  });
  if (!pos || !dice) return 0;
  const Rules rules;
  const auto found =
      fuzz::parse_or_error(input, [&] { return find_move(*pos, *dice, rules, notation); });
  if (found) {
    const MoveList legal = legal_moves(*pos, *dice, rules);
    fuzz::check(std::any_of(legal.begin(), legal.end(),
                            [&](const MoveResult& m) { return m.position == found->position; }),
                "find_move returned a result that is not legal", input);
    const std::string canonical = format_move(found->move);
    fuzz::check(find_move(*pos, *dice, rules, canonical).position == found->position,
                "the canonical notation " + canonical + " finds another result", input);
  }
  Game game(rules, *pos);
  if (game.is_over() || game.is_opening_turn()) return 0;
  const auto played = fuzz::parse_or_error(input, [&] {
    game.play(*dice, notation);
    return game.position();
  });
  fuzz::check(played.has_value() == found.has_value(),
              "Game::play and find_move disagree on accepting the move", input);
  if (played) fuzz::check(*played == found->position, "Game::play reached another position", input);
  return 0;
}
