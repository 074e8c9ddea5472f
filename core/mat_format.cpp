#include "core/mat_format.h"

#include <optional>
#include <regex>
#include <vector>

#include "core/error.h"
#include "core/notation.h"
#include "core/printable.h"

namespace nardy {

namespace {

struct Line {
  int number;
  std::string text;
};

std::vector<Line> split_lines(std::string_view text) {
  std::vector<Line> lines;
  for (size_t pos = 0, n = 1; pos < text.size(); ++n) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string l(text.substr(pos, end - pos));
    if (!l.empty() && l.back() == '\r') l.pop_back();
    lines.push_back({static_cast<int>(n), l});
    pos = end + 1;
  }
  return lines;
}

std::string trim(const std::string& s) {
  const size_t a = s.find_first_not_of(" \t");
  if (a == std::string::npos) return "";
  const size_t b = s.find_last_not_of(" \t");
  return s.substr(a, b - a + 1);
}

const std::regex kMatchLine(R"(^\s*(\d+)\s+point\s+match\s*$)", std::regex::icase);
const std::regex kGameLine(R"(^\s*Game\s+(\d+)\s*$)", std::regex::icase);
const std::regex kScoreLine(R"(^\s*(.+?)\s*:\s*(\d+)\s+(.+?)\s*:\s*(\d+)\s*$)");
const std::regex kMoveLine(R"(^\s*(\d+)\)(.*)$)");
const std::regex kWinsLine(R"(^\s*Wins\s+(\d+)\s+points?(\s+and\s+the\s+match)?\s*$)",
                           std::regex::icase);
const std::regex kTagLine(R"re(^;\s*\[\s*([A-Za-z0-9 ]+?)\s+"(.*)"\s*\]\s*$)re");
const std::regex kDice(R"((\d)(\d):)");

int to_int(const std::string& s) {
  try {
    return std::stoi(s);
  } catch (...) {
    return -1;
  }
}

// One turn's paths in the mover's numbering (24 = head, 1..6 home) as absolute notation.
std::string absolute_notation(const std::string& moves, Side mover) {
  std::string out;
  size_t pos = 0;
  const std::string text = trim(moves);
  if (text.empty()) return "pass";
  while (pos < text.size()) {
    size_t end = text.find(' ', pos);
    if (end == std::string::npos) end = text.size();
    std::string token = text.substr(pos, end - pos);
    pos = text.find_first_not_of(' ', end);
    if (pos == std::string::npos) pos = text.size();
    if (token.empty()) continue;
    if (token.find('*') != std::string::npos)
      throw Error("move " + quote(token) + " hits ('*'), which Long Nardy does not have");
    std::string count;
    if (const size_t paren = token.find('('); paren != std::string::npos) {
      count = token.substr(paren);
      token = token.substr(0, paren);
    }
    std::string path;
    size_t p = 0;
    while (p <= token.size()) {
      size_t slash = token.find('/', p);
      if (slash == std::string::npos) slash = token.size();
      const std::string field = token.substr(p, slash - p);
      std::string point;
      if (field == "off" || field == "Off" || field == "0") {
        point = "off";
      } else if (field == "bar" || field == "25") {
        throw Error("move " + quote(token) +
                    " enters from the bar, which Long Nardy does not have");
      } else {
        const int r = to_int(field);
        if (r < 1 || r > 24 || field.find_first_not_of("0123456789") != std::string::npos)
          throw Error("move " + quote(token) + ": " + quote(field) +
                      " is not a point 1..24 of the mover's numbering or 'off'");
        point = std::to_string(point_of(mover, r));
      }
      path += (path.empty() ? "" : "/") + point;
      p = slash + 1;
    }
    out += (out.empty() ? "" : " ") + path + count;
  }
  return out;
}

// A move in the mover's own numbering: each path from its route coordinate, "off" borne off;
// repeated paths written out.
std::string own_numbering(const Move& move) {
  std::string s;
  for (const PathMove& p : parse_notation(format_move(move))) {
    if (!s.empty()) s += " ";
    s += std::to_string(route_of(move.side, p.from)) + "/" +
         (p.to == 0 ? std::string("off") : std::to_string(route_of(move.side, p.to)));
  }
  return s;
}

std::string pad(const std::string& s, size_t width) {
  return s.size() >= width ? s + " " : s + std::string(width - s.size(), ' ');
}

}  // namespace

bool looks_like_mat(std::string_view text) {
  for (const Line& l : split_lines(text)) {
    const std::string t = trim(l.text);
    if (t.empty() || t[0] == ';') continue;
    return std::regex_match(t, kMatchLine);
  }
  return false;
}

Match read_mat(std::string_view text, const Rules& rules_in) {
  Rules rules = rules_in;
  std::array<std::string, 2> tag_names;
  std::optional<Match> match;
  int target = 0;
  int games_seen = 0;
  bool game_has_turn = false;   // the current game (games_seen) has had a turn
  bool awaiting_score = false;  // after a Game line
  std::array<std::string, 2> names;
  int lineno = 0;
  auto fail = [&](const std::string& why) {
    return Error(".mat line " + std::to_string(lineno) + ": " + why);
  };
  const std::vector<Line> lines = split_lines(text);
  for (const Line& line : lines) {
    lineno = line.number;
    const std::string t = trim(line.text);
    std::smatch m;
    if (t.empty()) continue;
    if (t[0] == ';') {
      if (std::regex_match(t, m, kTagLine)) {
        const std::string key = m[1], value = m[2];
        try {
          if (key == "Rules") rules = Rules::parse(value);
          if (key == "Player 1") tag_names[0] = value;
          if (key == "Player 2") tag_names[1] = value;
        } catch (const Error& e) {
          throw fail(e.what());
        }
      }
      continue;
    }
    if (target == 0) {
      if (!std::regex_match(t, m, kMatchLine))
        throw fail("expected the header 'N point match', got " + quote(t));
      target = to_int(m[1]);
      if (target < 1 || target > kMaxMatchTarget)
        throw fail("a " + std::string(m[1]) +
                   " point match is not supported (nardy's matches go to 1.." +
                   std::to_string(kMaxMatchTarget) + " points; money sessions have no match form)");
      continue;
    }
    if (std::regex_match(t, m, kGameLine)) {
      const int k = to_int(m[1]);
      if (k != games_seen + 1)
        throw fail("expected Game " + std::to_string(games_seen + 1) + ", got Game " +
                   std::string(m[1]));
      if (k > 1 && !match) throw fail("Game " + std::to_string(k - 1) + " has no moves");
      if (match) {
        if (!match->current_game().is_over())
          throw fail("Game " + std::to_string(games_seen) + " is not finished before Game " +
                     std::to_string(k));
        if (match->is_over())
          throw fail("the match is already over after Game " + std::to_string(games_seen));
      }
      ++games_seen;
      game_has_turn = false;
      awaiting_score = true;
      continue;
    }
    if (games_seen == 0) throw fail("expected 'Game 1', got " + quote(t));
    if (awaiting_score) {
      if (!std::regex_match(t, m, kScoreLine))
        throw fail("expected the score line 'NAME1 : SCORE1   NAME2 : SCORE2', got " + quote(t));
      const std::array<std::string, 2> line_names = {m[1], m[3]};
      const std::array<int, 2> scores = {to_int(m[2]), to_int(m[4])};
      for (int p = 0; p < 2; ++p) {
        if (printable_message(line_names[p]) != line_names[p])
          throw fail("player name " + quote(line_names[p]) + " is not printable UTF-8");
        if (games_seen == 1) names[p] = line_names[p];
      }
      if (match) {
        const MatchScore s = match->score();
        for (int p = 0; p < 2; ++p)
          if (2 * scores[p] != s.half_points(p))
            throw fail("the score of " + quote(line_names[p]) + " is " + std::to_string(scores[p]) +
                       " but the games before give " + format_half_points(s.half_points(p)));
      } else if (scores[0] != 0 || scores[1] != 0) {
        throw fail("Game 1 must start at 0 : 0 (nardy has no matches from a later score)");
      }
      awaiting_score = false;
      continue;
    }
    if (std::regex_match(t, m, kWinsLine)) {
      if (!match || !match->current_game().is_over())
        throw fail("'" + t + "' but the game is not over");
      const Outcome o = *match->current_game().outcome();
      if (o.points != to_int(m[1]))
        throw fail("'" + t + "' but the game ended " + format_outcome(o));
      continue;
    }
    if (t.find("Doubles") != std::string::npos || t.find("Takes") != std::string::npos ||
        t.find("Drops") != std::string::npos || t.find("Beavers") != std::string::npos)
      throw fail("a cube action (" + quote(t) + "): Long Nardy has no doubling cube");
    if (!std::regex_match(line.text, m, kMoveLine))
      throw fail("expected a move line 'N) DD: MOVES   DD: MOVES', got " + quote(t));
    // The two columns: a dice token right after "N)" is the left player's, later ones the right's.
    const std::string rest = m[2];
    std::vector<std::pair<size_t, size_t>> tokens;  // (offset, length) of each DD:
    for (auto it = std::sregex_iterator(rest.begin(), rest.end(), kDice);
         it != std::sregex_iterator(); ++it)
      tokens.push_back({static_cast<size_t>(it->position()), static_cast<size_t>(it->length())});
    if (tokens.empty() || tokens.size() > 2)
      throw fail("expected one or two rolls 'DD:' on a move line, got " + quote(t));
    const size_t lead = rest.find_first_not_of(' ');
    struct Half {
      int player;
      std::string dice, moves;
    };
    std::vector<Half> halves;
    for (size_t i = 0; i < tokens.size(); ++i) {
      const size_t start = tokens[i].first;
      const size_t end = i + 1 < tokens.size() ? tokens[i + 1].first : rest.size();
      const int player = (i == 0 && start == lead && start <= 3) ? 0 : 1;
      if (i == 1 && halves[0].player == 1) throw fail("two rolls in the right column: " + quote(t));
      halves.push_back({player, rest.substr(start, 2),
                        rest.substr(start + tokens[i].second, end - start - tokens[i].second)});
    }
    if (halves.size() == 2 && halves[1].player == 0) halves[1].player = 1;
    for (const Half& h : halves) {
      if (!match) {
        // The first turn of the match: its mover is White in game 1.
        try {
          match.emplace(target, rules, h.player);
        } catch (const Error& e) {
          throw fail(e.what());
        }
        match->names = names;
        for (int p = 0; p < 2; ++p)
          if (!tag_names[p].empty()) match->names[p] = tag_names[p];
        game_has_turn = true;
      } else if (!game_has_turn) {
        if (static_cast<int>(match->games().size()) < games_seen) match->start_next_game();
        if (h.player != match->current_white_player()) {
          const Rules& r = match->rules();
          throw fail("in Game " + std::to_string(games_seen) + " " + quote(match->names[h.player]) +
                     " moves first, but under next_game_starter=" + r.get("next_game_starter") +
                     " " + quote(match->names[match->current_white_player()]) +
                     " plays White (who moves first); give the rule next_game_starter=" +
                     (r.get("next_game_starter") == "previous_black" ? "previous_winner"
                                                                     : "previous_black") +
                     " if the file's program starts games that way");
        }
        game_has_turn = true;
      }
      Game& game = match->current_game();
      if (game.is_over()) throw fail("a move after the end of the game (" + quote(t) + ")");
      if (h.player != match->player_to_move())
        throw fail(quote(match->names[h.player]) + " moves, but it is " +
                   quote(match->names[match->player_to_move()]) + "'s turn");
      const Side mover = game.position().side_to_move();
      const int d1 = h.dice[0] - '0', d2 = h.dice[1] - '0';
      const std::string described =
          "Game " + std::to_string(games_seen) + ", " + quote(match->names[h.player]) + " (" +
          (mover == Side::White ? "White" : "Black") + ") " + h.dice + ": " + trim(h.moves);
      try {
        const Dice dice = make_dice(d1, d2);
        const std::string notation = absolute_notation(h.moves, mover);
        if (dice.is_double() && game.is_opening_turn() && rules.opening == Opening::NoDoubles)
          throw Error(
              "the first roll of a game is a double, which opening=no_doubles does not allow (give "
              "the rule opening=any_roll if the file's program plays it)");
        game.play(dice, notation);
      } catch (const Error& e) {
        throw fail(described + ": " + e.what() +
                   (mover == Side::Black ? " (nardy's notation is in absolute points: Black's own "
                                           "point r is r - 12 or r + 12)"
                                         : ""));
      }
    }
  }
  if (target == 0) throw Error(".mat: no 'N point match' header");
  if (!match) {
    if (games_seen > 1) throw Error(".mat: the games hold no moves");
    match.emplace(target, rules, 0);
    match->names = names;
  }
  return *match;
}

std::string write_mat(const Match& match) {
  std::array<std::string, 2> names;
  for (int p = 0; p < 2; ++p)
    names[p] = match.names[p].empty() ? "Player " + std::to_string(p + 1) : match.names[p];
  std::string s = "; [Site \"nardy\"]\n; [Variation \"LongNardy\"]\n; [Rules \"" +
                  match.rules().to_string() + "\"]\n";
  for (int p = 0; p < 2; ++p)
    s += "; [Player " + std::to_string(p + 1) + " \"" + names[p] + "\"]\n";
  s += "\n " + std::to_string(match.target()) + " point match\n";
  MatchScore score(match.target(), match.white_players().front());
  for (size_t g = 0; g < match.games().size(); ++g) {
    const Game& game = match.games()[g];
    const int white = match.white_players()[g];
    s += "\n Game " + std::to_string(g + 1) + "\n";
    s += " " + pad(names[0] + " : " + std::to_string(score.half_points(0) / 2), 36) + names[1] +
         " : " + std::to_string(score.half_points(1) / 2) + "\n";
    int number = 0;
    std::string left;
    bool open = false;  // a line with the left column written
    auto flush = [&](const std::string& right) {
      char head[16];
      std::snprintf(head, sizeof head, "%3d) ", number);
      std::string l = head + (right.empty() ? left : pad(left, 32) + right);
      while (!l.empty() && l.back() == ' ') l.pop_back();
      s += l + "\n";
      left.clear();
      open = false;
    };
    for (const Game::Turn& t : game.history()) {
      const int player = t.before.side_to_move() == Side::White ? white : 1 - white;
      const std::string turn = std::to_string(t.dice.d1) + std::to_string(t.dice.d2) + ":" +
                               (t.move.num_steps ? " " + own_numbering(t.move) : "");
      if (player == 0) {
        if (open) flush("");
        ++number;
        left = turn;
        open = true;
      } else {
        if (!open) {
          ++number;
          left.clear();
        }
        flush(turn);
      }
    }
    if (open) flush("");
    if (auto o = game.outcome()) {
      if (o->is_draw())
        throw Error(".mat: game " + std::to_string(g + 1) + " was a draw, which has no .mat form");
      const int winner = *o->winner == Side::White ? white : 1 - white;
      s += std::string(winner == 0 ? 6 : 38, ' ') + "Wins " + std::to_string(o->points) +
           (o->points == 1 ? " point" : " points") + "\n";
      score.add_game(*o, match.rules());
    }
  }
  return s;
}

}  // namespace nardy
