#include "selfplay/search/eval_cache.h"

#include <string>

#include "core/error.h"

namespace nardy {

EvalCache::EvalCache(int bits) : bits_(bits) {
  if (bits < 0 || bits > 28)
    throw Error("evaluation cache: size 2^" + std::to_string(bits) +
                " slots is out of range (bits 0..28)");
  if (bits > 0) {
    mask_ = (uint64_t{1} << bits) - 1;
    slots_.resize(size_t{1} << bits);
  }
}

void EvalCache::clear() {
  for (auto& s : slots_) s = Slot{};
  generation_ = 1;
  empty_ = true;
  reset_counters();
}

}  // namespace nardy
