// core/parallel_for.h — the one way nardy runs work on several threads.
//
// run_threads(T, work): work(t) for t = 0..T-1 at once, t = 0 on the calling thread and the
// others on fresh std::threads; returns when every call has returned. If any call throws, the
// exception of the lowest-numbered thread that threw is rethrown here, after all have finished
// (so no thread outlives the call and no exception is lost to std::terminate).
//
// parallel_for(n, T, make_state, body): body(state, i) once for every index i in [0, n), the
// indices handed out in increasing order from a shared counter to min(T, n) threads. Each thread
// first builds its own state with make_state(t) (on that thread; e.g. its agents), so body needs
// no locking for it. After a call throws, the other threads claim no new index and the first
// exception (in time) is rethrown once all have stopped. When body returns bool, false ends its
// thread's loop early (the index it was given counts as not done; others go on claiming).
//
// Which thread runs which index depends on timing, so callers that need results independent of
// the thread count store them per index (and derive each index's random stream from the index)
// and combine them in index order afterwards, as the arena, rollouts and tests do.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <type_traits>

#include "core/error.h"

namespace nardy {

// Throws Error if threads < 1.
void run_threads(int threads, const std::function<void(int thread)>& work);

template <class MakeState, class Body>
void parallel_for(int64_t n, int threads, MakeState&& make_state, Body&& body) {
  if (threads < 1)
    throw Error("parallel_for: threads must be at least 1 (got " + std::to_string(threads) + ")");
  if (n <= 0) return;
  std::atomic<int64_t> next{0};
  std::atomic<bool> failed{false};
  std::mutex mutex;
  std::exception_ptr first_error;
  run_threads(static_cast<int>(std::min<int64_t>(threads, n)), [&](int t) {
    try {
      auto state = make_state(t);
      for (;;) {
        if (failed.load(std::memory_order_relaxed)) return;
        const int64_t i = next.fetch_add(1);
        if (i >= n) return;
        if constexpr (std::is_same_v<decltype(body(state, i)), bool>) {
          if (!body(state, i)) return;
        } else {
          body(state, i);
        }
      }
    } catch (...) {
      std::lock_guard lock(mutex);
      if (!first_error) first_error = std::current_exception();
      failed.store(true);
    }
  });
  if (first_error) std::rethrow_exception(first_error);
}

}  // namespace nardy
