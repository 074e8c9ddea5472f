// core/printable.cpp — see printable.h.
#include "core/printable.h"

namespace nardy {

std::string printable(std::string_view text, size_t max_chars) {
  static const char* const kHex = "0123456789abcdef";
  std::string out;
  const size_t n = text.size() < max_chars ? text.size() : max_chars;
  out.reserve(n + 16);
  for (size_t i = 0; i < n; ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    switch (c) {
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\0':
        out += "\\0";
        break;
      default:
        if (c >= 0x20 && c < 0x7f) {
          out += static_cast<char>(c);
        } else {
          out += "\\x";
          out += kHex[c >> 4];
          out += kHex[c & 15];
        }
    }
  }
  if (n < text.size()) out += "... (" + std::to_string(text.size() - n) + " more bytes)";
  return out;
}

}  // namespace nardy
