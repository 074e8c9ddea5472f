// The text and JSON reports of a review (selfplay/evaluation/review.h Review::to_text, to_json).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "core/match.h"
#include "core/notation.h"
#include "core/pos_text.h"
#include "core/position_id.h"
#include "selfplay/evaluation/review.h"
#include "selfplay/evaluation/review_strings.h"

namespace nardy {

namespace {

std::string player_label(const Review& r, int player) {
  return r.names[static_cast<size_t>(player)];
}

std::string fmt(const char* f, double v) {
  char buf[64];
  if (std::isnan(v)) return "-";
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

std::string game_heading(const Review& r, size_t g, const ReviewStrings& T) {
  const GameReview& gr = r.games[g];
  std::string s = T("game_heading", {{"n", std::to_string(g + 1)},
                                     {"white", player_label(r, gr.white_player)},
                                     {"black", player_label(r, 1 - gr.white_player)}});
  if (gr.score_before) {
    const MatchScore& sc = *gr.score_before;
    s += T("game_score", {{"score", T("score", {{"name0", r.names[0]},
                                                {"points0", format_half_points(sc.half_points(0))},
                                                {"points1", format_half_points(sc.half_points(1))},
                                                {"name1", r.names[1]},
                                                {"target", std::to_string(sc.target())}})}});
  }
  s += T("game_result", {{"result", gr.outcome ? T.outcome(*gr.outcome) : T("unfinished")}});
  return s;
}

// The summary table of two players' figures: a column of row names as wide as the longest, then
// each player's column right-aligned, at least two spaces apart ("47.4 awful  0.0 supernatural").
std::string summary_table(const Review& r, const std::array<PlayerSummary, 2>& ps, bool with_mwc,
                          const ReviewStrings& T) {
  std::vector<std::array<std::string, 3>> rows;
  rows.push_back({"", clip(player_label(r, 0), 16), clip(player_label(r, 1), 16)});
  auto both = [&](const std::string& name, auto value) {
    rows.push_back({name, value(ps[0]), value(ps[1])});
  };
  both(T("row_turns"), [](const PlayerSummary& p) { return std::to_string(p.all.turns); });
  both(T("row_decisions"), [](const PlayerSummary& p) { return std::to_string(p.all.decisions); });
  both(T("row_total_error"), [](const PlayerSummary& p) { return fmt("%.4f", p.all.total_error); });
  both(T("row_error_rate"),
       [](const PlayerSummary& p) { return fmt("%.1f", p.all.error_rate_millipoints()); });
  both(T("row_rating"), [&T](const PlayerSummary& p) {
    return fmt("%.1f", p.all.rating()) + " " + T.band(p.all.rating());
  });
  if (with_mwc)
    both(T("row_mwc_error"),
         [](const PlayerSummary& p) { return fmt("%.2f", 100 * p.all.total_mwc_error); });
  both(T.mark(Mark::Doubtful) + " / " + T.mark(Mark::Bad) + " / " + T.mark(Mark::VeryBad),
       [](const PlayerSummary& p) {
         return std::to_string(p.all.marks[0]) + " / " + std::to_string(p.all.marks[1]) + " / " +
                std::to_string(p.all.marks[2]);
       });
  both(T("row_luck"), [](const PlayerSummary& p) { return fmt("%+.4f", p.all.total_luck); });
  both(T("row_result"), [](const PlayerSummary& p) { return fmt("%+.0f", p.result); });
  both(T("row_adjusted"),
       [](const PlayerSummary& p) { return fmt("%+.4f", p.luck_adjusted_result()); });
  for (Phase ph : kAllPhases) {
    const size_t i = static_cast<size_t>(ph);
    if (ps[0].phases[i].turns + ps[1].phases[i].turns == 0) continue;
    both(T("row_phase", {{"phase", T.phase(ph)}}), [i](const PlayerSummary& p) {
      const ErrorTally& t = p.phases[i];
      return (t.decisions ? fmt("%.1f", t.rating()) : std::string("-")) + " (" +
             std::to_string(t.decisions) + ")";
    });
  }
  std::array<size_t, 3> width{30, 16, 16};
  for (const auto& row : rows)
    for (size_t c = 0; c < 3; ++c) width[c] = std::max(width[c], text_width(row[c]));
  std::string s;
  for (const auto& row : rows)
    s += "  " + pad_right(row[0], width[0]) + "  " + pad_left(row[1], width[1]) + "  " +
         pad_left(row[2], width[2]) + "\n";
  return s;
}

nlohmann::json tally_json(const ErrorTally& t) {
  return {
      {"turns", t.turns},
      {"decisions", t.decisions},
      {"total_error", t.total_error},
      {"mean_error", t.mean_error()},
      {"error_rate_millipoints", t.error_rate_millipoints()},
      {"rating", t.rating()},
      {"rating_band", rating_band(t.rating())},
      {"total_mwc_error", t.total_mwc_error},
      {"marks", {{"doubtful", t.marks[0]}, {"bad", t.marks[1]}, {"very_bad", t.marks[2]}}},
      {"total_luck", std::isnan(t.total_luck) ? nlohmann::json() : nlohmann::json(t.total_luck)}};
}

nlohmann::json summary_json(const PlayerSummary& p) {
  nlohmann::json j = tally_json(p.all);
  j["result"] = p.result;
  const double adjusted = p.luck_adjusted_result();
  j["luck_adjusted_result"] = std::isnan(adjusted) ? nlohmann::json() : nlohmann::json(adjusted);
  nlohmann::json phases = nlohmann::json::object();
  for (Phase ph : kAllPhases)
    phases[phase_name(ph)] = tally_json(p.phases[static_cast<size_t>(ph)]);
  j["phases"] = phases;
  return j;
}

nlohmann::json move_json(const ReviewedMove& m) {
  nlohmann::json j = {{"rank", m.rank},
                      {"notation", m.notation},
                      {"position", format_pos(m.position)},
                      {"equity", m.equity},
                      {"win", m.win},
                      {"win_mars", m.win_mars},
                      {"lose_mars", m.lose_mars},
                      {"draw", m.draw},
                      {"equity_se", m.equity_se},
                      {"ply", m.ply},
                      {"exact", m.exact}};
  if (m.mwc) j["mwc"] = *m.mwc;
  return j;
}

}  // namespace

std::string review_text(const Review& r, const ReviewStrings& T, bool summary_only) {
  std::string s = T("review_by", {{"agent", r.agent_spec}, {"method", T.method(r.method)}}) + "\n";
  const std::string summary = (r.games.size() > 1 ? T("summary_all") : T("summary")) + "\n" +
                              summary_table(r, r.players, r.is_match, T) + "  (" + T("bands") +
                              ": < 1 " + T.band(0) + ", < 2.5 " + T.band(1) + ", < 4 " +
                              T.band(2.5) + ", < 6 " + T.band(4) + ", < 9 " + T.band(6) +
                              ", < 13 " + T.band(9) + ", < 17.5 " + T.band(13) + ", " +
                              T("bands_else") + " " + T.band(17.5) + ")\n";
  if (summary_only) return s + summary;
  s += T("marks_legend", {{"doubtful", T.mark(Mark::Doubtful)},
                          {"bad", T.mark(Mark::Bad)},
                          {"very_bad", T.mark(Mark::VeryBad)},
                          {"d", fmt("%.3f", r.thresholds.doubtful)},
                          {"b", fmt("%.3f", r.thresholds.bad)},
                          {"v", fmt("%.3f", r.thresholds.very_bad)}}) +
       "\n";
  // The turn table's columns: at least the English widths, or their translated headings'.
  const std::string forced = T("forced");
  const size_t w_turn = std::max<size_t>(4, text_width(T("col_turn"))),
               w_player = std::max<size_t>(10, text_width(T("col_player"))),
               w_roll = std::max<size_t>(4, text_width(T("col_roll"))),
               w_error = std::max({size_t{7}, text_width(T("col_error")), text_width(forced)});
  auto line = [&](const std::string& turn, const std::string& player, const std::string& roll,
                  const std::string& played, const std::string& mark, const std::string& error,
                  const std::string& best, const std::string& luck) {
    return "  " + pad_left(turn, w_turn) + " " + pad_right(player, w_player) + " " +
           pad_left(roll, w_roll) + " " + pad_right(played, 24) + " " + pad_right(mark, 3) + " " +
           pad_left(error, w_error) + "  " + pad_right(best, 24) + " " + pad_left(luck, 8) + "\n";
  };
  std::vector<const TurnReview*> marked;
  for (size_t g = 0; g < r.games.size(); ++g) {
    const GameReview& gr = r.games[g];
    s += "\n" + game_heading(r, g, T) + "\n";
    s += line(T("col_turn"), T("col_player"), T("col_roll"), T("col_played"), "", T("col_error"),
              T("col_best"), T("col_luck"));
    for (const TurnReview& t : gr.turns) {
      const std::string who = T.side_letter(t.side) + " " + clip(player_label(r, t.player), 8);
      const bool best_played = t.played.rank == 1;
      s += line(std::to_string(t.turn + 1), who, format_dice(t.dice), t.played.notation,
                mark_symbol(t.mark), !t.decision ? forced : fmt("%.4f", t.error),
                !t.decision || best_played ? "" : t.best.notation, fmt("%+.4f", t.luck));
      if (t.mark != Mark::None) marked.push_back(&t);
    }
    if (r.games.size() > 1) {
      s += "  " + T("summary_game", {{"n", std::to_string(g + 1)}}) + "\n";
      s += summary_table(r, gr.players, r.is_match, T);
    }
  }
  s += "\n" + summary;
  if (!marked.empty()) s += "\n" + T("marked_moves") + "\n";
  char buf[512];
  for (const TurnReview* t : marked) {
    s += "\n" +
         T("turn_heading", {{"game", std::to_string(t->game + 1)},
                            {"turn", std::to_string(t->turn + 1)},
                            {"name", player_label(r, t->player)},
                            {"side", T.side(t->side)},
                            {"phase", T.phase(t->phase)},
                            {"dice", format_dice(t->dice)}}) +
         "\n";
    s += draw_board(t->before);
    s += "  " + T("played_losing", {{"move", t->played.notation},
                                    {"symbol", mark_symbol(t->mark)},
                                    {"mark", T.mark(t->mark)},
                                    {"error", fmt("%.4f", t->error)}});
    if (t->mwc_error) s += " (" + T("mwc", {{"mwc", fmt("%.2f", 100 * *t->mwc_error)}}) + ")";
    s += "\n";
    const std::string played_marker = "  " + T("played_marker");
    for (const ReviewedMove& m : t->alternatives) {
      std::snprintf(buf, sizeof buf, "  %2d. %-26s %+8.4f %+8.4f", m.rank, m.notation.c_str(),
                    m.equity, m.equity - t->best.equity);
      s += buf + (m.rank == t->played.rank ? played_marker : "") + "\n";
    }
    if (t->played.rank > static_cast<int>(t->alternatives.size())) {
      std::snprintf(buf, sizeof buf, "  %2d. %-26s %+8.4f %+8.4f", t->played.rank,
                    t->played.notation.c_str(), t->played.equity,
                    t->played.equity - t->best.equity);
      s += buf + played_marker + "\n";
    }
  }
  return s;
}

std::string Review::to_text() const {
  return review_text(*this, review_strings("en"));
}

std::string Review::to_json() const {
  nlohmann::json j;
  j["agent"] = agent_spec;
  j["method"] = method;
  j["is_match"] = is_match;
  if (is_match) j["target"] = target;
  j["names"] = names;
  j["rules"] = rules.to_string();
  j["thresholds"] = {{"doubtful", thresholds.doubtful},
                     {"bad", thresholds.bad},
                     {"very_bad", thresholds.very_bad}};
  j["players"] = {summary_json(players[0]), summary_json(players[1])};
  j["games"] = nlohmann::json::array();
  for (size_t g = 0; g < games.size(); ++g) {
    const GameReview& gr = games[g];
    nlohmann::json jg;
    jg["game"] = g + 1;
    jg["white_player"] = gr.white_player;
    jg["outcome"] = gr.outcome ? nlohmann::json(format_outcome(*gr.outcome)) : nlohmann::json();
    if (gr.score_before)
      jg["score_before"] = {gr.score_before->points(0), gr.score_before->points(1)};
    jg["players"] = {summary_json(gr.players[0]), summary_json(gr.players[1])};
    jg["turns"] = nlohmann::json::array();
    for (const TurnReview& t : gr.turns) {
      nlohmann::json jt = {{"turn", t.turn + 1},
                           {"player", t.player},
                           {"side", t.side == Side::White ? "white" : "black"},
                           {"position", format_pos(t.before)},
                           {"position_id", position_id(t.before)},
                           {"dice", format_dice(t.dice)},
                           {"phase", phase_name(t.phase)},
                           {"legal", t.legal},
                           {"decision", t.decision},
                           {"played", move_json(t.played)},
                           {"best", move_json(t.best)},
                           {"error", t.error},
                           {"mark", mark_name(t.mark)},
                           {"luck", std::isnan(t.luck) ? nlohmann::json() : nlohmann::json(t.luck)},
                           // The played result's equity for player 0 (the equity graph).
                           {"equity_player0", t.player == 0 ? t.played.equity : -t.played.equity}};
      if (t.mwc_error) jt["mwc_error"] = *t.mwc_error;
      if (t.played.mwc) jt["mwc_player0"] = t.player == 0 ? *t.played.mwc : 1 - *t.played.mwc;
      jt["alternatives"] = nlohmann::json::array();
      for (const ReviewedMove& m : t.alternatives) jt["alternatives"].push_back(move_json(m));
      jg["turns"].push_back(jt);
    }
    j["games"].push_back(jg);
  }
  return j.dump(2);
}

}  // namespace nardy
