// Fuzz target: rule settings (core/rules.h) as given to --rule, in records and configs. Accepted
// text gives rules whose to_string() parses back to them, key by key through get()/set() too.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/rules.h"
#include "tests/fuzz/fuzz_contract.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace nardy;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  auto check_round_trip = [&](const Rules& rules) {
    const std::string text = rules.to_string();
    fuzz::check(Rules::parse(text) == rules, "Rules::parse(to_string()) differs: " + text, input);
    Rules by_key;
    for (const std::string& key : Rules::keys()) by_key.set(key, rules.get(key));
    fuzz::check(by_key == rules, "set(key, get(key)) for every key differs", input);
  };
  if (const auto rules = fuzz::parse_or_error(input, [&] { return Rules::parse(input); }))
    check_round_trip(*rules);
  // The same text as one --rule KEY=VALUE assignment.
  const auto assigned = fuzz::parse_or_error(input, [&] {
    Rules r;
    r.apply_assignment(input);
    return r;
  });
  if (assigned) check_round_trip(*assigned);
  return 0;
}
