#include "core/notation.h"

#include <algorithm>
#include <cctype>

#include "core/error.h"

namespace nardy {
namespace {

struct RoutePath {
  int from, to;  // mover's route coordinates, to == 0 off
  bool operator==(const RoutePath&) const = default;
};

std::string point_text(Side side, int r) {
  return r == 0 ? std::string("off") : std::to_string(point_of(side, r));
}

int parse_int(std::string_view s, std::string_view whole) {
  if (s.empty() || s.size() > 2 || !std::all_of(s.begin(), s.end(), ::isdigit))
    throw Error("move " + quote(whole) + ": expected a point number 1..24, got " + quote(s));
  int v = std::stoi(std::string(s));
  if (v < 1 || v > 24)
    throw Error("move " + quote(whole) + ": point " + std::string(s) + " is not in 1..24");
  return v;
}

}  // namespace

std::string format_move(const Move& move) {
  if (move.num_steps == 0) return "pass";
  std::vector<RoutePath> paths;
  for (int i = 0; i < move.num_steps; ++i) {
    const Step& s = move.steps[i];
    auto it = std::find_if(paths.begin(), paths.end(),
                           [&](const RoutePath& p) { return p.to != 0 && p.to == s.from; });
    if (it != paths.end())
      it->to = s.to;
    else
      paths.push_back({s.from, s.to});
  }
  std::sort(paths.begin(), paths.end(), [](const RoutePath& a, const RoutePath& b) {
    return a.from != b.from ? a.from > b.from : a.to > b.to;
  });
  std::string out;
  for (size_t i = 0; i < paths.size();) {
    size_t j = i;
    while (j < paths.size() && paths[j] == paths[i]) ++j;
    if (!out.empty()) out += ' ';
    out += point_text(move.side, paths[i].from) + "/" + point_text(move.side, paths[i].to);
    if (j - i > 1) out += "(" + std::to_string(j - i) + ")";
    i = j;
  }
  return out;
}

std::vector<PathMove> parse_notation(std::string_view text) {
  const std::string whole(text);
  std::vector<std::string_view> tokens;
  for (size_t pos = 0; pos < text.size();) {
    size_t end = text.find(' ', pos);
    if (end == std::string_view::npos) end = text.size();
    if (end > pos) tokens.push_back(text.substr(pos, end - pos));
    pos = end + 1;
  }
  if (tokens.empty()) throw Error("move: empty notation (use 'pass' for no move)");
  if (tokens.size() == 1 && tokens[0] == "pass") return {};
  std::vector<PathMove> out;
  for (std::string_view tok : tokens) {
    if (tok == "pass")
      throw Error("move " + quote(whole) + ": 'pass' cannot be combined with other moves");
    int count = 1;
    if (auto paren = tok.find('('); paren != std::string_view::npos) {
      std::string_view n = tok.substr(paren + 1);
      if (n.size() != 2 || n[1] != ')' || n[0] < '1' || n[0] > '4')
        throw Error("move " + quote(whole) + ": repeat count must be (1)..(4) in " + quote(tok));
      count = n[0] - '0';
      tok = tok.substr(0, paren);
    }
    // FROM/TO or a chain FROM/VIA/.../TO: one checker from the first to the last point.
    std::vector<std::string_view> parts;
    for (size_t s = 0;;) {
      size_t slash = tok.find('/', s);
      parts.push_back(
          tok.substr(s, slash == std::string_view::npos ? std::string_view::npos : slash - s));
      if (slash == std::string_view::npos) break;
      s = slash + 1;
    }
    if (parts.size() < 2)
      throw Error("move " + quote(whole) + ": expected FROM/TO, got " + quote(tok));
    int from = parse_int(parts.front(), whole);
    int to = 0;
    for (size_t i = 1; i < parts.size(); ++i) {
      bool off = parts[i] == "off";
      if (off && i + 1 != parts.size())
        throw Error("move " + quote(whole) + ": 'off' must end a path in " + quote(tok));
      to = off ? 0 : parse_int(parts[i], whole);
    }
    for (int c = 0; c < count; ++c) out.push_back({from, to});
  }
  return out;
}

MoveResult find_move(const Position& pos, Dice dice, const Rules& rules,
                     std::string_view notation) {
  std::vector<PathMove> paths = parse_notation(notation);
  MoveList legal = legal_moves(pos, dice, rules);
  const Side me = pos.side_to_move();
  // Apply the paths to the mover's board, ignoring intermediate legality: the result must
  // equal one of the legal results.
  std::array<int8_t, kNumPoints> b = pos.mover_board();
  bool possible = true;
  for (const PathMove& p : paths) {
    int from = route_of(me, p.from);
    int to = p.to == 0 ? 0 : route_of(me, p.to);
    if (to >= from || b[from - 1] <= 0 || (to > 0 && b[to - 1] < 0)) {
      possible = false;
      break;
    }
    --b[from - 1];
    if (to > 0) ++b[to - 1];
  }
  if (possible) {
    Position mine = Position::from_mover_board(b, me);
    Position target = mine.with_side_to_move(~me);
    for (const MoveResult& m : legal)
      if (m.position == target) return m;
  }
  std::string msg = "move " + quote(notation) + " is not legal with " + format_dice(dice);
  if (legal.size() <= 12) {
    msg += " (legal:";
    for (size_t i = 0; i < legal.size(); ++i) msg += (i ? ", " : " ") + format_move(legal[i].move);
    msg += ")";
  } else {
    msg += " (" + std::to_string(legal.size()) + " legal moves)";
  }
  throw Error(msg);
}

Dice make_dice(int d1, int d2) {
  for (int d : {d1, d2})
    if (d < 1 || d > 6) throw Error("dice: " + std::to_string(d) + " is not a die value 1..6");
  return Dice{static_cast<uint8_t>(d1), static_cast<uint8_t>(d2)};
}

int parse_die(std::string_view text) {
  if (text.size() != 1 || text[0] < '1' || text[0] > '6')
    throw Error("die " + quote(text) + " is not 1..6");
  return text[0] - '0';
}

Dice parse_dice(std::string_view text) {
  std::string digits;
  for (char c : text) {
    if (std::isdigit(static_cast<unsigned char>(c)))
      digits += c;
    else if (c != '-' && c != ' ' && c != ',')
      throw Error("dice " + quote(text) + ": expected two dice such as 6-5");
  }
  if (digits.size() != 2) throw Error("dice " + quote(text) + ": expected two dice such as 6-5");
  return make_dice(digits[0] - '0', digits[1] - '0');
}

std::string format_dice(Dice dice) {
  return std::to_string(dice.d1) + "-" + std::to_string(dice.d2);
}

}  // namespace nardy
