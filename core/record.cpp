#include "core/record.h"

#include <sstream>

#include "core/error.h"
#include "core/notation.h"
#include "core/pos_text.h"

namespace nardy {

std::string write_record(const Game& game) {
  std::string s = "nardy-record 1\nrules " + game.rules().to_string() + "\n";
  if (!(game.start() == Position::start())) s += "start " + format_pos(game.start()) + "\n";
  if (!game.names()[0].empty()) s += "white " + game.names()[0] + "\n";
  if (!game.names()[1].empty()) s += "black " + game.names()[1] + "\n";
  for (const auto& t : game.history()) s += format_dice(t.dice) + " " + format_move(t.move) + "\n";
  if (auto o = game.outcome()) s += "result " + format_outcome(*o) + "\n";
  return s;
}

Game read_record(std::string_view text, int line_offset) {
  std::istringstream in{std::string(text)};
  std::string line;
  int lineno = line_offset;
  bool header = false, has_rules = false, ended = false;
  Rules rules;
  Position start = Position::start();
  std::array<std::string, 2> names;
  std::optional<Game> game;
  auto fail = [&](const std::string& why) {
    return Error("record line " + std::to_string(lineno) + ": " + why);
  };
  auto ensure_game = [&]() -> Game& {
    if (!game) {
      game.emplace(rules, start);
      game->set_name(Side::White, names[0]);
      game->set_name(Side::Black, names[1]);
    }
    return *game;
  };
  while (std::getline(in, line)) {
    ++lineno;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line[0] == '#') continue;
    if (!header) {
      if (line != "nardy-record 1")
        throw fail("expected the header 'nardy-record 1', got " + quote(line));
      header = true;
      continue;
    }
    if (ended) throw fail("text after the result line: " + quote(line));
    try {
      if (line.rfind("rules", 0) == 0 && !game) {
        if (has_rules) throw Error("a second rules line");
        rules = Rules::parse(std::string_view(line).substr(5));
        has_rules = true;
      } else if (line.rfind("start ", 0) == 0 && !game) {
        start = parse_pos(std::string_view(line).substr(6));
      } else if ((line.rfind("white ", 0) == 0 || line.rfind("black ", 0) == 0) && !game) {
        names[line[0] == 'w' ? 0 : 1] = line.substr(6);
      } else if (line.rfind("rules", 0) == 0 || line.rfind("start ", 0) == 0 ||
                 line.rfind("white ", 0) == 0 || line.rfind("black ", 0) == 0) {
        throw Error("a " + line.substr(0, line.find(' ')) +
                    " line must come before the first move");
      } else if (line.rfind("result", 0) == 0) {
        Game& g = ensure_game();
        std::string want = line.size() > 7 ? line.substr(7) : "";
        auto o = g.outcome();
        if (!o) throw Error("result " + quote(want) + " but the game is not over");
        if (format_outcome(*o) != want)
          throw Error("result " + quote(want) + " but the replayed game ends " +
                      format_outcome(*o));
        ended = true;
      } else {
        auto sp = line.find(' ');
        if (sp == std::string::npos)
          throw Error("expected DICE MOVE, e.g. '6-5 24/13', got " + quote(line));
        Dice dice = parse_dice(std::string_view(line).substr(0, sp));
        ensure_game().play(dice, std::string_view(line).substr(sp + 1));
      }
    } catch (const Error& e) {
      throw fail(e.what());
    }
  }
  if (!header) throw Error("record: empty (no 'nardy-record 1' header)");
  return std::move(ensure_game());
}

std::vector<Game> read_records(std::string_view text) {
  std::vector<Game> games;
  size_t pos = text.find("nardy-record");
  if (pos == std::string_view::npos) throw Error("record file: no 'nardy-record 1' header found");
  while (pos != std::string_view::npos) {
    size_t next = text.find("\nnardy-record", pos + 1);
    std::string_view chunk =
        text.substr(pos, next == std::string_view::npos ? std::string_view::npos : next + 1 - pos);
    try {
      games.push_back(read_record(chunk));
    } catch (const Error& e) {
      throw Error("record " + std::to_string(games.size() + 1) + ": " + e.what());
    }
    pos = next == std::string_view::npos ? next : next + 1;
  }
  return games;
}

}  // namespace nardy
