// `nardy show POS|ID [--svg FILE] [--move NOTATION]`: draws the board in the terminal or as SVG.
#include <iostream>

#include "core/error.h"
#include "core/pos_text.h"
#include "core/position_id.h"
#include "core/board_svg.h"
#include "cli/command.h"

namespace nardy::cli {

void add_show_command(CLI::App& app) {
  struct Args {
    std::vector<std::string> positional;
    std::string svg, move, title;
  };
  auto a = std::make_shared<Args>();
  auto* cmd = app.add_subcommand("show",
                                 "Draw a position (POS text or a position ID): points, both "
                                 "colours, borne-off and pip counts.");
  cmd->add_option("position", a->positional, "POS (quoted) or a 14-character position ID")
      ->required();
  cmd->add_option("--svg", a->svg, "Also write an SVG picture of the board to FILE");
  cmd->add_option("--move", a->move,
                  "Draw this move as arrows in the SVG (notation, e.g. '24/18 18/13')");
  cmd->add_option("--title", a->title, "Caption above the SVG board");
  cmd->callback([a] {
    std::string text = join_pos_args(a->positional, a->positional.size());
    Position pos = parse_position(text);
    std::cout << draw_board(pos) << "POS " << format_pos(pos) << "\nID  " << position_id(pos)
              << "\n";
    if (!a->svg.empty()) {
      BoardSvgOptions opt;
      opt.title = a->title;
      if (!a->move.empty()) opt.arrows = parse_notation(a->move);
      write_output_file("show", "SVG", a->svg, board_svg(pos, opt));
      std::cout << "SVG written to " << a->svg << "\n";
    }
  });
}

}  // namespace nardy::cli
