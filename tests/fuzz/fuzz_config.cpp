// Fuzz target: training configs (selfplay/training/config.h), YAML text to a validated config.
//
// Input: a YAML config file, or, when the first line is "#overrides", one --set KEY=VALUE
// assignment per following line applied to the default config (apply_overrides). An accepted
// config passes validate() again, and to_yaml() writes it as YAML that parses back to an equal
// config.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "selfplay/training/config.h"
#include "tests/fuzz/fuzz_contract.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace nardy;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  constexpr std::string_view kOverrides = "#overrides\n";
  const auto config = fuzz::parse_or_error(input, [&] {
    if (input.substr(0, kOverrides.size()) != kOverrides) return parse_config(input, "fuzz.yaml");
    std::vector<std::string> assignments;
    std::string_view rest = input.substr(kOverrides.size());
    while (!rest.empty()) {
      const size_t nl = rest.find('\n');
      assignments.emplace_back(rest.substr(0, nl));
      rest = nl == std::string_view::npos ? std::string_view() : rest.substr(nl + 1);
    }
    TrainConfig c;
    apply_overrides(c, assignments, "fuzz.yaml");
    return c;
  });
  if (!config) return 0;
  const auto revalidated = fuzz::parse_or_error(input, [&] {
    validate(*config, "fuzz.yaml");
    return true;
  });
  fuzz::check(revalidated.has_value(), "an accepted config fails validate()", input);
  const std::string yaml = to_yaml(*config);
  const auto again = fuzz::parse_or_error(yaml, [&] { return parse_config(yaml, "written.yaml"); });
  fuzz::check(again.has_value(), "to_yaml wrote a config parse_config refuses:\n" + yaml, input);
  fuzz::check(*again == *config, "parse_config(to_yaml(c)) != c:\n" + yaml, input);
  return 0;
}
