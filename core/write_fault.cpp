// core/write_fault.cpp — see write_fault.h.
#include "core/write_fault.h"

#include <array>
#include <cerrno>
#include <cstdlib>
#include <mutex>

#include "core/error.h"
#include "core/printable.h"

namespace nardy {

namespace {

constexpr const char* kVariable = "NARDY_WRITE_FAULT";

struct FaultState {
  std::mutex mutex;
  bool env_read = false;
  std::optional<WriteFault> fault;
  std::array<int64_t, 3> calls{};
};

FaultState& state() {
  static FaultState s;
  return s;
}

// Reads the environment once; the caller holds the mutex.
void read_environment(FaultState& s) {
  if (s.env_read) return;
  s.env_read = true;
  const char* value = std::getenv(kVariable);
  if (value && *value) s.fault = parse_write_fault(value);
}

}  // namespace

WriteFault parse_write_fault(const std::string& text) {
  auto bad = [&](const std::string& why) {
    return Error(std::string(kVariable) + "=" + quote(text) + ": " + why +
                 " (expected OP:N[:ERRNO], OP one of write, close, rename; ERRNO one of ENOSPC, "
                 "EIO, EDQUOT, EFBIG)");
  };
  WriteFault f;
  const size_t a = text.find(':');
  if (a == std::string::npos) throw bad("no ':N'");
  const std::string op = text.substr(0, a);
  if (op == "write")
    f.op = WriteOp::write;
  else if (op == "close")
    f.op = WriteOp::close;
  else if (op == "rename")
    f.op = WriteOp::rename;
  else
    throw bad("unknown operation " + quote(op));
  const size_t b = text.find(':', a + 1);
  const std::string n = text.substr(a + 1, b == std::string::npos ? std::string::npos : b - a - 1);
  char* end = nullptr;
  const long long nth = std::strtoll(n.c_str(), &end, 10);
  if (n.empty() || *end != '\0' || nth < 1) throw bad("N must be a whole number >= 1");
  f.nth = nth;
  if (b != std::string::npos) {
    const std::string e = text.substr(b + 1);
    if (e == "ENOSPC")
      f.error = ENOSPC;
    else if (e == "EIO")
      f.error = EIO;
    else if (e == "EDQUOT")
      f.error = EDQUOT;
    else if (e == "EFBIG")
      f.error = EFBIG;
    else
      throw bad("unknown errno " + quote(e));
  }
  return f;
}

void set_write_fault(std::optional<WriteFault> fault) {
  FaultState& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  s.env_read = true;  // an in-process setting wins over the environment
  s.fault = fault;
  s.calls.fill(0);
}

int64_t write_calls(WriteOp op) {
  FaultState& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  return s.calls[static_cast<size_t>(op)];
}

int write_fault_for(WriteOp op) {
  FaultState& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  read_environment(s);
  const int64_t n = ++s.calls[static_cast<size_t>(op)];
  if (!s.fault || s.fault->op != op || s.fault->nth != n) return 0;
  return s.fault->error ? s.fault->error : ENOSPC;
}

}  // namespace nardy
