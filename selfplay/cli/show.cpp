// `nardy show POS|ID`: draws the board in the terminal.
#include <iostream>

#include "core/pos_text.h"
#include "core/position_id.h"
#include "selfplay/cli/command.h"

namespace nardy::cli {

void add_show_command(CLI::App& app) {
  auto positional = std::make_shared<std::vector<std::string>>();
  auto* cmd = app.add_subcommand(
      "show", "Draw a position (POS text or a position ID): points, both colours, borne-off and pip counts.");
  cmd->add_option("position", *positional, "POS (quoted) or a 14-character position ID")->required();
  cmd->callback([positional] {
    std::string text = join_pos_args(*positional, positional->size());
    Position pos = text.find(',') == std::string::npos ? parse_position_id(text) : parse_pos(text);
    std::cout << draw_board(pos) << "POS " << format_pos(pos) << "\nID  " << position_id(pos) << "\n";
  });
}

}  // namespace nardy::cli
