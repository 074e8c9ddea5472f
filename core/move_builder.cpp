#include "core/move_builder.h"

#include <algorithm>
#include <charconv>
#include <unordered_map>

#include "core/error.h"
#include "core/notation.h"

namespace nardy {

namespace {

// A board in the middle of a turn, in the mover's route coordinates (as core/movegen.cpp).
struct TurnState {
  std::array<int8_t, kNumPoints> board{};  // index r-1: + mover, - opponent
  int head_left = 0;                       // checkers that may still leave the head
  std::vector<int> dice;                   // unplayed, highest first

  bool operator==(const TurnState&) const = default;
};

struct TurnStateHash {
  size_t operator()(const TurnState& s) const {
    uint64_t h = 1469598103934665603ull;
    auto mix = [&h](uint64_t v) { h = (h ^ v) * 1099511628211ull; };
    for (int8_t v : s.board) mix(static_cast<uint8_t>(v));
    mix(static_cast<uint64_t>(s.head_left) + 100);
    for (int d : s.dice) mix(static_cast<uint64_t>(d) + 200);
    return h;
  }
};

uint32_t opp_bit(int r) {
  return 1u << (opponent_route(r) - 1);
}

// Whether one checker may move from route r by die d (docs/rules.md "A turn", rules 2-5; the
// same checks as core/movegen.cpp Generator::movable() and blocked()).
bool can_step(const TurnState& s, int r, int d, int opp_off) {
  const auto& b = s.board;
  if (r < 1 || r > kNumPoints || b[r - 1] <= 0) return false;
  if (r == kHeadRoute && s.head_left == 0) return false;  // rule 3
  const int t = r - d;
  if (t >= 1) {
    if (b[t - 1] < 0) return false;  // rule 2
    if (b[t - 1] == 0) {             // rule 4, checked after every step
      uint32_t occ = 0;
      int opp_lowest = 25;
      for (int q = 1; q <= kNumPoints; ++q) {
        if (b[q - 1] > 0) occ |= opp_bit(q);
        if (b[q - 1] < 0) opp_lowest = std::min(opp_lowest, opponent_route(q));
      }
      occ |= opp_bit(t);
      if (b[r - 1] == 1) occ &= ~opp_bit(r);
      if (forbidden_block(occ, opp_lowest, opp_off)) return false;
    }
    return true;
  }
  // Rule 5: bearing off once every remaining checker is home; an overshooting die only from
  // the highest occupied point.
  for (int q = kHomeSize + 1; q <= kNumPoints; ++q)
    if (b[q - 1] > 0) return false;
  if (t == 0) return true;
  for (int q = r + 1; q <= kHomeSize; ++q)
    if (b[q - 1] > 0) return false;
  return true;
}

TurnState after_step(TurnState s, int r, int d) {
  --s.board[r - 1];
  if (r == kHeadRoute) --s.head_left;
  if (r - d >= 1) ++s.board[r - d - 1];
  s.dice.erase(std::find(s.dice.begin(), s.dice.end(), d));
  return s;
}

int mover_on_board(const TurnState& s) {
  int n = 0;
  for (int8_t v : s.board)
    if (v > 0) n += v;
  return n;
}

// Which legal results the turn can still end in from a state; memoised per request.
class Reach {
 public:
  Reach(const MoveList& results, Side mover, int opp_off)
      : results_(results), mover_(mover), opp_off_(opp_off) {}

  // Bitmask-like list of result indices reachable from `s` (sorted, unique).
  const std::vector<size_t>& from(const TurnState& s) {
    auto it = memo_.find(s);
    if (it != memo_.end()) return it->second;
    std::vector<size_t> out;
    if (auto i = result_index(s)) out.push_back(*i);
    // The turn ends at once when the last checker leaves (docs/rules.md rule 6).
    if (mover_on_board(s) > 0) {
      for (size_t k = 0; k < s.dice.size(); ++k) {
        if (k > 0 && s.dice[k] == s.dice[k - 1]) continue;
        for (int r = 1; r <= kNumPoints; ++r) {
          if (!can_step(s, r, s.dice[k], opp_off_)) continue;
          const auto& sub = from(after_step(s, r, s.dice[k]));
          out.insert(out.end(), sub.begin(), sub.end());
        }
      }
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return memo_.emplace(s, std::move(out)).first->second;
  }

  std::optional<size_t> result_index(const TurnState& s) const {
    const Position p = Position::from_mover_board(s.board, mover_).with_side_to_move(~mover_);
    for (size_t i = 0; i < results_.size(); ++i)
      if (results_[i].position == p) return i;
    return std::nullopt;
  }

 private:
  const MoveList& results_;
  Side mover_;
  int opp_off_;
  std::unordered_map<TurnState, std::vector<size_t>, TurnStateHash> memo_;
};

CheckerStep absolute_step(Side mover, int r, int d) {
  return {point_of(mover, r), r - d >= 1 ? point_of(mover, r - d) : 0, d};
}

}  // namespace

MoveInProgress build_move(const Position& pos, Dice dice, const Rules& rules,
                          const std::vector<CheckerStep>& steps) {
  if (auto e = pos.validation_error()) throw Error("invalid position: " + *e);
  dice = make_dice(dice.d1, dice.d2);
  const Side mover = pos.side_to_move();
  MoveInProgress m;
  m.results = legal_moves(pos, dice, rules);
  sort_by_position(m.results);

  TurnState s;
  s.board = pos.mover_board();
  s.head_left = head_allowance(pos, dice, rules);
  s.dice =
      dice.is_double() ? std::vector<int>(4, dice.d1) : std::vector<int>{dice.high(), dice.low()};
  Reach reach(m.results, mover, pos.opp_off());

  // The steps allowed from `s`: legal as single steps and keeping a legal result in reach.
  auto allowed = [&](const TurnState& st) {
    std::vector<CheckerStep> out;
    if (mover_on_board(st) == 0) return out;
    for (size_t k = 0; k < st.dice.size(); ++k) {
      if (k > 0 && st.dice[k] == st.dice[k - 1]) continue;
      for (int r = kNumPoints; r >= 1; --r)
        if (can_step(st, r, st.dice[k], pos.opp_off()) &&
            !reach.from(after_step(st, r, st.dice[k])).empty())
          out.push_back(absolute_step(mover, r, st.dice[k]));
    }
    return out;
  };

  std::vector<CheckerStep> next = allowed(s);
  for (size_t i = 0; i < steps.size(); ++i) {
    const CheckerStep& want = steps[i];
    const CheckerStep* match = nullptr;
    for (const CheckerStep& c : next)
      if (c.from == want.from && c.to == want.to && (want.die == 0 || c.die == want.die) &&
          (!match || c.die < match->die))
        match = &c;
    if (!match) {
      std::string list;
      for (const CheckerStep& c : next) list += (list.empty() ? "" : ", ") + format_checker_step(c);
      throw Error("step " + std::to_string(i + 1) + " '" + format_checker_step(want) +
                  "' may not be played here; allowed: " + (list.empty() ? "none" : list));
    }
    s = after_step(s, route_of(mover, match->from), match->die);
    next = allowed(s);
  }
  m.board = Position::from_mover_board(s.board, mover);
  m.dice_left = s.dice;
  m.next = std::move(next);
  m.reachable = reach.from(s);
  m.complete = reach.result_index(s);
  return m;
}

std::vector<CheckerStep> parse_checker_steps(std::string_view text) {
  std::vector<CheckerStep> out;
  size_t i = 0;
  auto number = [](std::string_view t, std::string_view what, std::string_view item) {
    int v = 0;
    auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
    if (t.empty() || ec != std::errc() || p != t.data() + t.size())
      throw Error("step " + quote(item) + ": " + std::string(what) + " " + quote(t) +
                  " is not a number");
    return v;
  };
  while (i < text.size()) {
    if (text[i] == ',' || text[i] == ' ') {
      ++i;
      continue;
    }
    size_t j = i;
    while (j < text.size() && text[j] != ',' && text[j] != ' ') ++j;
    const std::string_view item = text.substr(i, j - i);
    i = j;
    const size_t slash = item.find('/');
    if (slash == std::string_view::npos)
      throw Error("step " + quote(item) + " is not FROM/TO[:DIE]");
    const size_t colon = item.find(':', slash);
    const std::string_view from = item.substr(0, slash);
    const std::string_view to = item.substr(
        slash + 1, colon == std::string_view::npos ? std::string_view::npos : colon - slash - 1);
    CheckerStep s;
    s.from = number(from, "point", item);
    s.to = to == "off" ? 0 : number(to, "point", item);
    if (colon != std::string_view::npos) s.die = number(item.substr(colon + 1), "die", item);
    if (s.from < 1 || s.from > kNumPoints || s.to < 0 || s.to > kNumPoints || s.die < 0 ||
        s.die > 6)
      throw Error("step " + quote(item) + ": points are 1..24 or off, dice 1..6");
    out.push_back(s);
    if (out.size() > 4) throw Error("more than 4 steps in " + quote(text));
  }
  return out;
}

std::string format_checker_step(const CheckerStep& s) {
  std::string out = std::to_string(s.from) + "/" + (s.to == 0 ? "off" : std::to_string(s.to));
  if (s.die) out += ":" + std::to_string(s.die);
  return out;
}

}  // namespace nardy
