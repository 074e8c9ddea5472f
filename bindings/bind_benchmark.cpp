// bindings/bind_benchmark.cpp — nardy.benchmark (an agent's error rate on the benchmark of
// positions, selfplay/evaluation/position_benchmark.h), nardy.phase_of (its phases) and
// nardy.race_odds (the exact race table, selfplay/tables/).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <optional>
#include <string>

#include "bindings/agent_arg.h"
#include "bindings/convert.h"
#include "bindings/interrupt.h"
#include "core/error.h"
#include "selfplay/evaluation/position_benchmark.h"
#include "selfplay/tables/bearoff_table.h"
#include "selfplay/tables/race_odds.h"

#ifndef NARDY_DEFAULT_BENCHMARK_SET
#define NARDY_DEFAULT_BENCHMARK_SET "bench/positions/positions.txt"
#endif

namespace py = pybind11;

namespace nardy::py_bind {
namespace {

py::object benchmark(const py::object& agent, const py::object& set, int threads,
                     const py::int_& seed, const py::object& rules, const py::object& versus) {
  const Rules r = rules_arg(rules);
  const std::string path = set.is_none() ? NARDY_DEFAULT_BENCHMARK_SET : set.cast<std::string>();
  PyAgentPtr a = agent_arg(agent);
  PyAgentPtr b = versus.is_none() ? nullptr : agent_arg(versus);
  const uint64_t s = seed_arg(seed);
  Interrupt interrupt;
  BenchmarkScore score, other;
  std::optional<BenchmarkComparison> comparison;
  interrupt.run_without_gil([&] {
    const BenchmarkSet bs = read_benchmark(path, r);
    score = score_benchmark(bs, interruptible_maker(a, r, interrupt), r, threads, s);
    if (b) {
      other = score_benchmark(bs, interruptible_maker(b, r, interrupt), r, threads, s);
      comparison = compare_benchmark(bs, score, other);
    }
    return 0;
  });
  py::dict d = json_loads(score.to_json());
  d["set"] = path;
  d["text"] = score.to_text();
  if (comparison) {
    py::dict v = json_loads(other.to_json());
    v["text"] = other.to_text();
    d["versus"] = v;
    d["a_minus_b"] = json_loads(comparison->to_json());
    d["text"] = score.to_text() + other.to_text() + comparison->to_text();
  }
  return d;
}

py::object race_odds_py(const py::object& pos, const py::object& rules) {
  const Position p = position_arg(pos);
  require_valid(p);
  const BearoffTable* table = default_bearoff_table();
  if (!table)
    throw Error("race_odds: no race table at '" + default_bearoff_path() +
                "' (build one with `nardy bearoff build`, or set NARDY_BEAROFF)");
  const auto o = race_odds(*table, p, rules_arg(rules));
  if (!o) return py::none();
  py::dict d;
  d["win"] = o->win;
  d["win_mars"] = o->win_mars;
  d["lose_mars"] = o->lose_mars;
  d["draw"] = o->draw;
  d["equity"] = o->equity();
  d["table_points"] = table->points();
  return d;
}

}  // namespace

void bind_benchmark(py::module_& m) {
  m.def("benchmark", &benchmark, py::arg("agent") = "heuristic", py::arg("set") = py::none(),
        py::arg("threads") = 1, py::arg("seed") = 1, py::arg("rules") = py::none(),
        py::arg("versus") = py::none(),
        "An agent's error rate on the benchmark of positions, as `nardy benchmark AGENT --set "
        "FILE`:\n"
        "a dict with 'overall' and 'phases' (mean_millipoints, ci95_low/high, share_over_0_1, "
        "outside,\n"
        "decisions, and for sets with halves of trials 'cross_fitted': the loss with the best "
        "picked on\n"
        "one half and measured on the other), 'agent', 'set' and the printed 'text'. set=None: "
        "the\n"
        "repository's set. `versus`: a second agent, scored too ('versus') and compared paired by\n"
        "decision ('a_minus_b': per phase mean_millipoints and ci95_low/high of agent minus "
        "versus),\n"
        "as `nardy benchmark AGENT --versus B`. GIL released; Ctrl-C stops it.");
  m.def(
      "phase_of",
      [](const py::object& pos) {
        const Position p = position_arg(pos);
        require_valid(p);
        return std::string(phase_name(phase_of(p)));
      },
      py::arg("position"),
      "The benchmark's phase of a position, a function of the position alone: 'opening' (no\n"
      "race, both sides with at least 11 checkers on their heads), 'contact' (any other "
      "position\n"
      "that is not a race), 'race' (the side to move still has a checker outside home) or\n"
      "'bearoff' (a race with every checker of the side to move at home).");
  m.def("race_odds", &race_odds_py, py::arg("position"), py::arg("rules") = py::none(),
        "Exact odds of a race position for the side to move from the race table (win, "
        "win_mars,\n"
        "lose_mars, draw, equity, table_points), or None when the table does not cover it.");
}

}  // namespace nardy::py_bind
