// bindings/bind_board.cpp — SVG pictures of positions (core/board_svg.h).
//
// board_svg() is the picture `nardy show POS --svg FILE --move NOTATION --title T` writes.
// Position, MoveResult and Game get _repr_svg_, so Jupyter draws them: a position as it is, a
// MoveResult as the position after the move with the move's arrows, a Game as its current
// position with the last turn's arrows. (nardy.save_board in board.py writes .svg or .png.)
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>
#include <vector>

#include "bindings/convert.h"
#include "core/error.h"
#include "core/game.h"
#include "core/notation.h"
#include "core/record.h"
#include "core/board_svg.h"

namespace nardy::py_bind {
namespace {

// The move's canonical paths, as `nardy show --move NOTATION` draws them.
std::vector<PathMove> paths_of(const Move& move) {
  return parse_notation(format_move(move));
}

// None | notation text | MoveResult | Turn | [(from, to), ...] (to 0 = off).
std::vector<PathMove> arrows_arg(const py::handle& h) {
  if (h.is_none()) return {};
  if (py::isinstance<py::str>(h)) return parse_notation(h.cast<std::string>());
  if (py::isinstance<MoveResult>(h)) return paths_of(h.cast<const MoveResult&>().move);
  if (py::isinstance<Game::Turn>(h)) return paths_of(h.cast<const Game::Turn&>().move);
  std::vector<PathMove> out;
  if (!py::hasattr(h, "__iter__"))
    throw py::type_error(
        "arrows: expected None, notation text, a MoveResult, a Turn or a list of (from, to), got " +
        type_name(h));
  for (py::handle item : py::iter(h)) {
    auto pair = item.cast<std::pair<int, int>>();
    if (pair.first < 1 || pair.first > kNumPoints || pair.second < 0 || pair.second > kNumPoints)
      throw Error("arrows: (" + std::to_string(pair.first) + ", " + std::to_string(pair.second) +
                  ") is not (from 1..24, to 0..24) with 0 = off");
    out.push_back(PathMove{pair.first, pair.second});
  }
  return out;
}

std::string svg(const py::object& pos, const py::object& arrows, const py::object& title,
                int width) {
  const Position p = position_arg(pos);
  if (width < 16 || width > 100000)
    throw Error("board_svg: width must be 16..100000 pixels, got " + std::to_string(width));
  BoardSvgOptions o;
  o.width_px = width;
  o.arrows = arrows_arg(arrows);
  if (!title.is_none()) o.title = title.cast<std::string>();
  return board_svg(p, o);
}

}  // namespace

void bind_board(py::module_& m) {
  m.def("board_svg", &svg, py::arg("position"), py::arg("arrows") = py::none(),
        py::arg("title") = py::none(), py::arg("width") = 640,
        "An SVG picture of a position (as `nardy show POS --svg FILE --move NOTATION --title T`).\n"
        "`arrows`: a move to draw — notation text ('24/18 18/13'), a MoveResult, a Turn or a list "
        "of\n"
        "(from_point, to_point) with 0 for bearing off. `width` in pixels; the SVG scales with its "
        "viewBox.");

  m.attr("Position").attr("_repr_svg_") = py::cpp_function(
      [](const Position& p) { return board_svg(p); }, py::is_method(m.attr("Position")),
      "The board as SVG (Jupyter draws positions with it)");
  m.attr("MoveResult").attr("_repr_svg_") = py::cpp_function(
      [](const MoveResult& r) {
        BoardSvgOptions o;
        o.arrows = paths_of(r.move);
        return board_svg(r.position, o);
      },
      py::is_method(m.attr("MoveResult")),
      "The position after the move, with the move drawn (Jupyter)");
  m.attr("Game").attr("_repr_svg_") = py::cpp_function(
      [](const Game& g) {
        BoardSvgOptions o;
        if (!g.history().empty()) o.arrows = paths_of(g.history().back().move);
        o.title = "turn " + std::to_string(g.history().size());
        if (auto out = g.outcome()) o.title += " - " + format_outcome(*out);
        return board_svg(g.position(), o);
      },
      py::is_method(m.attr("Game")), "The current position with the last turn drawn (Jupyter)");
}

}  // namespace nardy::py_bind
