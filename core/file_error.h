// core/file_error.h — failures of the file system as nardy::Error naming the file.
//
// std::filesystem throws filesystem_error whose text ("filesystem error: status: File name
// too long [PATH]") names neither what the file was for nor keeps a long path readable. Code
// that touches files uses the error_code forms below, and boundaries that call a throwing form
// catch filesystem_error and convert it with file_error(). Messages read
// "WHAT 'PATH': REASON", the path printable and shortened (printable_path).
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <system_error>

#include "core/error.h"

namespace nardy {

Error file_error(std::string_view what, std::string_view path, std::string_view reason);
Error file_error(std::string_view what, std::string_view path, const std::error_code& ec);
// The first path and the reason of `e` (not its raw what()).
Error file_error(std::string_view what, const std::filesystem::filesystem_error& e);

// Whether `path` exists / is a directory / is a regular file. A path that does not exist, or
// runs through something that is not a directory, is false; any other failure (a path or name
// too long for the system, no permission) throws file_error(what, path, ...).
bool path_exists(std::string_view what, const std::string& path);
bool is_directory_path(std::string_view what, const std::string& path);
bool is_regular_file_path(std::string_view what, const std::string& path);

// The reason an ifstream/ofstream of `path` failed to open: strerror(errno), or "" when errno
// says nothing. Call right after the failed open.
std::string open_failure_reason();

}  // namespace nardy
