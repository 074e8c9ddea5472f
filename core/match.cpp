#include "core/match.h"

#include <charconv>

#include "core/error.h"
#include "core/printable.h"
#include "core/record.h"

namespace nardy {

std::string format_half_points(int half_points) {
  return std::to_string(half_points / 2) + (half_points % 2 != 0 ? ".5" : "");
}

// ---- MatchScore ----

MatchScore::MatchScore(int target, int first_white) : target_(target), white_player_(first_white) {
  if (target < 1 || target > kMaxMatchTarget)
    throw Error("match target " + std::to_string(target) + ": must be 1.." +
                std::to_string(kMaxMatchTarget) + " points");
  if (first_white != 0 && first_white != 1)
    throw Error("match: the first White player must be 0 or 1 (got " + std::to_string(first_white) +
                ")");
}

MatchScore MatchScore::at(int target, int half_points0, int half_points1, int white_player) {
  MatchScore s(target, white_player);
  if (half_points0 < 0 || half_points1 < 0)
    throw Error("match score: half points must be >= 0 (got " + std::to_string(half_points0) +
                ", " + std::to_string(half_points1) + ")");
  s.half_points_ = {half_points0, half_points1};
  return s;
}

std::optional<int> MatchScore::winner() const {
  for (int p = 0; p < 2; ++p)
    if (half_points_needed(p) <= 0 && half_points_[p] > half_points_[1 - p]) return p;
  return std::nullopt;
}

void MatchScore::add_game(const Outcome& outcome, const Rules& rules) {
  if (is_over()) throw Error("match: a game after the end of the match (" + to_string() + ")");
  if (outcome.is_draw()) {
    ++half_points_[0];
    ++half_points_[1];
  } else {
    const int winner = *outcome.winner == Side::White ? white_player_ : 1 - white_player_;
    half_points_[winner] += 2 * outcome.points;
  }
  white_player_ = next_white_player(white_player_, outcome, rules);
  ++games_played_;
}

std::string MatchScore::to_string(const std::array<std::string, 2>& names) const {
  return names[0] + " " + format_half_points(half_points_[0]) + " - " +
         format_half_points(half_points_[1]) + " " + names[1] + " (to " + std::to_string(target_) +
         ")";
}

// ---- Match ----

Match::Match(int target, const Rules& rules, int first_white)
    : rules_(rules), first_score_(target, first_white) {
  games_.emplace_back(rules_);
  white_players_.push_back(first_white);
}

int Match::player_to_move() const {
  const int white = current_white_player();
  return current_game().position().side_to_move() == Side::White ? white : 1 - white;
}

MatchScore Match::score_before_current_game() const {
  MatchScore s = first_score_;
  for (size_t i = 0; i + 1 < games_.size(); ++i) s.add_game(*games_[i].outcome(), rules_);
  return s;
}

MatchScore Match::score() const {
  MatchScore s = score_before_current_game();
  if (auto o = current_game().outcome()) s.add_game(*o, rules_);
  return s;
}

void Match::start_next_game() {
  if (!current_game().is_over())
    throw Error("match: game " + std::to_string(games_.size()) + " is not over yet");
  const MatchScore s = score();
  if (s.is_over()) throw Error("match: the match is over (" + s.to_string(names) + ")");
  games_.emplace_back(rules_);
  white_players_.push_back(s.white_player());
}

bool Match::undo() {
  if (current_game().undo()) return true;
  if (games_.size() == 1) return false;
  games_.pop_back();
  white_players_.pop_back();
  return current_game().undo();
}

// ---- Records ----

std::string write_match_record(const Match& match) {
  std::string s = "nardy-match 1\ntarget " + std::to_string(match.target()) + "\nrules " +
                  match.rules().to_string() + "\n";
  for (int p = 0; p < 2; ++p)
    if (!match.names[p].empty()) s += "player " + std::to_string(p) + " " + match.names[p] + "\n";
  for (size_t g = 0; g < match.games().size(); ++g)
    s += "game white=" + std::to_string(match.white_players()[g]) + "\n" +
         write_record(match.games()[g]);
  return s;
}

namespace {

int parse_int(std::string_view text, const std::string& what) {
  int v = 0;
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || p != text.data() + text.size())
    throw Error(what + " " + quote(text) + " is not an integer");
  return v;
}

struct Line {
  int number;
  std::string_view text;
};

}  // namespace

Match match_of_game(const Game& game, std::string_view what) {
  if (!(game.start() == Position::start()))
    throw Error(std::string(what) + ": the game starts from a position other than the start");
  Match m(1, game.rules(), 0);
  m.current_game() = game;
  m.names = game.names();
  return m;
}

Match read_match_record(std::string_view text) {
  // Split into lines, keeping their numbers.
  std::vector<Line> lines;
  for (size_t pos = 0, n = 1; pos < text.size(); ++n) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view l = text.substr(pos, end - pos);
    if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
    lines.push_back({static_cast<int>(n), l});
    pos = end + 1;
  }
  auto fail = [](int line, const std::string& why) {
    return Error("match record line " + std::to_string(line) + ": " + why);
  };
  auto skip = [](std::string_view l) { return l.empty() || l[0] == '#'; };

  size_t i = 0;
  while (i < lines.size() && skip(lines[i].text)) ++i;
  if (i == lines.size()) throw Error("match record: empty (no 'nardy-match 1' header)");
  if (lines[i].text != "nardy-match 1")
    throw fail(lines[i].number, "expected the header 'nardy-match 1', got " + quote(lines[i].text));
  ++i;

  std::optional<int> target;
  std::optional<Rules> rules;
  std::array<std::string, 2> names;
  for (; i < lines.size() && !lines[i].text.starts_with("game "); ++i) {
    const auto& [number, l] = lines[i];
    if (skip(l)) continue;
    try {
      if (l.starts_with("target ")) {
        if (target) throw Error("a second target line");
        target = parse_int(l.substr(7), "target");
        MatchScore check(*target);  // validates the range
      } else if (l.starts_with("rules")) {
        if (rules) throw Error("a second rules line");
        rules = Rules::parse(l.substr(5));
      } else if (l.starts_with("player ")) {
        const std::string_view rest = l.substr(7);
        const size_t sp = rest.find(' ');
        const int p = parse_int(rest.substr(0, sp), "player number");
        if (p != 0 && p != 1)
          throw Error("player number must be 0 or 1 (got " + std::to_string(p) + ")");
        names[p] = sp == std::string_view::npos ? "" : std::string(rest.substr(sp + 1));
        // Names are shown and sent as JSON: printable UTF-8 only (a 0xff byte was an HTTP 500).
        if (printable_message(names[p]) != names[p])
          throw Error("player " + std::to_string(p) + "'s name " + quote(names[p]) +
                      " is not printable UTF-8 text");
      } else {
        throw Error("expected 'target N', 'rules ...', 'player 0|1 NAME' or 'game white=P', got " +
                    quote(l));
      }
    } catch (const Error& e) {
      throw fail(number, e.what());
    }
  }
  const int last_line = i < lines.size() ? lines[i].number : lines.back().number;
  if (!target) throw fail(last_line, "no 'target N' line before the first game");
  if (!rules) throw fail(last_line, "no 'rules ...' line before the first game");
  if (i == lines.size()) throw fail(last_line, "no game (expected 'game white=P')");

  std::optional<Match> match;
  MatchScore score(*target);
  while (i < lines.size()) {
    const int game_line = lines[i].number;
    const std::string_view head = lines[i].text;
    const size_t game_no = match ? match->games().size() + 1 : 1;
    if (!head.starts_with("game white="))
      throw fail(game_line, "expected 'game white=0' or 'game white=1', got " + quote(head));
    int white = 0;
    try {
      white = parse_int(head.substr(11), "white player");
      if (white != 0 && white != 1)
        throw Error("white player must be 0 or 1 (got " + std::to_string(white) + ")");
    } catch (const Error& e) {
      throw fail(game_line, e.what());
    }
    // The game record: up to the next "game " line.
    size_t j = i + 1;
    while (j < lines.size() && !lines[j].text.starts_with("game ")) ++j;
    if (j == i + 1) throw fail(game_line, "game " + std::to_string(game_no) + " has no record");
    const size_t from = static_cast<size_t>(lines[i + 1].text.data() - text.data());
    const size_t to =
        j < lines.size() ? static_cast<size_t>(lines[j].text.data() - text.data()) : text.size();
    Game game = read_record(text.substr(from, to - from), game_line);
    if (!(game.rules() == *rules))
      throw fail(game_line, "game " + std::to_string(game_no) + " has rules '" +
                                game.rules().to_string() + "', the match '" + rules->to_string() +
                                "'");
    if (!(game.start() == Position::start()))
      throw fail(game_line,
                 "game " + std::to_string(game_no) + " does not start from the start position");
    if (!match) {
      match.emplace(*target, *rules, white);
      score = MatchScore(*target, white);
    } else {
      if (!match->current_game().is_over())
        throw fail(game_line,
                   "game " + std::to_string(game_no) + " follows a game that is not over");
      if (score.is_over())
        throw fail(game_line, "game " + std::to_string(game_no) +
                                  " follows the end of the match (" + score.to_string() + ")");
      if (white != score.white_player())
        throw fail(game_line, "game " + std::to_string(game_no) +
                                  ": white=" + std::to_string(white) +
                                  " but next_game_starter=" + rules->get("next_game_starter") +
                                  " gives White to player " + std::to_string(score.white_player()));
      match->start_next_game();
    }
    match->current_game() = std::move(game);
    if (auto o = match->current_game().outcome()) score.add_game(*o, *rules);
    i = j;
  }
  match->names = names;
  return std::move(*match);
}

}  // namespace nardy
