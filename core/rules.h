// core/rules.h — the ruleset: docs/rules.md's default and every variant it names.
//
// | key               | values                          | default        | docs/rules.md section |
// |-------------------|---------------------------------|----------------|-----------------------|
// | opening           | no_doubles, any_roll            | no_doubles     | Start                 |
// | head_exception    | standard, strict, none          | standard       | A turn, rule 3        |
// | last_roll_draw    | false, true                     | false          | End of the game       |
// | next_game_starter | previous_black, previous_winner | previous_black | Matches               |
//
// Rules is a small value passed explicitly everywhere (no globals), so several rule sets can
// share a process. Text form: space-separated KEY=VALUE pairs in the order above.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace nardy {

enum class Opening : uint8_t { NoDoubles, AnyRoll };
enum class HeadException : uint8_t { Standard, Strict, None };
enum class NextGameStarter : uint8_t { PreviousBlack, PreviousWinner };

struct Rules {
  Opening opening = Opening::NoDoubles;
  HeadException head_exception = HeadException::Standard;
  bool last_roll_draw = false;
  NextGameStarter next_game_starter = NextGameStarter::PreviousBlack;

  bool operator==(const Rules&) const = default;

  // Sets one variant from its key and value names; throws Error naming the key and the
  // accepted values on anything else.
  void set(std::string_view key, std::string_view value);
  // Value name of one key ("opening" -> "no_doubles"); throws Error on an unknown key.
  std::string get(std::string_view key) const;
  // "opening=no_doubles head_exception=standard last_roll_draw=false next_game_starter=..."
  std::string to_string() const;
  // Inverse of to_string(); also accepts a subset of keys (the rest keep their defaults) and
  // an empty string. Throws Error on a malformed pair.
  static Rules parse(std::string_view text);
  // Applies one "KEY=VALUE" argument (as given to --rule).
  void apply_assignment(std::string_view assignment);
  // The KEY=VALUE pairs that differ from the default rules, space-separated ("" for the
  // defaults): what a banner states so that a variant in force is not missed.
  std::string non_default() const;

  static const std::vector<std::string>& keys();
  static std::vector<std::string> values_of(std::string_view key);
};

}  // namespace nardy
