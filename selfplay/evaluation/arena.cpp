#include "selfplay/evaluation/arena.h"

#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <exception>
#include <limits>
#include <mutex>
#include <nlohmann/json.hpp>

#include "core/error.h"
#include "core/parallel_for.h"
#include "selfplay/agents/play.h"
#include "selfplay/evaluation/stats.h"
#include "selfplay/search/agent_kinds.h"

namespace nardy {

namespace {

constexpr uint64_t kAgentSalt = 0x6A09E667F3BCC909ull;

// Score of one game for A: 1 win, 0.5 draw, 0 loss.
double game_score(int a_points) {
  return a_points > 0 ? 1.0 : (a_points == 0 ? 0.5 : 0.0);
}
double pair_score(int p0, int p1) {
  return (game_score(p0) + game_score(p1)) / 2;
}

// The SPRT over pair scores in order, stopping at the first crossing (as run_arena does).
struct SprtWalk {
  std::string verdict = "inconclusive";
  double llr = 0;
  int64_t pairs = 0;  // pairs walked (the stopping point when there is a verdict)
};
SprtWalk walk_sprt(const std::vector<double>& pair_scores, const SprtOptions& sprt) {
  const SprtBounds bounds = sprt_bounds(sprt.alpha, sprt.beta);
  SprtWalk w;
  double sum = 0, sum_sq = 0;
  for (double x : pair_scores) {
    sum += x;
    sum_sq += x * x;
    ++w.pairs;
    w.llr = sprt_llr(w.pairs, sum, sum_sq, sprt.elo0, sprt.elo1);
    if (w.pairs < sprt.min_pairs) continue;
    if (w.llr >= bounds.upper || w.llr <= bounds.lower) {
      w.verdict = w.llr >= bounds.upper ? "H1" : "H0";
      break;
    }
  }
  return w;
}

nlohmann::json finite_or_null(double x) {
  return std::isfinite(x) ? nlohmann::json(x) : nlohmann::json(nullptr);
}

}  // namespace

Rng arena_dice_rng(uint64_t seed, int64_t pair) {
  return Rng(seed).split(static_cast<uint64_t>(pair));
}

Rng arena_agent_rng(uint64_t seed, int64_t pair, int game) {
  return Rng(seed ^ kAgentSalt)
      .split(static_cast<uint64_t>(pair) * 2 + static_cast<uint64_t>(game));
}

PairPlay play_pair(Agent& a, Agent& b, const Rules& rules, uint64_t seed, int64_t pair,
                   Game* records) {
  PairPlay out;
  for (int g = 0; g < 2; ++g) {
    Rng dice = arena_dice_rng(seed, pair);
    Rng agent_rng = arena_agent_rng(seed, pair, g);
    Agent& white = g == 0 ? a : b;
    Agent& black = g == 0 ? b : a;
    GameSummary s =
        play_game(white, black, rules, dice, agent_rng, records ? &records[g] : nullptr);
    out.a_points[g] = s.outcome.points_for(g == 0 ? Side::White : Side::Black);
    out.turns[g] = s.turns;
  }
  return out;
}

ArenaResult arena_statistics(const std::vector<int>& game_points,
                             const std::optional<SprtOptions>& sprt) {
  if (game_points.size() % 2 != 0)
    throw Error("arena statistics: odd number of games (games come in pairs)");
  ArenaResult r;
  r.game_points = game_points;
  r.games = static_cast<int64_t>(game_points.size());
  r.pairs = r.games / 2;
  std::vector<double> pair_means, pair_scores;
  for (int64_t i = 0; i < r.pairs; ++i) {
    const int p0 = game_points[static_cast<size_t>(2 * i)],
              p1 = game_points[static_cast<size_t>(2 * i + 1)];
    r.pair_points.push_back(p0 + p1);
    pair_means.push_back((p0 + p1) / 2.0);
    pair_scores.push_back(pair_score(p0, p1));
    for (int p : {p0, p1}) {
      r.a_points += p;
      if (p > 0) {
        ++r.a_wins;
        ++(p == 2 ? r.a_mars : r.a_oin);
      } else if (p < 0) {
        ++r.b_wins;
        ++(p == -2 ? r.b_mars : r.b_oin);
      } else {
        ++r.draws;
      }
    }
  }
  if (r.games > 0) {
    r.a_points_per_game = r.a_points / static_cast<double>(r.games);
    r.a_win_rate = (static_cast<double>(r.a_wins) + 0.5 * static_cast<double>(r.draws)) /
                   static_cast<double>(r.games);
  }
  const MeanEstimate pm = estimate_mean(pair_means);
  r.ci95_low = pm.ci95_low;
  r.ci95_high = pm.ci95_high;
  const MeanEstimate ps = estimate_mean(pair_scores);
  r.elo = elo_from_score(r.a_win_rate);
  r.elo_ci95_low = r.pairs >= 2 ? elo_from_score(ps.ci95_low) : -INFINITY;
  r.elo_ci95_high = r.pairs >= 2 ? elo_from_score(ps.ci95_high) : INFINITY;
  if (sprt) {
    r.sprt = sprt;
    const SprtBounds bounds = sprt_bounds(sprt->alpha, sprt->beta);
    r.sprt_lower = bounds.lower;
    r.sprt_upper = bounds.upper;
    const SprtWalk walk = walk_sprt(pair_scores, *sprt);
    r.sprt_verdict = walk.verdict;
    r.sprt_llr = walk.llr;
  }
  return r;
}

ArenaResult run_arena(const AgentMaker& make_a, const AgentMaker& make_b,
                      const ArenaOptions& options) {
  if (options.games < 1)
    throw Error("arena: --games must be at least 1 (got " + std::to_string(options.games) + ")");
  if (options.threads < 1)
    throw Error("arena: --threads must be at least 1 (got " + std::to_string(options.threads) +
                ")");
  if (options.sprt) {
    const auto& s = *options.sprt;
    if (!(s.elo1 > s.elo0)) throw Error("arena: SPRT needs ELO0 < ELO1");
    if (!(s.alpha > 0 && s.alpha < 0.5 && s.beta > 0 && s.beta < 0.5))
      throw Error("arena: SPRT alpha and beta must lie in (0, 0.5)");
  }
  World& world = options.world ? *options.world : single_process_world();
  // This rank's pairs: [first, first + pairs).
  const IndexRange block = block_of((options.games + 1) / 2, world.rank(), world.size());
  const int64_t first = block.begin, pairs = block.size();
  // With several ranks the SPRT runs on the gathered pairs (see the header).
  const bool sprt_here = options.sprt && world.size() == 1;

  struct Slot {
    PairPlay play;
    bool done = false;
  };
  std::vector<Slot> slots(static_cast<size_t>(pairs));
  std::mutex mutex;
  std::atomic<int64_t> next{0};
  std::atomic<int64_t> stop_at{pairs};  // pairs at and beyond this index are not needed
  std::atomic<int64_t> games_done{0};
  std::atomic<bool> stopped{false};
  std::string a_spec, b_spec;
  // In-order SPRT state (guarded by `mutex`).
  int64_t prefix = 0;
  double sum = 0, sum_sq = 0;
  const SprtBounds bounds =
      options.sprt ? sprt_bounds(options.sprt->alpha, options.sprt->beta) : SprtBounds{};

  // Agents that poll the hook before every move (the factories' own when there is no hook).
  const AgentMaker player_a = stoppable_maker(make_a, options.should_stop);
  const AgentMaker player_b = stoppable_maker(make_b, options.should_stop);
  auto stop_requested = [&] {
    if (!stopped.load() && options.should_stop && options.should_stop()) stopped.store(true);
    return stopped.load();
  };

  struct Players {
    std::unique_ptr<Agent> a, b;
  };
  auto make_players = [&](int thread_index) {
    Players p{player_a(), player_b()};
    if (!p.a || !p.b) throw Error("arena: an agent factory returned no agent");
    if (thread_index == 0) {
      a_spec = p.a->spec();  // read only after parallel_for returns
      b_spec = p.b->spec();
    }
    return p;
  };
  auto play_one_pair = [&](Players& players, int64_t i) {
    if (stop_requested() || i >= stop_at.load()) return false;
    PairPlay play;
    try {
      play = play_pair(*players.a, *players.b, options.rules, options.seed, first + i);
    } catch (const Stopped&) {
      stopped.store(true);  // pair i is abandoned
      return false;
    }
    {
      std::lock_guard lock(mutex);
      slots[static_cast<size_t>(i)] = Slot{play, true};
      if (sprt_here) {
        while (prefix < stop_at.load() && slots[static_cast<size_t>(prefix)].done) {
          const PairPlay& p = slots[static_cast<size_t>(prefix)].play;
          const double x = pair_score(p.a_points[0], p.a_points[1]);
          sum += x;
          sum_sq += x * x;
          ++prefix;
          if (prefix < options.sprt->min_pairs) continue;
          const double llr = sprt_llr(prefix, sum, sum_sq, options.sprt->elo0, options.sprt->elo1);
          if (llr >= bounds.upper || llr <= bounds.lower) stop_at.store(prefix);
        }
      }
    }
    const int64_t done = games_done.fetch_add(2) + 2;
    if (options.progress) options.progress(done);
    return true;
  };
  // With several ranks a failure here travels to the others through the gather below.
  std::exception_ptr error;
  try {
    parallel_for(pairs, options.threads, make_players, play_one_pair);
  } catch (...) {
    if (world.size() == 1) throw;
    error = std::current_exception();
  }

  // The finished pairs from this block's start on: all that were needed, unless a stop left a
  // gap.
  const int64_t needed = stop_at.load();
  int64_t used = 0;
  while (used < needed && slots[static_cast<size_t>(used)].done) ++used;
  // Per pair: A's points and the turns of both games.
  std::vector<int32_t> played;
  played.reserve(static_cast<size_t>(4 * used));
  for (int64_t i = 0; i < used; ++i) {
    const PairPlay& p = slots[static_cast<size_t>(i)].play;
    played.insert(played.end(), {p.a_points[0], p.a_points[1], p.turns[0], p.turns[1]});
  }
  bool stopped_early = used < needed;
  if (world.size() > 1) {
    // Every rank sends <complete flag><pairs>; the blocks join in rank order up to the first one
    // a stop cut short.
    const std::string mine =
        std::string(1, stopped_early ? '0' : '1') +
        std::string(reinterpret_cast<const char*>(played.data()), played.size() * sizeof(int32_t));
    const std::vector<std::string> all = gather_results(world, mine, error, "arena");
    played.clear();
    stopped_early = false;
    for (const std::string& rank_bytes : all) {
      const size_t n = (rank_bytes.size() - 1) / sizeof(int32_t);
      const size_t at = played.size();
      played.resize(at + n);
      std::memcpy(played.data() + at, rank_bytes.data() + 1, n * sizeof(int32_t));
      if (rank_bytes[0] != '1') {
        stopped_early = true;
        break;
      }
    }
  }
  std::vector<int> game_points;
  game_points.reserve(played.size() / 2);
  for (size_t k = 0; k + 3 < played.size(); k += 4) {
    game_points.push_back(played[k]);
    game_points.push_back(played[k + 1]);
  }
  if (options.sprt && !sprt_here) {
    // Keep the pairs up to the SPRT's stopping point, as one process would have played them.
    std::vector<double> scores;
    for (size_t k = 0; k + 1 < game_points.size(); k += 2)
      scores.push_back(pair_score(game_points[k], game_points[k + 1]));
    const SprtWalk walk = walk_sprt(scores, *options.sprt);
    if (walk.verdict != "inconclusive") {
      game_points.resize(static_cast<size_t>(2 * walk.pairs));
      played.resize(static_cast<size_t>(4 * walk.pairs));
      stopped_early = false;
    }
  }
  int64_t turns = 0;
  for (size_t k = 0; k + 3 < played.size(); k += 4) turns += played[k + 2] + played[k + 3];
  ArenaResult r = arena_statistics(game_points, options.sprt);
  r.turns = turns;
  r.a_spec = a_spec;
  r.b_spec = b_spec;
  r.stopped = stopped_early;
  r.rules = options.rules.non_default();
  return r;
}

ArenaResult run_arena(const std::string& spec_a, const std::string& spec_b,
                      const ArenaOptions& options) {
  return run_arena(checked_agent_maker(spec_a, options.rules),
                   checked_agent_maker(spec_b, options.rules), options);
}

std::string ArenaResult::to_json(bool per_game) const {
  nlohmann::json j;
  j["a_spec"] = a_spec;
  j["b_spec"] = b_spec;
  j["games"] = games;
  j["pairs"] = pairs;
  j["a_wins"] = a_wins;
  j["a_oin"] = a_oin;
  j["a_mars"] = a_mars;
  j["b_wins"] = b_wins;
  j["b_oin"] = b_oin;
  j["b_mars"] = b_mars;
  j["draws"] = draws;
  j["a_points"] = a_points;
  j["a_points_per_game"] = a_points_per_game;
  j["ci95_low"] = finite_or_null(ci95_low);
  j["ci95_high"] = finite_or_null(ci95_high);
  j["a_win_rate"] = a_win_rate;
  j["elo"] = elo;
  j["elo_ci95_low"] = finite_or_null(elo_ci95_low);
  j["elo_ci95_high"] = finite_or_null(elo_ci95_high);
  j["turns"] = turns;
  j["mean_turns_per_game"] =
      games > 0 ? static_cast<double>(turns) / static_cast<double>(games) : 0.0;
  if (sprt) {
    j["sprt"] = {{"elo0", sprt->elo0},  {"elo1", sprt->elo1},     {"alpha", sprt->alpha},
                 {"beta", sprt->beta},  {"llr", sprt_llr},        {"lower", sprt_lower},
                 {"upper", sprt_upper}, {"verdict", sprt_verdict}};
  }
  j["stopped"] = stopped;
  if (per_game) {
    j["pair_points"] = pair_points;
    j["game_points"] = game_points;
  }
  return j.dump(2);
}

ArenaResult ArenaResult::from_json(std::string_view text, const std::string& source) {
  ArenaResult r;
  try {
    const nlohmann::json j = nlohmann::json::parse(text);
    if (!j.is_object()) throw Error(source + ": a match result must be a JSON object");
    // A CI end: a number, or null for an infinite one (-inf low, +inf high).
    auto end = [&](const char* key, double if_null) {
      return j.contains(key) && j[key].is_number() ? j[key].get<double>() : if_null;
    };
    constexpr double inf = std::numeric_limits<double>::infinity();
    r.a_spec = j.value("a_spec", "");
    r.b_spec = j.value("b_spec", "");
    r.games = j.value("games", int64_t{0});
    r.pairs = j.value("pairs", int64_t{0});
    r.a_wins = j.value("a_wins", int64_t{0});
    r.a_oin = j.value("a_oin", int64_t{0});
    r.a_mars = j.value("a_mars", int64_t{0});
    r.b_wins = j.value("b_wins", int64_t{0});
    r.b_oin = j.value("b_oin", int64_t{0});
    r.b_mars = j.value("b_mars", int64_t{0});
    r.draws = j.value("draws", int64_t{0});
    r.a_points = j.value("a_points", 0.0);
    r.a_points_per_game = j.value("a_points_per_game", 0.0);
    r.ci95_low = end("ci95_low", -inf);
    r.ci95_high = end("ci95_high", inf);
    r.a_win_rate = j.value("a_win_rate", 0.0);
    r.elo = j.value("elo", 0.0);
    r.elo_ci95_low = end("elo_ci95_low", -inf);
    r.elo_ci95_high = end("elo_ci95_high", inf);
    r.turns = j.value("turns", int64_t{0});
    r.stopped = j.value("stopped", false);
    if (j.contains("sprt")) {
      const nlohmann::json& t = j["sprt"];
      SprtOptions o;
      o.elo0 = t.value("elo0", o.elo0);
      o.elo1 = t.value("elo1", o.elo1);
      o.alpha = t.value("alpha", o.alpha);
      o.beta = t.value("beta", o.beta);
      r.sprt = o;
      r.sprt_llr = t.value("llr", 0.0);
      r.sprt_lower = t.value("lower", 0.0);
      r.sprt_upper = t.value("upper", 0.0);
      r.sprt_verdict = t.value("verdict", "");
    }
    if (j.contains("pair_points")) r.pair_points = j["pair_points"].get<std::vector<int>>();
    if (j.contains("game_points")) r.game_points = j["game_points"].get<std::vector<int>>();
  } catch (const nlohmann::json::exception& e) {
    throw Error(source + ": not a match result (" + e.what() + ")");
  }
  return r;
}

std::string ArenaResult::to_text() const {
  char buf[512];
  std::string s;
  std::snprintf(buf, sizeof buf, "A %s  vs  B %s\n", a_spec.c_str(), b_spec.c_str());
  s += buf;
  if (!rules.empty()) s += "rules in force (not the defaults): " + rules + "\n";
  std::snprintf(buf, sizeof buf, "games %lld (%lld pairs, mirrored dice)\n",
                static_cast<long long>(games), static_cast<long long>(pairs));
  s += buf;
  std::snprintf(
      buf, sizeof buf,
      "A wins %lld (oin %lld, mars %lld)   B wins %lld (oin %lld, mars %lld)   draws %lld\n"
      "  (oin: a single win, 1 point; mars: the loser bore off no checker, 2 points)\n",
      static_cast<long long>(a_wins), static_cast<long long>(a_oin), static_cast<long long>(a_mars),
      static_cast<long long>(b_wins), static_cast<long long>(b_oin), static_cast<long long>(b_mars),
      static_cast<long long>(draws));
  s += buf;
  std::snprintf(buf, sizeof buf, "A points per game %+.4f   95%% CI [%+.4f, %+.4f]\n",
                a_points_per_game, ci95_low, ci95_high);
  s += buf;
  std::snprintf(buf, sizeof buf, "A win rate %.4f   Elo %+.1f   95%% CI [%+.1f, %+.1f]\n",
                a_win_rate, elo, elo_ci95_low, elo_ci95_high);
  s += buf;
  if (sprt) {
    std::snprintf(buf, sizeof buf,
                  "SPRT elo0=%g elo1=%g alpha=%g beta=%g: LLR %.3f in [%.3f, %.3f] -> %s\n",
                  sprt->elo0, sprt->elo1, sprt->alpha, sprt->beta, sprt_llr, sprt_lower, sprt_upper,
                  sprt_verdict.c_str());
    s += buf;
  }
  if (stopped) s += "stopped on request: the figures cover the games above\n";
  return s;
}

}  // namespace nardy
