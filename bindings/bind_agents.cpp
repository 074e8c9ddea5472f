// bindings/bind_agents.cpp — agents (selfplay/agent.h, net_agent.h, callback_agent.h), games
// between them (selfplay/play.h) and move analysis (selfplay/search.h).
//
// nardy.play() seeds exactly as `nardy selfplay --white A --black B --seed S --games N` does
// (one dice Rng and one agent Rng for all games), so its records equal the CLI's. Long calls
// release the GIL and poll for Ctrl-C between moves (bindings/interrupt.h).
#ifdef NARDY_HAS_NN
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>
#include <vector>

#include "bindings/agent_arg.h"
#include "bindings/convert.h"
#include "bindings/interrupt.h"
#include "core/error.h"
#include "core/game.h"
#include "core/movegen.h"
#include "core/notation.h"
#include "core/pos_text.h"
#include "selfplay/net_agent.h"
#include "selfplay/play.h"
#include "selfplay/search.h"

namespace nardy::py_bind {
namespace {

// One candidate move of an analysis, from the mover's view.
struct Candidate {
  size_t index = 0;  // into Position.legal(d1, d2) (sorted by position)
  MoveResult move;
  Evaluation eval;
  int ply = 0;
};

std::string candidate_repr(const Candidate& c) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "', equity=%+.4f, win=%.4f, ply=%d)", c.eval.equity(), c.eval.win, c.ply);
  return "Candidate('" + format_move(c.move.move) + buf;
}

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

std::vector<Candidate> analyze(const py::object& pos, int d1, int d2, const py::object& agent,
                               const py::object& ply, const py::object& rules) {
  const Position p = position_arg(pos);
  require_valid(p);
  const Rules r = rules_arg(rules);
  if (game_outcome(p, r)) throw Error("analyze: the game is over at '" + format_pos(p) + "'");
  const Dice dice = make_dice(d1, d2);
  PyAgentPtr a = agent_arg(agent);
  if (!a->net)
    throw Error("analyze: agent '" + a->spec + "' has no value network to score moves with (use 'net:PATH' or a ValueNet)");
  NetAgentOptions o = a->net_options;
  if (!ply.is_none()) o.ply = ply.cast<int>();
  if (o.ply < 0 || o.ply > 4) throw Error("analyze: ply must be 0..4 (got " + std::to_string(o.ply) + ")");
  MoveList moves = legal_moves(p, dice, r);
  sort_by_position(moves);
  Interrupt interrupt;
  std::vector<ScoredMove> scored = interrupt.run_without_gil([&] {
    InterruptibleEvaluator ev(std::make_unique<NetEvaluator>(*a->net, o.backend), interrupt);
    Search search(ev, r, net_search_options(o));
    std::vector<ScoredMove> out;
    search.score_moves(p, moves, o.ply, out);
    return out;
  });
  std::vector<Candidate> out;
  for (const ScoredMove& s : scored) out.push_back(Candidate{s.index, moves[s.index], s.eval, s.ply});
  return out;
}

py::list play(const py::object& white, const py::object& black, int64_t games, const py::int_& seed,
              const py::object& rules, int max_turns) {
  if (games < 1) throw Error("play: games must be at least 1 (got " + std::to_string(games) + ")");
  if (max_turns < 1) throw Error("play: max_turns must be at least 1 (got " + std::to_string(max_turns) + ")");
  const Rules r = rules_arg(rules);
  const uint64_t s = seed_arg(seed);
  PyAgentPtr w = agent_arg(white), b = agent_arg(black);
  Interrupt interrupt;
  std::vector<Game> out = interrupt.run_without_gil([&] {
    InterruptibleAgent wa(w->make(r), interrupt), ba(b->make(r), interrupt);
    // As `nardy selfplay --seed S` (selfplay/cli/selfplay_cmd.cpp).
    Rng dice_rng(s), agent_rng(s ^ 0xA5A5A5A5ull);
    std::vector<Game> games_played;
    games_played.reserve(static_cast<size_t>(games));
    for (int64_t g = 0; g < games; ++g) {
      Game game(r);
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
      .def_property_readonly("spec", [](const PyAgent& a) { return a.spec; },
                             "The spec string ('python:NAME' for Python agents, 'net:<memory>' for in-memory nets)")
      .def_property_readonly("is_python", &PyAgent::is_python, "True for an agent backed by a Python callable")
      .def_property_readonly("has_net", [](const PyAgent& a) { return a.net.has_value(); },
                             "True for value-network agents (they can analyze and evaluate)")
      .def_property_readonly("net", [](const PyAgent& a) -> py::object {
             return a.net ? py::cast(*a.net) : py::none();
           }, "The ValueNet of a net agent (shared), else None")
      .def_property_readonly("ply", [](const PyAgent& a) -> py::object {
             return a.net ? py::cast(a.net_options.ply) : py::none();
           }, "Search depth of a net agent, else None")
      .def("choose", &agent_choose, py::arg("position"), py::arg("d1"), py::arg("d2"), py::arg("rng") = py::none(),
           "The agent's move for rolling d1-d2 at `position` (RULES.md defaults) as a MoveResult.\n"
           "`rng`: a nardy.Rng (advanced), an int seed, or None (the agent's own generator).")
      .def("evaluate", [](PyAgent& a, const py::object& pos) {
             const Position p = position_arg(pos);
             require_valid(p);
             if (!a.net) throw Error("evaluate: agent '" + a.spec + "' has no value network");
             auto lock = lock_agent(a);
             auto* net = dynamic_cast<NetAgent*>(&a.agent());
             if (!net) throw Error("evaluate: agent '" + a.spec + "' is not a net agent");
             Interrupt interrupt;
             return interrupt.run_without_gil([&] { return net->evaluate(p); });
           }, py::arg("position"), "Evaluation of a position for its side to move at the agent's ply (net agents)")
      .def("__repr__", [](const PyAgent& a) { return "Agent('" + a.spec + "')"; });

  m.def("make_agent", [](const py::object& agent, const py::object& rules) {
          PyAgentPtr a = agent_arg(agent);
          if (!rules.is_none()) {
            a->rules = rules_arg(rules);
            a->instance.reset();
          }
          return a;
        }, py::arg("spec"), py::arg("rules") = py::none(),
        "An Agent from a spec ('random', 'heuristic', 'net:PATH[:ply=N][:noise=S][:filter=K,D]"
        "[:cache=B][:backend=NAME]'),\na ValueNet or a callable. `rules` is what Agent.choose() plays "
        "under. NardyError names a bad spec.");
  m.def("python_agent", [](const py::object& fn, const std::string& name) { return python_agent(fn, name); },
        py::arg("fn"), py::arg("name") = "",
        "An Agent from a Python callable fn(position, dice, moves) -> index | MoveResult | Position\n"
        "(`dice` is (d1, d2), `moves` the legal MoveResults, never empty). Spec 'python:NAME'. C++\n"
        "threads call it holding the GIL, one call at a time; its exceptions stop the game and propagate.");

  py::class_<Candidate>(m, "Candidate", "One candidate move of nardy.analyze(), valued from the mover's view.")
      .def_readonly("index", &Candidate::index, "Index into position.legal(d1, d2)")
      .def_readonly("move", &Candidate::move, "The MoveResult")
      .def_property_readonly("notation", [](const Candidate& c) { return format_move(c.move.move); }, "Move notation")
      .def_property_readonly("position", [](const Candidate& c) { return c.move.position; }, "The position after the move")
      .def_readonly("eval", &Candidate::eval, "Evaluation for the mover")
      .def_property_readonly("equity", [](const Candidate& c) { return c.eval.equity(); }, "Mover's equity in points")
      .def_readonly("ply", &Candidate::ply,
                    "Depth of the value: the requested ply, or 0 for moves the filter dropped")
      .def("__repr__", &candidate_repr);

  m.def("analyze", &analyze, py::arg("position"), py::arg("d1"), py::arg("d2"), py::arg("agent"),
        py::arg("ply") = py::none(), py::arg("rules") = py::none(),
        "Every legal move of rolling d1-d2, valued by a net agent at `ply` (default: the agent's own)\n"
        "and sorted best first (selfplay/search.h: moves kept by the filter at `ply`, the rest at 0-ply\n"
        "below them). `agent`: 'net:PATH...', an Agent with a net or a ValueNet. Returns [Candidate].");
  m.def("play", &play, py::arg("white"), py::arg("black"), py::arg("games") = 1, py::arg("seed") = 1,
        py::arg("rules") = py::none(), py::arg("max_turns") = 10000,
        "Plays `games` games from the start position, `white` against `black` (agents: specs, Agent,\n"
        "ValueNet or callables), and returns the finished Games. Seeded like `nardy selfplay --white W\n"
        "--black B --seed SEED --games N --record`, whose records they equal. GIL released; Ctrl-C stops it.");
}

}  // namespace

void bind_agents(py::module_& m) { bind_agent_class(m); }

}  // namespace nardy::py_bind
#endif  // NARDY_HAS_NN
