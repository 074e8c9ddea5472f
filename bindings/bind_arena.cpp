// bindings/bind_arena.cpp — matches, tournaments and rollouts (selfplay/evaluation/arena.h,
// tournament.h, rollout.h).
//
// arena() is run_arena() with one C++ agent per worker thread made from each side's agent
// argument (bindings/agent_arg.h); its result equals `nardy eval A B --games N --seed S`
// (same pairs, same dice, results independent of the thread count). rollout() gives a net
// agent's luck evaluator explicitly (the agents are wrapped to poll for Ctrl-C, which hides
// them from rollout()'s own NetAgent detection) — the same evaluator, so the same numbers.
// The GIL is released while games run; Ctrl-C reaches arena() and tournament() through their
// stop hook (selfplay/search/stop.h), which the library polls before every move, and raises
// KeyboardInterrupt once the call has wound down.
#ifdef NARDY_HAS_NN
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cmath>
#include <string>
#include <vector>

#include "bindings/agent_arg.h"
#include "bindings/convert.h"
#include "bindings/interrupt.h"
#include "core/error.h"
#include "selfplay/evaluation/arena.h"
#include "selfplay/search/net_agent.h"
#include "selfplay/evaluation/luck_head.h"
#include "selfplay/evaluation/rollout.h"
#include "selfplay/evaluation/tournament.h"

namespace nardy::py_bind {
namespace {

// Calls a Python progress callback from C++ (any thread, GIL not held). An exception it raises
// is stored and stops the call (the library's stop hook reports it), to be re-raised after.
template <typename... Args>
void call_progress(Interrupt& interrupt, PyObject* callback, const Args&... args) {
  py::gil_scoped_acquire gil;
  if (interrupt.stopped()) return;
  try {
    py::handle fn(callback);
    fn(args...);
  } catch (py::error_already_set& e) {
    e.restore();
    interrupt.store_python_error();
  }
}

std::optional<SprtOptions> sprt_arg(const py::handle& h) {
  if (h.is_none()) return std::nullopt;
  SprtOptions s;
  if (py::isinstance<py::dict>(h)) {
    for (auto item : h.cast<py::dict>()) {
      const std::string key = py::str(item.first);
      if (key == "elo0")
        s.elo0 = item.second.cast<double>();
      else if (key == "elo1")
        s.elo1 = item.second.cast<double>();
      else if (key == "alpha")
        s.alpha = item.second.cast<double>();
      else if (key == "beta")
        s.beta = item.second.cast<double>();
      else if (key == "min_pairs")
        s.min_pairs = item.second.cast<int64_t>();
      else
        throw Error("sprt: unknown key " + quote(key) +
                    " (expected elo0, elo1, alpha, beta, min_pairs)");
    }
    return s;
  }
  if (py::isinstance<py::sequence>(h) && !py::isinstance<py::str>(h) && py::len(h) == 2) {
    auto seq = h.cast<py::sequence>();
    s.elo0 = seq[0].cast<double>();
    s.elo1 = seq[1].cast<double>();
    return s;
  }
  throw py::type_error(
      "sprt: expected None, (elo0, elo1) or a dict with elo0, elo1[, alpha, beta, min_pairs], "
      "got " +
      type_name(h));
}

py::object sprt_dict(const ArenaResult& r) {
  if (!r.sprt) return py::none();
  py::dict d;
  d["elo0"] = r.sprt->elo0, d["elo1"] = r.sprt->elo1, d["alpha"] = r.sprt->alpha,
  d["beta"] = r.sprt->beta;
  d["min_pairs"] = r.sprt->min_pairs, d["llr"] = r.sprt_llr, d["lower"] = r.sprt_lower,
  d["upper"] = r.sprt_upper;
  d["verdict"] = r.sprt_verdict;
  return d;
}

std::string arena_repr(const ArenaResult& r) {
  char buf[160];
  std::snprintf(
      buf, sizeof buf, "', games=%lld, a_points_per_game=%+.4f, ci95=[%+.4f, %+.4f], elo=%+.1f)",
      static_cast<long long>(r.games), r.a_points_per_game, r.ci95_low, r.ci95_high, r.elo);
  return "ArenaResult('" + r.a_spec + "' vs '" + r.b_spec + buf;
}

void bind_arena_result(py::module_& m) {
  py::class_<ArenaResult>(
      m, "ArenaResult",
      "Result of a mirrored-dice match (selfplay/evaluation/arena.h), all from A's side. Pairs of\n"
      "games share dice with colours swapped; CIs are over per-pair means.")
      .def_readonly("games", &ArenaResult::games,
                    "Games played (2 per pair; fewer than asked after an SPRT stop)")
      .def_readonly("pairs", &ArenaResult::pairs, "Pairs played")
      .def_readonly("a_wins", &ArenaResult::a_wins, "Games A won")
      .def_readonly("a_oin", &ArenaResult::a_oin, "A's single wins (1 point)")
      .def_readonly("a_mars", &ArenaResult::a_mars, "A's mars wins (2 points)")
      .def_readonly("b_wins", &ArenaResult::b_wins, "Games B won")
      .def_readonly("b_oin", &ArenaResult::b_oin, "B's single wins")
      .def_readonly("b_mars", &ArenaResult::b_mars, "B's mars wins")
      .def_readonly("draws", &ArenaResult::draws, "Draws (last_roll_draw rules)")
      .def_readonly("a_points", &ArenaResult::a_points, "A's total points")
      .def_readonly("a_points_per_game", &ArenaResult::a_points_per_game,
                    "A's mean points per game")
      .def_readonly("ci95_low", &ArenaResult::ci95_low,
                    "95% CI low end of a_points_per_game (pair-based)")
      .def_readonly("ci95_high", &ArenaResult::ci95_high, "95% CI high end of a_points_per_game")
      .def_readonly("a_win_rate", &ArenaResult::a_win_rate,
                    "A's wins plus half the draws, per game")
      .def_readonly("elo", &ArenaResult::elo, "A's Elo over B from the win rate")
      .def_readonly("elo_ci95_low", &ArenaResult::elo_ci95_low, "95% CI low end of the Elo")
      .def_readonly("elo_ci95_high", &ArenaResult::elo_ci95_high, "95% CI high end of the Elo")
      .def_readonly("sprt_verdict", &ArenaResult::sprt_verdict,
                    "'' (no SPRT), 'H0', 'H1' or 'inconclusive'")
      .def_readonly("pair_points", &ArenaResult::pair_points,
                    "A's points in each pair (sum of its two games)")
      .def_readonly("game_points", &ArenaResult::game_points,
                    "A's points per game: [2i] A played White, [2i+1] B played White")
      .def_readonly("turns", &ArenaResult::turns, "Turns played over all games")
      .def_readonly("a_spec", &ArenaResult::a_spec, "A's spec")
      .def_readonly("b_spec", &ArenaResult::b_spec, "B's spec")
      .def_property_readonly(
          "sprt", &sprt_dict,
          "None, or the SPRT run: {'elo0', 'elo1', 'alpha', 'beta', 'min_pairs', 'llr', "
          "'lower', 'upper', 'verdict'}")
      .def("to_json", &ArenaResult::to_json, py::arg("per_game") = true,
           "Every field as JSON, the one match-result format (as `nardy eval --json` writes;\n"
           "per_game=False leaves out pair_points and game_points)")
      .def(
          "to_dict", [](const ArenaResult& r) { return json_loads(r.to_json()); },
          "Every field as a dict (json.loads of to_json(); infinite CI ends are None)")
      .def("to_text", &ArenaResult::to_text, "The report `nardy eval` prints")
      .def("__str__", &ArenaResult::to_text)
      .def("__repr__", &arena_repr);

  m.def(
      "arena_statistics",
      [](const std::vector<int>& game_points, const py::object& sprt) {
        return arena_statistics(game_points, sprt_arg(sprt));
      },
      py::arg("game_points"), py::arg("sprt") = py::none(),
      "The ArenaResult statistics of A's points per game (pairs in order: [2i] A White, [2i+1] B "
      "White)");
}

ArenaResult arena(const py::object& a, const py::object& b, int64_t games, int threads,
                  const py::int_& seed, const py::object& rules, const py::object& sprt,
                  const py::object& progress) {
  ArenaOptions o;
  o.games = games;
  o.threads = threads;
  o.seed = seed_arg(seed);
  o.rules = rules_arg(rules);
  o.sprt = sprt_arg(sprt);
  PyAgentPtr pa = agent_arg(a), pb = agent_arg(b);
  Interrupt interrupt;
  o.should_stop = interrupt.should_stop();
  PyObject* callback =
      progress.is_none() ? nullptr : progress.ptr();  // kept alive by the caller's argument
  if (callback)
    o.progress = [callback, &interrupt](int64_t done) { call_progress(interrupt, callback, done); };
  return interrupt.run_without_gil(
      [&] { return run_arena(agent_maker(pa, o.rules), agent_maker(pb, o.rules), o); });
}

// ---- Tournaments ----

void bind_tournament(py::module_& m) {
  py::class_<Rating>(m, "Rating",
                     "A tournament rating: Elo relative to the first player, with its error")
      .def_readonly("elo", &Rating::elo, "Elo (player 0 is 0)")
      .def_readonly("se", &Rating::se, "Standard error")
      .def_readonly("ci95_low", &Rating::ci95_low, "elo - 1.96 se")
      .def_readonly("ci95_high", &Rating::ci95_high, "elo + 1.96 se")
      .def("__repr__", [](const Rating& r) {
        char buf[96];
        std::snprintf(buf, sizeof buf, "Rating(elo=%+.1f, se=%.1f)", r.elo, r.se);
        return std::string(buf);
      });
  py::class_<TournamentMatch>(m, "TournamentMatch",
                              "One pairing of a tournament: players a < b and A's result")
      .def_readonly("a", &TournamentMatch::a, "Index of player A")
      .def_readonly("b", &TournamentMatch::b, "Index of player B")
      .def_readonly("result", &TournamentMatch::result, "The ArenaResult from A's side")
      .def_readonly("elo", &TournamentMatch::elo,
                    "A's Elo over B as used for the ratings (smoothed)")
      .def_readonly("elo_se", &TournamentMatch::elo_se, "Its standard error")
      .def("__repr__", [](const TournamentMatch& t) {
        return "TournamentMatch(" + std::to_string(t.a) + " vs " + std::to_string(t.b) + ", " +
               arena_repr(t.result) + ")";
      });
  py::class_<TournamentResult>(m, "TournamentResult",
                               "A round robin (selfplay/evaluation/tournament.h): players, every "
                               "match, least-squares ratings")
      .def_readonly("players", &TournamentResult::players, "Player specs in order")
      .def_readonly("matches", &TournamentResult::matches, "Every pairing i < j as TournamentMatch")
      .def_readonly("ratings", &TournamentResult::ratings,
                    "A Rating per player (player 0 anchored at 0)")
      .def("to_text", &TournamentResult::to_text, "Ratings table (best first) and cross table")
      .def("to_csv", &TournamentResult::to_csv, "One CSV row per player")
      .def("to_json", &TournamentResult::to_json, "Players with ratings and every match as JSON")
      .def(
          "to_dict", [](const TournamentResult& r) { return json_loads(r.to_json()); },
          "json.loads of to_json()")
      .def("__str__", &TournamentResult::to_text)
      .def("__repr__", [](const TournamentResult& r) {
        return "TournamentResult(" + std::to_string(r.players.size()) + " players, " +
               std::to_string(r.matches.size()) + " matches)";
      });

  m.def(
      "tournament",
      [](const py::object& players, int64_t games, int threads, const py::int_& seed,
         const py::object& rules, const py::object& progress) {
        std::vector<std::string> specs;
        for (py::handle p : py::iter(players)) {
          if (py::isinstance<PyAgent>(p))
            specs.push_back(p.cast<PyAgentPtr>()->spec);
          else if (py::isinstance<py::str>(p))
            specs.push_back(p.cast<std::string>());
          else if (py::hasattr(p, "__fspath__"))
            specs.push_back(py::str(p.attr("__fspath__")()));
          else
            throw py::type_error(
                "tournament: players must be agent specs, run directories or nardy.Agent, got " +
                type_name(p));
        }
        specs = expand_tournament_players(specs);
        TournamentOptions o;
        o.games = games;
        o.threads = threads;
        o.seed = seed_arg(seed);
        o.rules = rules_arg(rules);
        Interrupt interrupt;
        o.should_stop = interrupt.should_stop();
        PyObject* callback = progress.is_none() ? nullptr : progress.ptr();
        if (callback) {
          o.progress = [callback, &interrupt](int k, int n, const ArenaResult& r) {
            call_progress(interrupt, callback, k, n, r);
          };
        }
        return interrupt.run_without_gil([&] { return run_tournament(specs, o); });
      },
      py::arg("players"), py::arg("games") = 200, py::arg("threads") = 1, py::arg("seed") = 1,
      py::arg("rules") = py::none(), py::arg("progress") = py::none(),
      "A round robin between agent specs (a run directory expands to its ckpt-*.pt checkpoints),\n"
      "`games` mirrored games per pairing; same as `nardy tournament`. Players are specs (an "
      "Agent\n"
      "counts by its spec), so Python callables and in-memory nets cannot play: use arena() for "
      "them. progress(k, n, ArenaResult) is\n"
      "called after each match. Ctrl-C stops it within the current match. Returns "
      "TournamentResult.");
}

// ---- Rollouts ----

const char* const kRolloutNames[kRoNumOutputs] = {"win",       "win_mars", "lose",
                                                  "lose_mars", "draw",     "equity"};

py::dict stat_dict(const std::array<RolloutStat, kRoNumOutputs>& a, bool se) {
  py::dict d;
  for (int k = 0; k < kRoNumOutputs; ++k)
    d[kRolloutNames[k]] = se ? a[static_cast<size_t>(k)].se : a[static_cast<size_t>(k)].mean;
  return d;
}

void bind_rollout(py::module_& m) {
  py::class_<RolloutResult>(
      m, "RolloutResult",
      "A Monte Carlo rollout (selfplay/evaluation/rollout.h) from the view of the side to move at\n"
      "the root: means and standard errors of win, win_mars, lose, lose_mars, draw, equity.")
      .def_readonly("trials", &RolloutResult::trials, "Games played out")
      .def_property_readonly(
          "mean", [](const RolloutResult& r) { return stat_dict(r.adjusted, false); },
          "{output: mean} of the adjusted (stratified / luck-adjusted) estimates")
      .def_property_readonly(
          "se", [](const RolloutResult& r) { return stat_dict(r.adjusted, true); },
          "{output: standard error} of the adjusted estimates")
      .def_property_readonly(
          "raw_mean", [](const RolloutResult& r) { return stat_dict(r.raw, false); },
          "{output: mean} of the plain outcomes")
      .def_property_readonly(
          "raw_se", [](const RolloutResult& r) { return stat_dict(r.raw, true); },
          "{output: standard error} of the plain outcomes")
      .def_property_readonly(
          "equity", [](const RolloutResult& r) { return r.equity().mean; }, "Adjusted mean equity")
      .def_property_readonly(
          "equity_se", [](const RolloutResult& r) { return r.equity().se; },
          "Standard error of the equity")
      .def_readonly("stratified", &RolloutResult::stratified, "First two rolls stratified")
      .def_readonly("luck_adjusted", &RolloutResult::luck_adjusted, "Luck adjustment applied")
      .def_readonly("luck_turns", &RolloutResult::luck_turns,
                    "Turns per trial with luck adjustment (0: every turn)")
      .def_readonly("agent_spec", &RolloutResult::agent_spec, "The agent that played both sides")
      .def_readonly("evaluator_name", &RolloutResult::evaluator_name,
                    "The luck evaluator ('' if none)")
      .def_readonly("luck_method", &RolloutResult::luck_method,
                    "'exact' (21 rolls), 'head' (a luck head) or '' (no luck adjustment)")
      .def_readonly("note", &RolloutResult::note, "Why luck adjustment is off, if it is")
      .def_readonly("mean_turns", &RolloutResult::mean_turns, "Mean turns per trial")
      .def("flipped", &RolloutResult::flipped, "The same result from the other side's view")
      .def("to_text", &RolloutResult::to_text, "A readable report")
      .def("to_json", &RolloutResult::to_json, "Every field as JSON")
      .def(
          "to_dict", [](const RolloutResult& r) { return json_loads(r.to_json()); },
          "json.loads of to_json()")
      .def("__str__", &RolloutResult::to_text)
      .def("__repr__", [](const RolloutResult& r) {
        char buf[128];
        std::snprintf(buf, sizeof buf, "RolloutResult(trials=%lld, equity=%+.4f +- %.4f)",
                      static_cast<long long>(r.trials), r.equity().mean, r.equity().se);
        return std::string(buf);
      });

  m.def(
      "rollout",
      [](const py::object& pos, int64_t trials, const py::object& agent, const py::int_& seed,
         int threads, const py::object& rules, bool stratify, bool luck_adjust,
         const py::object& luck, int luck_turns, const py::object& luck_head) {
        const Position p = position_arg(pos);
        RolloutOptions o;
        o.trials = trials;
        o.threads = threads;
        o.seed = seed_arg(seed);
        o.rules = rules_arg(rules);
        o.stratify = stratify;
        o.luck_adjust = luck_adjust;
        if (luck_turns < 0)
          throw Error("rollout: luck_turns must be >= 0 (0 = every turn), got " +
                      std::to_string(luck_turns));
        o.luck_turns = luck_turns;
        PyAgentPtr a = agent_arg(agent);
        // The luck evaluator: `luck` (a ValueNet or checkpoint path), else the agent's own net.
        std::optional<ValueNet> luck_net;
        std::string backend = "auto";
        if (!luck.is_none()) {
          if (py::isinstance<ValueNet>(luck))
            luck_net = luck.cast<ValueNet>();
          else if (py::isinstance<py::str>(luck))
            luck_net = load_shared_net(luck.cast<std::string>());
          else
            throw py::type_error(
                "rollout: luck must be None, a ValueNet or a checkpoint path, got " +
                type_name(luck));
        } else if (a->net) {
          luck_net = *a->net;
          backend = a->net_options.backend;
          o.race_net = a->net_options.tables && a->net_options.race_net;
        }
        // The luck head: "auto" = the luck net's NAME.luck when the net comes from a checkpoint
        // path and the agent does not search (as `nardy rollout`); a path = that file (any
        // agent); None = exact luck.
        if (py::isinstance<py::str>(luck_head)) {
          const std::string h = luck_head.cast<std::string>();
          const std::string luck_path =
              py::isinstance<py::str>(luck) ? luck.cast<std::string>() : "";
          if (luck_adjust && h != "auto")
            o.luck_head = std::make_shared<LuckHead>(LuckHead::load(h));
          else if (luck_adjust && (luck.is_none() || !luck_path.empty()))
            o.luck_head = default_luck_head(a->spec, luck_path, o.rules);
        } else if (!luck_head.is_none()) {
          throw py::type_error("rollout: luck_head must be 'auto', a file path or None, got " +
                               type_name(luck_head));
        }
        EvaluatorMaker luck_maker;
        if (luck_net) {
          ValueNet net = *luck_net;
          luck_maker = [net, backend]() -> std::unique_ptr<Evaluator> {
            return std::make_unique<NetEvaluator>(net, backend);
          };
        }
        Interrupt interrupt;
        return interrupt.run_without_gil(
            [&] { return rollout(p, interruptible_maker(a, o.rules, interrupt), luck_maker, o); });
      },
      py::arg("position"), py::arg("trials") = 1296, py::arg("agent") = "heuristic",
      py::arg("seed") = 1, py::arg("threads") = 1, py::arg("rules") = py::none(),
      py::arg("stratify") = true, py::arg("luck_adjust") = true, py::arg("luck") = py::none(),
      py::arg("luck_turns") = 0, py::arg("luck_head") = "auto",
      "Plays `position` out `trials` times with `agent` on both sides and returns a RolloutResult\n"
      "(means with standard errors, from the side to move's view), as `nardy rollout`. Luck "
      "adjustment\n"
      "uses the agent's net, or `luck` (a ValueNet or checkpoint path) for agents without one, on "
      "the\n"
      "first `luck_turns` turns of each trial (0: every turn): exactly over the 21 rolls, or with\n"
      "`luck_head` (a file of `nardy luck fit`; 'auto': NAME.luck beside the luck net's\n"
      "checkpoint when the agent does not search; None: always exact) its cheap prediction.\n"
      "Reproducible for any thread count; "
      "GIL\n"
      "released; Ctrl-C stops it.");
}

}  // namespace

void bind_arena(py::module_& m) {
  bind_arena_result(m);
  m.def(
      "arena", &arena, py::arg("a"), py::arg("b"), py::arg("games") = 1000, py::arg("threads") = 1,
      py::arg("seed") = 1, py::arg("rules") = py::none(), py::arg("sprt") = py::none(),
      py::arg("progress") = py::none(),
      "Plays A against B in pairs of games with mirrored dice (same as `nardy eval A B --games N\n"
      "--threads T --seed S`, independent of T) and returns an ArenaResult from A's side. Agents:\n"
      "specs, Agent, ValueNet or callables. sprt=(elo0, elo1) or a dict stops early with a "
      "verdict.\n"
      "progress(games_done) is called from worker threads (with the GIL). GIL released; Ctrl-C "
      "stops it.");
  bind_tournament(m);
  bind_rollout(m);
}

}  // namespace nardy::py_bind
#endif  // NARDY_HAS_NN
