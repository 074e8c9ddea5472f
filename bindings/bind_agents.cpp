// bindings/bind_agents.cpp — agents (selfplay/agents/agent.h, net_agent.h, callback_agent.h), games
// between them (selfplay/agents/play.h) and move analysis (selfplay/evaluation/analysis.h).
//
// nardy.play() seeds exactly as `nardy selfplay --white A --black B --seed S --games N` does
// (one dice Rng and one agent Rng for all games), so its records equal the CLI's. Long calls
// release the GIL and poll for Ctrl-C between moves (bindings/interrupt.h).
#ifdef NARDY_HAS_NN
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdio>
#include <string>
#include <vector>

#include "bindings/agent_arg.h"
#include "bindings/convert.h"
#include "bindings/interrupt.h"
#include "core/error.h"
#include "core/game.h"
#include "core/movegen.h"
#include "core/pos_text.h"
#include "selfplay/evaluation/analysis.h"
#include "selfplay/search/net_agent.h"
#include "selfplay/agents/play.h"
#include "selfplay/search/stop.h"

namespace nardy::py_bind {
namespace {

// Locks an agent's instance without holding the GIL while waiting (another thread may hold
// the lock and need the GIL to finish).
std::unique_lock<std::mutex> lock_agent(PyAgent& a) {
  std::unique_lock<std::mutex> lock(a.mutex, std::defer_lock);
  py::gil_scoped_release nogil;
  lock.lock();
  return lock;
}

Rng& rng_arg(const py::handle& h, Rng& own, Rng& scratch) {
  if (h.is_none()) return own;
  if (py::isinstance<Rng>(h)) return h.cast<Rng&>();
  if (py::isinstance<py::int_>(h) && !py::isinstance<py::bool_>(h)) {
    scratch = Rng(seed_arg(h.cast<py::int_>()));
    return scratch;
  }
  throw py::type_error("rng: expected None, a nardy.Rng or an int seed, got " + type_name(h));
}

MoveResult agent_choose(PyAgent& a, const py::object& pos, int d1, int d2, const py::object& rng) {
  const Position p = position_arg(pos);
  require_valid(p);
  if (game_outcome(p, a.rules)) throw Error("choose: the game is over at '" + format_pos(p) + "'");
  const Dice dice = make_dice(d1, d2);
  MoveList moves = legal_moves(p, dice, a.rules);
  auto lock = lock_agent(a);
  Rng scratch;
  Rng& r = rng_arg(rng, a.rng, scratch);
  size_t i = 0;
  if (a.is_python()) {
    i = a.agent().choose(p, dice, moves, r);  // takes the GIL itself (held already: fine)
  } else {
    Interrupt interrupt;
    i = interrupt.run_without_gil([&] { return a.agent().choose(p, dice, moves, r); });
  }
  return moves[i];
}

// `nardy analyze` (selfplay/evaluation/analysis.h analyze_moves) for any agent argument: a net
// agent (spec or in memory) ranks the moves by its search at `ply` (default: its own); any other
// agent rolls each move out with `trials` games. The same library call as the CLI's, so for a
// spec the result equals it (tests/python/test_agents.py checks it); Ctrl-C through its stop hook.
Analysis analyze(const py::object& pos, int d1, int d2, const py::object& agent,
                 const py::object& ply, int64_t trials, int threads, const py::int_& seed,
                 const py::object& rules) {
  const Position p = position_arg(pos);
  require_valid(p);
  const Dice dice = make_dice(d1, d2);
  AnalysisOptions o;
  o.rules = rules_arg(rules);
  o.rollout_trials = trials;
  o.threads = threads;
  o.seed = seed_arg(seed);
  if (!ply.is_none()) o.ply = ply.cast<int>();
  PyAgentPtr a = agent_arg(agent);
  Interrupt interrupt;
  o.should_stop = interrupt.should_stop();
  return interrupt.run_without_gil(
      [&] { return analyze_moves(p, dice, agent_maker(a, o.rules), o); });
}

py::list play(const py::object& white, const py::object& black, int64_t games, const py::int_& seed,
              const py::object& rules, int max_turns) {
  if (games < 1) throw Error("play: games must be at least 1 (got " + std::to_string(games) + ")");
  if (max_turns < 1)
    throw Error("play: max_turns must be at least 1 (got " + std::to_string(max_turns) + ")");
  const Rules r = rules_arg(rules);
  const uint64_t s = seed_arg(seed);
  PyAgentPtr w = agent_arg(white), b = agent_arg(black);
  Interrupt interrupt;
  std::vector<Game> out = interrupt.run_without_gil([&] {
    StoppableAgent wa(w->make(r), interrupt.should_stop()), ba(b->make(r), interrupt.should_stop());
    // As `nardy selfplay --seed S` (cli/selfplay_cmd.cpp).
    Rng dice_rng(s), agent_rng(s ^ 0xA5A5A5A5ull);
    std::vector<Game> games_played;
    games_played.reserve(static_cast<size_t>(games));
    for (int64_t g = 0; g < games; ++g) {
      Game game(r);
      for (const auto& [side, spec] : {std::pair{Side::White, wa.spec()}, {Side::Black, ba.spec()}})
        if (printable_message(spec) == spec && spec.find('\n') == std::string::npos)
          game.set_name(side, spec);  // the players, as selfplay's records name them
      play_game(wa, ba, r, dice_rng, agent_rng, &game, max_turns);
      games_played.push_back(std::move(game));
    }
    return games_played;
  });
  py::list result;
  for (auto& g : out) result.append(py::cast(std::move(g)));
  return result;
}

void bind_agent_class(py::module_& m) {
  py::class_<PyAgent, PyAgentPtr>(
      m, "Agent",
      "Something that picks moves: a C++ agent from a spec ('random', 'heuristic',\n"
      "'net:PATH:ply=N:...'), a ValueNet's agent, or a Python callable. Functions that take an\n"
      "agent (play, arena, rollout, analyze, tournament) make a fresh C++ agent per thread from\n"
      "it; spec strings, ValueNets and callables are accepted there directly too.")
      .def_property_readonly(
          "spec", [](const PyAgent& a) { return a.spec; },
          "The spec string ('python:NAME' for Python agents, 'net:<memory>' for in-memory nets)")
      .def_property_readonly("is_python", &PyAgent::is_python,
                             "True for an agent backed by a Python callable")
      .def_property_readonly(
          "has_net", [](const PyAgent& a) { return a.net.has_value(); },
          "True for value-network agents (they can analyze and evaluate)")
      .def_property_readonly(
          "net",
          [](const PyAgent& a) -> py::object { return a.net ? py::cast(*a.net) : py::none(); },
          "The ValueNet of a net agent (shared), else None")
      .def_property_readonly(
          "ply",
          [](const PyAgent& a) -> py::object {
            return a.net ? py::cast(a.net_options.ply) : py::none();
          },
          "Search depth of a net agent, else None")
      .def("choose", &agent_choose, py::arg("position"), py::arg("d1"), py::arg("d2"),
           py::arg("rng") = py::none(),
           "The agent's move for rolling d1-d2 at `position` (docs/rules.md defaults) as a "
           "MoveResult.\n"
           "`rng`: a nardy.Rng (advanced), an int seed, or None (the agent's own generator).")
      .def(
          "evaluate",
          [](PyAgent& a, const py::object& pos) {
            const Position p = position_arg(pos);
            require_valid(p);
            if (!a.net) throw Error("evaluate: agent " + quote(a.spec) + " has no value network");
            auto lock = lock_agent(a);
            auto* net = dynamic_cast<NetAgent*>(&a.agent());
            if (!net) throw Error("evaluate: agent " + quote(a.spec) + " is not a net agent");
            Interrupt interrupt;
            return interrupt.run_without_gil([&] { return net->evaluate(p); });
          },
          py::arg("position"),
          "Evaluation of a position for its side to move at the agent's ply (net agents)")
      .def("__repr__", [](const PyAgent& a) { return "Agent('" + a.spec + "')"; });

  m.def(
      "make_agent",
      [](const py::object& agent, const py::object& rules) {
        PyAgentPtr a = agent_arg(agent);
        if (rules.is_none()) return a;
        // A new Agent for these rules (an Agent passed in stays as it was).
        auto b = std::make_shared<PyAgent>();
        b->spec = a->spec;
        b->make = a->make;
        b->net = a->net;
        b->net_options = a->net_options;
        b->callable = a->callable;
        b->rules = rules_arg(rules);
        return b;
      },
      py::arg("spec"), py::arg("rules") = py::none(),
      "An Agent from a spec ('random', 'heuristic', 'net:PATH[:ply=N][:noise=S][:filter=K,D]"
      "[:cache=B][:backend=NAME]'),\na ValueNet or a callable. `rules` is what Agent.choose() "
      "plays "
      "under. NardyError names a bad spec.");
  m.def(
      "python_agent",
      [](const py::object& fn, const std::string& name) { return python_agent(fn, name); },
      py::arg("fn"), py::arg("name") = "",
      "An Agent from a Python callable fn(position, dice, moves) -> index | MoveResult | Position\n"
      "(`dice` is (d1, d2), `moves` the legal MoveResults, never empty). Spec 'python:NAME'. C++\n"
      "threads call it holding the GIL, one call at a time; its exceptions stop the game and "
      "propagate.");

  py::class_<MoveAnalysis>(m, "MoveAnalysis",
                           "One move of an Analysis, valued from the mover's view")
      .def_readonly("index", &MoveAnalysis::index,
                    "Index into position.legal(d1, d2) (sorted by position)")
      .def_readonly("notation", &MoveAnalysis::notation, "Move notation")
      .def_readonly("position", &MoveAnalysis::position, "The position after the move")
      .def_readonly("win", &MoveAnalysis::win, "P(win) for the mover")
      .def_readonly("win_mars", &MoveAnalysis::win_mars, "P(win by mars)")
      .def_readonly("lose_mars", &MoveAnalysis::lose_mars, "P(lose by mars)")
      .def_readonly("draw", &MoveAnalysis::draw, "P(draw)")
      .def_readonly("equity", &MoveAnalysis::equity, "Mover's equity in points")
      .def_readonly("equity_se", &MoveAnalysis::equity_se,
                    "Standard error of the equity (0 for search values)")
      .def_readonly("ply", &MoveAnalysis::ply,
                    "Depth of a search value (the requested ply, or 0 for moves the filter "
                    "dropped); -1 for a rollout")
      .def_readonly("filtered", &MoveAnalysis::filtered,
                    "True for a candidate a deeper search filtered out: valued at 0-ply and "
                    "listed after the searched ones")
      .def_readonly("agent_choice", &MoveAnalysis::agent_choice,
                    "True for the move the agent itself plays")
      .def("__repr__", [](const MoveAnalysis& x) {
        char buf[96];
        std::snprintf(buf, sizeof buf, "', equity=%+.4f, win=%.4f, ply=%d)", x.equity, x.win,
                      x.ply);
        return "MoveAnalysis('" + x.notation + buf;
      });
  py::class_<Analysis>(m, "Analysis",
                       "The legal moves of a position and roll ranked best first (nardy.analyze)")
      .def_readonly("agent_spec", &Analysis::agent_spec, "The agent that valued the moves")
      .def_readonly("method", &Analysis::method,
                    "'0-ply net evaluation', 'N-ply expectimax search' or 'rollouts (...)'")
      .def_readonly("moves", &Analysis::moves, "[MoveAnalysis], best first")
      .def_property_readonly(
          "best", [](const Analysis& an) { return an.moves.front(); }, "The best MoveAnalysis")
      .def("to_text", &Analysis::to_text, "The table `nardy analyze` prints")
      .def("to_json", &Analysis::to_json, "As `nardy analyze --json` writes")
      .def(
          "to_dict", [](const Analysis& an) { return json_loads(an.to_json()); },
          "json.loads of to_json()")
      .def("__len__", [](const Analysis& an) { return an.moves.size(); })
      .def("__getitem__",
           [](const Analysis& an, long long i) {
             const long long n = static_cast<long long>(an.moves.size());
             if (i < 0) i += n;
             if (i < 0 || i >= n) throw py::index_error("analysis move index out of range");
             return an.moves[static_cast<size_t>(i)];
           })
      .def("__iter__", [](const Analysis& an) { return py::iter(py::cast(an.moves)); })
      .def("__str__", &Analysis::to_text)
      .def("__repr__", [](const Analysis& an) {
        return "Analysis('" + an.agent_spec + "', " + an.method + ", " +
               std::to_string(an.moves.size()) + " moves)";
      });

  m.def(
      "analyze", &analyze, py::arg("position"), py::arg("d1"), py::arg("d2"),
      py::arg("agent") = "heuristic", py::arg("ply") = py::none(), py::arg("trials") = 360,
      py::arg("threads") = 1, py::arg("seed") = 1, py::arg("rules") = py::none(),
      "Every legal move of rolling d1-d2 ranked best first, as `nardy analyze POS D1 D2 --agent "
      "SPEC`.\n"
      "A net agent ('net:PATH...', a ValueNet or its Agent) values them by its search at `ply` "
      "(default:\n"
      "its own; moves kept by the filter at `ply`, the rest at 0-ply below them); any other agent\n"
      "(heuristic, random, a callable) by rolling each move out `trials` times. Returns an "
      "Analysis.\n"
      "GIL released; Ctrl-C stops it.");
  m.def("play", &play, py::arg("white"), py::arg("black"), py::arg("games") = 1,
        py::arg("seed") = 1, py::arg("rules") = py::none(), py::arg("max_turns") = 10000,
        "Plays `games` games from the start position, `white` against `black` (agents: specs, "
        "Agent,\n"
        "ValueNet or callables), and returns the finished Games. Seeded like `nardy selfplay "
        "--white W\n"
        "--black B --seed SEED --games N --record`, whose records they equal. GIL released; Ctrl-C "
        "stops it.");
}

}  // namespace

void bind_agents(py::module_& m) {
  bind_agent_class(m);
}

}  // namespace nardy::py_bind
#endif  // NARDY_HAS_NN
