#include "nn/td_backend.h"

#include <string>

#include "core/error.h"

namespace nardy {

void check_td_lambda(float lambda) {
  if (!(lambda >= 0.0f && lambda <= 1.0f))
    throw Error("TD lambda must be in [0, 1], got " + std::to_string(lambda));
}

void TdBackend::evaluate_differences(std::span<const float>, const int*, const float*, const int*,
                                     int, std::span<Evaluation>) {
  throw Error(std::string("TD backend '") + name() + "' does not evaluate input differences");
}

std::unique_ptr<TdBackend> make_td_backend(std::string_view name, ValueNet& net, float lambda,
                                           bool deferred) {
  check_td_lambda(lambda);
  if (name == "fast") return make_fast_td_backend(net, lambda, deferred);
  if (name == "libtorch") return make_libtorch_td_backend(net, lambda);
  throw Error("unknown TD backend " + quote(name) + " (expected fast or libtorch)");
}

}  // namespace nardy
