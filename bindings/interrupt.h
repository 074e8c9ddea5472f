// bindings/interrupt.h — Ctrl-C inside long C++ calls made from Python.
//
// A long call (arena, tournament, rollout, analyze, train, play) releases the GIL and runs C++
// on the calling thread plus worker threads. Python's SIGINT handler only sets a flag; the
// KeyboardInterrupt is raised when the main thread next runs Python code, which it does not
// while in C++. So the C++ call polls: Interrupt::should_stop() is the library's stop hook
// (selfplay/search/stop.h) — given to ArenaOptions, TournamentOptions and AnalysisOptions, or
// wrapped around agents (StoppableAgent) for play and rollout — and Interrupt::poll() behind it
// takes the GIL at most every kPollInterval on the thread that made the call and runs
// PyErr_CheckSignals(). A pending KeyboardInterrupt (or any exception a Python signal handler
// or callback raises) is stored and stop() becomes true; every worker sees it at its next poll.
// The library then winds down (a match returns its finished pairs with `stopped`; other calls
// throw Stopped through their usual error path), and run_without_gil(), holding the GIL again,
// re-raises the stored Python exception.
//
// On threads other than the calling one poll() only reads the atomic flag (no GIL). On a
// Python thread that is not the main thread PyErr_CheckSignals() does nothing, so only calls
// from the main thread are interruptible by Ctrl-C (as in Python itself).
#pragma once

#include <pybind11/pybind11.h>

#include <atomic>
#include <chrono>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

#include "selfplay/search/stop.h"

namespace nardy::py_bind {

namespace py = pybind11;

class Interrupt {
 public:
  static constexpr std::chrono::milliseconds kPollInterval{100};

  // Construct with the GIL held, on the thread that makes the C++ call.
  Interrupt()
      : owner_(std::this_thread::get_id()),
        next_check_(std::chrono::steady_clock::now() + kPollInterval) {}

  // True once a stop was requested. On the owning thread, checks Python's signals first (at
  // most every kPollInterval). Call without the GIL.
  bool poll() {
    if (stop_.load(std::memory_order_relaxed)) return true;
    if (std::this_thread::get_id() != owner_) return false;
    const auto now = std::chrono::steady_clock::now();
    if (now < next_check_) return false;
    next_check_ = now + kPollInterval;
    py::gil_scoped_acquire gil;
    check_signals_with_gil();
    return stop_.load();
  }

  // The library's stop hook for this call: poll(). Keep the Interrupt alive while it may run.
  ShouldStop should_stop() {
    return [this] { return poll(); };
  }

  // From a progress callback of the C++ call, without the GIL: takes it and runs `python` (e.g.
  // the user's callback), a Python exception it raises becoming the pending one, then the
  // signal handlers. Does nothing once a stop was requested.
  template <class F>
  void call_python(F&& python) {
    py::gil_scoped_acquire gil;
    if (!stopped()) {
      try {
        python();
      } catch (py::error_already_set& e) {
        e.restore();
        store_python_error();
      }
    }
    if (!stopped()) check_signals_with_gil();
  }

  // With the GIL held (e.g. inside a Python callback): runs the signal handlers now.
  void check_signals_with_gil() {
    if (PyErr_CheckSignals() != 0) store_python_error();
  }

  // With the GIL held: the Python exception now set (PyErr_Occurred) becomes the pending one
  // and stop is requested.
  void store_python_error() {
    std::lock_guard lock(mutex_);
    if (!error_)
      error_ = std::make_shared<py::error_already_set>();
    else
      PyErr_Clear();
    stop_.store(true);
  }
  // Any thread: stop with this exception pending (e.g. an exception from a Python callback).
  void store_exception(std::exception_ptr e) {
    std::lock_guard lock(mutex_);
    if (!cpp_error_) cpp_error_ = e;
    stop_.store(true);
  }

  void request_stop() { stop_.store(true); }
  bool stopped() const { return stop_.load(); }
  const std::atomic<bool>* flag() const { return &stop_; }

  // With the GIL held: re-raises the pending exception, if any (Python first, then C++).
  void raise_pending() {
    std::shared_ptr<py::error_already_set> e;
    std::exception_ptr c;
    {
      std::lock_guard lock(mutex_);
      e = error_;
      c = cpp_error_;
      error_.reset();
      cpp_error_ = nullptr;
    }
    if (e) throw py::error_already_set(*e);
    if (c) std::rethrow_exception(c);
  }

  // Runs `call` with the GIL released (held on entry) and returns its result; if a stop was
  // requested meanwhile — whether `call` then threw (Stopped, or a worker's error) or wound
  // down and returned — re-raises the pending exception instead (KeyboardInterrupt if none).
  template <typename F>
  auto run_without_gil(F&& call) -> decltype(call()) {
    std::optional<decltype(call())> result;
    try {
      py::gil_scoped_release nogil;
      result.emplace(call());
    } catch (...) {
      if (!stopped()) throw;
    }
    if (stopped()) {
      raise_pending();
      PyErr_SetNone(PyExc_KeyboardInterrupt);  // a stop without a stored exception
      throw py::error_already_set();
    }
    return std::move(*result);
  }

 private:
  std::thread::id owner_;
  std::chrono::steady_clock::time_point next_check_;  // owner thread only
  std::atomic<bool> stop_{false};
  std::mutex mutex_;
  std::shared_ptr<py::error_already_set> error_;
  std::exception_ptr cpp_error_;
};

}  // namespace nardy::py_bind
