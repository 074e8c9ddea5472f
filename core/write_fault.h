// core/write_fault.h — a test seam that makes one of nardy's file writes fail.
//
// Every file nardy writes goes through core/file_io.h, and every write, close and rename there
// asks this seam first. A fault set here makes the N-th such call of its kind fail with the
// given errno, as a full disk (ENOSPC) or a failing device (EIO) would. A failing write first
// writes half of its bytes, as a real disk that fills up does.
//
// Tests set a fault in-process with set_write_fault(). Child processes read the environment
// variable NARDY_WRITE_FAULT once, at their first file write:
//   NARDY_WRITE_FAULT=write:3:ENOSPC   the 3rd write fails with "No space left on device"
//   NARDY_WRITE_FAULT=close:1:EIO      the 1st close fails with "Input/output error"
//   NARDY_WRITE_FAULT=rename:1         the 1st rename fails (ENOSPC when no errno is named)
// A malformed value stops the process's first write with an Error naming the variable.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace nardy {

enum class WriteOp { write, close, rename };

struct WriteFault {
  WriteOp op = WriteOp::write;
  int64_t nth = 1;  // the N-th call of `op` from the moment the fault is set (1 = the next one)
  int error = 0;    // the errno it fails with (0 = ENOSPC)
};

// Sets (or with nullopt clears) the fault, and restarts the counts of every op.
void set_write_fault(std::optional<WriteFault> fault);
// How many calls of `op` were made since the last set_write_fault() (or the process start).
int64_t write_calls(WriteOp op);
// Counts one call of `op` and returns the errno it must fail with, or 0 when it goes ahead.
int write_fault_for(WriteOp op);
// Parses a NARDY_WRITE_FAULT value. Throws Error naming the variable on a malformed one.
WriteFault parse_write_fault(const std::string& text);

}  // namespace nardy
