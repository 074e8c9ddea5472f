// bindings/bind_core.cpp — core values: Side, Rules, Position, MoveResult, Outcome, dice helpers.
//
// Positions are immutable values in Python (hashable, pickled as POS text). Move generation is
// core's legal_moves() sorted with sort_by_position(), exactly what `nardy legal` prints; the
// rules are never re-implemented here.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>
#include <vector>

#include "bindings/convert.h"
#include "core/error.h"
#include "core/game.h"
#include "core/movegen.h"
#include "core/notation.h"
#include "core/pos_text.h"
#include "core/position.h"
#include "core/position_id.h"
#include "core/rules.h"
#include "core/types.h"

namespace nardy::py_bind {
namespace {

std::string quoted(const std::string& s) {
  return py::repr(py::str(s)).cast<std::string>();
}

std::string side_repr(Side s) {
  return s == Side::White ? "Side.White" : "Side.Black";
}

std::string rules_repr(const Rules& r) {
  return "Rules(opening=" + quoted(r.get("opening")) +
         ", head_exception=" + quoted(r.get("head_exception")) +
         ", last_roll_draw=" + (r.last_roll_draw ? "True" : "False") +
         ", next_game_starter=" + quoted(r.get("next_game_starter")) + ")";
}

void bind_side(py::module_& m) {
  py::enum_<Side>(m, "Side",
                  "A player. White moves first and runs 24 -> 1; Black runs 12 -> 1 -> 24 -> 13.\n"
                  "Wherever a side is an argument, 'w'/'b' (or 'white'/'black') are accepted too.")
      .value("White", Side::White, "White: head on point 24, home 1..6")
      .value("Black", Side::Black, "Black: head on point 12, home 13..18")
      .def_property_readonly(
          "letter", [](Side s) { return std::string(1, side_letter(s)); },
          "'w' or 'b', as in POS text")
      .def(
          "__invert__", [](Side s) { return ~s; }, "The other side");
}

void bind_rules(py::module_& m) {
  py::class_<Rules>(m, "Rules",
                    "The ruleset: docs/rules.md's default and its variants (a mutable value).\n\n"
                    "  opening            'no_doubles' (default) | 'any_roll'\n"
                    "  head_exception     'standard' (default) | 'strict' | 'none'\n"
                    "  last_roll_draw     False (default) | True\n"
                    "  next_game_starter  'previous_black' (default) | 'previous_winner'\n\n"
                    "Text form (str(rules), Rules.parse): space-separated KEY=VALUE pairs.\n"
                    "Functions taking `rules=` also accept None (defaults), that text, or a dict.")
      .def(py::init([](const py::object& opening, const py::object& head_exception,
                       const py::object& last_roll_draw, const py::object& next_game_starter) {
             Rules r;
             r.set("opening", value_text(opening));
             r.set("head_exception", value_text(head_exception));
             r.set("last_roll_draw", value_text(last_roll_draw));
             r.set("next_game_starter", value_text(next_game_starter));
             return r;
           }),
           py::kw_only(), py::arg("opening") = Rules{}.get("opening"),
           py::arg("head_exception") = Rules{}.get("head_exception"),
           py::arg("last_roll_draw") = Rules{}.last_roll_draw,
           py::arg("next_game_starter") = Rules{}.get("next_game_starter"),
           "Rules from keyword values (value names as strings; last_roll_draw a bool or "
           "'true'/'false'). Raises NardyError naming the key and the accepted values.")
      .def_property(
          "opening", [](const Rules& r) { return r.get("opening"); },
          [](Rules& r, const py::object& v) { r.set("opening", value_text(v)); },
          "'no_doubles' or 'any_roll' (docs/rules.md Start)")
      .def_property(
          "head_exception", [](const Rules& r) { return r.get("head_exception"); },
          [](Rules& r, const py::object& v) { r.set("head_exception", value_text(v)); },
          "'standard', 'strict' or 'none' (docs/rules.md A turn, rule 3)")
      .def_property(
          "last_roll_draw", [](const Rules& r) { return r.last_roll_draw; },
          [](Rules& r, const py::object& v) { r.set("last_roll_draw", value_text(v)); },
          "bool: Black's extra turn after White finishes (docs/rules.md End of the game)")
      .def_property(
          "next_game_starter", [](const Rules& r) { return r.get("next_game_starter"); },
          [](Rules& r, const py::object& v) { r.set("next_game_starter", value_text(v)); },
          "'previous_black' or 'previous_winner' (docs/rules.md Matches)")
      .def("get", &Rules::get, py::arg("key"),
           "Value name of one key, e.g. get('opening') -> 'no_doubles'")
      .def(
          "set",
          [](Rules& r, const std::string& key, const py::object& v) { r.set(key, value_text(v)); },
          py::arg("key"), py::arg("value"),
          "Sets one key from its value name (or a bool for last_roll_draw)")
      .def("apply_assignment", &Rules::apply_assignment, py::arg("assignment"),
           "Applies one 'KEY=VALUE' text, as given to `nardy ... --rule`")
      .def("to_string", &Rules::to_string,
           "'opening=... head_exception=... last_roll_draw=... next_game_starter=...'")
      .def(
          "to_dict",
          [](const Rules& r) {
            py::dict d;
            for (const auto& k : Rules::keys()) d[py::str(k)] = py::str(r.get(k));
            return d;
          },
          "{key: value name} for every key (last_roll_draw as 'true'/'false')")
      .def_static(
          "parse", &Rules::parse, py::arg("text"),
          "Inverse of str(rules); a subset of keys (or '') leaves the rest at their defaults")
      .def_static("keys", &Rules::keys, "The rule keys in text order")
      .def_static("values_of", &Rules::values_of, py::arg("key"),
                  "Accepted value names of one key, default first")
      .def("__str__", &Rules::to_string)
      .def("__repr__", &rules_repr)
      .def(
          "__eq__", [](const Rules& a, const Rules& b) { return a == b; }, py::is_operator())
      .def("__copy__", [](const Rules& r) { return r; })
      .def(
          "__deepcopy__", [](const Rules& r, const py::dict&) { return r; }, py::arg("memo"))
      .def(py::pickle([](const Rules& r) { return r.to_string(); },
                      [](const std::string& s) { return Rules::parse(s); }));
  // Mutable, so unhashable (as Python's own mutable values are).
  m.attr("Rules").attr("__hash__") = py::none();
}

Position from_points(const std::vector<int>& points, const py::object& side, bool validate) {
  if (points.size() != static_cast<size_t>(kNumPoints))
    throw Error("from_points: expected 24 counts (points 1..24), got " +
                std::to_string(points.size()));
  std::array<int, kNumPoints> a{};
  for (int i = 0; i < kNumPoints; ++i) {
    if (points[i] < -kNumCheckers || points[i] > kNumCheckers)
      throw Error("from_points: point " + std::to_string(i + 1) + ": " + std::to_string(points[i]) +
                  " is not a count -15..15");
    a[i] = points[i];
  }
  int white = 0, black = 0;
  for (int v : a) (v > 0 ? white : black) += v > 0 ? v : -v;
  // More than 15 a side cannot even be represented (the borne-off counts would be negative).
  if (white > kNumCheckers)
    throw Error("from_points: White has " + std::to_string(white) + " checkers (at most 15)");
  if (black > kNumCheckers)
    throw Error("from_points: Black has " + std::to_string(black) + " checkers (at most 15)");
  Position p = Position::from_points(a, side_arg(side));
  if (validate) require_valid(p);
  return p;
}

MoveList sorted_legal(const Position& pos, Dice dice, const Rules& rules) {
  require_valid(pos);
  if (pos.on_board(pos.side_to_move()) == 0)
    throw Error("legal: the side to move has no checkers left (the game is over)");
  MoveList moves = legal_moves(pos, dice, rules);
  sort_by_position(moves);
  return moves;
}

void bind_position(py::module_& m) {
  py::class_<Position>(
      m, "Position",
      "A Long Nardy position: the board and the side to move (an immutable value).\n\n"
      "Construct with Position(pos_text), Position.start(), Position.from_pos(text),\n"
      "Position.from_id(id) or Position.from_points(points, side). Equal positions\n"
      "compare and hash equal; pickling uses the POS text.")
      .def(py::init(&parse_pos), py::arg("pos"),
           "From POS text, e.g. '0,0,0,0,0,0,0,0,0,0,0,-15,0,0,0,0,0,0,0,0,0,0,0,15 w'. "
           "Raises NardyError naming the problem.")
      .def_static("start", &Position::start, "15 checkers on each head, White to move")
      .def_static("from_pos", &parse_pos, py::arg("pos"), "From POS text (same as Position(pos))")
      .def_static("from_id", &parse_position_id, py::arg("id"),
                  "From the 14-character position ID (see .id)")
      .def_static(
          "from_points", &from_points, py::arg("points"), py::arg("side_to_move"),
          py::arg("validate") = true,
          "From 24 signed counts for points 1..24 (White positive) and the side to move.\n"
          "With validate=False a position breaking the rules (e.g. a forbidden six-block) is\n"
          "kept so validation_error() can describe it; legal()/id/Game reject it.")
      .def_property_readonly("pos", &format_pos, "POS text (inverse of Position(pos))")
      .def_property_readonly(
          "id",
          [](const Position& p) {
            require_valid(p);
            return position_id(p);
          },
          "Short URL-safe ID (14 characters) that round-trips the position")
      .def_property_readonly("side_to_move", &Position::side_to_move,
                             "The side to move (nardy.Side)")
      .def_property_readonly(
          "points", &Position::points,
          "Signed counts for points 1..24 as a list (index 0 = point 1; White positive)")
      .def(
          "at_point",
          [](const Position& p, int point) {
            if (point < 1 || point > kNumPoints)
              throw Error("at_point: " + std::to_string(point) + " is not a point 1..24");
            return p.at_point(point);
          },
          py::arg("point"), "Signed count at point 1..24 (White positive, Black negative)")
      .def(
          "pips", [](const Position& p, const py::object& s) { return p.pips(side_arg(s)); },
          py::arg("side"),
          "Pip count of a side: the sum of its checkers' route coordinates (start: 360)")
      .def(
          "off", [](const Position& p, const py::object& s) { return p.off(side_arg(s)); },
          py::arg("side"), "Checkers of a side borne off")
      .def(
          "on_board",
          [](const Position& p, const py::object& s) { return p.on_board(side_arg(s)); },
          py::arg("side"), "Checkers of a side still on the board (15 - off)")
      .def(
          "on_head", [](const Position& p, const py::object& s) { return p.on_head(side_arg(s)); },
          py::arg("side"), "Checkers of a side on its own head (White 24, Black 12)")
      .def(
          "legal",
          [](const Position& p, int d1, int d2, const py::object& rules) {
            return sorted_legal(p, make_dice(d1, d2), rules_arg(rules));
          },
          py::arg("d1"), py::arg("d2"), py::arg("rules") = py::none(),
          "Every legal result of rolling d1-d2 as a list of MoveResult, sorted by position\n"
          "(the order of `nardy legal`). Never empty: a roll that cannot be played gives one\n"
          "result, the same board with the other side to move ('pass'). Raises NardyError for\n"
          "dice outside 1..6 or when the side to move has no checkers left.")
      .def(
          "outcome",
          [](const Position& p, const py::object& rules) {
            return game_outcome(p, rules_arg(rules));
          },
          py::arg("rules") = py::none(),
          "The Outcome if this position ends the game under `rules`, else None")
      .def("finished_side", &Position::finished_side, "The side that has borne off all 15, or None")
      .def(
          "with_side_to_move",
          [](const Position& p, const py::object& s) { return p.with_side_to_move(side_arg(s)); },
          py::arg("side"), "The same board with the given side to move")
      .def("validation_error", &Position::validation_error,
           "None if the position is legal, else a message (too many checkers, forbidden six-block)")
      .def("is_ok", &Position::is_ok, "validation_error() is None")
      .def("draw", &draw_board, "A text drawing of the board with off and pip counts")
      .def("__str__", &format_pos)
      .def("__repr__", [](const Position& p) { return "Position(" + quoted(format_pos(p)) + ")"; })
      .def(
          "__eq__", [](const Position& a, const Position& b) { return a == b; }, py::is_operator())
      .def("__hash__", [](const Position& p) { return static_cast<int64_t>(p.hash()); })
      .def("__copy__", [](const Position& p) { return p; })
      .def(
          "__deepcopy__", [](const Position& p, const py::dict&) { return p; }, py::arg("memo"))
      .def(py::pickle([](const Position& p) { return format_pos(p); },
                      [](const std::string& s) { return parse_pos(s); }));
}

bool same_move(const MoveResult& a, const MoveResult& b) {
  if (!(a.position == b.position) || a.move.side != b.move.side ||
      a.move.num_steps != b.move.num_steps)
    return false;
  for (int i = 0; i < a.move.num_steps; ++i)
    if (!(a.move.steps[i] == b.move.steps[i])) return false;
  return true;
}

void bind_move_result(py::module_& m) {
  py::class_<MoveResult>(
      m, "MoveResult",
      "One legal move: the resulting position (opponent to move) and the steps played.")
      .def_readonly("position", &MoveResult::position,
                    "The position after the move, opponent to move")
      .def_property_readonly(
          "notation", [](const MoveResult& r) { return format_move(r.move); },
          "Canonical notation, e.g. '24/13', '6/off 5/off', '24/18(2)' or 'pass'")
      .def_property_readonly(
          "steps", [](const MoveResult& r) { return steps_list(r.move); },
          "The dice played in order as (from_point, to_point) tuples in absolute "
          "points; to_point is 0 for bearing off. Empty for a pass.")
      .def_property_readonly(
          "mover", [](const MoveResult& r) { return r.move.side; }, "The side that moved")
      .def_property_readonly(
          "is_pass", [](const MoveResult& r) { return r.move.num_steps == 0; },
          "True when no die could be played")
      .def("__repr__",
           [](const MoveResult& r) {
             return "MoveResult(" + quoted(format_move(r.move)) + " -> " +
                    quoted(format_pos(r.position)) + ")";
           })
      .def("__eq__", &same_move, py::is_operator())
      .def("__hash__", [](const MoveResult& r) { return static_cast<int64_t>(r.position.hash()); })
      .def(py::pickle(
          [](const MoveResult& r) {
            return py::make_tuple(format_pos(r.position), std::string(1, side_letter(r.move.side)),
                                  steps_list(r.move));
          },
          [](const py::tuple& t) {
            if (t.size() != 3) throw Error("MoveResult pickle: expected (pos, mover, steps)");
            MoveResult r;
            r.position = parse_pos(t[0].cast<std::string>());
            r.move.side = side_arg(t[1]);
            auto steps = t[2].cast<std::vector<std::pair<int, int>>>();
            if (steps.size() > 4) throw Error("MoveResult pickle: more than 4 steps");
            for (const auto& [from, to] : steps) {
              if (from < 1 || from > kNumPoints || to < 0 || to > kNumPoints)
                throw Error("MoveResult pickle: step points must be 1..24 (to: 0..24)");
              r.move.steps[r.move.num_steps++] =
                  Step{static_cast<uint8_t>(route_of(r.move.side, from)),
                       static_cast<uint8_t>(to == 0 ? 0 : route_of(r.move.side, to))};
            }
            return r;
          }));
}

std::string outcome_repr(const Outcome& o) {
  return "Outcome(" + (o.winner ? side_repr(*o.winner) : std::string("None")) + ", " +
         std::to_string(o.points) + ")";
}

Outcome make_outcome(const py::handle& winner, int points) {
  Outcome o;
  if (!winner.is_none()) o.winner = side_arg(winner);
  if (o.winner ? (points != 1 && points != 2) : points != 0)
    throw Error("Outcome: points must be 1 or 2 for a win and 0 for a draw, got " +
                std::to_string(points));
  o.points = points;
  return o;
}

void bind_outcome(py::module_& m) {
  py::class_<Outcome>(
      m, "Outcome",
      "How a game ended: winner (None for a draw) and points (1 oin, 2 mars, 0 draw).")
      .def(py::init(
               [](const py::object& winner, int points) { return make_outcome(winner, points); }),
           py::arg("winner"), py::arg("points"),
           "Outcome(Side.White, 2), Outcome('b', 1) or Outcome(None, 0)")
      .def_property_readonly(
          "winner", [](const Outcome& o) { return o.winner; },
          "The winning Side, or None for a draw")
      .def_readonly("points", &Outcome::points, "1 (oin), 2 (mars) or 0 (draw: half a point each)")
      .def_property_readonly("is_draw", &Outcome::is_draw, "True for a draw (last_roll_draw)")
      .def_property_readonly("is_mars", &Outcome::is_mars,
                             "True when the loser bore off nothing (2 points)")
      .def(
          "points_for",
          [](const Outcome& o, const py::object& s) { return o.points_for(side_arg(s)); },
          py::arg("side"), "Signed result for a side: +points won, -points lost, 0 for a draw")
      .def("__str__", &format_outcome, "'white 1', 'black 2' or 'draw' (as in records)")
      .def("__repr__", &outcome_repr)
      .def(
          "__eq__", [](const Outcome& a, const Outcome& b) { return a == b; }, py::is_operator())
      .def("__hash__",
           [](const Outcome& o) {
             return py::hash(py::make_tuple(o.winner ? index_of(*o.winner) : -1, o.points));
           })
      .def(py::pickle(
          [](const Outcome& o) {
            return py::make_tuple(o.winner
                                      ? py::object(py::str(std::string(1, side_letter(*o.winner))))
                                      : py::object(py::none()),
                                  o.points);
          },
          [](const py::tuple& t) {
            if (t.size() != 2) throw Error("Outcome pickle: expected (winner, points)");
            return make_outcome(t[0], t[1].cast<int>());
          }));
}

}  // namespace

void bind_core(py::module_& m) {
  bind_side(m);
  bind_rules(m);
  bind_position(m);
  bind_move_result(m);
  bind_outcome(m);

  m.def(
      "parse_dice", [](const std::string& text) { return dice_tuple(parse_dice(text)); },
      py::arg("text"),
      "Parses '6-5', '65', '6 5' or '6,5' into (6, 5); raises NardyError otherwise");
  m.def(
      "format_dice", [](int d1, int d2) { return format_dice(make_dice(d1, d2)); }, py::arg("d1"),
      py::arg("d2"), "'6-5' for (6, 5); raises NardyError for values outside 1..6");
  py::list rolls;
  for (const WeightedRoll& w : kDistinctRolls)
    rolls.append(py::make_tuple(dice_tuple(w.dice), w.weight36));
  m.attr("DISTINCT_ROLLS") = py::tuple(rolls);
  m.attr("NUM_POINTS") = kNumPoints;
  m.attr("NUM_CHECKERS") = kNumCheckers;
  m.attr("START_PIPS") = kStartPips;
}

}  // namespace nardy::py_bind
