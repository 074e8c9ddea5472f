#include "selfplay/evaluation/match_play.h"

#include <atomic>
#include <cmath>
#include <cstdio>
#include <exception>
#include <mutex>
#include <nlohmann/json.hpp>
#include <thread>

#include "core/error.h"
#include "selfplay/agents/play.h"
#include "selfplay/evaluation/arena.h"
#include "selfplay/evaluation/stats.h"
#include "selfplay/search/agent_kinds.h"

namespace nardy {

namespace {

nlohmann::json finite_or_null(double x) {
  return std::isfinite(x) ? nlohmann::json(x) : nlohmann::json(nullptr);
}

}  // namespace

MatchPlay play_match(Agent& a, Agent& b, const MatchEquityTable& table, const Rules& rules,
                     uint64_t seed, int64_t pair, int first_white, Match* record) {
  MatchPlay out;
  out.score = MatchScore(table.target(), first_white);
  if (record) *record = Match(table.target(), rules, first_white);
  Agent* players[2] = {&a, &b};
  for (int g = 0; !out.score.is_over(); ++g) {
    const GameStakes stakes = table.stakes(out.score);
    a.set_game_stakes(stakes);
    b.set_game_stakes(stakes);
    Rng dice = arena_dice_rng(seed, pair).split(static_cast<uint64_t>(g));
    Rng agent_rng = arena_agent_rng(seed, pair, first_white).split(static_cast<uint64_t>(g));
    const int white = out.score.white_player();
    if (record && g > 0) record->start_next_game();
    const GameSummary s = play_game(*players[white], *players[1 - white], rules, dice, agent_rng,
                                    record ? &record->current_game() : nullptr);
    out.score.add_game(s.outcome, rules);
    ++out.games;
  }
  a.set_game_stakes(std::nullopt);
  b.set_game_stakes(std::nullopt);
  return out;
}

MatchResult match_statistics(int target, const std::vector<int>& pair_wins,
                             const std::vector<int>& match_games) {
  if (match_games.size() != 2 * pair_wins.size())
    throw Error("match statistics: " + std::to_string(match_games.size()) + " match lengths for " +
                std::to_string(pair_wins.size()) + " pairs");
  MatchResult r;
  r.target = target;
  r.pair_wins = pair_wins;
  r.match_games = match_games;
  r.pairs = static_cast<int64_t>(pair_wins.size());
  r.matches = 2 * r.pairs;
  std::vector<double> scores;
  for (int w : pair_wins) {
    if (w < 0 || w > 2)
      throw Error("match statistics: a pair has 0..2 wins, got " + std::to_string(w));
    r.a_wins += w;
    scores.push_back(w / 2.0);
  }
  r.b_wins = r.matches - r.a_wins;
  for (int g : match_games) r.games += g;
  if (r.matches > 0) {
    r.a_win_rate = static_cast<double>(r.a_wins) / static_cast<double>(r.matches);
    r.mean_games_per_match = static_cast<double>(r.games) / static_cast<double>(r.matches);
  }
  const MeanEstimate m = estimate_mean(scores);
  r.ci95_low = m.ci95_low;
  r.ci95_high = m.ci95_high;
  return r;
}

MatchResult run_matches(const AgentMaker& make_a, const AgentMaker& make_b,
                        const MatchOptions& options) {
  if (options.matches < 1)
    throw Error("match: --matches must be at least 1 (got " + std::to_string(options.matches) +
                ")");
  if (options.threads < 1)
    throw Error("match: --threads must be at least 1 (got " + std::to_string(options.threads) +
                ")");
  if (options.target < 1 || options.target > kMaxMatchTarget)
    throw Error("match: --to must be 1.." + std::to_string(kMaxMatchTarget) + " points (got " +
                std::to_string(options.target) + ")");
  const GameOutcomeModel model = options.model.value_or(GameOutcomeModel::self_play(options.rules));
  const MatchEquityTable table(options.target, model, options.rules);

  const int64_t pairs = (options.matches + 1) / 2;
  const int threads = static_cast<int>(std::min<int64_t>(options.threads, pairs));
  struct Slot {
    int wins = 0;
    int games[2] = {0, 0};
    bool done = false;
  };
  std::vector<Slot> slots(static_cast<size_t>(pairs));
  std::mutex mutex;
  std::atomic<int64_t> next{0}, matches_done{0};
  std::atomic<bool> stopped{false}, failed{false};
  std::exception_ptr error;
  std::string a_spec, b_spec;
  const AgentMaker player_a = stoppable_maker(make_a, options.should_stop);
  const AgentMaker player_b = stoppable_maker(make_b, options.should_stop);
  auto stop_requested = [&] {
    if (!stopped.load() && options.should_stop && options.should_stop()) stopped.store(true);
    return stopped.load() || failed.load();
  };

  auto worker = [&](int thread_index) {
    try {
      std::unique_ptr<Agent> a = player_a();
      std::unique_ptr<Agent> b = player_b();
      if (!a || !b) throw Error("match: an agent factory returned no agent");
      if (thread_index == 0) {
        std::lock_guard lock(mutex);
        a_spec = a->spec();
        b_spec = b->spec();
      }
      for (;;) {
        if (stop_requested()) break;
        const int64_t i = next.fetch_add(1);
        if (i >= pairs) break;
        Slot slot;
        try {
          for (int m = 0; m < 2; ++m) {
            const MatchPlay p = play_match(*a, *b, table, options.rules, options.seed, i, m);
            slot.wins += *p.score.winner() == 0 ? 1 : 0;
            slot.games[m] = p.games;
          }
        } catch (const Stopped&) {
          stopped.store(true);
          break;
        }
        slot.done = true;
        {
          std::lock_guard lock(mutex);
          slots[static_cast<size_t>(i)] = slot;
        }
        const int64_t done = matches_done.fetch_add(2) + 2;
        if (options.progress) options.progress(done);
      }
    } catch (...) {
      std::lock_guard lock(mutex);
      if (!error) error = std::current_exception();
      failed.store(true);
    }
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(worker, t);
  worker(0);
  for (auto& t : pool) t.join();
  if (error) std::rethrow_exception(error);

  int64_t used = 0;
  while (used < pairs && slots[static_cast<size_t>(used)].done) ++used;
  std::vector<int> pair_wins, match_games;
  for (int64_t i = 0; i < used; ++i) {
    const Slot& s = slots[static_cast<size_t>(i)];
    pair_wins.push_back(s.wins);
    match_games.push_back(s.games[0]);
    match_games.push_back(s.games[1]);
  }
  MatchResult r = match_statistics(options.target, pair_wins, match_games);
  r.a_spec = a_spec;
  r.b_spec = b_spec;
  r.model = model;
  r.stopped = used < pairs;
  return r;
}

MatchResult run_matches(const std::string& spec_a, const std::string& spec_b,
                        const MatchOptions& options) {
  return run_matches(checked_agent_maker(spec_a, options.rules),
                     checked_agent_maker(spec_b, options.rules), options);
}

std::string MatchResult::to_json() const {
  nlohmann::json j;
  j["a_spec"] = a_spec;
  j["b_spec"] = b_spec;
  j["target"] = target;
  j["matches"] = matches;
  j["pairs"] = pairs;
  j["a_wins"] = a_wins;
  j["b_wins"] = b_wins;
  j["a_win_rate"] = a_win_rate;
  j["ci95_low"] = finite_or_null(ci95_low);
  j["ci95_high"] = finite_or_null(ci95_high);
  j["games"] = games;
  j["mean_games_per_match"] = mean_games_per_match;
  j["model"] = {{"white_oin", model.white_oin},
                {"white_mars", model.white_mars},
                {"black_oin", model.black_oin},
                {"black_mars", model.black_mars},
                {"draw", model.draw}};
  j["stopped"] = stopped;
  j["pair_wins"] = pair_wins;
  j["match_games"] = match_games;
  return j.dump(2);
}

std::string MatchResult::to_text() const {
  char buf[512];
  std::string s;
  std::snprintf(buf, sizeof buf, "A %s  vs  B %s\n", a_spec.c_str(), b_spec.c_str());
  s += buf;
  std::snprintf(buf, sizeof buf, "matches to %d: %lld (%lld pairs, mirrored dice)\n", target,
                static_cast<long long>(matches), static_cast<long long>(pairs));
  s += buf;
  std::snprintf(buf, sizeof buf, "A wins %lld   B wins %lld\n", static_cast<long long>(a_wins),
                static_cast<long long>(b_wins));
  s += buf;
  std::snprintf(buf, sizeof buf, "A match win rate %.4f   95%% CI [%.4f, %.4f]\n", a_win_rate,
                ci95_low, ci95_high);
  s += buf;
  std::snprintf(buf, sizeof buf, "mean games per match %.3f\n", mean_games_per_match);
  s += buf;
  if (stopped) s += "stopped on request: the figures cover the matches above\n";
  return s;
}

}  // namespace nardy
