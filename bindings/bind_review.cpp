// bindings/bind_review.cpp — the review of whole games and matches (selfplay/evaluation/review.h):
// nardy.review() and the objects it returns, the same library call as `nardy review`.
#ifdef NARDY_HAS_NN
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cmath>
#include <filesystem>
#include <string>

#include "bindings/agent_arg.h"
#include "bindings/convert.h"
#include "bindings/interrupt.h"
#include "core/error.h"
#include "core/file_io.h"
#include "core/mat_format.h"
#include "core/match.h"
#include "core/record.h"
#include "core/notation.h"
#include "selfplay/evaluation/review.h"
#include "selfplay/evaluation/review_html.h"
#include "selfplay/evaluation/review_strings.h"

namespace nardy::py_bind {
namespace {

// A record argument: a nardy.Game, record text (it holds a newline or starts with a header), or
// the path of a record file.
ReviewInput review_input_arg(const py::handle& h) {
  if (py::isinstance<Game>(h)) return review_input_of(h.cast<const Game&>());
  const py::object os = py::module_::import("os");
  if (py::isinstance(h, os.attr("PathLike"))) {
    const std::string path = py::str(os.attr("fspath")(h)).cast<std::string>();
    return read_review_input(read_file(path), "record " + quote_path(path));
  }
  if (py::isinstance<py::str>(h)) {
    const std::string s = h.cast<std::string>();
    const bool text = s.find('\n') != std::string::npos || s.rfind("nardy-", 0) == 0;
    if (text) return read_review_input(s, "record");
    return read_review_input(read_file(s), "record " + quote_path(s));
  }
  throw py::type_error("review: record must be a nardy.Game, record text or a path, got " +
                       type_name(h));
}

Review review(const py::object& record, const py::object& agent, const py::object& ply,
              int64_t trials, int threads, const py::int_& seed, int alternatives,
              const py::object& thresholds, bool luck, const py::object& rollouts) {
  const ReviewInput input = review_input_arg(record);
  ReviewOptions o;
  if (!ply.is_none()) o.ply = ply.cast<int>();
  o.rollout_trials = trials;
  if (!rollouts.is_none()) {
    o.rollouts = true;
    o.rollout_trials = rollouts.cast<int64_t>();
  }
  o.threads = threads;
  o.seed = seed_arg(seed);
  o.alternatives = alternatives;
  o.luck = luck;
  if (!thresholds.is_none()) {
    const auto t = thresholds.cast<std::vector<double>>();
    if (t.size() != 3)
      throw Error("review: thresholds must be three numbers (doubtful, bad, very bad), got " +
                  std::to_string(t.size()));
    o.thresholds = {t[0], t[1], t[2]};
  }
  PyAgentPtr a = agent_arg(agent);
  Interrupt interrupt;
  o.should_stop = interrupt.should_stop();
  const Rules rules = input.games.empty() ? Rules{} : input.games.front().rules();
  return interrupt.run_without_gil([&] { return review_games(input, agent_maker(a, rules), o); });
}

// A nardy record (a match, or one game from the start as a 1-point match) as .mat text.
std::string record_to_mat(const std::string& text) {
  const size_t first = text.find("nardy-");
  if (first != std::string::npos && text.compare(first, 11, "nardy-match") == 0)
    return write_mat(read_match_record(text));
  return write_mat(match_of_game(read_record(text), "record_to_mat"));
}

py::object nan_to_none(double v) {
  return std::isnan(v) ? py::none() : py::cast(v);
}

}  // namespace

void bind_review(py::module_& m) {
  py::class_<ReviewedMove>(m, "ReviewedMove", "One result of a reviewed turn (mover's view)")
      .def_readonly("notation", &ReviewedMove::notation, "The move in absolute points")
      .def_readonly("position", &ReviewedMove::position, "The position after the move")
      .def_readonly("equity", &ReviewedMove::equity, "Mover's equity in points")
      .def_readonly("win", &ReviewedMove::win, "P(win)")
      .def_readonly("win_mars", &ReviewedMove::win_mars, "P(win by mars)")
      .def_readonly("lose_mars", &ReviewedMove::lose_mars, "P(lose by mars)")
      .def_readonly("draw", &ReviewedMove::draw, "P(draw)")
      .def_readonly("equity_se", &ReviewedMove::equity_se, "0 for search values")
      .def_readonly("mwc", &ReviewedMove::mwc, "Mover's match winning chance after it (matches)")
      .def_readonly("ply", &ReviewedMove::ply, "-1 for a rollout")
      .def_readonly("exact", &ReviewedMove::exact,
                    "A finished game or a race-table value: no error")
      .def_readonly("rank", &ReviewedMove::rank, "1 = best")
      .def("__repr__", [](const ReviewedMove& x) {
        return "ReviewedMove('" + x.notation + "', rank=" + std::to_string(x.rank) + ")";
      });
  py::class_<TurnReview>(m, "TurnReview", "One turn of a review: the roll, the move, its error")
      .def_readonly("game", &TurnReview::game, "Index of the game (0-based)")
      .def_readonly("turn", &TurnReview::turn, "Index of the turn in its game (0-based)")
      .def_readonly("player", &TurnReview::player, "0 or 1 (a game record: 0 White, 1 Black)")
      .def_readonly("side", &TurnReview::side, "The side to move")
      .def_readonly("before", &TurnReview::before, "The position before the roll")
      .def_property_readonly(
          "dice", [](const TurnReview& t) { return dice_tuple(t.dice); }, "(d1, d2)")
      .def_property_readonly(
          "phase", [](const TurnReview& t) { return std::string(phase_name(t.phase)); },
          "opening, contact, race or bearoff")
      .def_readonly("legal", &TurnReview::legal, "Distinct results of the roll")
      .def_readonly("decision", &TurnReview::decision, "More than one distinct result")
      .def_readonly("played", &TurnReview::played, "The ReviewedMove played")
      .def_readonly("best", &TurnReview::best, "The best ReviewedMove")
      .def_readonly("alternatives", &TurnReview::alternatives, "The best few, best first")
      .def_readonly("error", &TurnReview::error, "Equity lost (points, >= 0)")
      .def_readonly("mwc_error", &TurnReview::mwc_error, "Match winning chance lost (matches)")
      .def_property_readonly(
          "mark", [](const TurnReview& t) { return std::string(mark_name(t.mark)); },
          "'', 'doubtful', 'bad' or 'very bad'")
      .def_property_readonly(
          "luck", [](const TurnReview& t) { return nan_to_none(t.luck); },
          "Luck of the roll (points; None when not measured)")
      .def("__repr__", [](const TurnReview& t) {
        return "TurnReview(game " + std::to_string(t.game + 1) + ", turn " +
               std::to_string(t.turn + 1) + ", " + format_dice(t.dice) + " " + t.played.notation +
               ", error " + std::to_string(t.error) + ")";
      });
  py::class_<ErrorTally>(m, "ErrorTally", "Error and luck figures of a set of turns")
      .def_readonly("turns", &ErrorTally::turns, "Turns, forced ones included")
      .def_readonly("decisions", &ErrorTally::decisions, "Unforced turns")
      .def_readonly("total_error", &ErrorTally::total_error, "Sum of the errors (points)")
      .def_readonly("total_mwc_error", &ErrorTally::total_mwc_error,
                    "Sum of the match winning chance lost (matches; else 0)")
      .def_property_readonly(
          "marks",
          [](const ErrorTally& t) {
            py::dict d;
            d["doubtful"] = t.marks[0];
            d["bad"] = t.marks[1];
            d["very_bad"] = t.marks[2];
            return d;
          },
          "{'doubtful': n, 'bad': n, 'very_bad': n}")
      .def_property_readonly(
          "total_luck", [](const ErrorTally& t) { return nan_to_none(t.total_luck); },
          "Sum of the luck of the rolls (points; None when not measured)")
      .def_property_readonly("mean_error", &ErrorTally::mean_error, "Mean error per decision")
      .def_property_readonly("error_rate_millipoints", &ErrorTally::error_rate_millipoints,
                             "1000 x mean error per decision")
      .def_property_readonly("rating", &ErrorTally::rating, "500 x mean error per decision")
      .def_property_readonly(
          "rating_band", [](const ErrorTally& t) { return std::string(rating_band(t.rating())); },
          "'supernatural' ... 'awful' (docs/review.md)");
  py::class_<PlayerSummary>(m, "PlayerSummary", "One player's figures")
      .def_readonly("all", &PlayerSummary::all, "The ErrorTally of all the player's turns")
      .def_property_readonly(
          "phases",
          [](const PlayerSummary& p) {
            py::dict d;
            for (Phase ph : kAllPhases) d[phase_name(ph)] = p.phases[static_cast<size_t>(ph)];
            return d;
          },
          "{phase name: ErrorTally}")
      .def_readonly("result", &PlayerSummary::result, "Points won minus points lost")
      .def_property_readonly(
          "luck_adjusted_result",
          [](const PlayerSummary& p) { return nan_to_none(p.luck_adjusted_result()); },
          "result - (own luck - the opponent's luck); None without luck");
  py::class_<GameReview>(m, "GameReview", "One reviewed game")
      .def_readonly("white_player", &GameReview::white_player,
                    "The player (0 or 1) who played White")
      .def_property_readonly(
          "outcome",
          [](const GameReview& g) -> py::object {
            if (!g.outcome) return py::none();
            return py::cast(format_outcome(*g.outcome));
          },
          "'white 1', 'black 2', 'draw', or None when unfinished")
      .def_readonly("turns", &GameReview::turns, "[TurnReview] in order")
      .def_readonly("players", &GameReview::players, "[PlayerSummary] of this game");
  py::class_<Review>(m, "Review",
                     "The review of a game or match record (nardy.review; docs/review.md)")
      .def_readonly("agent_spec", &Review::agent_spec, "The reviewing agent")
      .def_readonly("method", &Review::method,
                    "How moves were valued, e.g. '2-ply expectimax search'")
      .def_readonly("is_match", &Review::is_match, "True for a match record")
      .def_readonly("target", &Review::target, "Points of the match (0 for game records)")
      .def_readonly("names", &Review::names, "The two players' names")
      .def_readonly("games", &Review::games, "[GameReview] in order")
      .def_readonly("players", &Review::players, "[PlayerSummary] over all games")
      .def_property_readonly(
          "turns",
          [](const Review& r) {
            py::list l;
            for (const auto& g : r.games)
              for (const auto& t : g.turns) l.append(t);
            return l;
          },
          "Every TurnReview of every game, in order")
      .def(
          "to_text",
          [](const Review& r, const std::string& lang) {
            return review_text(r, review_strings(lang));
          },
          py::arg("lang") = "en",
          "The report `nardy review --lang LANG` prints; `lang`: en, ru, uk, az or tr")
      .def("to_json", &Review::to_json, "As `nardy review --json` writes")
      .def(
          "to_dict", [](const Review& r) { return json_loads(r.to_json()); },
          "json.loads of to_json()")
      .def(
          "to_html", [](const Review& r, const std::string& lang) { return review_html(r, lang); },
          py::arg("lang") = "en",
          "As `nardy review --html FILE --lang LANG` writes; `lang`: en, ru, uk, az or tr")
      .def("_repr_html_", [](const Review& r) { return review_html(r); })
      .def("__str__", &Review::to_text)
      .def("__repr__", [](const Review& r) {
        return "Review('" + r.agent_spec + "', " + std::to_string(r.games.size()) + " game(s))";
      });

  m.def(
      "mat_to_record",
      [](const std::string& text, const py::object& rules) {
        return write_match_record(read_mat(text, rules_arg(rules)));
      },
      py::arg("text"), py::arg("rules") = py::none(),
      "A .mat match file's text (Jellyfish/gnubg format, each player's moves in its own\n"
      "numbering; docs/review.md) as a nardy match record, as `nardy convert IN.mat OUT` writes.\n"
      "`rules` apply unless the file has a Rules tag. NardyError naming the line otherwise.");
  m.def("record_to_mat", &record_to_mat, py::arg("text"),
        "A nardy match record (or one game record, as a 1-point match) as .mat text, as\n"
        "`nardy convert RECORD OUT.mat` writes.");
  m.def("review", &review, py::arg("record"), py::arg("agent") = "default",
        py::arg("ply") = py::none(), py::arg("trials") = 360, py::arg("threads") = 1,
        py::arg("seed") = 1, py::arg("alternatives") = 5, py::arg("thresholds") = py::none(),
        py::arg("luck") = true, py::arg("rollouts") = py::none(),
        "Reviews a game or match record as `nardy review RECORD --agent SPEC` does: every turn\n"
        "against the best move (error, mark, luck), summaries per player and phase. `record` is\n"
        "a Game, record text or a path. `rollouts=N` rolls every move out N times instead of\n"
        "searching (net agents too; excludes `ply`), as `--rollouts N`.\n"
        "Returns a Review (to_text, to_json, to_dict, to_html).\n"
        "GIL released; Ctrl-C stops it.");
}

}  // namespace nardy::py_bind
#endif
