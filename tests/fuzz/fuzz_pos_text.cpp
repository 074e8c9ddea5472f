// Fuzz target: POS text (core/pos_text.h). A parsed position is valid, formats to text that
// parses back to it, round-trips through its position ID, and draws.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/pos_text.h"
#include "core/position_id.h"
#include "tests/fuzz/fuzz_contract.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace nardy;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const auto pos = fuzz::parse_or_error(input, [&] { return parse_pos(input); });
  if (!pos) return 0;
  fuzz::check(!pos->validation_error(), "parse_pos accepted an invalid position", input);
  const std::string text = format_pos(*pos);
  const auto again = fuzz::parse_or_error(text, [&] { return parse_pos(text); });
  fuzz::check(again && *again == *pos, "parse_pos(format_pos(p)) != p: " + text, input);
  fuzz::check(parse_position_id(position_id(*pos)) == *pos, "position ID round trip", input);
  fuzz::check(!draw_board(*pos).empty(), "draw_board gave nothing", input);
  return 0;
}
