#include "core/parallel_for.h"

#include <string>
#include <thread>
#include <vector>

namespace nardy {

void run_threads(int threads, const std::function<void(int thread)>& work) {
  if (threads < 1)
    throw Error("run_threads: threads must be at least 1 (got " + std::to_string(threads) + ")");
  std::vector<std::exception_ptr> errors(static_cast<size_t>(threads));
  auto guarded = [&](int t) {
    try {
      work(t);
    } catch (...) {
      errors[static_cast<size_t>(t)] = std::current_exception();
    }
  };
  std::vector<std::thread> pool;
  pool.reserve(static_cast<size_t>(threads - 1));
  try {
    for (int t = 1; t < threads; ++t) pool.emplace_back(guarded, t);
  } catch (...) {
    // Could not start a thread: let the started ones finish, then report it.
    for (auto& th : pool) th.join();
    throw;
  }
  guarded(0);
  for (auto& th : pool) th.join();
  for (const auto& e : errors)
    if (e) std::rethrow_exception(e);
}

}  // namespace nardy
