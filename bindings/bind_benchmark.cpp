// bindings/bind_benchmark.cpp — nardy.benchmark (an agent's error rate on the benchmark of
// positions, selfplay/evaluation/position_benchmark.h), nardy.phase_of (its phases) and
// nardy.race_odds (the exact race table, selfplay/tables/) and nardy.race_net_estimate (the race
// net, selfplay/tables/race_net.h).
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
#include "selfplay/search/shipped_models.h"
#include "selfplay/tables/race.h"
#include "selfplay/tables/race_net.h"
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

py::object race_odds_py(const py::object& pos, const py::object& rules, bool estimate) {
  const Position p = position_arg(pos);
  require_valid(p);
  const BearoffTable* table = default_bearoff_table();
  const Rules r = rules_arg(rules);
  if (!table && !estimate)
    throw Error("race_odds: no race table at '" + default_bearoff_path() +
                "' (build one with `nardy bearoff build`, or set NARDY_BEAROFF)");
  std::optional<RaceOdds> o;
  bool exact = true;
  if (table) o = race_odds(*table, p, r);
  if (!o && estimate && is_race(p)) {
    const RaceNet* net = default_shipped_race_net();
    if (!net)
      throw Error("race_odds: no race net (models/" + std::string(kRaceNetFile) +
                  " not found; set NARDY_RACE_NET to a race net file)");
    o = RaceValuer(table, *net, 0).odds(p, r);
    exact = false;
  }
  if (!o) return py::none();
  py::dict d;
  d["win"] = o->win;
  d["win_mars"] = o->win_mars;
  d["lose_mars"] = o->lose_mars;
  d["draw"] = o->draw;
  d["equity"] = o->equity();
  d["table_points"] = table ? table->points() : 0;
  d["exact"] = exact;
  return d;
}

py::dict race_net_estimate(const std::vector<int>& counts, const std::optional<std::string>& path) {
  std::optional<RaceNet> own;
  const RaceNet* net = nullptr;
  if (path) {
    own = RaceNet::load(*path);
    net = &*own;
  } else if (!(net = default_shipped_race_net())) {
    throw Error("race_net_estimate: no race net (models/" + std::string(kRaceNetFile) +
                " not found; set NARDY_RACE_NET or pass path)");
  }
  if (counts.size() > static_cast<size_t>(net->points()))
    throw Error("race_net_estimate: " + std::to_string(counts.size()) + " counts, the net covers " +
                std::to_string(net->points()) + " points");
  Arrangement a{};
  int sum = 0;
  for (size_t i = 0; i < counts.size(); ++i) {
    if (counts[i] < 0 || counts[i] > kNumCheckers)
      throw Error("race_net_estimate: count " + std::to_string(counts[i]) + " at route " +
                  std::to_string(i + 1) + " is not 0..15");
    a[i] = static_cast<uint8_t>(counts[i]);
    sum += counts[i];
  }
  if (sum > kNumCheckers)
    throw Error("race_net_estimate: " + std::to_string(sum) + " checkers (at most 15)");
  std::vector<float> f(static_cast<size_t>(net->finish_bins())),
      o(static_cast<size_t>(net->first_off_bins()));
  net->estimate(a, f.data(), o.data());
  py::dict d;
  d["finish"] = f;
  d["first_off"] = o;
  d["points"] = net->points();
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
        py::arg("estimate") = false,
        "Exact odds of a race position for the side to move from the race table (win, "
        "win_mars,\n"
        "lose_mars, draw, equity, table_points, exact), or None when the table does not cover "
        "it.\n"
        "estimate=True: a race the table does not cover gets the odds from the table's and the "
        "race\n"
        "net's distributions (exact False), as net agents value it; None when not a race.");
  m.def("race_net_estimate", &race_net_estimate, py::arg("counts"), py::arg("path") = py::none(),
        "The race net's distributions for one side's arrangement: counts[i] checkers on its "
        "route\n"
        "i + 1 (at most 15 in all, route <= the net's points): a dict with 'finish' (P(t turns "
        "to\n"
        "bear off all), t = 0, 1, ...), 'first_off' (the same for its first checker) and "
        "'points'.\n"
        "path=None: the shipped net (models/race-net.nrn, or NARDY_RACE_NET).");
}

}  // namespace nardy::py_bind
