// tests/fuzz/fuzz_contract.h — the contract every fuzz target asserts about a parser.
//
// A parser of outside input either returns a value or throws nardy::Error whose message is
// non-empty (and, see kRequirePrintableMessages, printable). Anything else — another exception
// type, a crash, a hang, a sanitizer report — is a finding. Targets call parse_or_error() around
// each parser call and check() for the properties of a successful parse (round trips); a
// violation prints the input and aborts, so libFuzzer saves the reproducer.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <optional>
#include <string>
#include <string_view>

#include "core/error.h"

namespace nardy::fuzz {

// Messages must be printable (valid UTF-8 without control characters but newline and tab): issue
// 14's fixes made every nardy::Error so (core/error.h, core/printable.h), and the check is on in
// the default build (-DNARDY_FUZZ_STRICT=ON, tests/fuzz/CMakeLists.txt). OFF leaves it out, with
// the other strict checks (fuzz_checkpoint_torch.cpp), e.g. to look for other findings first.
// Non-empty messages are required either way.
#ifdef NARDY_FUZZ_STRICT
inline constexpr bool kRequirePrintableMessages = true;
#else
inline constexpr bool kRequirePrintableMessages = false;
#endif

// The input with bytes outside printable ASCII escaped as \xNN, for reports.
inline std::string escaped(std::string_view s) {
  std::string out;
  for (unsigned char c : s) {
    if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
    } else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
    }
  }
  return out;
}

[[noreturn]] inline void violation(std::string_view what, std::string_view input) {
  std::fprintf(stderr, "\nFUZZ CONTRACT VIOLATED: %s\ninput (%zu bytes): %s\n",
               escaped(what).c_str(), input.size(), escaped(input).c_str());
  std::fflush(stderr);
  std::abort();
}

inline void check(bool ok, std::string_view what, std::string_view input) {
  if (!ok) violation(what, input);
}

// Valid UTF-8 with no control characters other than newline and tab.
inline bool printable_text(std::string_view s) {
  for (size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f) return false;
      ++i;
      continue;
    }
    // Lead byte of a 2-, 3- or 4-byte sequence, then that many continuation bytes.
    const int extra = c >= 0xc2 && c < 0xe0   ? 1
                      : c >= 0xe0 && c < 0xf0 ? 2
                      : c >= 0xf0 && c < 0xf5 ? 3
                                              : -1;
    if (extra < 0 || i + extra >= s.size()) return false;
    for (int k = 1; k <= extra; ++k)
      if ((static_cast<unsigned char>(s[i + k]) & 0xc0) != 0x80) return false;
    i += extra + 1;
  }
  return true;
}

// The message of a nardy::Error thrown by a parser of `input`, checked against the contract.
inline void check_error_message(const Error& e, std::string_view input) {
  const std::string_view msg = e.what();
  check(!msg.empty(), "nardy::Error with an empty message", input);
  if (kRequirePrintableMessages)
    check(printable_text(msg), "nardy::Error message is not printable: " + std::string(msg), input);
}

// Calls parse(); returns its value, or nullopt when it threw nardy::Error (message checked).
// Any other exception is a contract violation.
template <class Parse>
auto parse_or_error(std::string_view input, Parse&& parse) -> std::optional<decltype(parse())> {
  try {
    return parse();
  } catch (const Error& e) {
    check_error_message(e, input);
    return std::nullopt;
  } catch (const std::exception& e) {
    violation(std::string("a non-nardy exception escaped: ") + e.what(), input);
  } catch (...) {
    violation("an exception that is not a std::exception escaped", input);
  }
}

}  // namespace nardy::fuzz
