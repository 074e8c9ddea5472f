// bindings/bind_match.cpp — matches to N points (selfplay/evaluation/match_play.h) and match
// winning chances (core/match_equity.h).
//
// match() is run_matches() with one C++ agent per worker thread made from each side's agent
// argument (bindings/agent_arg.h); its result equals `nardy match A B --to N --matches M --seed
// S` (same pairs, same dice, independent of the thread count). GIL released; Ctrl-C stops it.
#ifdef NARDY_HAS_NN
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdio>

#include "bindings/agent_arg.h"
#include "bindings/convert.h"
#include "bindings/interrupt.h"
#include "core/match_equity.h"
#include "selfplay/evaluation/match_play.h"

namespace nardy::py_bind {
namespace {

std::string match_repr(const MatchResult& r) {
  char buf[200];
  std::snprintf(buf, sizeof buf,
                "', to=%d, matches=%lld, a_win_rate=%.4f, ci95=[%.4f, %.4f], "
                "mean_games_per_match=%.3f)",
                r.target, static_cast<long long>(r.matches), r.a_win_rate, r.ci95_low, r.ci95_high,
                r.mean_games_per_match);
  return "MatchResult('" + r.a_spec + "' vs '" + r.b_spec + buf;
}

MatchResult match(const py::object& a, const py::object& b, int to, int64_t matches, int threads,
                  const py::int_& seed, const py::object& rules) {
  MatchOptions o;
  o.target = to;
  o.matches = matches;
  o.threads = threads;
  o.seed = seed_arg(seed);
  o.rules = rules_arg(rules);
  PyAgentPtr pa = agent_arg(a), pb = agent_arg(b);
  Interrupt interrupt;
  o.should_stop = interrupt.should_stop();
  return interrupt.run_without_gil(
      [&] { return run_matches(agent_maker(pa, o.rules), agent_maker(pb, o.rules), o); });
}

double match_winning_chance(int to, double score0, double score1, int white,
                            const py::object& rules) {
  auto half = [](double points, const char* who) {
    const double h = points * 2;
    if (!(h >= 0) || h != static_cast<int>(h))
      throw Error(std::string("match_winning_chance: ") + who +
                  " must be a whole or half number of points >= 0 (got " + std::to_string(points) +
                  ")");
    return static_cast<int>(h);
  };
  const Rules r = rules_arg(rules);
  const MatchScore s = MatchScore::at(to, half(score0, "score0"), half(score1, "score1"), white);
  return MatchEquityTable(to, GameOutcomeModel::self_play(r), r).player0_wins(s);
}

}  // namespace

void bind_match(py::module_& m) {
  py::class_<MatchResult>(
      m, "MatchResult",
      "Result of matches to N points in mirrored pairs (selfplay/evaluation/match_play.h), from "
      "A's side.")
      .def_readonly("target", &MatchResult::target, "Points to win a match")
      .def_readonly("matches", &MatchResult::matches, "Matches played (2 per pair)")
      .def_readonly("pairs", &MatchResult::pairs, "Pairs played")
      .def_readonly("a_wins", &MatchResult::a_wins, "Matches A won")
      .def_readonly("b_wins", &MatchResult::b_wins, "Matches B won")
      .def_readonly("games", &MatchResult::games, "Games over all matches")
      .def_readonly("a_win_rate", &MatchResult::a_win_rate, "A's share of the matches")
      .def_readonly("ci95_low", &MatchResult::ci95_low, "95% CI low end of a_win_rate (pairs)")
      .def_readonly("ci95_high", &MatchResult::ci95_high, "95% CI high end of a_win_rate")
      .def_readonly("mean_games_per_match", &MatchResult::mean_games_per_match, "Games per match")
      .def_readonly("pair_wins", &MatchResult::pair_wins, "A's match wins in each pair (0..2)")
      .def_readonly("match_games", &MatchResult::match_games,
                    "Games of each match: [2i] A White first, [2i+1] B White first")
      .def_readonly("a_spec", &MatchResult::a_spec, "A's spec")
      .def_readonly("b_spec", &MatchResult::b_spec, "B's spec")
      .def("to_json", &MatchResult::to_json, "Every field as JSON (as `nardy match --json` writes)")
      .def(
          "to_dict", [](const MatchResult& r) { return json_loads(r.to_json()); },
          "Every field as a dict (json.loads of to_json())")
      .def("to_text", &MatchResult::to_text, "The report `nardy match` prints")
      .def("__str__", &MatchResult::to_text)
      .def("__repr__", &match_repr);
  m.def("match", &match, py::arg("a"), py::arg("b"), py::arg("to") = 3, py::arg("matches") = 100,
        py::arg("threads") = 1, py::arg("seed") = 1, py::arg("rules") = py::none(),
        "Plays matches to `to` points between A and B in mirrored pairs (same as `nardy match A "
        "B\n--to N --matches M --threads T --seed S`, independent of T); net agents play "
        "score-aware\nunless their spec says :match=off. Returns a MatchResult from A's side. "
        "GIL released; Ctrl-C stops it.");
  m.def("match_winning_chance", &match_winning_chance, py::arg("to"), py::arg("score0"),
        py::arg("score1"), py::arg("white") = 0, py::arg("rules") = py::none(),
        "Player 0's chance to win a match to `to` points at score score0-score1 (halves allowed "
        "under\nlast_roll_draw) with player `white` White in the next game, by dynamic programming "
        "over the\nself-play outcome model (core/match_equity.h).");
}

}  // namespace nardy::py_bind
#endif
