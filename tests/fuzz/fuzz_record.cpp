// Fuzz target: game and match records (core/record.h). Every game replayed from the input is
// written back, and that record replays to the same game (rules, start, every turn's dice and
// position, the end); writing is canonical (writing the re-read game gives the same text).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/record.h"
#include "tests/fuzz/fuzz_contract.h"

namespace {

void check_round_trip(const nardy::Game& game, std::string_view input) {
  using namespace nardy;
  const std::string text = write_record(game);
  const auto again = fuzz::parse_or_error(text, [&] { return read_record(text); });
  fuzz::check(again.has_value(), "write_record wrote a record read_record refuses: " + text, input);
  fuzz::check(again->rules() == game.rules() && again->start() == game.start(),
              "rules or start differ after a round trip", input);
  fuzz::check(again->position() == game.position(), "final position differs", input);
  fuzz::check(again->history().size() == game.history().size(), "turn count differs", input);
  for (size_t i = 0; i < game.history().size(); ++i)
    fuzz::check(again->history()[i].dice == game.history()[i].dice &&
                    again->history()[i].before == game.history()[i].before,
                "turn " + std::to_string(i + 1) + " differs after a round trip", input);
  fuzz::check(again->outcome() == game.outcome(), "outcome differs", input);
  fuzz::check(write_record(*again) == text, "write_record is not canonical", input);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace nardy;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  if (const auto game = fuzz::parse_or_error(input, [&] { return read_record(input); }))
    check_round_trip(*game, input);
  if (const auto games = fuzz::parse_or_error(input, [&] { return read_records(input); }))
    for (const Game& g : *games) check_round_trip(g, input);
  return 0;
}
