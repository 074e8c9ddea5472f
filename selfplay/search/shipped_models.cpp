#include "selfplay/search/shipped_models.h"

#include <dlfcn.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <set>

#include "core/error.h"
#include "selfplay/tables/race_net.h"

namespace nardy {
namespace fs = std::filesystem;
namespace {

// The file of the executable or shared object this function is part of.
fs::path this_binary() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&this_binary), &info) == 0 || info.dli_fname == nullptr)
    return {};
  std::error_code ec;
  fs::path p = fs::canonical(info.dli_fname, ec);
  return ec ? fs::path(info.dli_fname) : p;
}

bool valid_name(std::string_view name) {
  if (name.empty() || name.size() > 100 || name.front() == '.') return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
           c == '_' || c == '-';
  });
}

// The first model folder's `file`, or "" when none holds it.
std::string first_in_model_dirs(const std::string& file) {
  for (const auto& dir : model_search_dirs()) {
    const fs::path p = fs::path(dir) / file;
    std::error_code ec;
    if (fs::is_regular_file(p, ec)) return p.string();
  }
  return {};
}

}  // namespace

std::vector<std::string> model_search_dirs() {
  std::vector<std::string> dirs;
  if (const char* env = std::getenv("NARDY_MODEL_DIR"); env != nullptr && *env != '\0')
    dirs.push_back(env);
  const fs::path bin = this_binary();
  if (!bin.empty()) {
    dirs.push_back((bin.parent_path() / "models").string());
    dirs.push_back((bin.parent_path().parent_path() / "models").string());
  }
  return dirs;
}

std::vector<std::string> list_models() {
  std::set<std::string> names;
  for (const auto& dir : model_search_dirs()) {
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
      const fs::path& p = it->path();
      if (p.extension() == ".pt" && valid_name(p.stem().string())) names.insert(p.stem().string());
    }
  }
  return {names.begin(), names.end()};
}

std::string find_model(std::string_view name) {
  if (!valid_name(name))
    throw Error("model " + quote(name) +
                ": not a model name (letters, digits, '.', '_', '-'; see models/README.md)");
  if (std::string path = first_in_model_dirs(std::string(name) + ".pt"); !path.empty()) return path;
  std::string searched;
  for (const auto& dir : model_search_dirs()) searched += (searched.empty() ? "" : ", ") + dir;
  std::string found;
  for (const auto& n : list_models()) found += (found.empty() ? "" : ", ") + n;
  throw Error("model " + quote(name) + ": no file " + printable(name) + ".pt in " +
              (searched.empty() ? std::string("any model folder") : searched) +
              " (models found: " + (found.empty() ? std::string("none") : found) +
              "; set NARDY_MODEL_DIR to the folder that holds it)");
}

std::string find_race_net_file() {
  return first_in_model_dirs(std::string(kRaceNetFile));
}

const RaceNet* default_shipped_race_net() {
  return default_race_net(find_race_net_file());
}

}  // namespace nardy
