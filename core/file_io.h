// core/file_io.h — whole-file reads and atomic writes, with errors that name the file.
#pragma once

#include <string>
#include <string_view>

namespace nardy {

// Writes `content` to `path` through `path.tmp` + rename. Throws Error naming the path.
void write_file_atomic(const std::string& path, std::string_view content);
// Throws file_error(what, path, "it is a directory, not a file") when `path` is a directory
// (an ifstream opens one, and reading it then throws an unnamed ios_base::failure).
void require_not_directory(std::string_view what, const std::string& path);
// Whole file as a string. Throws Error naming the path (a directory included).
std::string read_file(const std::string& path);

}  // namespace nardy
