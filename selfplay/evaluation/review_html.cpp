#include "selfplay/evaluation/review_html.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "core/board_svg.h"
#include "core/match.h"
#include "core/notation.h"
#include "selfplay/evaluation/review_strings.h"

namespace nardy {

namespace {

std::string esc(const std::string& s) {
  std::string o;
  for (char c : s) {
    switch (c) {
      case '<':
        o += "&lt;";
        break;
      case '>':
        o += "&gt;";
        break;
      case '&':
        o += "&amp;";
        break;
      case '"':
        o += "&quot;";
        break;
      default:
        o += c;
    }
  }
  return o;
}

std::string num(const char* f, double v) {
  if (std::isnan(v)) return "&ndash;";
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

std::string anchor(const TurnReview& t) {
  return "g" + std::to_string(t.game + 1) + "t" + std::to_string(t.turn + 1);
}

const char* mark_colour(Mark m) {
  switch (m) {
    case Mark::Doubtful:
      return "#e0a000";
    case Mark::Bad:
      return "#e06000";
    case Mark::VeryBad:
      return "#c00000";
    default:
      return "#406080";
  }
}

std::string summary_table(const Review& r, const std::array<PlayerSummary, 2>& ps,
                          const ReviewStrings& T) {
  std::string s = "<table class=\"sum\"><tr><th></th><th>" + esc(r.names[0]) + "</th><th>" +
                  esc(r.names[1]) + "</th></tr>\n";
  auto row = [&](const std::string& name, auto value) {
    s += "<tr><td>" + esc(name) + "</td><td>" + value(ps[0]) + "</td><td>" + value(ps[1]) +
         "</td></tr>\n";
  };
  row(T("row_turns"), [](const PlayerSummary& p) { return std::to_string(p.all.turns); });
  row(T("row_decisions"), [](const PlayerSummary& p) { return std::to_string(p.all.decisions); });
  row(T("row_total_error"), [](const PlayerSummary& p) { return num("%.4f", p.all.total_error); });
  row(T("row_error_rate"),
      [](const PlayerSummary& p) { return num("%.1f", p.all.error_rate_millipoints()); });
  row(T("row_rating"), [&T](const PlayerSummary& p) {
    return num("%.1f", p.all.rating()) + " " + esc(T.band(p.all.rating()));
  });
  if (r.is_match)
    row(T("row_mwc_error"),
        [](const PlayerSummary& p) { return num("%.2f", 100 * p.all.total_mwc_error); });
  row(T.mark(Mark::Doubtful) + " / " + T.mark(Mark::Bad) + " / " + T.mark(Mark::VeryBad),
      [](const PlayerSummary& p) {
        return std::to_string(p.all.marks[0]) + " / " + std::to_string(p.all.marks[1]) + " / " +
               std::to_string(p.all.marks[2]);
      });
  row(T("row_luck"), [](const PlayerSummary& p) { return num("%+.4f", p.all.total_luck); });
  row(T("row_result"), [](const PlayerSummary& p) { return num("%+.0f", p.result); });
  row(T("row_adjusted"),
      [](const PlayerSummary& p) { return num("%+.4f", p.luck_adjusted_result()); });
  for (Phase ph : kAllPhases) {
    const size_t i = static_cast<size_t>(ph);
    if (ps[0].phases[i].turns + ps[1].phases[i].turns == 0) continue;
    row(T("row_phase", {{"phase", T.phase(ph)}}), [i](const PlayerSummary& p) {
      const ErrorTally& t = p.phases[i];
      return (t.decisions ? num("%.1f", t.rating()) : std::string("&ndash;")) + " (" +
             std::to_string(t.decisions) + ")";
    });
  }
  return s + "</table>\n";
}

// Player 0's equity after every turn, over all games.
std::string equity_graph(const Review& r, const ReviewStrings& T) {
  std::vector<const TurnReview*> turns;
  std::vector<size_t> game_starts;
  for (const GameReview& g : r.games) {
    game_starts.push_back(turns.size());
    for (const TurnReview& t : g.turns) turns.push_back(&t);
  }
  const double w = 900, h = 260, left = 40, right = 10, top = 10, bottom = 25;
  const double n = std::max<double>(1, static_cast<double>(turns.size()) - 1);
  auto x = [&](size_t i) { return left + (w - left - right) * static_cast<double>(i) / n; };
  auto y = [&](double e) {
    e = std::clamp(e, -2.0, 2.0);
    return top + (h - top - bottom) * (2.0 - e) / 4.0;
  };
  char buf[256];
  std::string s =
      "<svg class=\"graph\" viewBox=\"0 0 900 260\" xmlns=\"http://www.w3.org/2000/svg\">\n";
  for (double e : {-2.0, -1.0, 0.0, 1.0, 2.0}) {
    std::snprintf(buf, sizeof buf,
                  "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>"
                  "<text x=\"4\" y=\"%.1f\" font-size=\"11\">%+.0f</text>\n",
                  left, y(e), w - right, y(e), e == 0 ? "#888" : "#ddd", y(e) + 4, e);
    s += buf;
  }
  for (size_t g = 0; g < game_starts.size(); ++g) {
    std::snprintf(buf, sizeof buf,
                  "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#bbb\" "
                  "stroke-dasharray=\"4 3\"/><text x=\"%.1f\" y=\"%.1f\" font-size=\"11\">",
                  x(game_starts[g]), top, x(game_starts[g]), h - bottom, x(game_starts[g]) + 3,
                  h - 8);
    s += buf + esc(T("graph_game", {{"n", std::to_string(g + 1)}})) + "</text>\n";
  }
  // One polyline per game.
  for (size_t g = 0; g < game_starts.size(); ++g) {
    const size_t end = g + 1 < game_starts.size() ? game_starts[g + 1] : turns.size();
    std::string pts;
    for (size_t i = game_starts[g]; i < end; ++i) {
      const TurnReview& t = *turns[i];
      const double e = t.player == 0 ? t.played.equity : -t.played.equity;
      std::snprintf(buf, sizeof buf, "%.1f,%.1f ", x(i), y(e));
      pts += buf;
    }
    s += "<polyline fill=\"none\" stroke=\"#2060a0\" stroke-width=\"1.5\" points=\"" + pts +
         "\"/>\n";
  }
  for (size_t i = 0; i < turns.size(); ++i) {
    const TurnReview& t = *turns[i];
    if (t.mark == Mark::None) continue;
    const double e = t.player == 0 ? t.played.equity : -t.played.equity;
    std::snprintf(buf, sizeof buf,
                  "<a href=\"#%s\"><circle cx=\"%.1f\" cy=\"%.1f\" r=\"5\" fill=\"%s\"><title>",
                  anchor(t).c_str(), x(i), y(e), mark_colour(t.mark));
    s += buf +
         esc(T("graph_dot", {{"game", std::to_string(t.game + 1)},
                             {"turn", std::to_string(t.turn + 1)},
                             {"move", t.played.notation},
                             {"symbol", mark_symbol(t.mark)},
                             {"error", num("%.3f", t.error)}})) +
         "</title></circle></a>\n";
  }
  return s + "</svg>\n";
}

// board_svg() with its caption (pips, borne off, head, side to move: core/board_svg.cpp) and its
// trays' "off N" in the language of `T`, in a smaller font when the translation is longer.
std::string localized_board(const Position& pos, const BoardSvgOptions& o, const ReviewStrings& T) {
  std::string svg = board_svg(pos, o);
  char english[200];
  std::snprintf(english, sizeof english,
                "White: pips %d, off %d, head %d    Black: pips %d, off %d, head %d    %s to move",
                pos.pips(Side::White), pos.off(Side::White), pos.on_head(Side::White),
                pos.pips(Side::Black), pos.off(Side::Black), pos.on_head(Side::Black),
                pos.side_to_move() == Side::White ? "White" : "Black");
  // The trays' "off N".
  const std::string tray = "font-size=\"14\" fill=\"#f0e6d0\" text-anchor=\"middle\">off ";
  const std::string off = esc(T("svg_off"));
  const double tray_size =
      std::min(14.0, 14.0 * 6 / static_cast<double>(text_width(off) + 2));  // "off N" fits
  for (size_t i = svg.find(tray); i != std::string::npos; i = svg.find(tray, i + 1))
    svg.replace(i, tray.size(),
                "font-size=\"" + num("%.1f", tray_size) +
                    "\" fill=\"#f0e6d0\" text-anchor=\"middle\">" + off + " ");
  const std::string font = "font-size=\"15\" fill=\"#f0e6d0\">";
  const size_t at = svg.find(font + english + "</text>");
  if (at == std::string::npos) return svg;  // another caption: left as it is
  const std::string caption = esc(
      T("svg_caption", {{"wp", std::to_string(pos.pips(Side::White))},
                        {"wo", std::to_string(pos.off(Side::White))},
                        {"wh", std::to_string(pos.on_head(Side::White))},
                        {"bp", std::to_string(pos.pips(Side::Black))},
                        {"bo", std::to_string(pos.off(Side::Black))},
                        {"bh", std::to_string(pos.on_head(Side::Black))},
                        {"to_move", T(pos.side_to_move() == Side::White ? "svg_white_to_move"
                                                                        : "svg_black_to_move")}}));
  const double size =
      std::min(15.0, 15.0 * static_cast<double>(std::strlen(english)) /
                         static_cast<double>(std::max<size_t>(1, text_width(caption))));
  svg.replace(at, font.size() + std::strlen(english),
              "font-size=\"" + num("%.1f", size) + "\" fill=\"#f0e6d0\">" + caption);
  return svg;
}

std::string marked_turn(const Review& r, const TurnReview& t, const ReviewStrings& T) {
  std::string s =
      "<div class=\"marked\" id=\"" + anchor(t) + "\"><h3>" +
      esc(T("turn_heading", {{"game", std::to_string(t.game + 1)},
                             {"turn", std::to_string(t.turn + 1)},
                             {"name", r.names[static_cast<size_t>(t.player)]},
                             {"side", T.side(t.side)},
                             {"phase", T.phase(t.phase)},
                             {"dice", format_dice(t.dice)}})) +
      " &mdash; <span style=\"color:" + mark_colour(t.mark) + "\">" + esc(T.mark(t.mark)) +
      "</span>, " + esc(T("loses", {{"error", num("%.4f", t.error)}})) +
      (t.mwc_error ? " (" + esc(T("mwc", {{"mwc", num("%.2f", 100 * *t.mwc_error)}})) + ")" : "") +
      "</h3>\n<div class=\"boards\">";
  BoardSvgOptions o;
  o.width_px = 420;
  o.arrows = parse_notation(t.played.notation);
  o.title = T("played_move", {{"move", t.played.notation}});
  s += "<div>" + localized_board(t.before, o, T) + "</div>";
  o.arrows = parse_notation(t.best.notation);
  o.title = T("best_move", {{"move", t.best.notation}});
  s += "<div>" + localized_board(t.before, o, T) + "</div></div>\n<table><tr>";
  for (const char* col : {"col_rank", "col_move", "col_equity", "col_diff", "col_win",
                          "col_win_mars", "col_lose_mars"})
    s += "<th>" + esc(T(col)) + "</th>";
  s += "</tr>\n";
  std::vector<ReviewedMove> rows = t.alternatives;
  if (t.played.rank > static_cast<int>(rows.size())) rows.push_back(t.played);
  for (const ReviewedMove& m : rows) {
    s += std::string("<tr") + (m.rank == t.played.rank ? " class=\"played\"" : "") + "><td>" +
         std::to_string(m.rank) + "</td><td>" + esc(m.notation) + "</td><td>" +
         num("%+.4f", m.equity) + "</td><td>" + num("%+.4f", m.equity - t.best.equity) +
         "</td><td>" + num("%.3f", m.win) + "</td><td>" + num("%.3f", m.win_mars) + "</td><td>" +
         num("%.3f", m.lose_mars) + "</td></tr>\n";
  }
  return s + "</table></div>\n";
}

}  // namespace

std::string review_html(const Review& r, std::string_view lang) {
  const ReviewStrings& T = review_strings(lang);
  std::string s =
      "<!DOCTYPE html>\n<html lang=\"" + std::string(T.code()) +
      "\"><head><meta charset=\"utf-8\"><title>" + esc(T("html_title")) +
      "</title>\n<style>"
      "body{font-family:sans-serif;max-width:1000px;margin:1em auto;color:#222}"
      "table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:2px "
      "6px;font-size:13px}td{text-align:right}td:nth-child(2),td:first-child{text-align:left}"
      ".graph{width:100%;border:1px solid #ccc}.boards{display:flex;gap:8px}.boards div{flex:1}"
      ".boards svg{width:100%;height:auto}tr.played{background:#fde}tr.m1{background:#fff3d0}"
      "tr.m2{background:#ffe0c0}tr.m3{background:#ffc8c8}.marked{border-top:2px solid "
      "#ccc;margin-top:1em}</style></head><body>\n";
  s += "<h1>" + esc(T("html_review")) + "</h1>\n<p>" +
       esc(T("html_by", {{"agent", "\x01"}, {"method", T.method(r.method)}})) + " " +
       esc(T("html_marks", {{"doubtful", T.mark(Mark::Doubtful)},
                            {"bad", T.mark(Mark::Bad)},
                            {"very_bad", T.mark(Mark::VeryBad)},
                            {"d", num("%.3f", r.thresholds.doubtful)},
                            {"b", num("%.3f", r.thresholds.bad)},
                            {"v", num("%.3f", r.thresholds.very_bad)}})) +
       " " + esc(T("html_rules", {{"rules", r.rules.to_string()}})) +
       (r.is_match ? " " + esc(T("html_match", {{"target", std::to_string(r.target)}})) : "") +
       "</p>\n";
  // The agent's spec as code.
  const size_t at = s.find('\x01');
  s.replace(at, 1, "<code>" + esc(r.agent_spec) + "</code>");
  s += "<h2>" + esc(T("summary")) + "</h2>\n" + summary_table(r, r.players, T);
  s += "<p>" + esc(T("bands")) + ": &lt; 1 " + esc(T.band(0)) + ", &lt; 2.5 " + esc(T.band(1)) +
       ", &lt; 4 " + esc(T.band(2.5)) + ", &lt; 6 " + esc(T.band(4)) + ", &lt; 9 " +
       esc(T.band(6)) + ", &lt; 13 " + esc(T.band(9)) + ", &lt; 17.5 " + esc(T.band(13)) + ", " +
       esc(T("bands_else")) + " " + esc(T.band(17.5)) + ".</p>\n";
  s += "<h2>" + esc(T("html_equity_of", {{"name", r.names[0]}})) + "</h2>\n" + equity_graph(r, T);
  std::vector<const TurnReview*> marked;
  for (size_t g = 0; g < r.games.size(); ++g) {
    const GameReview& gr = r.games[g];
    std::string heading =
        T("game_heading", {{"n", std::to_string(g + 1)},
                           {"white", r.names[static_cast<size_t>(gr.white_player)]},
                           {"black", r.names[static_cast<size_t>(1 - gr.white_player)]}});
    if (gr.score_before) {
      const MatchScore& sc = *gr.score_before;
      heading +=
          T("game_score", {{"score", T("score", {{"name0", r.names[0]},
                                                 {"points0", format_half_points(sc.half_points(0))},
                                                 {"points1", format_half_points(sc.half_points(1))},
                                                 {"name1", r.names[1]},
                                                 {"target", std::to_string(sc.target())}})}});
    }
    heading +=
        T("game_result", {{"result", gr.outcome ? T.outcome(*gr.outcome) : T("unfinished")}});
    s += "<h2>" + esc(heading) + "</h2>\n";
    if (r.games.size() > 1) s += summary_table(r, gr.players, T);
    s += "<table><tr>";
    for (const char* col : {"col_turn", "col_player", "col_roll", "col_played", "col_mark",
                            "col_error", "col_best", "col_luck"})
      s += "<th>" + esc(T(col)) + "</th>";
    s += "</tr>\n";
    for (const TurnReview& t : gr.turns) {
      const std::string cls = t.mark == Mark::None
                                  ? ""
                                  : " class=\"m" + std::to_string(static_cast<int>(t.mark)) + "\"";
      std::string played = esc(t.played.notation);
      if (t.mark != Mark::None) played = "<a href=\"#" + anchor(t) + "\">" + played + "</a>";
      s += "<tr" + cls + "><td>" + std::to_string(t.turn + 1) + "</td><td>" +
           esc(T.side_letter(t.side)) + " " + esc(r.names[static_cast<size_t>(t.player)]) +
           "</td><td>" + format_dice(t.dice) + "</td><td>" + played + "</td><td>" +
           mark_symbol(t.mark) + "</td><td>" +
           (t.decision ? num("%.4f", t.error) : esc(T("forced"))) + "</td><td>" +
           (t.decision && t.played.rank != 1 ? esc(t.best.notation) : "") + "</td><td>" +
           num("%+.4f", t.luck) + "</td></tr>\n";
      if (t.mark != Mark::None) marked.push_back(&t);
    }
    s += "</table>\n";
  }
  if (!marked.empty()) s += "<h2>" + esc(T("marked_moves")) + "</h2>\n";
  for (const TurnReview* t : marked) s += marked_turn(r, *t, T);
  return s + "</body></html>\n";
}

}  // namespace nardy
