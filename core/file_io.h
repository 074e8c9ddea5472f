// core/file_io.h — whole-file reads and atomic writes, with errors that name the file.
#pragma once

#include <string>
#include <string_view>

namespace nardy {

// Writes `content` to `path` through `path.tmp` + rename. Throws Error naming the path.
void write_file_atomic(const std::string& path, std::string_view content);
// Whole file as a string. Throws Error naming the path.
std::string read_file(const std::string& path);

}  // namespace nardy
