// bindings/agent_arg.h — agents as Python values, and the conversions the nn, agent, arena and
// train bindings share.
//
// nardy.Agent (PyAgent) is a recipe for agents more than one agent: long calls (arena,
// rollout, tournament) make one C++ agent per worker thread through `make`, which copies no
// Python object and so may run on any thread. Wherever an agent is an argument, Python may
// pass (agent_arg):
//   str             an agent spec (selfplay/agents/agent.h): 'random', 'heuristic',
//   'net:PATH:ply=1' nardy.Agent     from make_agent(), python_agent() or ValueNet.agent()
//   nardy.ValueNet  the greedy (0-ply) agent of that net
//   a callable      fn(position, dice, moves) -> index | MoveResult | Position, adapted through
//                   (moves sorted by position, as Position.legal() returns them)
//                   selfplay/agents/callback_agent.h; an object with a .choose method works too
//
// Python agents and threads: the callable is held by the PyAgent (a strong reference made with
// the GIL); the C++ agents borrow the pointer and take the GIL for each call, so they may run
// on any worker thread while the Python caller is blocked in the long call.
#pragma once

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "bindings/convert.h"
#include "bindings/interrupt.h"
#include "core/error.h"
#include "core/movegen.h"
#include "core/pos_text.h"
#include "core/printable.h"
#include "nn/value_net.h"
#include "selfplay/agents/agent.h"
#include "selfplay/agents/callback_agent.h"
#include "selfplay/search/net_agent.h"
#include "selfplay/search/stop.h"
#include "selfplay/search/agent_kinds.h"

namespace nardy::py_bind {

// ---- Positions -------------------------------------------------------------------------------

// A list (any sequence or iterable) of Position or POS text. `single` is set when `h` is one
// Position or one POS string rather than a collection.
inline std::vector<Position> positions_arg(py::handle h, bool* single = nullptr) {
  std::vector<Position> out;
  if (single) *single = false;
  if (py::isinstance<Position>(h) || py::isinstance<py::str>(h)) {
    if (single) *single = true;
    out.push_back(position_arg(h));
    return out;
  }
  if (!py::hasattr(h, "__iter__"))
    throw py::type_error("positions: expected a Position, POS text or a list of them, got " +
                         type_name(h));
  if (py::hasattr(h, "__len__")) out.reserve(py::len(h));
  size_t i = 0;
  for (py::handle item : py::iter(h)) {
    if (py::isinstance<Position>(item)) {
      out.push_back(item.cast<const Position&>());
    } else if (py::isinstance<py::str>(item)) {
      try {
        out.push_back(parse_pos(item.cast<std::string>()));
      } catch (const Error& e) {
        throw Error("positions[" + std::to_string(i) + "]: " + e.what());
      }
    } else {
      throw py::type_error("positions[" + std::to_string(i) +
                           "]: expected a Position or POS text, got " + type_name(item));
    }
    ++i;
  }
  return out;
}

// ---- Agents ----------------------------------------------------------------------------------

using RulesAgentMaker = std::function<std::unique_ptr<Agent>(const Rules&)>;

struct PyAgent {
  std::string
      spec;  // a spec make_agent() accepts, or a description ("python:NAME", "net:<memory>")
  RulesAgentMaker make;         // thread-safe; one fresh agent per call
  std::optional<ValueNet> net;  // net agents: the net (shared) and options
  NetAgentOptions net_options;
  py::object callable;  // Python agents: the callable (kept alive here)
  Rules rules;          // rules of `instance`, used by Agent.choose() and friends
  std::unique_ptr<Agent> instance;
  Rng rng{1};        // randomness of Agent.choose() when no rng is passed
  std::mutex mutex;  // guards instance and rng

  PyAgent() = default;
  PyAgent(const PyAgent&) = delete;
  ~PyAgent() {
    if (callable) {
      py::gil_scoped_acquire gil;
      callable = py::object();
    }
  }
  bool is_python() const { return static_cast<bool>(callable); }
  Agent& agent() {
    if (!instance) instance = make(rules);
    return *instance;
  }
};
using PyAgentPtr = std::shared_ptr<PyAgent>;

// What a Python agent returned, for messages: its type and a short printable repr.
inline std::string returned_text(py::handle r) {
  std::string repr = "<unprintable>";
  if (PyObject* ascii = PyObject_ASCII(r.ptr())) {  // repr() with non-ASCII escaped
    repr = py::reinterpret_steal<py::str>(ascii).cast<std::string>();
  } else {
    PyErr_Clear();  // a failing __repr__
  }
  return type_name(r) + " " + printable(repr, 60);
}

// The index into `moves` that a Python agent's return value names: a Python int (or an object
// with __index__, such as numpy.int64) in 0..len(moves)-1, a MoveResult or a Position among the
// legal results. Anything else (bool, float, None, an int out of range or beyond 64 bits, a
// result that is not legal) is an Error naming the agent and what it returned.
inline size_t python_choice(py::handle r, const MoveList& moves, const std::string& spec) {
  const std::string range = " (expected an index 0.." + std::to_string(moves.size() - 1) +
                            " into moves, a MoveResult or a Position)";
  if (py::isinstance<MoveResult>(r) || py::isinstance<Position>(r)) {
    const Position target =
        py::isinstance<Position>(r) ? r.cast<Position>() : r.cast<const MoveResult&>().position;
    for (size_t i = 0; i < moves.size(); ++i)
      if (moves[i].position == target) return i;
    throw Error("agent " + quote(spec) + " returned '" + format_pos(target) +
                "', which is not one of the " + std::to_string(moves.size()) + " legal results");
  }
  // bool is an int subclass in Python; True/False as a choice is a bug in the agent.
  const bool integral = !py::isinstance<py::bool_>(r) && !py::isinstance<py::float_>(r) &&
                        (py::isinstance<py::int_>(r) || py::hasattr(r, "__index__"));
  if (!integral) throw Error("agent " + quote(spec) + " returned " + returned_text(r) + range);
  int overflow = 0;
  long long i = -1;
  {
    PyObject* index = PyNumber_Index(r.ptr());
    if (!index) {
      PyErr_Clear();
      throw Error("agent " + quote(spec) + " returned " + returned_text(r) + range);
    }
    i = PyLong_AsLongLongAndOverflow(index, &overflow);
    Py_DECREF(index);
    if (i == -1 && PyErr_Occurred()) PyErr_Clear();
  }
  if (overflow != 0 || i < 0 || static_cast<unsigned long long>(i) >= moves.size())
    throw Error("agent " + quote(spec) + " returned " + returned_text(r) +
                ", not an index of the " + std::to_string(moves.size()) + " legal results" + range);
  return static_cast<size_t>(i);
}

// Calls a Python agent: fn(position, (d1, d2), [MoveResult, ...]). Takes the GIL. The agent
// sees the moves sorted by position, the one order of Position.legal(), Game.legal() and the
// environment's legal_moves, so an index computed from any of them names the same move; the
// choice is mapped back to `moves`.
inline size_t call_python_agent(PyObject* fn, const std::string& spec, const Position& pos,
                                Dice dice, const MoveList& moves) {
  MoveList sorted = moves;
  sort_by_position(sorted);
  py::gil_scoped_acquire gil;
  py::list ms(sorted.size());
  for (size_t i = 0; i < sorted.size(); ++i) ms[i] = py::cast(sorted[i]);
  py::object r = py::reinterpret_borrow<py::object>(fn)(py::cast(pos), dice_tuple(dice), ms);
  const Position& chosen = sorted[python_choice(r, sorted, spec)].position;
  for (size_t i = 0; i < moves.size(); ++i)
    if (moves[i].position == chosen) return i;
  throw Error("agent " + quote(spec) + ": internal error, chosen move not found");  // unreachable
}

inline PyAgentPtr spec_agent(const std::string& spec) {
  auto a = std::make_shared<PyAgent>();
  a->spec = spec;
  a->make = [spec](const Rules& rules) { return make_agent(spec, rules); };
  if (auto s = net_agent_spec(spec)) {
    try {
      a->net = load_shared_net(s->path);
    } catch (const Error& e) {
      throw Error("agent " + quote(spec) + ": " + e.what());
    }
    a->net_options = s->options;
  }
  a->instance = a->make(a->rules);  // validates the spec now, with the library's message
  return a;
}

inline PyAgentPtr net_agent(const ValueNet& net, const NetAgentOptions& options,
                            const std::string& spec) {
  auto a = std::make_shared<PyAgent>();
  a->spec = spec;
  a->net = net;
  a->net_options = options;
  a->make = [net, options, spec](const Rules& rules) {
    return make_net_agent(net, options, rules, spec);
  };
  a->instance = a->make(a->rules);  // checks the options
  return a;
}

inline PyAgentPtr python_agent(py::object fn, std::string name) {
  if (!PyCallable_Check(fn.ptr())) {
    if (py::hasattr(fn, "choose") && PyCallable_Check(fn.attr("choose").ptr()))
      fn = fn.attr("choose");
    else
      throw py::type_error(
          "agent: expected a spec string, nardy.Agent, nardy.ValueNet or a callable "
          "fn(position, dice, moves), got " +
          type_name(fn));
  }
  if (name.empty()) {
    py::object n = py::getattr(fn, "__qualname__", py::getattr(fn, "__name__", py::none()));
    name = n.is_none() ? type_name(fn) : n.cast<std::string>();
  }
  auto a = std::make_shared<PyAgent>();
  a->spec = "python:" + name;
  a->callable = fn;
  PyObject* raw = fn.ptr();  // borrowed: `a` holds the reference for as long as agents may run
  const std::string spec = a->spec;
  a->make = [raw, spec](const Rules&) -> std::unique_ptr<Agent> {
    return std::make_unique<CallbackAgent>(
        [raw, spec](const Position& pos, Dice dice, const MoveList& moves) {
          return call_python_agent(raw, spec, pos, dice, moves);
        },
        spec);
  };
  return a;
}

// See the header comment for what `h` may be. Needs the GIL.
inline PyAgentPtr agent_arg(py::handle h) {
  if (py::isinstance<PyAgent>(h)) return h.cast<PyAgentPtr>();
  if (py::isinstance<py::str>(h)) return spec_agent(h.cast<std::string>());
  if (py::isinstance<ValueNet>(h))
    return net_agent(h.cast<const ValueNet&>(), NetAgentOptions{}, "net:<memory>");
  return python_agent(py::reinterpret_borrow<py::object>(h), "");
}

// The per-thread maker of `a`'s agents for `rules`. Keep `a` alive (a local PyAgentPtr in the
// binding) for as long as the maker may run.
inline AgentMaker agent_maker(const PyAgentPtr& a, const Rules& rules) {
  PyAgent* raw = a.get();
  return [raw, rules] { return raw->make(rules); };
}

// The same agents polling for Ctrl-C before each move (bindings/interrupt.h), for library
// calls without a stop hook of their own (rollout).
inline AgentMaker interruptible_maker(const PyAgentPtr& a, const Rules& rules,
                                      Interrupt& interrupt) {
  return stoppable_maker(agent_maker(a, rules), interrupt.should_stop());
}

}  // namespace nardy::py_bind
