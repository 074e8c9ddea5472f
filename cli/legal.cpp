// `nardy legal POS D1 D2 [--rule KEY=VALUE ...]`: every legal result, one per line.
#include <iostream>

#include "core/error.h"
#include "core/movegen.h"
#include "core/notation.h"
#include "core/pos_text.h"
#include "cli/command.h"

namespace nardy::cli {

void add_legal_command(CLI::App& app) {
  struct Args {
    std::vector<std::string> positional;
    std::vector<std::string> rules;
  };
  auto args = std::make_shared<Args>();
  auto* cmd = app.add_subcommand(
      "legal",
      "Print every legal result of a roll as POS<TAB>NOTATION, one per line, sorted by position.\n"
      "A roll with no legal step prints the same board with the other side to move and 'pass'.");
  cmd->add_option("args", args->positional,
                  "POS D1 D2 (POS quoted as one argument, or a position ID)")
      ->required()
      ->allow_extra_args();
  add_rule_option(*cmd, args->rules);
  cmd->callback([args] {
    const auto [pos, dice] = parse_pos_dice_args("legal", args->positional);
    Rules rules = rules_from(args->rules);
    if (pos.on_board(pos.side_to_move()) == 0)
      throw Error("legal: the side to move has no checkers left (the game is over)");
    MoveList moves = legal_moves(pos, dice, rules);
    sort_by_position(moves);
    std::string out;
    for (const auto& m : moves) out += format_pos(m.position) + "\t" + format_move(m.move) + "\n";
    std::cout << out;
  });
}

}  // namespace nardy::cli
