#include "core/file_io.h"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>

#include "core/error.h"
#include "core/file_error.h"
#include "core/printable.h"

namespace nardy {

void write_file_atomic(const std::string& path, std::string_view content) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw file_error("cannot write", tmp, open_failure_reason());
    out.write(content.data(), static_cast<std::streamsize>(content.size()));
    out.flush();
    if (!out) throw Error("cannot write " + quote_path(tmp) + " (disk full?)");
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) throw file_error("cannot rename " + quote_path(tmp) + " to", path, ec);
}

void require_not_directory(std::string_view what, const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw file_error(what, path, "it is a directory, not a file");
}

std::string read_file(const std::string& path) {
  require_not_directory("cannot read", path);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw file_error("cannot read", path, open_failure_reason());
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace nardy
