// core/printable.h — outside text made safe to quote in an error message.
//
// Error messages echo the input they reject (core/error.h). Input from outside may hold NUL
// bytes, control characters, invalid UTF-8 or megabytes of junk; quoting it raw would cut a
// message short (C strings), break a terminal, or make Python's NardyError unreadable.
// printable() returns text of printable ASCII only: every byte outside 0x20..0x7e is written as
// a C escape (\n, \r, \t, \0, \xNN; a backslash stays as it is, so Python reprs read as
// usual), and text longer than `max_chars`
// input bytes is cut there with "..." appended, saying how many bytes were left out.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace nardy {

std::string printable(std::string_view text, size_t max_chars = 80);

}  // namespace nardy
