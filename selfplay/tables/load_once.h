// selfplay/tables/load_once.h — a file the whole process shares, loaded at its first use.
//
// The race table (bearoff_table.h default_bearoff_table) and the race net (race_net.h
// default_race_net) are found the same way: the file an environment variable names ("off": none;
// a file it names must load), else a default path when that file exists, else none.
#pragma once

#include <cstdlib>
#include <fstream>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "core/error.h"

namespace nardy {

// The T that T::load(path) reads from the file `env_var` names, else from `default_path` if that
// file exists (`default_path` is read at the first call only), else null. Loaded once per process
// and per T, thread-safely; a failed load is the same Error at every call.
template <class T>
const T* load_once(const char* env_var, const std::string& default_path) {
  static std::once_flag once;
  static std::unique_ptr<T> loaded;
  static std::optional<Error> failure;
  std::call_once(once, [&] {
    const char* env = std::getenv(env_var);
    const std::string path = env ? env : default_path;
    if (path.empty() || path == "off") return;
    if (!env) {  // the default file: optional
      std::ifstream probe(path, std::ios::binary);
      if (!probe) return;
    }
    try {
      loaded = std::make_unique<T>(T::load(path));
    } catch (const Error& e) {
      failure = e;
    }
  });
  if (failure) throw *failure;
  return loaded.get();
}

}  // namespace nardy
