// core/printable.cpp — see printable.h.
#include "core/printable.h"

namespace nardy {

namespace {

void append_escaped(std::string& out, unsigned char c) {
  static const char* const kHex = "0123456789abcdef";
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
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
  }
}

std::string more_bytes(size_t n) {
  return "... (" + std::to_string(n) + " more bytes)";
}

// The length of the valid UTF-8 sequence of a printable character starting at text[i] (1 for
// printable ASCII), or 0: a control character, DEL, a C1 control, or not valid UTF-8
// (overlong forms, surrogates and code points above U+10FFFF included).
size_t printable_char_length(std::string_view text, size_t i) {
  const auto c = static_cast<unsigned char>(text[i]);
  if (c < 0x80) return c >= 0x20 && c != 0x7f ? 1 : 0;
  size_t n = 0;
  unsigned cp = 0;
  if (c >= 0xc2 && c <= 0xdf) {
    n = 2;
    cp = c & 0x1f;
  } else if (c >= 0xe0 && c <= 0xef) {
    n = 3;
    cp = c & 0x0f;
  } else if (c >= 0xf0 && c <= 0xf4) {
    n = 4;
    cp = c & 0x07;
  } else {
    return 0;
  }
  if (i + n > text.size()) return 0;
  for (size_t k = 1; k < n; ++k) {
    const auto b = static_cast<unsigned char>(text[i + k]);
    if ((b & 0xc0) != 0x80) return 0;
    cp = (cp << 6) | (b & 0x3f);
  }
  const unsigned min_cp = n == 2 ? 0x80 : n == 3 ? 0x800 : 0x10000;
  if (cp < min_cp || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return 0;
  if (cp < 0xa0) return 0;  // C1 controls
  return n;
}

}  // namespace

std::string printable(std::string_view text, size_t max_chars) {
  std::string out;
  const size_t n = text.size() < max_chars ? text.size() : max_chars;
  out.reserve(n + 16);
  for (size_t i = 0; i < n; ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c < 0x7f)
      out += static_cast<char>(c);
    else
      append_escaped(out, c);
  }
  if (n < text.size()) out += more_bytes(text.size() - n);
  return out;
}

std::string quote(std::string_view text, size_t max_chars) {
  return "'" + printable(text, max_chars) + "'";
}

std::string printable_path(std::string_view path, size_t max_chars) {
  if (path.size() <= max_chars) return printable(path, max_chars);
  const size_t tail = max_chars * 2 / 3;
  const size_t head = max_chars - tail;
  return printable(path.substr(0, head), head) + "...(" +
         std::to_string(path.size() - head - tail) + " bytes)..." +
         printable(path.substr(path.size() - tail), tail);
}

std::string quote_path(std::string_view path) {
  return "'" + printable_path(path) + "'";
}

std::string library_error_text(std::string_view what, size_t max_chars) {
  constexpr std::string_view kJsonTag = "[json.exception.";
  if (what.substr(0, kJsonTag.size()) == kJsonTag) {
    const size_t end = what.find("] ");
    if (end != std::string_view::npos) what.remove_prefix(end + 2);
    constexpr std::string_view kParse = "parse error ";
    if (what.substr(0, kParse.size()) == kParse) what.remove_prefix(kParse.size());
  }
  return printable(what, max_chars);
}

std::string printable_message(std::string_view message, size_t max_bytes) {
  const size_t n = message.size() < max_bytes ? message.size() : max_bytes;
  std::string out;
  out.reserve(n);
  for (size_t i = 0; i < n;) {
    const char c = message[i];
    if (c == '\n' || c == '\t') {
      out += c;
      ++i;
      continue;
    }
    const size_t len = printable_char_length(message, i);
    if (len == 0 || i + len > n) {
      append_escaped(out, static_cast<unsigned char>(c));
      ++i;
    } else {
      out.append(message.substr(i, len));
      i += len;
    }
  }
  if (n < message.size()) out += more_bytes(message.size() - n);
  return out;
}

}  // namespace nardy
