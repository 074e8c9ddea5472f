#include "core/pos_text.h"

#include <cctype>
#include <cstdio>

#include "core/error.h"
#include "core/position_id.h"

namespace nardy {

Position parse_pos(std::string_view text) {
  const std::string whole(text);
  auto fail = [&](const std::string& why) -> Error {
    return Error("position " + quote(whole) + ": " + why);
  };
  // Trim surrounding whitespace only; the interior must follow the format.
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())))
    text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())))
    text.remove_suffix(1);
  size_t space = text.find(' ');
  if (space == std::string_view::npos)
    throw fail("expected 24 comma-separated counts, a space and the side to move (w or b)");
  std::string_view counts = text.substr(0, space);
  std::string_view side = text.substr(space + 1);
  Side to_move;
  if (side == "w")
    to_move = Side::White;
  else if (side == "b")
    to_move = Side::Black;
  else
    throw fail("side to move must be 'w' or 'b', got " + quote(side));

  std::array<int, kNumPoints> points{};
  int n = 0;
  for (size_t pos = 0;;) {
    size_t comma = counts.find(',', pos);
    std::string_view f =
        counts.substr(pos, comma == std::string_view::npos ? std::string_view::npos : comma - pos);
    if (n >= kNumPoints) throw fail("more than 24 point counts");
    std::string_view digits = f;
    if (!digits.empty() && (digits[0] == '-' || digits[0] == '+')) digits.remove_prefix(1);
    if (digits.empty() || digits.size() > 2)
      throw fail("point " + std::to_string(n + 1) + ": " + quote(f) + " is not a count -15..15");
    for (char c : digits)
      if (!std::isdigit(static_cast<unsigned char>(c)))
        throw fail("point " + std::to_string(n + 1) + ": " + quote(f) + " is not a count -15..15");
    int v = std::stoi(std::string(digits));
    if (f[0] == '-') v = -v;
    if (v < -kNumCheckers || v > kNumCheckers)
      throw fail("point " + std::to_string(n + 1) + ": " + std::to_string(v) +
                 " is not a count -15..15");
    points[n++] = v;
    if (comma == std::string_view::npos) break;
    pos = comma + 1;
  }
  if (n != kNumPoints) throw fail("expected 24 point counts, got " + std::to_string(n));
  int white = 0, black = 0;
  for (int v : points) (v > 0 ? white : black) += v > 0 ? v : -v;
  if (white > kNumCheckers)
    throw fail("White has " + std::to_string(white) + " checkers (at most 15)");
  if (black > kNumCheckers)
    throw fail("Black has " + std::to_string(black) + " checkers (at most 15)");
  Position p = Position::from_points(points, to_move);
  if (auto err = p.validation_error()) throw fail(*err);
  return p;
}

std::string format_pos(const Position& pos) {
  std::string s;
  for (int p = 1; p <= kNumPoints; ++p) {
    if (p > 1) s += ',';
    s += std::to_string(pos.at_point(p));
  }
  s += ' ';
  s += side_letter(pos.side_to_move());
  return s;
}

namespace {
std::string cell(int v) {
  if (v == 0) return "  . ";
  char buf[16];
  std::snprintf(buf, sizeof buf, "%c%-3d", v > 0 ? 'W' : 'B', v > 0 ? v : -v);
  return buf;
}
}  // namespace

std::string draw_board(const Position& pos) {
  // Top row: points 13..24 left to right; bottom row: 12..1 (White's home at bottom right).
  std::string s;
  auto row_numbers = [&](int from, int step) {
    std::string r = " ";
    for (int i = 0; i < 12; ++i) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "%3d ", from + i * step);
      r += buf;
      if (i == 5) r += "| ";
    }
    return r + "\n";
  };
  auto row_cells = [&](int from, int step) {
    std::string r = " ";
    for (int i = 0; i < 12; ++i) {
      r += cell(pos.at_point(from + i * step));
      if (i == 5) r += "| ";
    }
    return r + "\n";
  };
  s += row_numbers(13, 1);
  s += row_cells(13, 1);
  s += " " + std::string(50, '-') + "\n";
  s += row_cells(12, -1);
  s += row_numbers(12, -1);
  char buf[160];
  std::snprintf(
      buf, sizeof buf,
      "White (W): pips %d, off %d, head(24) %d   Black (B): pips %d, off %d, head(12) %d\n",
      pos.pips(Side::White), pos.off(Side::White), pos.on_head(Side::White), pos.pips(Side::Black),
      pos.off(Side::Black), pos.on_head(Side::Black));
  s += buf;
  s += std::string("To move: ") + (pos.side_to_move() == Side::White ? "White" : "Black") + "\n";
  return s;
}

Position parse_position(std::string_view text) {
  if (text.find(',') != std::string_view::npos) return parse_pos(text);
  std::string_view id = text;
  while (!id.empty() && std::isspace(static_cast<unsigned char>(id.front()))) id.remove_prefix(1);
  while (!id.empty() && std::isspace(static_cast<unsigned char>(id.back()))) id.remove_suffix(1);
  try {
    return parse_position_id(id);
  } catch (const Error& e) {
    // parse_position_id's messages read "position ID 'ID': why"; keep the why.
    const std::string message = e.what(), prefix = "position ID " + quote(std::string(id)) + ": ";
    const std::string why = message.rfind(prefix, 0) == 0 ? message.substr(prefix.size()) : message;
    throw Error("position " + quote(std::string(text)) +
                ": neither POS text (it has no commas) nor a position ID (" + why + ")");
  }
}

}  // namespace nardy
