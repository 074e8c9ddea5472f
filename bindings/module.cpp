// bindings/module.cpp — the one PYBIND11_MODULE of `nardy._nardy`.
//
// Each area of the engine is bound in its own file bindings/bind_<area>.cpp, which defines
// `void bind_<area>(pybind11::module_& m)` (OpenSpiel's pyspiel style). To add an area: write
// the file (the CMake glob compiles it), declare its function below and call it in order of
// dependency (an area may use the classes registered by the areas before it). Areas that need
// nardy_nn go inside `#ifdef NARDY_HAS_NN` (defined when the nn library is built).
//
// Python names equal the C++ names (snake_case functions, CamelCase classes); argument
// conversions shared by all areas live in bindings/convert.h. nardy::Error becomes the
// registered exception nardy.NardyError (a ValueError) with the same message, and library
// warnings (core/warning.h) become Python warnings of category nardy.CheckpointWarning.
#include <pybind11/pybind11.h>

#include "bindings/method_self.h"
#include "core/version.h"
#include <filesystem>

#include "core/error.h"
#include "core/file_error.h"
#include "core/warning.h"
#include "core/write_fault.h"

namespace nardy::py_bind {

void bind_core(pybind11::module_& m);  // bind_core.cpp: Side, Rules, Position, MoveResult, Outcome
void bind_game(pybind11::module_& m);  // bind_game.cpp: Rng, Game, Turn, records, random_game
void bind_board(
    pybind11::module_& m);  // bind_board.cpp: board_svg, _repr_svg_ of Position/MoveResult/Game
#ifdef NARDY_HAS_NN
void bind_nn(
    pybind11::module_& m);  // bind_nn.cpp: Encoder, encode, Evaluation, ValueNet, load_checkpoint
void bind_agents(
    pybind11::module_& m);  // bind_agents.cpp: Agent, make_agent, python_agent, play, analyze
void bind_arena(pybind11::module_& m);  // bind_arena.cpp: arena, ArenaResult, tournament, rollout
void bind_train(pybind11::module_& m);  // bind_train.cpp: train, resume, TrainProgress, TrainResult
void bind_match(pybind11::module_& m);  // bind_match.cpp: match, MatchResult, match_winning_chance
void bind_labels(pybind11::module_& m);     // bind_labels.cpp: label, read_labels, fit
void bind_benchmark(pybind11::module_& m);  // bind_benchmark.cpp: benchmark, race_odds
void bind_review(pybind11::module_& m);     // bind_review.cpp: review, Review, TurnReview
#endif

}  // namespace nardy::py_bind

PYBIND11_MODULE(_nardy, m) {
  m.attr("__version__") = nardy::nardy_version();
  m.doc() =
      "nardy._nardy — the compiled Long Nardy engine (import the `nardy` package instead).\n\n"
      "Positions are POS text: 24 comma-separated counts for points 1..24 (White positive,\n"
      "Black negative), a space, and 'w' or 'b' for the side to move. Rules follow docs/rules.md.";
  static auto& nardy_error =
      pybind11::register_exception<nardy::Error>(m, "NardyError", PyExc_ValueError);
  m.attr("NardyError").attr("__doc__") =
      "Raised for bad input to the engine (POS text, IDs, dice, moves, rules, records).\n"
      "A subclass of ValueError; the message names the input and what was expected.";

  // A Python value of the wrong type for an argument is a TypeError (pybind11 raises its cast
  // errors, e.g. from py::object::cast<T>() inside a binding, as RuntimeError).
  pybind11::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const pybind11::cast_error& e) {
      PyErr_SetString(PyExc_TypeError, e.what());
    } catch (const std::filesystem::filesystem_error& e) {
      // A throwing std::filesystem call past the library's own checks (core/file_error.h).
      PyErr_SetString(nardy_error.ptr(), nardy::file_error("file", e).what());
    }
  });

  // Library warnings (core/warning.h) become Python warnings of this category.
  // (A plain reference kept for the life of the process: no destructor after Python's end.)
  static PyObject* const checkpoint_warning =
      PyErr_NewExceptionWithDoc("nardy._nardy.CheckpointWarning",
                                "Issued when a checkpoint loads without its integrity check "
                                "(written before checksums were stored).",
                                PyExc_UserWarning, nullptr);
  if (!checkpoint_warning) throw pybind11::error_already_set();
  m.attr("CheckpointWarning") = pybind11::handle(checkpoint_warning);
  nardy::set_warning_handler([](nardy::WarningKind, const std::string& message) {
    pybind11::gil_scoped_acquire gil;
    if (PyErr_WarnEx(checkpoint_warning, message.c_str(), 1) < 0)
      throw pybind11::error_already_set();  // a warnings filter turned it into an error
  });

  m.def(
      "_set_write_fault",
      [](const std::string& spec) {
        nardy::set_write_fault(spec.empty() ? std::nullopt
                                            : std::optional(nardy::parse_write_fault(spec)));
      },
      pybind11::arg("spec"),
      "Test seam: make a later file write fail, as NARDY_WRITE_FAULT does ('write:1:ENOSPC'; "
      "'' clears it). See core/write_fault.h.");

  nardy::py_bind::bind_core(m);
  nardy::py_bind::bind_game(m);
  nardy::py_bind::bind_board(m);
#ifdef NARDY_HAS_NN
  nardy::py_bind::bind_nn(m);
  nardy::py_bind::bind_agents(m);
  nardy::py_bind::bind_arena(m);
  nardy::py_bind::bind_train(m);
  nardy::py_bind::bind_match(m);
  nardy::py_bind::bind_labels(m);
  nardy::py_bind::bind_benchmark(m);
  nardy::py_bind::bind_review(m);
#endif
  nardy::py_bind::require_self_not_none(m);
}
