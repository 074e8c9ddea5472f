// selfplay/training/schedule.h — a value that changes over the course of a training run.
//
// A Schedule maps training progress p = games done / games planned (0..1) to a value:
//   constant     start                                  (final is ignored)
//   linear       start + (final - start) * p
//   exponential  start * (final / start)^p              (start, final > 0; geometric decay)
// Progress is clamped to [0, 1], so a run extended past its plan keeps the final value.
// Used for the TD step size alpha, the trace decay lambda and the exploration rate epsilon
// (selfplay/training/config.h).
#pragma once

#include <string>
#include <string_view>

namespace nardy {

enum class ScheduleKind : uint8_t { Constant, Linear, Exponential };

// "constant" | "linear" | "exponential"; parse throws Error naming the accepted values.
ScheduleKind parse_schedule_kind(std::string_view name);
std::string schedule_kind_name(ScheduleKind kind);

struct Schedule {
  ScheduleKind kind = ScheduleKind::Constant;
  double start = 0.0;
  double final = 0.0;

  double at(double progress) const;
  bool operator==(const Schedule&) const = default;
};

}  // namespace nardy
