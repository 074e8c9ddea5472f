#include "selfplay/training/progress.h"

#include <cmath>
#include <cstdio>

namespace nardy {
namespace {

std::string printf_string(const char* fmt, auto... args) {
  char buf[512];
  std::snprintf(buf, sizeof buf, fmt, args...);
  return buf;
}

std::string signed_points(double x) {
  return std::isfinite(x) ? printf_string("%+.3f", x) : "n/a";
}

}  // namespace

std::string format_duration(double s) {
  if (!std::isfinite(s) || s < 0) return "?";
  const long t = std::lround(s);
  if (t < 60) return printf_string("%lds", t);
  if (t < 3600) return printf_string("%ldm%02lds", t / 60, t % 60);
  return printf_string("%ldh%02ldm", t / 3600, (t % 3600) / 60);
}

std::string format_eval_line(const std::vector<EvalEntry>& eval, int64_t at_games) {
  std::string s = printf_string("eval @ %lld games:", static_cast<long long>(at_games));
  for (size_t i = 0; i < eval.size(); ++i) {
    const ArenaResult& r = eval[i].result;
    s += (i ? " |" : "") + std::string(" ") + eval[i].opponent + " " +
         signed_points(r.a_points_per_game) + " [" + signed_points(r.ci95_low) + ", " +
         signed_points(r.ci95_high) + "]" + printf_string(" win %.1f%%", 100 * r.a_win_rate);
  }
  return s;
}

std::string format_progress_line(const TrainProgress& p) {
  const double pct = p.games_total > 0 ? 100.0 * static_cast<double>(p.games_done) /
                                             static_cast<double>(p.games_total)
                                       : 0;
  std::string s =
      printf_string("%lld/%lld games (%.1f%%)  %.1f games/s  elapsed %s  ETA %s",
                    static_cast<long long>(p.games_done), static_cast<long long>(p.games_total),
                    pct, p.games_per_s, format_duration(p.elapsed_s).c_str(),
                    p.games_per_s > 0 ? format_duration(p.eta_s).c_str() : "?");
  if (p.evaluating) {
    s += "  [evaluating]";
  } else if (!p.latest_eval.empty()) {
    s += "  |";
    for (const auto& e : p.latest_eval)
      s += " " + e.opponent + " " + signed_points(e.result.a_points_per_game);
  }
  return s;
}

std::string format_summary(const TrainResult& r, const std::string& best_opponent) {
  std::string s;
  if (r.completed) {
    s += printf_string("finished %lld games, %lld TD updates; training time %s (this session %s)\n",
                       static_cast<long long>(r.games_done), static_cast<long long>(r.positions),
                       format_duration(r.elapsed_s).c_str(), format_duration(r.session_s).c_str());
  } else {
    s += printf_string(
        "stopped at %lld games (%lld TD updates); training time %s\n"
        "continue with: nardy train --resume %s\n",
        static_cast<long long>(r.games_done), static_cast<long long>(r.positions),
        format_duration(r.elapsed_s).c_str(), r.run_dir.c_str());
  }
  if (!r.final_eval.empty()) {
    s += printf_string(
        "%s evaluation at %lld games (greedy net vs opponent, mirrored pairs, 95%% CI):\n",
        r.completed ? "final" : "latest", static_cast<long long>(r.final_eval_games));
    for (const auto& e : r.final_eval) {
      const ArenaResult& a = e.result;
      s += printf_string(
          "  %-12s %6lld games  %s points/game [%s, %s]  win %.1f%%  mars won %lld lost %lld\n",
          e.opponent.c_str(), static_cast<long long>(a.games),
          signed_points(a.a_points_per_game).c_str(), signed_points(a.ci95_low).c_str(),
          signed_points(a.ci95_high).c_str(), 100 * a.a_win_rate, static_cast<long long>(a.a_mars),
          static_cast<long long>(a.b_mars));
    }
  }
  if (!r.checkpoint.empty())
    s += "checkpoint: " + r.checkpoint + " (also " + r.run_dir + "/latest.pt)\n";
  if (!r.best_checkpoint.empty())
    s += "best:       " + r.best_checkpoint + " (by points per game vs " + best_opponent + ")\n";
  s += "run directory: " + r.run_dir;
  return s;
}

}  // namespace nardy
