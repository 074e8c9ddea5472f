// core/rules.h: every variant key and value, text round trips, and use from static
// initialisers. Malformed input is covered in parse_errors_test.cpp.
#include <gtest/gtest.h>

#include "core/rules.h"

namespace nardy {
namespace {

// Built while this file's statics are initialised, possibly before core/rules.cpp's own: this
// crashed when the value names were namespace-scope vectors in rules.cpp.
const Rules kBuiltAtStaticInit = Rules::parse("head_exception=strict opening=any_roll");

TEST(Rules, ParseWorksFromStaticInitialisers) {
  EXPECT_EQ(kBuiltAtStaticInit.head_exception, HeadException::Strict);
  EXPECT_EQ(kBuiltAtStaticInit.opening, Opening::AnyRoll);
}

TEST(Rules, DefaultsAreRulesMdDefaults) {
  Rules r;
  EXPECT_EQ(r.to_string(),
            "opening=no_doubles head_exception=standard last_roll_draw=false "
            "next_game_starter=previous_black");
  EXPECT_EQ(Rules::parse(""), r);
}

TEST(Rules, EveryValueOfEveryKeyRoundTrips) {
  for (const std::string& key : Rules::keys()) {
    for (const std::string& value : Rules::values_of(key)) {
      Rules r;
      r.set(key, value);
      EXPECT_EQ(r.get(key), value);
      EXPECT_EQ(Rules::parse(r.to_string()), r);
      Rules a;
      a.apply_assignment(key + "=" + value);
      EXPECT_EQ(a, r);
    }
  }
}

TEST(Rules, KeysAndValuesAreTheDocumentedOnes) {
  EXPECT_EQ(Rules::keys(), (std::vector<std::string>{"opening", "head_exception", "last_roll_draw",
                                                     "next_game_starter"}));
  EXPECT_EQ(Rules::values_of("head_exception"),
            (std::vector<std::string>{"standard", "strict", "none"}));
  EXPECT_EQ(Rules::values_of("opening"), (std::vector<std::string>{"no_doubles", "any_roll"}));
  EXPECT_EQ(Rules::values_of("last_roll_draw"), (std::vector<std::string>{"false", "true"}));
  EXPECT_EQ(Rules::values_of("next_game_starter"),
            (std::vector<std::string>{"previous_black", "previous_winner"}));
}

TEST(Rules, ParseAcceptsASubsetInAnyOrder) {
  Rules r = Rules::parse("  last_roll_draw=true   head_exception=none ");
  EXPECT_TRUE(r.last_roll_draw);
  EXPECT_EQ(r.head_exception, HeadException::None);
  EXPECT_EQ(r.opening, Opening::NoDoubles);
  EXPECT_EQ(r.next_game_starter, NextGameStarter::PreviousBlack);
}

}  // namespace
}  // namespace nardy
