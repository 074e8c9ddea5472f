// bindings/convert.h — argument conversions shared by every bindings/bind_<area>.cpp.
//
// Python callers may pass the lenient forms below; each helper turns them into the C++ value.
// A wrong Python type raises TypeError; a bad value of the right type throws nardy::Error
// (raised in Python as nardy.NardyError, a ValueError) naming the argument and what was expected.
//
//   rules_arg     None (docs/rules.md defaults) | nardy.Rules | "KEY=VALUE ..." text | {key: value}
//   side_arg      nardy.Side | 'w' | 'b' | 'white' | 'black' (any case)
//   position_arg  nardy.Position | POS text
//   seed_arg      int in 0 .. 2**64-1
// Dice are plain `int d1, int d2` parameters checked by core's make_dice().
//
// Output helpers: dice_tuple (d1, d2) and steps_list, a Move as (from_point, to_point) tuples in
// absolute points with to_point == 0 for bearing off; json_loads for the to_dict() methods.
#pragma once

#include <pybind11/pybind11.h>

#include <cctype>
#include <cstdint>
#include <string>

#include "core/error.h"
#include "core/movegen.h"
#include "core/notation.h"
#include "core/pos_text.h"
#include "core/position.h"
#include "core/rules.h"
#include "core/types.h"

namespace nardy::py_bind {

namespace py = pybind11;

inline std::string type_name(py::handle h) {
  return py::str(py::type::handle_of(h).attr("__name__"));
}

inline std::string value_text(py::handle h) {
  if (py::isinstance<py::bool_>(h)) return h.ptr() == Py_True ? "true" : "false";
  if (py::isinstance<py::str>(h)) return h.cast<std::string>();
  throw py::type_error("rule value must be a string or a bool, got " + type_name(h));
}

inline Rules rules_arg(py::handle h) {
  if (h.is_none()) return Rules{};
  if (py::isinstance<Rules>(h)) return h.cast<Rules>();
  if (py::isinstance<py::str>(h)) return Rules::parse(h.cast<std::string>());
  if (py::isinstance<py::dict>(h)) {
    Rules r;
    for (auto item : h.cast<py::dict>()) {
      if (!py::isinstance<py::str>(item.first))
        throw py::type_error("rule keys must be strings, got " + type_name(item.first));
      r.set(item.first.cast<std::string>(), value_text(item.second));
    }
    return r;
  }
  throw py::type_error("rules: expected None, nardy.Rules, 'KEY=VALUE ...' text or a dict, got " +
                       type_name(h));
}

inline Side side_arg(py::handle h) {
  if (py::isinstance<Side>(h)) return h.cast<Side>();
  if (py::isinstance<py::str>(h)) {
    std::string s = h.cast<std::string>();
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (s == "w" || s == "white") return Side::White;
    if (s == "b" || s == "black") return Side::Black;
    throw Error("side " + quote(h.cast<std::string>()) +
                ": expected 'w', 'b', 'white', 'black' or nardy.Side");
  }
  throw py::type_error("side: expected nardy.Side or 'w'/'b', got " + type_name(h));
}

// Positions built in Python with validate=False may break the rules; anything that needs a
// valid position (movegen, IDs, games) checks first so the C++ contracts hold.
inline void require_valid(const Position& pos) {
  if (auto err = pos.validation_error()) throw Error("position '" + format_pos(pos) + "': " + *err);
}

inline Position position_arg(py::handle h) {
  if (py::isinstance<Position>(h)) return h.cast<Position>();
  if (py::isinstance<py::str>(h)) return parse_position(h.cast<std::string>());
  throw py::type_error("position: expected nardy.Position, POS text or a position ID, got " +
                       type_name(h));
}

// Seeds are Python ints; pybind11 has already rejected other types (TypeError).
inline uint64_t seed_arg(const py::int_& h) {
  unsigned long long v = PyLong_AsUnsignedLongLong(h.ptr());
  if (v == static_cast<unsigned long long>(-1) && PyErr_Occurred()) {
    PyErr_Clear();
    throw Error("seed " + py::str(static_cast<py::handle>(h)).cast<std::string>() +
                ": expected an int in 0 .. 2**64-1");
  }
  return v;
}

inline py::tuple dice_tuple(Dice d) {
  return py::make_tuple(int{d.d1}, int{d.d2});
}

// json.loads(text): a result's to_json() as Python dicts and lists (to_dict()).
inline py::object json_loads(const std::string& text) {
  return py::module_::import("json").attr("loads")(text);
}

inline py::list steps_list(const Move& move) {
  py::list out;
  for (int i = 0; i < move.num_steps; ++i) {
    const Step& s = move.steps[i];
    out.append(
        py::make_tuple(point_of(move.side, s.from), s.to == 0 ? 0 : point_of(move.side, s.to)));
  }
  return out;
}

}  // namespace nardy::py_bind
