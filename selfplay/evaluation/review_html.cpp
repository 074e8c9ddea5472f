#include "selfplay/evaluation/review_html.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/board_svg.h"
#include "core/notation.h"

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

std::string summary_table(const Review& r, const std::array<PlayerSummary, 2>& ps) {
  std::string s = "<table class=\"sum\"><tr><th></th><th>" + esc(r.names[0]) + "</th><th>" +
                  esc(r.names[1]) + "</th></tr>\n";
  auto row = [&](const std::string& name, auto value) {
    s += "<tr><td>" + name + "</td><td>" + value(ps[0]) + "</td><td>" + value(ps[1]) +
         "</td></tr>\n";
  };
  row("turns", [](const PlayerSummary& p) { return std::to_string(p.all.turns); });
  row("decisions (unforced turns)",
      [](const PlayerSummary& p) { return std::to_string(p.all.decisions); });
  row("total error (points)",
      [](const PlayerSummary& p) { return num("%.4f", p.all.total_error); });
  row("error rate (millipoints per decision)",
      [](const PlayerSummary& p) { return num("%.1f", p.all.error_rate_millipoints()); });
  row("rating (500 &times; mean error)", [](const PlayerSummary& p) {
    return num("%.1f", p.all.rating()) + " " + rating_band(p.all.rating());
  });
  if (r.is_match)
    row("total error (MWC %)",
        [](const PlayerSummary& p) { return num("%.2f", 100 * p.all.total_mwc_error); });
  row("doubtful / bad / very bad", [](const PlayerSummary& p) {
    return std::to_string(p.all.marks[0]) + " / " + std::to_string(p.all.marks[1]) + " / " +
           std::to_string(p.all.marks[2]);
  });
  row("total luck (points)", [](const PlayerSummary& p) { return num("%+.4f", p.all.total_luck); });
  row("result (points)", [](const PlayerSummary& p) { return num("%+.0f", p.result); });
  row("luck-adjusted result",
      [](const PlayerSummary& p) { return num("%+.4f", p.luck_adjusted_result()); });
  for (Phase ph : kAllPhases) {
    const size_t i = static_cast<size_t>(ph);
    if (ps[0].phases[i].turns + ps[1].phases[i].turns == 0) continue;
    row(std::string(phase_name(ph)) + ": rating (decisions)", [i](const PlayerSummary& p) {
      const ErrorTally& t = p.phases[i];
      return (t.decisions ? num("%.1f", t.rating()) : std::string("&ndash;")) + " (" +
             std::to_string(t.decisions) + ")";
    });
  }
  return s + "</table>\n";
}

// Player 0's equity after every turn, over all games.
std::string equity_graph(const Review& r) {
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
                  "stroke-dasharray=\"4 3\"/><text x=\"%.1f\" y=\"%.1f\" font-size=\"11\">game "
                  "%zu</text>\n",
                  x(game_starts[g]), top, x(game_starts[g]), h - bottom, x(game_starts[g]) + 3,
                  h - 8, g + 1);
    s += buf;
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
                  "<a href=\"#%s\"><circle cx=\"%.1f\" cy=\"%.1f\" r=\"5\" fill=\"%s\"><title>game "
                  "%d turn %d: %s %s, loses %.3f</title></circle></a>\n",
                  anchor(t).c_str(), x(i), y(e), mark_colour(t.mark), t.game + 1, t.turn + 1,
                  esc(t.played.notation).c_str(), mark_symbol(t.mark), t.error);
    s += buf;
  }
  return s + "</svg>\n";
}

std::string marked_turn(const Review& r, const TurnReview& t) {
  std::string s =
      "<div class=\"marked\" id=\"" + anchor(t) + "\"><h3>Game " + std::to_string(t.game + 1) +
      ", turn " + std::to_string(t.turn + 1) + ": " + esc(r.names[static_cast<size_t>(t.player)]) +
      " (" + (t.side == Side::White ? "White" : "Black") + ", " + phase_name(t.phase) +
      ") rolled " + format_dice(t.dice) + " &mdash; <span style=\"color:" + mark_colour(t.mark) +
      "\">" + mark_name(t.mark) + "</span>, loses " + num("%.4f", t.error) +
      (t.mwc_error ? " (" + num("%.2f", 100 * *t.mwc_error) + "% MWC)" : "") +
      "</h3>\n<div class=\"boards\">";
  BoardSvgOptions o;
  o.width_px = 420;
  o.arrows = parse_notation(t.played.notation);
  o.title = "played " + t.played.notation;
  s += "<div>" + board_svg(t.before, o) + "</div>";
  o.arrows = parse_notation(t.best.notation);
  o.title = "best " + t.best.notation;
  s += "<div>" + board_svg(t.before, o) +
       "</div></div>\n<table><tr><th>rank</th><th>move</th>"
       "<th>equity</th><th>diff</th><th>win</th><th>mars</th><th>lose mars</th></tr>\n";
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

std::string review_html(const Review& r) {
  std::string s =
      "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>nardy review</title>\n<style>"
      "body{font-family:sans-serif;max-width:1000px;margin:1em auto;color:#222}"
      "table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:2px "
      "6px;font-size:13px}td{text-align:right}td:nth-child(2),td:first-child{text-align:left}"
      ".graph{width:100%;border:1px solid #ccc}.boards{display:flex;gap:8px}.boards div{flex:1}"
      ".boards svg{width:100%;height:auto}tr.played{background:#fde}tr.m1{background:#fff3d0}"
      "tr.m2{background:#ffe0c0}tr.m3{background:#ffc8c8}.marked{border-top:2px solid "
      "#ccc;margin-top:1em}</style></head><body>\n";
  s += "<h1>Review</h1>\n<p>By <code>" + esc(r.agent_spec) + "</code> (" + esc(r.method) +
       "); equities in points for the mover. Marks: doubtful &ge; " +
       num("%.3f", r.thresholds.doubtful) + ", bad &ge; " + num("%.3f", r.thresholds.bad) +
       ", very bad &ge; " + num("%.3f", r.thresholds.very_bad) +
       ". Rules: " + esc(r.rules.to_string()) +
       (r.is_match ? ". Match to " + std::to_string(r.target) : "") + ".</p>\n";
  s += "<h2>Summary</h2>\n" + summary_table(r, r.players);
  s += "<p>Rating bands: &lt; 1 supernatural, &lt; 2.5 world class, &lt; 4 expert, &lt; 6 "
       "advanced, &lt; 9 intermediate, &lt; 13 casual, &lt; 17.5 beginner, else awful.</p>\n";
  s += "<h2>Equity of " + esc(r.names[0]) + " after each turn</h2>\n" + equity_graph(r);
  std::vector<const TurnReview*> marked;
  for (size_t g = 0; g < r.games.size(); ++g) {
    const GameReview& gr = r.games[g];
    s += "<h2>Game " + std::to_string(g + 1) + ": " +
         esc(r.names[static_cast<size_t>(gr.white_player)]) + " (White) vs " +
         esc(r.names[static_cast<size_t>(1 - gr.white_player)]) + " (Black)" +
         (gr.score_before ? ", score " + esc(gr.score_before->to_string(r.names)) : "") +
         "; result " + (gr.outcome ? format_outcome(*gr.outcome) : std::string("unfinished")) +
         "</h2>\n";
    if (r.games.size() > 1) s += summary_table(r, gr.players);
    s += "<table><tr><th>turn</th><th>player</th><th>roll</th><th>played</th><th>mark</th>"
         "<th>error</th><th>best</th><th>luck</th></tr>\n";
    for (const TurnReview& t : gr.turns) {
      const std::string cls = t.mark == Mark::None
                                  ? ""
                                  : " class=\"m" + std::to_string(static_cast<int>(t.mark)) + "\"";
      std::string played = esc(t.played.notation);
      if (t.mark != Mark::None) played = "<a href=\"#" + anchor(t) + "\">" + played + "</a>";
      s += "<tr" + cls + "><td>" + std::to_string(t.turn + 1) + "</td><td>" +
           std::string(1, side_letter(t.side)) + " " + esc(r.names[static_cast<size_t>(t.player)]) +
           "</td><td>" + format_dice(t.dice) + "</td><td>" + played + "</td><td>" +
           mark_symbol(t.mark) + "</td><td>" + (t.decision ? num("%.4f", t.error) : "forced") +
           "</td><td>" + (t.decision && t.played.rank != 1 ? esc(t.best.notation) : "") +
           "</td><td>" + num("%+.4f", t.luck) + "</td></tr>\n";
      if (t.mark != Mark::None) marked.push_back(&t);
    }
    s += "</table>\n";
  }
  if (!marked.empty()) s += "<h2>Marked moves</h2>\n";
  for (const TurnReview* t : marked) s += marked_turn(r, *t);
  return s + "</body></html>\n";
}

}  // namespace nardy
