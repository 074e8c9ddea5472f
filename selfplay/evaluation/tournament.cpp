#include "selfplay/evaluation/tournament.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "core/error.h"
#include "selfplay/search/agent_kinds.h"

namespace nardy {

namespace {

double game_score(int p) {
  return p > 0 ? 1.0 : (p == 0 ? 0.5 : 0.0);
}

// The number in "ckpt-<digits>.pt", or -1.
long long checkpoint_number(const std::string& name) {
  if (name.rfind("ckpt-", 0) != 0 || name.size() < 9 || name.substr(name.size() - 3) != ".pt")
    return -1;
  const std::string digits = name.substr(5, name.size() - 8);
  if (digits.empty() ||
      !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return -1;
  return std::stoll(digits);
}

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

// Each player's points and games over all its matches.
void player_totals(const TournamentResult& t, std::vector<double>& points,
                   std::vector<double>& games) {
  points.assign(t.players.size(), 0);
  games.assign(t.players.size(), 0);
  for (const auto& m : t.matches) {
    points[static_cast<size_t>(m.a)] += m.result.a_points;
    points[static_cast<size_t>(m.b)] -= m.result.a_points;
    games[static_cast<size_t>(m.a)] += static_cast<double>(m.result.games);
    games[static_cast<size_t>(m.b)] += static_cast<double>(m.result.games);
  }
}

}  // namespace

std::pair<double, double> match_elo(const ArenaResult& r) {
  const double games = static_cast<double>(r.games);
  const double s =
      (static_cast<double>(r.a_wins) + 0.5 * static_cast<double>(r.draws) + 0.5) / (games + 1);
  std::vector<double> pair_scores;
  for (size_t i = 0; i + 1 < r.game_points.size(); i += 2)
    pair_scores.push_back((game_score(r.game_points[i]) + game_score(r.game_points[i + 1])) / 2);
  const MeanEstimate e = estimate_mean(pair_scores);
  double se_s = e.se;
  if (!(se_s > 0)) se_s = std::sqrt(s * (1 - s) / std::max(games, 1.0));
  const double elo = elo_from_score(s);
  const double se = 400.0 / std::log(10.0) * se_s / (s * (1 - s));
  return {elo, se};
}

std::vector<std::string> expand_tournament_players(const std::vector<std::string>& args) {
  namespace fs = std::filesystem;
  std::vector<std::string> out;
  for (const auto& a : args) {
    std::error_code ec;
    if (!fs::is_directory(a, ec)) {
      out.push_back(a);
      continue;
    }
    std::vector<std::pair<long long, std::string>> found;
    for (const auto& entry : fs::directory_iterator(a, ec)) {
      const std::string name = entry.path().filename().string();
      const long long n = checkpoint_number(name);
      if (n >= 0 && entry.is_regular_file()) found.emplace_back(n, entry.path().string());
    }
    if (found.empty())
      throw Error("tournament: directory " + quote_path(a) + " holds no ckpt-*.pt checkpoints");
    std::sort(found.begin(), found.end());
    for (const auto& [n, path] : found) out.push_back("net:" + path);
  }
  return out;
}

TournamentResult run_tournament(const std::vector<std::string>& players,
                                const TournamentOptions& options) {
  if (players.size() < 2)
    throw Error("tournament: needs at least two players (got " + std::to_string(players.size()) +
                ")");
  for (const auto& p : players) make_agent(p, options.rules);  // a bad spec fails before any game
  TournamentResult t;
  t.rules = options.rules.non_default();
  t.players = players;
  const int n = static_cast<int>(players.size());
  const int total = n * (n - 1) / 2;
  int k = 0;
  std::vector<PairwiseResult> pairwise;
  for (int i = 0; i < n && !t.stopped; ++i) {
    for (int j = i + 1; j < n && !t.stopped; ++j, ++k) {
      ArenaOptions o;
      o.games = options.games;
      o.threads = options.threads;
      o.seed = options.seed + static_cast<uint64_t>(k);
      o.rules = options.rules;
      o.should_stop = options.should_stop;
      o.world = options.world;
      TournamentMatch m;
      m.a = i;
      m.b = j;
      m.result = run_arena(players[static_cast<size_t>(i)], players[static_cast<size_t>(j)], o);
      t.stopped = m.result.stopped;
      if (m.result.games == 0) break;  // stopped before its first pair: not a match
      std::tie(m.elo, m.elo_se) = match_elo(m.result);
      pairwise.push_back(PairwiseResult{i, j, m.elo, m.elo_se});
      t.matches.push_back(std::move(m));
      if (options.progress) options.progress(k + 1, total, t.matches.back().result);
    }
  }
  t.ratings = least_squares_ratings(n, pairwise);
  return t;
}

std::string TournamentResult::to_text() const {
  std::string s;
  if (!rules.empty()) s += "rules in force (not the defaults): " + rules + "\n";
  char buf[512];
  const int n = static_cast<int>(players.size());
  std::vector<int> order(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) order[static_cast<size_t>(i)] = i;
  // Best first; unrated players (NaN: no games, after a stop) last.
  auto key = [&](int x) {
    const double elo = ratings[static_cast<size_t>(x)].elo;
    return std::isnan(elo) ? -INFINITY : elo;
  };
  std::stable_sort(order.begin(), order.end(), [&](int x, int y) { return key(x) > key(y); });
  std::vector<double> pts, games;
  player_totals(*this, pts, games);
  s += "ratings (Elo from pairwise win rates by weighted least squares, anchored at player 1 = "
       "0):\n";
  std::snprintf(buf, sizeof buf, "%4s %8s %7s %19s %8s %7s  %s\n", "rank", "elo", "se", "95% CI",
                "pts/game", "games", "player");
  s += buf;
  for (size_t r = 0; r < order.size(); ++r) {
    const int i = order[r];
    const Rating& rt = ratings[static_cast<size_t>(i)];
    std::snprintf(buf, sizeof buf, "%4zu %+8.1f %7.1f [%+8.1f, %+8.1f] %+8.3f %7.0f  %d: %s\n",
                  r + 1, rt.elo, rt.se, rt.ci95_low, rt.ci95_high,
                  games[static_cast<size_t>(i)] > 0
                      ? pts[static_cast<size_t>(i)] / games[static_cast<size_t>(i)]
                      : 0.0,
                  games[static_cast<size_t>(i)], i + 1, players[static_cast<size_t>(i)].c_str());
    s += buf;
  }
  s += "matches (row player's points per game and Elo against column player):\n";
  for (const auto& m : matches) {
    std::snprintf(buf, sizeof buf,
                  "  %d vs %d: %lld games, %+.3f pts/game [%+.3f, %+.3f], Elo %+.1f ± %.1f\n",
                  m.a + 1, m.b + 1, static_cast<long long>(m.result.games),
                  m.result.a_points_per_game, m.result.ci95_low, m.result.ci95_high, m.elo,
                  1.96 * m.elo_se);
    s += buf;
  }
  if (stopped) {
    const size_t n_matches = players.size() * (players.size() - 1) / 2;
    s += "stopped on request after " + std::to_string(matches.size()) + " of " +
         std::to_string(n_matches) + " matches (the last one possibly cut short)\n";
  }
  return s;
}

std::string TournamentResult::to_csv() const {
  std::string s = "player,spec,elo,elo_se,elo_ci95_low,elo_ci95_high,points_per_game,games\n";
  const size_t n = players.size();
  std::vector<double> pts, games;
  player_totals(*this, pts, games);
  char buf[256];
  for (size_t i = 0; i < n; ++i) {
    const Rating& r = ratings[i];
    std::snprintf(buf, sizeof buf, ",%.3f,%.3f,%.3f,%.3f,%.5f,%.0f\n", r.elo, r.se, r.ci95_low,
                  r.ci95_high, games[i] > 0 ? pts[i] / games[i] : 0.0, games[i]);
    s += std::to_string(i + 1) + "," + csv_field(players[i]) + buf;
  }
  return s;
}

std::string TournamentResult::to_json() const {
  nlohmann::json j;
  j["players"] = nlohmann::json::array();
  for (size_t i = 0; i < players.size(); ++i) {
    const Rating& r = ratings[i];
    auto num = [](double x) {
      return std::isfinite(x) ? nlohmann::json(x) : nlohmann::json(nullptr);
    };
    j["players"].push_back({{"spec", players[i]},
                            {"elo", num(r.elo)},
                            {"elo_se", num(r.se)},
                            {"elo_ci95_low", num(r.ci95_low)},
                            {"elo_ci95_high", num(r.ci95_high)}});
  }
  j["matches"] = nlohmann::json::array();
  for (const auto& m : matches) {
    nlohmann::json mj = nlohmann::json::parse(m.result.to_json(/*per_game=*/false));
    mj["a"] = m.a;
    mj["b"] = m.b;
    mj["rating_elo"] = m.elo;
    mj["rating_elo_se"] = m.elo_se;
    j["matches"].push_back(mj);
  }
  j["stopped"] = stopped;
  return j.dump(2);
}

}  // namespace nardy
