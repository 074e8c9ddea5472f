#include "selfplay/training/schedule.h"

#include <algorithm>
#include <cmath>

#include "core/error.h"

namespace nardy {

ScheduleKind parse_schedule_kind(std::string_view name) {
  if (name == "constant") return ScheduleKind::Constant;
  if (name == "linear") return ScheduleKind::Linear;
  if (name == "exponential") return ScheduleKind::Exponential;
  throw Error("schedule " + quote(name) + ": expected one of constant, linear, exponential");
}

std::string schedule_kind_name(ScheduleKind kind) {
  switch (kind) {
    case ScheduleKind::Constant:
      return "constant";
    case ScheduleKind::Linear:
      return "linear";
    case ScheduleKind::Exponential:
      return "exponential";
  }
  return "constant";
}

double Schedule::at(double progress) const {
  const double p = std::clamp(progress, 0.0, 1.0);
  switch (kind) {
    case ScheduleKind::Constant:
      return start;
    case ScheduleKind::Linear:
      return start + (final - start) * p;
    case ScheduleKind::Exponential:
      return start * std::pow(final / start, p);
  }
  return start;
}

}  // namespace nardy
