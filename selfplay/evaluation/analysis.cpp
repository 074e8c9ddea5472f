#include "selfplay/evaluation/analysis.h"

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "core/error.h"
#include "core/game.h"
#include "core/notation.h"
#include "core/pos_text.h"
#include "selfplay/search/net_agent.h"
#include "selfplay/search/agent_kinds.h"

namespace nardy {

namespace {

void check_request(const Position& pos, Dice dice, const AnalysisOptions& options) {
  if (auto err = pos.validation_error()) throw Error("analyze: invalid position: " + *err);
  if (!dice.valid()) throw Error("analyze: dice must be 1..6");
  if (auto o = game_outcome(pos, options.rules))
    throw Error("analyze: the game is over at this position (" + format_outcome(*o) + ")");
  if (dice.is_double() && opening_excludes_doubles(pos, options.rules))
    throw Error(
        "analyze: the opening roll is never a double under opening=no_doubles (allow it with the "
        "rule opening=any_roll)");
  if (options.rollout_trials < 1)
    throw Error("analyze: trials must be at least 1 (got " +
                std::to_string(options.rollout_trials) + ")");
  if (options.threads < 1)
    throw Error("analyze: threads must be at least 1 (got " + std::to_string(options.threads) +
                ")");
}

MoveAnalysis move_analysis(const MoveList& moves, size_t i, size_t choice) {
  MoveAnalysis m;
  m.index = i;
  m.notation = format_move(moves[i].move);
  m.position = moves[i].position;
  m.agent_choice = i == choice;
  return m;
}

// Every move valued by the net's search at `options.ply` (default: the agent's own), on the
// agent's evaluator behind the stop hook.
void search_analysis(const Position& pos, const MoveList& moves, NetAgent& net,
                     const AnalysisOptions& options, Analysis& a) {
  NetAgentOptions o = net.options();
  if (options.ply) o.ply = *options.ply;
  a.method = o.ply == 0 ? "0-ply net evaluation" : std::to_string(o.ply) + "-ply expectimax search";
  StoppableEvaluator evaluator(net.evaluator(), options.should_stop);
  Search search(evaluator, options.rules, net_search_options(o));
  std::vector<ScoredMove> scored;
  search.score_moves(pos, moves, o.ply, scored);
  Rng rng(options.seed);
  const size_t choice = choose_scored(scored, o.noise, rng);  // as NetAgent::choose at this ply
  for (const auto& s : scored) {
    MoveAnalysis m = move_analysis(moves, s.index, choice);
    m.win = s.eval.win;
    m.win_mars = s.eval.win_mars;
    m.lose_mars = s.eval.lose_mars;
    m.draw = s.eval.draw;
    m.equity = s.eval.equity();
    m.ply = s.ply;
    m.exact = s.exact;
    m.filtered = !s.exact && s.ply < o.ply;
    a.moves.push_back(m);
  }
}

// Every move rolled out with agents from `make` playing both sides.
void rollout_analysis(const Position& pos, Dice dice, const MoveList& moves, Agent& chooser,
                      const AgentMaker& make, const AnalysisOptions& options, Analysis& a) {
  if (options.should_stop && options.should_stop()) throw Stopped();
  Rng rng(options.seed);
  const size_t choice = chooser.choose(pos, dice, moves, rng);
  a.method =
      "rollouts (" + std::to_string(options.rollout_trials) + " trials per move, stratified dice)";
  RolloutOptions ro;
  ro.trials = options.rollout_trials;
  ro.threads = options.threads;
  ro.seed = options.seed;
  ro.rules = options.rules;
  const AgentMaker players = stoppable_maker(make, options.should_stop);
  for (size_t i = 0; i < moves.size(); ++i) {
    MoveAnalysis m = move_analysis(moves, i, choice);
    if (auto o = game_outcome(moves[i].position, options.rules)) {
      const int pts = o->points_for(pos.side_to_move());
      m.win = pts > 0;
      m.win_mars = pts == 2;
      m.lose_mars = pts == -2;
      m.draw = o->is_draw();
      m.equity = pts;
      m.exact = true;
    } else {
      // The same dice streams for every move (common random numbers sharpen the comparison).
      const RolloutResult r = rollout(moves[i].position, players, {}, ro).flipped();
      m.win = r.adjusted[kRoWin].mean;
      m.win_mars = r.adjusted[kRoWinMars].mean;
      m.lose_mars = r.adjusted[kRoLoseMars].mean;
      m.draw = r.adjusted[kRoDraw].mean;
      m.equity = r.adjusted[kRoEquity].mean;
      m.equity_se = r.adjusted[kRoEquity].se;
    }
    m.ply = -1;
    a.moves.push_back(m);
  }
  std::stable_sort(
      a.moves.begin(), a.moves.end(),
      [](const MoveAnalysis& x, const MoveAnalysis& y) { return x.equity > y.equity; });
}

}  // namespace

Analysis analyze_moves(const Position& pos, Dice dice, const AgentMaker& make,
                       const AnalysisOptions& options) {
  check_request(pos, dice, options);
  std::unique_ptr<Agent> agent = make();
  if (!agent) throw Error("analyze: the agent factory returned no agent");
  auto* net = dynamic_cast<NetAgent*>(agent.get());
  if (options.ply) {
    if (!net)
      throw Error("analyze: ply needs a net agent (" + quote(agent->spec()) +
                  " has no value network)");
    if (*options.ply < 0 || *options.ply > 4)
      throw Error("analyze: ply must be 0..4 (got " + std::to_string(*options.ply) + ")");
  }
  if (options.ply && options.rollouts)
    throw Error("analyze: a search depth (ply) and rollouts exclude each other");
  MoveList moves = legal_moves(pos, dice, options.rules);
  sort_by_position(moves);
  Analysis a;
  a.agent_spec = agent->spec();
  a.draws = options.rules.last_roll_draw;
  if (net && !options.rollouts)
    search_analysis(pos, moves, *net, options, a);
  else
    rollout_analysis(pos, dice, moves, *agent, make, options, a);
  return a;
}

Analysis analyze_moves(const Position& pos, Dice dice, const std::string& agent_spec,
                       const AnalysisOptions& options) {
  const Rules rules = options.rules;
  return analyze_moves(
      pos, dice, [agent_spec, rules] { return make_agent(agent_spec, rules); }, options);
}

std::string Analysis::to_text() const {
  std::string s =
      "agent " + agent_spec + ": " + method + "; equity and probabilities for the mover\n";
  char buf[512];
  std::snprintf(buf, sizeof buf, "%4s %-26s %9s %8s %7s %8s %9s%s %5s\n", "rank", "move", "equity",
                "diff", "win", "win_mars", "lose_mars", draws ? "    draw" : "", "ply");
  s += buf;
  const double best = moves.empty() ? 0 : moves[0].equity;
  bool separated = false;
  for (size_t r = 0; r < moves.size(); ++r) {
    const MoveAnalysis& m = moves[r];
    if (m.filtered && !separated) {
      separated = true;
      s += "  -- not searched: filtered out by their 0-ply value, ranked by it --\n";
    }
    char draw[16] = "";
    if (draws) std::snprintf(draw, sizeof draw, " %7.4f", m.draw);
    std::snprintf(buf, sizeof buf, "%3zu%s %-26s %+9.4f %+8.4f %7.4f %8.4f %9.4f%s %5s", r + 1,
                  m.agent_choice ? "*" : " ", m.notation.c_str(), m.equity, m.equity - best, m.win,
                  m.win_mars, m.lose_mars, draw,
                  m.exact     ? "exact"
                  : m.ply < 0 ? "roll"
                              : std::to_string(m.ply).c_str());
    s += buf;
    if (m.ply < 0) {
      std::snprintf(buf, sizeof buf, "  ± %.4f", m.equity_se);
      s += buf;
    }
    s += "\n";
  }
  s += "(* = the agent's own choice)\n";
  return s;
}

std::string Analysis::to_json() const {
  nlohmann::json j;
  j["agent"] = agent_spec;
  j["method"] = method;
  j["moves"] = nlohmann::json::array();
  for (const auto& m : moves) {
    j["moves"].push_back({{"notation", m.notation},
                          {"position", format_pos(m.position)},
                          {"equity", m.equity},
                          {"equity_se", m.equity_se},
                          {"win", m.win},
                          {"win_mars", m.win_mars},
                          {"lose_mars", m.lose_mars},
                          {"draw", m.draw},
                          {"ply", m.ply},
                          {"exact", m.exact},
                          {"filtered", m.filtered},
                          {"agent_choice", m.agent_choice}});
  }
  return j.dump(2);
}

}  // namespace nardy
