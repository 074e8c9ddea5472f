// core/file_error.cpp — see file_error.h.
#include "core/file_error.h"

#include <cerrno>
#include <cstring>

#include "core/printable.h"

namespace nardy {

namespace fs = std::filesystem;

Error file_error(std::string_view what, std::string_view path, std::string_view reason) {
  std::string msg = std::string(what) + " '" + printable_path(path) + "'";
  if (!reason.empty()) msg += ": " + std::string(reason);
  return Error(msg);
}

Error file_error(std::string_view what, std::string_view path, const std::error_code& ec) {
  return file_error(what, path, ec.message());
}

Error file_error(std::string_view what, const fs::filesystem_error& e) {
  return file_error(what, e.path1().native(), e.code().message());
}

namespace {

fs::file_status status_of(std::string_view what, const std::string& path) {
  std::error_code ec;
  const fs::file_status s = fs::status(path, ec);
  if (ec && ec != std::errc::no_such_file_or_directory && ec != std::errc::not_a_directory)
    throw file_error(what, path, ec);
  return s;
}

}  // namespace

bool path_exists(std::string_view what, const std::string& path) {
  return fs::exists(status_of(what, path));
}

bool is_directory_path(std::string_view what, const std::string& path) {
  return fs::is_directory(status_of(what, path));
}

bool is_regular_file_path(std::string_view what, const std::string& path) {
  return fs::is_regular_file(status_of(what, path));
}

std::string open_failure_reason() {
  const int e = errno;
  return e == 0 ? std::string() : std::string(std::strerror(e));
}

}  // namespace nardy
