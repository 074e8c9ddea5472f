#include <string>
#include <string_view>

#include "core/error.h"
#include "nn/value_net.h"

namespace nardy {

Activation parse_activation(std::string_view name) {
  if (name == "sigmoid") return Activation::Sigmoid;
  if (name == "tanh") return Activation::Tanh;
  if (name == "relu") return Activation::Relu;
  throw Error("unknown activation " + quote(name) + " (expected sigmoid, tanh or relu)");
}

std::string activation_name(Activation a) {
  switch (a) {
    case Activation::Sigmoid:
      return "sigmoid";
    case Activation::Tanh:
      return "tanh";
    case Activation::Relu:
      return "relu";
  }
  return "unknown";
}

}  // namespace nardy
