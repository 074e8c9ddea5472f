// core/printable.h — outside text made safe to quote in an error message.
//
// Error messages echo the input they reject (core/error.h). Input from outside may hold NUL
// bytes, control characters, invalid UTF-8 or megabytes of junk; quoting it raw would cut a
// message short (C strings), break a terminal, or make Python's NardyError unreadable.
// printable() returns text of printable ASCII only: every byte outside 0x20..0x7e is written as
// a C escape (\n, \r, \t, \0, \xNN; a backslash stays as it is, so Python reprs read as
// usual), and text longer than `max_chars`
// input bytes is cut there with "..." appended, saying how many bytes were left out.
//
// Every message that echoes an input uses quote() (or printable_path() for a file path);
// nardy::Error itself passes its whole message through printable_message(), the guarantee
// behind them: every nardy::Error message is valid UTF-8 without control characters.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace nardy {

std::string printable(std::string_view text, size_t max_chars = 80);

// "'" + printable(text, max_chars) + "'": how a message echoes an input ("die '9' is not 1..6").
std::string quote(std::string_view text, size_t max_chars = 200);

// A file path for a message: printable(), and a path longer than `max_chars` bytes keeps its
// first and last bytes (the file name) with "...(N bytes)..." in place of the middle.
std::string printable_path(std::string_view path, size_t max_chars = 160);
// "'" + printable_path(path) + "'".
std::string quote_path(std::string_view path);

// The what() of a library exception quoted inside a message: nlohmann::json's
// "[json.exception.parse_error.101] parse error at line 3, column 5: ..." loses its tag (and
// "parse error "), the rest stays whole up to `max_chars`, printable.
std::string library_error_text(std::string_view what, size_t max_chars = 300);

// A whole message made safe to show: valid UTF-8 (e.g. "λ") and newlines and tabs stay as they
// are; NUL, other control characters, DEL and bytes that are not valid UTF-8 are escaped as by
// printable(); a message longer than `max_bytes` is cut as by printable(). Messages that are
// already safe come back unchanged.
std::string printable_message(std::string_view message, size_t max_bytes = 4000);

}  // namespace nardy
