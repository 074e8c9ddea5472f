// core/warning.cpp — see warning.h.
#include "core/warning.h"

#include <cstdio>
#include <mutex>

#include "core/printable.h"

namespace nardy {

namespace {

std::mutex& handler_mutex() {
  static std::mutex m;
  return m;
}

WarningHandler& current_handler() {
  static WarningHandler h;
  return h;
}

}  // namespace

void warn(WarningKind kind, const std::string& message) {
  WarningHandler h;
  {
    std::lock_guard lock(handler_mutex());
    h = current_handler();
  }
  const std::string text = printable_message(message);
  if (h) {
    h(kind, text);
  } else {
    std::fprintf(stderr, "warning: %s\n", text.c_str());
    std::fflush(stderr);
  }
}

WarningHandler set_warning_handler(WarningHandler handler) {
  std::lock_guard lock(handler_mutex());
  WarningHandler previous = std::move(current_handler());
  current_handler() = std::move(handler);
  return previous;
}

}  // namespace nardy
