// `nardy convert IN OUT [--rule KEY=VALUE...]`: a nardy match or game record to a .mat file, or a
// .mat file to a nardy match record (core/mat_format.h; docs/review.md ".mat files").
#include <iostream>

#include "cli/command.h"
#include "core/error.h"
#include "core/file_io.h"
#include "core/mat_format.h"
#include "core/match.h"
#include "core/record.h"

namespace nardy::cli {

namespace {

// A nardy record (match, or one game from the start) as a match.
Match match_of_record(const std::string& text, const std::string& source) {
  const size_t first = text.find("nardy-");
  if (first != std::string::npos && text.compare(first, 11, "nardy-match") == 0)
    return read_match_record(text);
  if (first == std::string::npos || text.compare(first, 12, "nardy-record") != 0)
    throw Error("convert: " + source +
                " is neither a .mat file ('N point match') nor a nardy record ('nardy-record 1' or "
                "'nardy-match 1')");
  const std::vector<Game> games = read_records(text);
  if (games.size() != 1)
    throw Error("convert: " + source + " holds " + std::to_string(games.size()) +
                " game records; a .mat file is one match (convert a match record instead)");
  if (!(games[0].start() == Position::start()))
    throw Error("convert: " + source +
                " starts from a position other than the start, which a .mat file cannot hold");
  return match_of_game(games[0], "convert");
}

}  // namespace

void add_convert_command(CLI::App& app) {
  struct Args {
    std::string in, out;
    std::vector<std::string> rules;
  };
  auto a = std::make_shared<Args>();
  auto* cmd = app.add_subcommand(
      "convert",
      "Convert between nardy records and .mat match files (Jellyfish/gnubg text, each player's\n"
      "moves in its own numbering). A .mat IN becomes a nardy match record; a nardy match record\n"
      "(or one game, as a 1-point match) becomes a .mat file. See docs/review.md.");
  cmd->add_option("in", a->in, "The file to convert")->required();
  cmd->add_option("out", a->out, "The file to write")->required();
  add_rule_option(*cmd, a->rules);
  cmd->callback([a] {
    std::string text;
    try {
      text = read_file(a->in);
    } catch (const Error& e) {
      throw Error(std::string("convert: ") + e.what());
    }
    const std::string source = quote_path(a->in);
    std::string out;
    try {
      if (looks_like_mat(text)) {
        out = write_match_record(read_mat(text, rules_from(a->rules)));
      } else {
        if (!a->rules.empty())
          throw Error("--rule applies to .mat input only (a nardy record names its rules)");
        out = write_mat(match_of_record(text, source));
      }
    } catch (const Error& e) {
      const std::string what = e.what();
      throw Error(what.rfind("convert:", 0) == 0 ? what : "convert: " + source + ": " + what);
    }
    write_output_file("convert", looks_like_mat(text) ? "record" : ".mat", a->out, out);
    std::cout << "wrote " << a->out << "\n";
  });
}

}  // namespace nardy::cli
