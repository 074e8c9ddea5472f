// bindings/interrupt.h — Ctrl-C inside long C++ calls made from Python.
//
// A long call (arena, rollout, train, play) releases the GIL and runs C++ on the calling
// thread plus worker threads. Python's SIGINT handler only sets a flag; the KeyboardInterrupt
// is raised when the main thread next runs Python code, which it does not while in C++. So the
// calling thread polls: Interrupt::poll(), called from the C++ loop (agents' choose(), progress
// callbacks), takes the GIL at most every kPollInterval on the thread that made the call and
// runs PyErr_CheckSignals(). A pending KeyboardInterrupt (or any exception a Python signal
// handler raises) is stored and stop() becomes true; every worker sees it at its next poll and
// throws Interrupted, the C++ call unwinds through its usual error path (the arena and rollout
// rethrow the first worker error on the calling thread), and the binding, holding the GIL
// again, re-raises the stored Python exception with raise_pending().
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

namespace nardy::py_bind {

namespace py = pybind11;

// Thrown inside C++ when a poll sees the stop flag; never reaches Python (raise_pending()
// or the caller turns it into the stored Python exception).
struct Interrupted : std::exception {
  const char* what() const noexcept override { return "interrupted"; }
};

class Interrupt {
 public:
  static constexpr std::chrono::milliseconds kPollInterval{100};

  // Construct with the GIL held, on the thread that makes the C++ call.
  Interrupt() : owner_(std::this_thread::get_id()), next_check_(std::chrono::steady_clock::now() + kPollInterval) {}

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

  // Throws Interrupted if a stop was requested (see poll()).
  void throw_if_stopped() {
    if (poll()) throw Interrupted();
  }

  // With the GIL held (e.g. inside a Python callback): runs the signal handlers now.
  void check_signals_with_gil() {
    if (PyErr_CheckSignals() != 0) store_python_error();
  }

  // With the GIL held: the Python exception now set (PyErr_Occurred) becomes the pending one
  // and stop is requested.
  void store_python_error() {
    std::lock_guard lock(mutex_);
    if (!error_) error_ = std::make_shared<py::error_already_set>();
    else PyErr_Clear();
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

  // Runs `call` (a C++ call that may throw Interrupted or any other error) and, if a stop
  // was requested, re-raises the pending exception instead of Interrupted. The GIL must be
  // held on entry; `call` runs with it released.
  template <typename F>
  auto run_without_gil(F&& call) -> decltype(call()) {
    try {
      py::gil_scoped_release nogil;
      return call();
    } catch (const Interrupted&) {
      raise_pending();
      PyErr_SetNone(PyExc_KeyboardInterrupt);  // a stop without a stored exception
      throw py::error_already_set();
    } catch (...) {
      if (stopped()) raise_pending();
      throw;
    }
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
