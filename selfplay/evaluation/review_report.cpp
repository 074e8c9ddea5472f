// The text and JSON reports of a review (selfplay/evaluation/review.h Review::to_text, to_json).
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "core/notation.h"
#include "core/pos_text.h"
#include "core/position_id.h"
#include "selfplay/evaluation/review.h"

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

std::string game_heading(const Review& r, size_t g) {
  const GameReview& gr = r.games[g];
  std::string s = "Game " + std::to_string(g + 1) + ": " + player_label(r, gr.white_player) +
                  " (White) vs " + player_label(r, 1 - gr.white_player) + " (Black)";
  if (gr.score_before) s += ", score " + gr.score_before->to_string(r.names);
  s += "; result " + (gr.outcome ? format_outcome(*gr.outcome) : std::string("unfinished"));
  return s;
}

// The summary table of two players' figures.
std::string summary_table(const Review& r, const std::array<PlayerSummary, 2>& ps, bool with_mwc) {
  std::string s;
  char buf[256];
  std::snprintf(buf, sizeof buf, "  %-30s %16s %16s\n", "",
                player_label(r, 0).substr(0, 16).c_str(), player_label(r, 1).substr(0, 16).c_str());
  s += buf;
  auto row = [&](const char* name, const std::string& a, const std::string& b) {
    std::snprintf(buf, sizeof buf, "  %-30s %16s %16s\n", name, a.c_str(), b.c_str());
    s += buf;
  };
  auto both = [&](const char* name, auto value) { row(name, value(ps[0]), value(ps[1])); };
  both("turns", [](const PlayerSummary& p) { return std::to_string(p.all.turns); });
  both("decisions (unforced turns)",
       [](const PlayerSummary& p) { return std::to_string(p.all.decisions); });
  both("total error (points)",
       [](const PlayerSummary& p) { return fmt("%.4f", p.all.total_error); });
  both("error rate (millipoints/dec.)",
       [](const PlayerSummary& p) { return fmt("%.1f", p.all.error_rate_millipoints()); });
  both("rating (500 x mean error)", [](const PlayerSummary& p) {
    return fmt("%.1f", p.all.rating()) + " " + rating_band(p.all.rating());
  });
  if (with_mwc)
    both("total error (MWC %)",
         [](const PlayerSummary& p) { return fmt("%.2f", 100 * p.all.total_mwc_error); });
  both("doubtful / bad / very bad", [](const PlayerSummary& p) {
    return std::to_string(p.all.marks[0]) + " / " + std::to_string(p.all.marks[1]) + " / " +
           std::to_string(p.all.marks[2]);
  });
  both("total luck (points)",
       [](const PlayerSummary& p) { return fmt("%+.4f", p.all.total_luck); });
  both("result (points)", [](const PlayerSummary& p) { return fmt("%+.0f", p.result); });
  both("luck-adjusted result",
       [](const PlayerSummary& p) { return fmt("%+.4f", p.luck_adjusted_result()); });
  for (Phase ph : kAllPhases) {
    const size_t i = static_cast<size_t>(ph);
    if (ps[0].phases[i].turns + ps[1].phases[i].turns == 0) continue;
    const std::string name = std::string(phase_name(ph)) + ": rating (decisions)";
    both(name.c_str(), [i](const PlayerSummary& p) {
      const ErrorTally& t = p.phases[i];
      return (t.decisions ? fmt("%.1f", t.rating()) : std::string("-")) + " (" +
             std::to_string(t.decisions) + ")";
    });
  }
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

std::string Review::to_text() const {
  std::string s =
      "Review by " + agent_spec + " (" + method + "); equities in points for the mover\n";
  char buf[512];
  std::snprintf(buf, sizeof buf,
                "marks: ?! doubtful >= %.3f, ? bad >= %.3f, ?? very bad >= %.3f; luck: best 0-ply "
                "value of the roll minus its mean over the rolls\n",
                thresholds.doubtful, thresholds.bad, thresholds.very_bad);
  s += buf;
  std::vector<const TurnReview*> marked;
  for (size_t g = 0; g < games.size(); ++g) {
    const GameReview& gr = games[g];
    s += "\n" + game_heading(*this, g) + "\n";
    std::snprintf(buf, sizeof buf, "  %4s %-10s %4s %-24s %-3s %7s  %-24s %8s\n", "turn", "player",
                  "roll", "played", "", "error", "best", "luck");
    s += buf;
    for (const TurnReview& t : gr.turns) {
      const std::string who =
          std::string(1, side_letter(t.side)) + " " + player_label(*this, t.player).substr(0, 8);
      const bool best_played = t.played.rank == 1;
      std::snprintf(buf, sizeof buf, "  %4d %-10s %4s %-24s %-3s %7s  %-24s %8s\n", t.turn + 1,
                    who.c_str(), format_dice(t.dice).c_str(), t.played.notation.c_str(),
                    mark_symbol(t.mark), !t.decision ? "forced" : fmt("%.4f", t.error).c_str(),
                    !t.decision || best_played ? "" : t.best.notation.c_str(),
                    fmt("%+.4f", t.luck).c_str());
      s += buf;
      if (t.mark != Mark::None) marked.push_back(&t);
    }
    if (games.size() > 1) {
      s += "  Summary of game " + std::to_string(g + 1) + "\n";
      s += summary_table(*this, gr.players, is_match);
    }
  }
  s += "\nSummary" + std::string(games.size() > 1 ? " of all games" : "") + "\n";
  s += summary_table(*this, players, is_match);
  s += "  (rating bands: < 1 supernatural, < 2.5 world class, < 4 expert, < 6 advanced, < 9 "
       "intermediate, < 13 casual, < 17.5 beginner, else awful)\n";
  if (!marked.empty()) s += "\nMarked moves\n";
  for (const TurnReview* t : marked) {
    s += "\nGame " + std::to_string(t->game + 1) + " turn " + std::to_string(t->turn + 1) + ": " +
         player_label(*this, t->player) + " (" + (t->side == Side::White ? "White" : "Black") +
         ", " + phase_name(t->phase) + ") rolled " + format_dice(t->dice) + "\n";
    s += draw_board(t->before);
    std::snprintf(buf, sizeof buf, "  played %s %s (%s), losing %.4f", t->played.notation.c_str(),
                  mark_symbol(t->mark), mark_name(t->mark), t->error);
    s += buf;
    if (t->mwc_error) s += fmt(" (%.2f%% MWC)", 100 * *t->mwc_error);
    s += "\n";
    for (const ReviewedMove& m : t->alternatives) {
      std::snprintf(buf, sizeof buf, "  %2d. %-26s %+8.4f %+8.4f%s\n", m.rank, m.notation.c_str(),
                    m.equity, m.equity - t->best.equity,
                    m.rank == t->played.rank ? "  (played)" : "");
      s += buf;
    }
    if (t->played.rank > static_cast<int>(t->alternatives.size())) {
      std::snprintf(buf, sizeof buf, "  %2d. %-26s %+8.4f %+8.4f  (played)\n", t->played.rank,
                    t->played.notation.c_str(), t->played.equity,
                    t->played.equity - t->best.equity);
      s += buf;
    }
  }
  return s;
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
