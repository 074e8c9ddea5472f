// core/error.h — the one exception family of nardy.
//
// Exceptions belong at the boundaries (parsing POS/ID/records/notation, CLI arguments, configs,
// checkpoints, Python calls). Messages name the input, the field and what was expected. The hot
// path (movegen, apply, encode, kernels) never throws.
#pragma once

#include <stdexcept>
#include <string>

namespace nardy {

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& what) : std::runtime_error(what) {}
};

}  // namespace nardy
