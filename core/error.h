// core/error.h — the one exception family of nardy.
//
// Exceptions belong at the boundaries (parsing POS/ID/records/notation, CLI arguments, configs,
// checkpoints, Python calls). Messages name the input, the field and what was expected, and
// quote input with quote() / printable_path() (core/printable.h). The hot path (movegen,
// apply, encode, kernels) never throws.
//
// Every message is printable text whatever went into it: the constructor passes it through
// printable_message(), so a NUL byte cannot cut it short (what() is a C string), control
// characters cannot reach a terminal or a protocol line, and Python always gets valid UTF-8.
#pragma once

#include <stdexcept>
#include <string>

#include "core/printable.h"

namespace nardy {

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& what) : std::runtime_error(printable_message(what)) {}
};

}  // namespace nardy
