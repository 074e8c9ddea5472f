// Fuzz target: position IDs (core/position_id.h). An accepted ID is the canonical ID of the
// position it gives (IDs are exact: one ID per position), and that position is valid and
// round-trips through POS text.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/pos_text.h"
#include "core/position_id.h"
#include "tests/fuzz/fuzz_contract.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace nardy;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const auto pos = fuzz::parse_or_error(input, [&] { return parse_position_id(input); });
  if (!pos) return 0;
  fuzz::check(!pos->validation_error(), "parse_position_id accepted an invalid position", input);
  fuzz::check(position_id(*pos) == input, "position_id(parse_position_id(id)) != id", input);
  fuzz::check(parse_pos(format_pos(*pos)) == *pos, "POS text round trip", input);
  return 0;
}
