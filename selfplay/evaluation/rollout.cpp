#include "selfplay/evaluation/rollout.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <type_traits>
#include <exception>
#include <mutex>
#include <nlohmann/json.hpp>
#include <vector>

#include "core/error.h"
#include "core/game.h"
#include "core/parallel_for.h"
#include "selfplay/search/net_agent.h"
#include "selfplay/search/shipped_models.h"
#include "selfplay/evaluation/stats.h"

namespace nardy {

namespace {

constexpr uint64_t kDiceSalt = 0x243F6A8885A308D3ull;
constexpr uint64_t kAgentSalt = 0x13198A2E03707344ull;

using Outputs = std::array<double, kRoNumOutputs>;

Outputs outputs_of(const Evaluation& e) {
  return {e.win, e.win_mars, e.lose(), e.lose_mars, e.draw, e.equity()};
}

Outputs outcome_outputs(const Outcome& o, Side root) {
  Outputs v{};
  if (o.is_draw()) {
    v[kRoDraw] = 1;
    return v;
  }
  const bool won = *o.winner == root;
  v[won ? kRoWin : kRoLose] = 1;
  if (o.is_mars()) v[won ? kRoWinMars : kRoLoseMars] = 1;
  v[kRoEquity] = o.points_for(root);
  return v;
}

struct Trial {
  Outputs raw{}, adjusted{};
  int turns = 0;
};

// The ordered rolls allowed first: all 36, or the 30 non-doubles (opening=no_doubles at the start).
Dice first_roll_of(int64_t t, bool no_doubles) {
  if (!no_doubles) return ordered_roll(static_cast<int>(t % 36));
  int i = static_cast<int>(t % 30);  // i-th non-double in ordered index order
  for (int k = 0; k < 36; ++k) {
    if (k / 6 == k % 6) continue;
    if (i-- == 0) return ordered_roll(k);
  }
  return ordered_roll(1);
}

// Makes a luck head's terms of one turn keep the outcomes a distribution: the luck of win, lose
// and draw sums to 0 (their orthogonal projection onto that plane), and where the rules have no
// draws, the draw's luck is 0 and the lose's is minus the win's. (The exact 21-roll terms come
// from evaluations that are distributions already.)
void keep_a_distribution(Outputs& luck, bool draws) {
  if (!draws) {
    const double w = 0.5 * (luck[kRoWin] - luck[kRoLose]);
    luck[kRoWin] = w;
    luck[kRoLose] = -w;
    luck[kRoDraw] = 0;
    return;
  }
  const double mean = (luck[kRoWin] + luck[kRoLose] + luck[kRoDraw]) / 3;
  for (const int k : {kRoWin, kRoLose, kRoDraw}) luck[static_cast<size_t>(k)] -= mean;
}

// The reported estimates of win, lose and draw as a distribution: each mean in [0, 1] and mars
// at most its win, the three summing to 1. A luck-adjusted mean can stray outside by about its
// standard error; the standard errors are left as measured.
void clamp_to_a_distribution(std::array<RolloutStat, kRoNumOutputs>& est) {
  bool clamped = false;
  for (const int k : {kRoWin, kRoWinMars, kRoLose, kRoLoseMars, kRoDraw}) {
    double& mean = est[static_cast<size_t>(k)].mean;
    const double in_range = std::clamp(mean, 0.0, 1.0);
    clamped = clamped || in_range != mean;
    mean = in_range;
  }
  const double sum = est[kRoWin].mean + est[kRoLose].mean + est[kRoDraw].mean;
  if (clamped && sum > 0)  // estimates in range are left to the bit
    for (const int k : {kRoWin, kRoLose, kRoDraw}) est[static_cast<size_t>(k)].mean /= sum;
  est[kRoWinMars].mean = std::min(est[kRoWinMars].mean, est[kRoWin].mean);
  est[kRoLoseMars].mean = std::min(est[kRoLoseMars].mean, est[kRoLose].mean);
}

static_assert(std::is_trivially_copyable_v<Trial>);

// Every rank's trials in rank order (= trial order). Rethrows this rank's own `error`, or
// throws for another rank's.
std::vector<Trial> gather_trials(World& world, const std::vector<Trial>& mine,
                                 std::exception_ptr error) {
  const std::string bytes(reinterpret_cast<const char*>(mine.data()), mine.size() * sizeof(Trial));
  std::vector<Trial> out;
  for (const std::string& rank_bytes : gather_results(world, bytes, error, "rollout")) {
    const size_t n = rank_bytes.size() / sizeof(Trial);
    const size_t at = out.size();
    out.resize(at + n);
    std::memcpy(static_cast<void*>(out.data() + at), rank_bytes.data(), n * sizeof(Trial));
  }
  return out;
}

}  // namespace

Dice ordered_roll(int i) {
  return Dice{static_cast<uint8_t>(i / 6 + 1), static_cast<uint8_t>(i % 6 + 1)};
}

Dice stratified_first_roll(int64_t trial, bool no_doubles) {
  return first_roll_of(trial, no_doubles);
}

Dice stratified_second_roll(int64_t trial, bool no_doubles) {
  const int64_t n1 = no_doubles ? 30 : 36;
  return ordered_roll(static_cast<int>((7 * (trial % n1) + trial / n1) % 36));
}

RolloutResult RolloutResult::flipped() const {
  RolloutResult r = *this;
  for (auto* a : {&r.adjusted, &r.raw}) {
    std::swap((*a)[kRoWin], (*a)[kRoLose]);
    std::swap((*a)[kRoWinMars], (*a)[kRoLoseMars]);
    (*a)[kRoEquity].mean = -(*a)[kRoEquity].mean;
  }
  return r;
}

RolloutResult rollout(const Position& pos, const AgentMaker& make_agent_fn,
                      const EvaluatorMaker& luck, const RolloutOptions& options) {
  if (options.trials < 1)
    throw Error("rollout: trials must be at least 1 (got " + std::to_string(options.trials) + ")");
  if (options.first_trial < 0)
    throw Error("rollout: first_trial must be >= 0 (got " + std::to_string(options.first_trial) +
                ")");
  if (options.threads < 1)
    throw Error("rollout: threads must be at least 1 (got " + std::to_string(options.threads) +
                ")");
  if (auto err = pos.validation_error()) throw Error("rollout: invalid position: " + *err);
  if (game_outcome(pos, options.rules))
    throw Error("rollout: the game is already over at this position");

  const Side root = pos.side_to_move();
  const bool opening_no_doubles = opening_excludes_doubles(pos, options.rules);
  World& world = options.world ? *options.world : single_process_world();
  // This rank's trials: [first, first + count).
  const IndexRange block = block_of(options.trials, world.rank(), world.size());
  const int64_t first = block.begin, count = block.size();
  std::vector<Trial> trials(static_cast<size_t>(count));
  std::exception_ptr error;
  RolloutResult result;
  result.trials = options.trials;
  result.stratified = options.stratify;
  result.luck_turns = options.luck_turns;
  const BearoffTable* tables = options.tables ? default_bearoff_table() : nullptr;
  const LuckHead* head = options.luck_adjust ? options.luck_head.get() : nullptr;
  result.table_points = tables ? tables->points() : 0;

  // Per thread: the agent and the luck evaluator (the net agent's own search, else one built
  // from `luck`).
  struct Player {
    std::unique_ptr<Agent> agent;
    std::unique_ptr<Evaluator> own_evaluator;
    std::unique_ptr<Search> own_search;
    Search* search = nullptr;
    NetAgent* net = nullptr;         // the agent, if it is a net agent whose search measures luck
    LuckHead::Scratch head_scratch;  // with a luck head
    MoveList moves;
  };
  auto make_player = [&](int thread_index) {
    Player pl;
    pl.agent = make_agent_fn();
    if (!pl.agent) throw Error("rollout: the agent factory returned no agent");
    std::string note;
    if (head) {
      pl.head_scratch = head->make_scratch();
    } else if (options.luck_adjust) {
      if (auto* net = dynamic_cast<NetAgent*>(pl.agent.get())) {
        pl.search = &net->search();
        pl.net = net;
      } else if (luck) {
        pl.own_evaluator = luck();
        // The same race values as a net agent's own search (net_agent.h tables=1, race_net).
        SearchOptions so;
        so.tables = tables;
        so.race_net = tables && options.race_net ? default_shipped_race_net() : nullptr;
        pl.own_search = std::make_unique<Search>(*pl.own_evaluator, options.rules, so);
        pl.search = pl.own_search.get();
      } else {
        note = "luck adjustment off: agent '" + pl.agent->spec() +
               "' has no evaluator (give a net or a luck head to measure luck); stratified dice "
               "only";
      }
    } else {
      note = "luck adjustment off (disabled)";
    }
    if (thread_index == 0) {  // read only after parallel_for returns
      result.agent_spec = pl.agent->spec();
      result.luck_adjusted = pl.search != nullptr || head;
      result.luck_method = head ? "head" : pl.search ? "exact" : "";
      result.evaluator_name = head        ? head->describe()
                              : pl.search ? pl.search->evaluator().name()
                                          : "";
      result.note = note;
    }
    return pl;
  };
  auto run_trial = [&](Player& pl, int64_t k) {
    const int64_t t = options.first_trial + first + k;
    Agent& agent = *pl.agent;
    Search* search = pl.search;
    MoveList& moves = pl.moves;
    Rng dice_rng = Rng(options.seed ^ kDiceSalt).split(static_cast<uint64_t>(t));
    Rng agent_rng = Rng(options.seed ^ kAgentSalt).split(static_cast<uint64_t>(t));
    Trial tr;
    Outputs luck_sum{};
    Position p = pos;
    // The last decision was a 1-ply search of the net agent: it left value(result, 1) of the
    // result it chose in its search's cache, which is this turn's expected value.
    bool expected_in_cache = false;
    for (;;) {
      if (auto o = game_outcome(p, options.rules)) {
        tr.raw = outcome_outputs(*o, root);
        break;
      }
      if (auto exact = table_evaluation(tables, p, options.rules)) {
        // A race the table covers: its exact odds end the trial (unbiased, no more noise).
        tr.raw = outputs_of(p.side_to_move() == root ? *exact : exact->flipped());
        break;
      }
      if (tr.turns >= options.max_turns)
        throw Error("rollout: a trial exceeded " + std::to_string(options.max_turns) + " turns");
      Dice d;
      if (options.stratify && tr.turns == 0)
        d = stratified_first_roll(t, opening_no_doubles);
      else if (options.stratify && tr.turns == 1)
        d = stratified_second_roll(t, opening_no_doubles);
      else
        d = roll_turn(dice_rng, options.rules, tr.turns == 0 && opening_no_doubles);
      generate_moves(p, d, options.rules, moves);
      const bool in_luck_turns = options.luck_turns <= 0 || tr.turns < options.luck_turns;
      const bool measure = search && in_luck_turns;
      if (head && in_luck_turns) {
        // The head's predicted luck of this roll (mover's view; zero mean over the rolls).
        const LuckTerms l = head->luck(p, d, pl.head_scratch, tr.turns == 0 && opening_no_doubles);
        const bool same = p.side_to_move() == root;
        const Outputs in_root_view = {same ? l[kRoWin] : l[kRoLose],
                                      same ? l[kRoWinMars] : l[kRoLoseMars],
                                      same ? l[kRoLose] : l[kRoWin],
                                      same ? l[kRoLoseMars] : l[kRoWinMars],
                                      l[kRoDraw],
                                      same ? l[kRoEquity] : -l[kRoEquity]};
        Outputs terms = in_root_view;
        keep_a_distribution(terms, options.rules.last_roll_draw);
        for (size_t k = 0; k < kRoNumOutputs; ++k) luck_sum[k] += terms[k];
      }
      // The expected value over all rolls: value(p, 1) — from the last decision's cache if it
      // computed it (the same computation from the same base: the same bits), else now in a new
      // generation (values from this turn only: thread-independent).
      Evaluation expected;
      bool fresh = false;
      if (measure && !(expected_in_cache && search->cache().lookup(p, 1, expected))) {
        search->cache().new_generation();
        expected = search->evaluate(p, 1);  // mover's view, over all rolls
        fresh = true;
      }
      // A 0-ply net agent chooses among values the line above just computed.
      const size_t i = fresh && pl.net && pl.net->options().ply == 0
                           ? pl.net->choose_continuing(p, moves, agent_rng)
                           : agent.choose(p, d, moves, agent_rng);
      if (i >= moves.size())
        throw Error("rollout: agent " + quote(agent.spec()) + " chose an invalid result");
      if (measure) {
        // The roll's best 0-ply value: cached by the line above or by the agent's choice.
        const Side mover = p.side_to_move();
        const Evaluation actual = search->best_static(p, moves).second;  // mover's view
        const Outputs e = outputs_of(mover == root ? expected : expected.flipped());
        const Outputs a = outputs_of(mover == root ? actual : actual.flipped());
        for (int k = 0; k < kRoNumOutputs; ++k)
          luck_sum[static_cast<size_t>(k)] += a[static_cast<size_t>(k)] - e[static_cast<size_t>(k)];
      }
      expected_in_cache = pl.net && pl.net->options().ply == 1 && moves.size() > 1;
      p = moves[i].position;
      ++tr.turns;
    }
    for (int k = 0; k < kRoNumOutputs; ++k)
      tr.adjusted[static_cast<size_t>(k)] =
          tr.raw[static_cast<size_t>(k)] - luck_sum[static_cast<size_t>(k)];
    trials[static_cast<size_t>(k)] = tr;
  };
  // With several ranks a failure here travels to the others through the gather below.
  try {
    parallel_for(count, options.threads, make_player, run_trial);
  } catch (...) {
    if (world.size() == 1) throw;
    error = std::current_exception();
  }
  if (world.size() > 1) trials = gather_trials(world, trials, error);
  if (error) std::rethrow_exception(error);

  // Sums in trial order: the same numbers for any thread count.
  for (int k = 0; k < kRoNumOutputs; ++k) {
    std::vector<double> adj, raw;
    adj.reserve(trials.size());
    raw.reserve(trials.size());
    for (const auto& tr : trials) {
      adj.push_back(tr.adjusted[static_cast<size_t>(k)]);
      raw.push_back(tr.raw[static_cast<size_t>(k)]);
    }
    const MeanEstimate ea = estimate_mean(adj), er = estimate_mean(raw);
    result.adjusted[static_cast<size_t>(k)] = RolloutStat{ea.mean, ea.se};
    result.raw[static_cast<size_t>(k)] = RolloutStat{er.mean, er.se};
  }
  clamp_to_a_distribution(result.adjusted);
  result.draws = options.rules.last_roll_draw;
  int64_t turns = 0;
  for (const auto& tr : trials) turns += tr.turns;
  result.mean_turns = static_cast<double>(turns) / static_cast<double>(options.trials);
  return result;
}

std::string RolloutResult::to_text() const {
  static const char* names[kRoNumOutputs] = {"win",       "win_mars", "lose",
                                             "lose_mars", "draw",     "equity"};
  std::string s;
  char buf[256];
  const std::string luck =
      !luck_adjusted
          ? ""
          : ", luck-adjusted with " + evaluator_name +
                (luck_turns > 0 ? " (first " + std::to_string(luck_turns) + " turns)" : "");
  std::snprintf(buf, sizeof buf, "rollout: %lld trials, agent %s, %s%s, %.1f turns per trial\n",
                static_cast<long long>(trials), agent_spec.c_str(),
                stratified ? "stratified first two rolls" : "plain dice", luck.c_str(), mean_turns);
  s += buf;
  if (!note.empty()) s += "note: " + note + "\n";
  if (table_points > 0)
    s += "races within the " + std::to_string(table_points) +
         "-point race table end with its exact odds\n";
  s += "output       estimate    std.err   (unadjusted  std.err)\n";
  for (int k = 0; k < kRoNumOutputs; ++k) {
    if (k == kRoDraw && !draws) continue;  // the rules have no draws
    std::snprintf(buf, sizeof buf, "%-10s %+10.4f %10.4f   (%+10.4f %8.4f)\n", names[k],
                  adjusted[static_cast<size_t>(k)].mean, adjusted[static_cast<size_t>(k)].se,
                  raw[static_cast<size_t>(k)].mean, raw[static_cast<size_t>(k)].se);
    s += buf;
  }
  return s;
}

std::string RolloutResult::to_json() const {
  static const char* names[kRoNumOutputs] = {"win",       "win_mars", "lose",
                                             "lose_mars", "draw",     "equity"};
  nlohmann::json j;
  j["trials"] = trials;
  j["agent"] = agent_spec;
  j["stratified"] = stratified;
  j["luck_adjusted"] = luck_adjusted;
  j["luck_turns"] = luck_turns;
  j["evaluator"] = evaluator_name;
  j["luck_method"] = luck_method;
  j["note"] = note;
  j["mean_turns"] = mean_turns;
  j["table_points"] = table_points;
  j["draws"] = draws;
  for (int k = 0; k < kRoNumOutputs; ++k) {
    j[names[k]] = adjusted[static_cast<size_t>(k)].mean;
    j[std::string(names[k]) + "_se"] = adjusted[static_cast<size_t>(k)].se;
    j["raw"][names[k]] = raw[static_cast<size_t>(k)].mean;
    j["raw"][std::string(names[k]) + "_se"] = raw[static_cast<size_t>(k)].se;
  }
  return j.dump(2);
}

}  // namespace nardy
