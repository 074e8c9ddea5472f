// bindings/bind_game.cpp — games: Rng, Game, Turn, records and random_game.
//
// A Game validates every move against core's legal set (core/game.h); records are core's text
// format (core/record.h). random_game() plays uniform random moves with selfplay's RandomAgent
// and play_game(), seeded exactly as `nardy selfplay --agent random --seed S` seeds its first
// game, and releases the GIL while it plays.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>

#include "bindings/convert.h"
#include "core/error.h"
#include "core/game.h"
#include "core/notation.h"
#include "core/pos_text.h"
#include "core/random.h"
#include "core/record.h"
#include "selfplay/agents/agent.h"
#include "selfplay/agents/play.h"

namespace nardy::py_bind {
namespace {

std::string quoted(const std::string& s) {
  return py::repr(py::str(s)).cast<std::string>();
}

void bind_rng(py::module_& m) {
  py::class_<Rng>(
      m, "Rng",
      "The engine's seeded random generator (xoshiro256**). Everything random in nardy\n"
      "comes from an Rng, so a seed reproduces dice and choices exactly.")
      .def(py::init([](const py::int_& seed) { return Rng(seed_arg(seed)); }), py::arg("seed"),
           "A generator seeded with an int in 0 .. 2**64-1")
      .def(
          "reseed", [](Rng& r, const py::int_& seed) { r.reseed(seed_arg(seed)); }, py::arg("seed"),
          "Restarts the stream from a seed")
      .def("next", &Rng::next, "The next raw 64-bit value")
      .def(
          "below",
          [](Rng& r, long long n) {
            if (n < 1 || n > 0xFFFFFFFFll)
              throw Error("below: n must be in 1 .. 2**32-1, got " + std::to_string(n));
            return r.below(static_cast<uint32_t>(n));
          },
          py::arg("n"), "A uniform int in [0, n)")
      .def("uniform", &Rng::uniform, "A uniform float in [0, 1)")
      .def(
          "roll", [](Rng& r) { return dice_tuple(roll_dice(r)); },
          "A roll of two fair dice as (d1, d2)")
      .def(
          "roll_opening",
          [](Rng& r, const py::object& rules) {
            return dice_tuple(roll_turn(r, rules_arg(rules), true));
          },
          py::arg("rules") = py::none(),
          "The first roll of a game (no doubles under opening='no_doubles')")
      .def(
          "split", [](Rng& r, const py::int_& stream) { return r.split(seed_arg(stream)); },
          py::arg("stream"),
          "An independent generator derived from this one (advances this one by one draw)")
      .def("__repr__", [](const Rng&) { return std::string("<nardy.Rng xoshiro256** generator>"); })
      .def("__copy__", [](const Rng& r) { return r; })
      .def(
          "__deepcopy__", [](const Rng& r, const py::dict&) { return r; }, py::arg("memo"));
}

void bind_turn(py::module_& m) {
  py::class_<Game::Turn>(
      m, "Turn", "One played turn of a Game: the dice, the position before it and the move.")
      .def_property_readonly(
          "dice", [](const Game::Turn& t) { return dice_tuple(t.dice); }, "(d1, d2)")
      .def_readonly("before", &Game::Turn::before, "The position the turn was played from")
      .def_property_readonly(
          "mover", [](const Game::Turn& t) { return t.before.side_to_move(); },
          "The side that moved")
      .def_property_readonly(
          "notation", [](const Game::Turn& t) { return format_move(t.move); },
          "Canonical move notation ('pass' when nothing could be played)")
      .def_property_readonly(
          "steps", [](const Game::Turn& t) { return steps_list(t.move); },
          "(from_point, to_point) per die played; to_point 0 is bearing off")
      .def("__repr__", [](const Game::Turn& t) {
        return "Turn(" + quoted(format_dice(t.dice) + " " + format_move(t.move)) + ")";
      });
}

// The legal result of `dice` that leads to `target`, for Game.play(d1, d2, position).
MoveResult result_for(const Game& g, Dice dice, const Position& target) {
  for (const MoveResult& r : g.legal(dice))
    if (r.position == target) return r;
  throw Error("position '" + format_pos(target) + "' is not a legal result of " +
              format_dice(dice) + " from '" + format_pos(g.position()) + "'");
}

std::string game_repr(const Game& g) {
  std::string s = "Game(turns=" + std::to_string(g.history().size()) +
                  ", position=" + quoted(format_pos(g.position()));
  if (auto o = g.outcome()) s += ", outcome=" + quoted(format_outcome(*o));
  if (!(g.rules() == Rules{})) s += ", rules=" + quoted(g.rules().to_string());
  return s + ")";
}

void bind_game_class(py::module_& m) {
  py::class_<Game>(m, "Game",
                   "A game from a start position: roll, legal moves, play, undo, records.\n\n"
                   "Every move is checked against the legal set (NardyError if illegal). Pickling\n"
                   "and copying go through the record text, which keeps rules, start and moves.")
      .def(py::init([](const py::object& rules, const py::object& start) {
             return Game(rules_arg(rules),
                         start.is_none() ? Position::start() : position_arg(start));
           }),
           py::arg("rules") = py::none(), py::arg("start") = py::none(),
           "A new game under `rules` (None: docs/rules.md defaults) from `start` (None: the start "
           "position; a Position or POS text otherwise)")
      .def_property_readonly(
          "rules", [](const Game& g) { return g.rules(); }, "The rules (a copy)")
      .def_property_readonly(
          "start", [](const Game& g) { return g.start(); }, "The start position")
      .def_property_readonly(
          "position", [](const Game& g) { return g.position(); }, "The current position")
      .def_property_readonly(
          "history", [](const Game& g) { return g.history(); },
          "The turns played, as a list of Turn")
      .def_property_readonly("is_over", &Game::is_over, "True once the game has an outcome")
      .def_property_readonly("outcome", &Game::outcome,
                             "The Outcome, or None while the game goes on")
      .def_property_readonly(
          "is_opening_turn", &Game::is_opening_turn,
          "True before the first turn of a game from the start position (the opening rule applies)")
      .def(
          "roll",
          [](const Game& g, const py::object& rng_or_seed) {
            if (py::isinstance<Rng>(rng_or_seed))
              return dice_tuple(g.roll(rng_or_seed.cast<Rng&>()));
            if (py::isinstance<py::int_>(rng_or_seed) && !py::isinstance<py::bool_>(rng_or_seed)) {
              Rng rng(seed_arg(rng_or_seed.cast<py::int_>()));
              return dice_tuple(g.roll(rng));
            }
            throw py::type_error("roll: expected a nardy.Rng or an int seed, got " +
                                 type_name(rng_or_seed));
          },
          py::arg("rng_or_seed"),
          "Dice for the coming turn as (d1, d2), honouring the opening rule on the first turn.\n"
          "An Rng advances; an int seed gives the same roll every time.")
      .def(
          "legal",
          [](const Game& g, int d1, int d2) {
            MoveList moves = g.legal(make_dice(d1, d2));
            sort_by_position(moves);
            return moves;
          },
          py::arg("d1"), py::arg("d2"),
          "Legal MoveResults of d1-d2 for the side to move, sorted by position. Raises NardyError "
          "when\n"
          "the game is over or the dice are a double on the opening turn under "
          "opening='no_doubles'.")
      .def(
          "play",
          [](Game& g, int d1, int d2, const py::object& move) {
            Dice dice = make_dice(d1, d2);
            if (py::isinstance<py::str>(move))
              g.play(dice, move.cast<std::string>());
            else if (py::isinstance<MoveResult>(move))
              g.play(dice, move.cast<MoveResult>());
            else if (py::isinstance<Position>(move))
              g.play(dice, result_for(g, dice, move.cast<Position>()));
            else
              throw py::type_error(
                  "play: move must be notation text, a MoveResult or a Position, got " +
                  type_name(move));
          },
          py::arg("d1"), py::arg("d2"), py::arg("move"),
          "Plays one turn: `move` is notation ('24/13', '24/18/13', 'pass'), a MoveResult or the\n"
          "resulting Position. Raises NardyError if it is not legal with d1-d2.")
      .def("undo", &Game::undo, "Takes back the last turn; False when there is none")
      .def_property_readonly(
          "names", [](const Game& g) { return py::make_tuple(g.names()[0], g.names()[1]); },
          "(White's name, Black's name), '' when unnamed; written to and read from the record")
      .def("set_name", &Game::set_name, py::arg("side"), py::arg("name"),
           "Names the player of `side` (printable text on one line)")
      .def("record", &write_record, "The game as record text (see Game.from_record)")
      .def_static(
          "from_record",
          [](const std::string& text) {
            py::gil_scoped_release nogil;
            return read_record(text);
          },
          py::arg("text"),
          "Replays one record, checking every move; NardyError names the line and the problem")
      .def("__repr__", &game_repr)
      .def("__copy__", [](const Game& g) { return g; })
      .def(
          "__deepcopy__", [](const Game& g, const py::dict&) { return g; }, py::arg("memo"))
      .def(py::pickle([](const Game& g) { return write_record(g); },
                      [](const std::string& text) { return read_record(text); }));
}

}  // namespace

void bind_game(py::module_& m) {
  bind_rng(m);
  bind_turn(m);
  bind_game_class(m);

  m.def("write_record", &write_record, py::arg("game"),
        "The game as record text (same as game.record())");
  m.def(
      "read_record",
      [](const std::string& text) {
        py::gil_scoped_release nogil;
        return read_record(text);
      },
      py::arg("text"), "Replays one record into a Game (same as Game.from_record)");
  m.def(
      "read_records",
      [](const std::string& text) {
        py::gil_scoped_release nogil;
        return read_records(text);
      },
      py::arg("text"),
      "Replays every record of a text of concatenated records (as `nardy selfplay --record` "
      "writes)\n"
      "into a list of Games; NardyError names the record, the line and the problem");
  m.def(
      "random_game",
      [](const py::int_& seed, const py::object& rules, int max_turns) {
        const Rules r = rules_arg(rules);
        const uint64_t s = seed_arg(seed);
        if (max_turns < 1)
          throw Error("random_game: max_turns must be at least 1, got " +
                      std::to_string(max_turns));
        Game game(r);
        game.set_name(Side::White, "random");  // as selfplay's record names its players
        game.set_name(Side::Black, "random");
        {
          py::gil_scoped_release nogil;
          RandomAgent white, black;
          // Seeded as `nardy selfplay --agent random --seed S` seeds its first game.
          Rng dice_rng(s), agent_rng(s ^ 0xA5A5A5A5ull);
          play_game(white, black, r, dice_rng, agent_rng, &game, max_turns);
        }
        return game;
      },
      py::arg("seed"), py::arg("rules") = py::none(), py::arg("max_turns") = 10000,
      "A finished Game played from the start by uniformly random legal moves. The same seed and\n"
      "rules give the same game (the first game of `nardy selfplay --agent random --seed SEED`).\n"
      "Runs without the GIL.");
}

}  // namespace nardy::py_bind
