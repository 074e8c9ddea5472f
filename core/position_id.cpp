#include "core/position_id.h"

#include <array>

#include "core/error.h"

namespace nardy {
namespace {

constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
constexpr int kChars = 14;
constexpr int kBits = kChars * 6;

int value_of(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '-') return 62;
  if (c == '_') return 63;
  return -1;
}

}  // namespace

std::string position_id(const Position& pos) {
  std::array<bool, kBits> bits{};
  int n = 0;
  bits[n++] = pos.side_to_move() == Side::Black;
  for (Side s : {Side::White, Side::Black}) {
    for (int r = kNumPoints; r >= 1; --r) {
      for (int c = pos.count(s, r); c > 0; --c) bits[n++] = true;
      bits[n++] = false;
    }
  }
  std::string id;
  for (int i = 0; i < kChars; ++i) {
    int v = 0;
    for (int b = 0; b < 6; ++b) v |= bits[i * 6 + b] << b;
    id += kAlphabet[v];
  }
  return id;
}

Position parse_position_id(std::string_view id) {
  const std::string whole(id);
  auto fail = [&](const std::string& why) {
    return Error("position ID " + quote(whole) + ": " + why);
  };
  if (id.size() != kChars)
    throw fail("expected " + std::to_string(kChars) + " characters, got " +
               std::to_string(id.size()));
  std::array<bool, kBits> bits{};
  for (int i = 0; i < kChars; ++i) {
    int v = value_of(id[i]);
    if (v < 0)
      throw fail("character " + quote(std::string_view(&id[i], 1)) +
                 " is not in the base64url alphabet");
    for (int b = 0; b < 6; ++b) bits[i * 6 + b] = (v >> b) & 1;
  }
  int n = 0;
  Side to_move = bits[n++] ? Side::Black : Side::White;
  std::array<int, kNumPoints> points{};
  for (Side s : {Side::White, Side::Black}) {
    int total = 0;
    for (int r = kNumPoints; r >= 1; --r) {
      int c = 0;
      while (n < kBits && bits[n]) ++c, ++n;
      if (n >= kBits)
        throw fail("truncated: fewer than 24 points for " +
                   std::string(s == Side::White ? "White" : "Black"));
      ++n;  // the zero that ends the point
      total += c;
      if (total > kNumCheckers)
        throw fail(std::string(s == Side::White ? "White" : "Black") +
                   " has more than 15 checkers");
      if (c == 0) continue;
      int p = point_of(s, r);
      if (points[p - 1] != 0) throw fail("point " + std::to_string(p) + " holds both colours");
      points[p - 1] = s == Side::White ? c : -c;
    }
  }
  for (; n < kBits; ++n)
    if (bits[n]) throw fail("padding bits are not zero");
  Position p = Position::from_points(points, to_move);
  if (auto err = p.validation_error()) throw fail(*err);
  return p;
}

}  // namespace nardy
