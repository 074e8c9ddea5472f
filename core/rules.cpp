#include "core/rules.h"

#include <sstream>

#include "core/error.h"

namespace nardy {
namespace {

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + v[i];
  return s;
}

template <typename E>
E pick(std::string_view key, std::string_view value, const std::vector<std::string>& names) {
  for (size_t i = 0; i < names.size(); ++i)
    if (value == names[i]) return static_cast<E>(i);
  throw Error("rule " + quote(key) + ": unknown value " + quote(value) +
              " (expected one of: " + join(names) + ")");
}

// Value names, index = enum value. Function-local statics, so that Rules can be parsed from
// other translation units' static initialisers (namespace-scope vectors might not exist yet).
const std::vector<std::string>& opening_names() {
  static const std::vector<std::string> v = {"no_doubles", "any_roll"};
  return v;
}
const std::vector<std::string>& head_names() {
  static const std::vector<std::string> v = {"standard", "strict", "none"};
  return v;
}
const std::vector<std::string>& bool_names() {
  static const std::vector<std::string> v = {"false", "true"};
  return v;
}
const std::vector<std::string>& starter_names() {
  static const std::vector<std::string> v = {"previous_black", "previous_winner"};
  return v;
}

}  // namespace

const std::vector<std::string>& Rules::keys() {
  static const std::vector<std::string> k = {"opening", "head_exception", "last_roll_draw",
                                             "next_game_starter"};
  return k;
}

std::vector<std::string> Rules::values_of(std::string_view key) {
  if (key == "opening") return opening_names();
  if (key == "head_exception") return head_names();
  if (key == "last_roll_draw") return bool_names();
  if (key == "next_game_starter") return starter_names();
  throw Error("unknown rule " + quote(key) + " (expected one of: " + join(keys()) + ")");
}

void Rules::set(std::string_view key, std::string_view value) {
  if (key == "opening") {
    opening = pick<Opening>(key, value, opening_names());
  } else if (key == "head_exception") {
    head_exception = pick<HeadException>(key, value, head_names());
  } else if (key == "last_roll_draw") {
    last_roll_draw = pick<int>(key, value, bool_names()) == 1;
  } else if (key == "next_game_starter") {
    next_game_starter = pick<NextGameStarter>(key, value, starter_names());
  } else {
    values_of(key);  // throws the unknown-key error
  }
}

std::string Rules::get(std::string_view key) const {
  if (key == "opening") return opening_names()[static_cast<int>(opening)];
  if (key == "head_exception") return head_names()[static_cast<int>(head_exception)];
  if (key == "last_roll_draw") return bool_names()[last_roll_draw ? 1 : 0];
  if (key == "next_game_starter") return starter_names()[static_cast<int>(next_game_starter)];
  values_of(key);
  return {};
}

std::string Rules::to_string() const {
  std::string s;
  for (const auto& k : keys()) s += (s.empty() ? "" : " ") + k + "=" + get(k);
  return s;
}

std::string Rules::non_default() const {
  const Rules defaults;
  std::string s;
  for (const auto& k : keys())
    if (get(k) != defaults.get(k)) s += (s.empty() ? "" : " ") + k + "=" + get(k);
  return s;
}

void Rules::apply_assignment(std::string_view assignment) {
  auto eq = assignment.find('=');
  if (eq == std::string_view::npos || eq == 0)
    throw Error("rule " + quote(assignment) + ": expected KEY=VALUE, e.g. opening=any_roll");
  set(assignment.substr(0, eq), assignment.substr(eq + 1));
}

Rules Rules::parse(std::string_view text) {
  Rules r;
  std::istringstream in{std::string(text)};
  std::string tok;
  while (in >> tok) r.apply_assignment(tok);
  return r;
}

}  // namespace nardy
