// selfplay/search/net_agent.h — agents that play with a value network.
//
// Spec: net:PATH[:ply=N][:noise=S][:filter=K,D][:inner=K,D][:blend=W][:cache=B][:backend=NAME]
//       [:tables=0|1][:race_net=0|1]
// (made by make_agent, selfplay/search/agent_kinds.h). Options, in any order after the path:
//   ply=N            0 (default): greedy — every legal result is encoded from the opponent's
//                    view and evaluated in one batched, incremental call; the mover plays the
//                    result with the best equity for itself, -(the result's equity for the
//                    opponent) (Evaluation::flipped()). N = 1..4: expectimax over the 21
//                    distinct rolls to depth N with gnubg-style move filters
//                    (selfplay/search/search.h).
//   noise=S          Gaussian noise of standard deviation S (points of equity, >= 0, default 0)
//                    added to each candidate's equity when choosing: weaker, more varied play.
//                    Drawn from the Rng passed to choose(), so games stay reproducible.
//   filter=K,D       keep at most K candidates (>= 1, default 8) within D equity (>= 0, default
//                    0.16) of the best among the root's candidates (only matters for ply >= 1).
//   inner=K,D        the move filter inside the tree: the replies chosen within a 2-ply or
//                    deeper value (only matters for ply >= 2; search.h "Inner filter").
//                    Default K=1, D=0: each reply is the opponent's 0-ply best, as in gnubg's
//                    own n-ply evaluation (about 6x fewer net evaluations at 2-ply; its cost in
//                    strength is measured in docs/results.md). inner=8,0.16 is the search
//                    before issue 11 (every level filtered like the root).
//   blend=W          ply=1 only: each candidate that passes the filter is valued (1 - W) x its
//                    1-ply value + W x its 0-ply value (0..1, default 0.6; 0: the plain 1-ply).
//                    A net's 1-ply leans the other way from its 0-ply and 2-ply (the odd-ply
//                    effect): nardy-fit-8's plain 1-ply lost 0.062 points/game to its own
//                    0-ply and 3.2 mp per benchmark decision, blended 0.6 it is level with
//                    its 0-ply in play and loses 2.4 mp (docs/results.md "The 1-ply blend").
//   cache=B          2^B evaluation-cache slots (0..28, default 16; 0 disables).
//   backend=NAME     auto (default: the fast float kernels when the net's shape is supported,
//                    else LibTorch), fast, or libtorch.
//   match=on|off     score-aware play in matches (default on; `match` alone means on). When the
//                    agent is given the stakes of a match game (Agent::set_game_stakes, done by
//                    matches and play sessions), it chooses among the candidates valued at its
//                    deepest ply the one with the best match winning chance, Σ P(outcome) ·
//                    MWC(score after it) (core/match_equity.h), instead of the best equity.
//                    Replies inside a ply >= 1 search are chosen the same way, each side by its
//                    own match winning chance (Search::set_stakes); the move filter still ranks
//                    by 0-ply equity. Noise, if any, is then added in MWC units. `match=off`
//                    plays for points (score-blind).
//   tables=0|1       1 (default): race positions the process's race table covers are valued
//                    exactly (selfplay/tables/bearoff_table.h default_bearoff_table; search.h);
//                    0: the net everywhere (no table and no race net).
//   race_net=0|1     1 (default): a race the table does not cover is valued at 0-ply from the
//                    two sides' turn distributions, the table's or the shipped race net's
//                    (selfplay/tables/race_net.h; shipped_models.h default_shipped_race_net),
//                    not by the value net; 0: by the value net. Without a race net file, 1 is
//                    the same as 0.
// Errors name the spec and the problem: a missing path or file, an unknown option, a bad
// number or a value out of range.
//
// A NetAgent holds its own backend, scratch and cache. The cache lives for one decision (choose,
// rank, evaluate each start a new cache generation), so the agent's answers depend only on
// the position and roll, not on its history: arena results are bit-identical for any thread
// count. Nets loaded from a path are shared between the agents of all threads (read-only);
// make_net_agent() shares the caller's net.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "nn/td_backend.h"
#include "nn/value_net.h"
#include "selfplay/agents/agent.h"
#include "selfplay/search/search.h"

namespace nardy {

struct NetAgentOptions {
  int ply = 0;
  double noise = 0.0;
  // filter=, inner=, blend= and cache= (search.h has their defaults). Its race table and race
  // net are not set here: `tables` and `race_net` below choose them (net_search_options).
  SearchOptions search;
  std::string backend = "auto";  // auto | fast | libtorch
  bool match = true;             // score-aware when given match stakes
  bool tables = true;            // exact race values from default_bearoff_table()
  bool race_net = true;          // other races from default_shipped_race_net() (if tables)
};

// The Evaluator (selfplay/search/search.h) of a value network: encodes positions with the net's
// encoder and evaluates them with a TdBackend. On the fast one each position is encoded only as
// its differences from `base` (Encoder::fill_difference) and evaluated from base's hidden sums.
class NetEvaluator final : public Evaluator {
 public:
  // `backend`: auto | fast | libtorch (see above). Throws Error on an unknown name or a shape
  // the fast backend does not support when "fast" is asked for explicitly.
  explicit NetEvaluator(const ValueNet& net, std::string_view backend = "auto");
  void evaluate(const Position& base, std::span<const Position> positions,
                std::span<Evaluation> out) override;
  std::string name() const override { return std::string("net/") + backend_->name(); }
  const ValueNet& net() const { return net_; }

 private:
  ValueNet net_;  // a handle sharing the caller's parameters
  const Encoder* encoder_;
  int num_inputs_;
  std::unique_ptr<TdBackend> backend_;
  std::vector<float> base_, inputs_;
  // Positions as differences from the base (backends that evaluate them): rows and
  // coefficients of position i at [offsets_[i], offsets_[i + 1]).
  std::vector<int> rows_, offsets_;
  std::vector<float> coefs_, scratch_;
};

class NetAgent final : public Agent {
 public:
  NetAgent(const ValueNet& net, const NetAgentOptions& options, const Rules& rules,
           std::string spec);

  size_t choose(const Position& pos, Dice dice, const MoveList& moves, Rng& rng) override;
  // choose() in the search cache's current generation instead of a new one: for a caller that
  // has just started a generation for `pos` and valued pos's results there with this agent's
  // search (a rollout measuring luck, selfplay/evaluation/rollout.h), whose values the choice
  // then reuses. Only for ply 0: the same values (same base, same bits), so the same choice.
  size_t choose_continuing(const Position& pos, const MoveList& moves, Rng& rng);
  std::string spec() const override { return spec_; }
  // Also makes its search choose the replies by match winning chance (unless match=off).
  void set_game_stakes(const std::optional<GameStakes>& stakes) override {
    stakes_ = stakes;
    search_.set_stakes(active_stakes());
  }
  // The stakes it chooses by: those given, if options().match, else none.
  const std::optional<GameStakes>& active_stakes() const {
    static const std::optional<GameStakes> none;
    return options_.match ? stakes_ : none;
  }

  // Scores every result of one roll from `pos` at the agent's ply (mover's view), best first
  // (selfplay/search/search.h Search::score_moves); noise is not applied.
  void rank(const Position& pos, const MoveList& moves, std::vector<ScoredMove>& out);
  // The value of `pos` for its side to move at the agent's ply.
  Evaluation evaluate(const Position& pos);

  const NetAgentOptions& options() const { return options_; }
  Search& search() { return search_; }
  NetEvaluator& evaluator() { return evaluator_; }

 private:
  NetAgentOptions options_;
  std::string spec_;
  NetEvaluator evaluator_;
  Search search_;
  size_t choose_scored_now(const Position& pos, const MoveList& moves, Rng& rng);
  std::vector<ScoredMove> scored_;
  std::optional<GameStakes> stakes_;
};

// options.search with the race table and race net that options.tables and options.race_net
// choose.
SearchOptions net_search_options(const NetAgentOptions& options);

// The choice NetAgent::choose makes among `scored` (Search::score_moves' output for a roll,
// best first, non-empty): the best; with noise > 0, among the candidates valued at the
// deepest ply, the best after adding noise·N(0, 1) drawn from `rng` to each one's equity.
size_t choose_scored(const std::vector<ScoredMove>& scored, double noise, Rng& rng);
// The same choice by `values` (the mover's OutcomeValues of a match game) instead of equity:
// among the candidates valued at the deepest ply, the best value (plus noise·N(0, 1)); ties go
// to the earlier candidate.
size_t choose_scored_by_values(const std::vector<ScoredMove>& scored, const OutcomeValues& values,
                               double noise, Rng& rng);

// A greedy or searching agent on `net` (shared, not copied: keep it alive and unchanged while
// the agent plays, or pass a clone()). Throws Error on options out of range.
std::unique_ptr<Agent> make_net_agent(const ValueNet& net, const NetAgentOptions& options,
                                      const Rules& rules, const std::string& spec = "net:<memory>");

// A parsed "net:..." spec: `args` is the text after "net:" (PATH[:OPTION=VALUE...]). Errors
// name `whole_spec` when given (e.g. "model:NAME:ply=9"), else "net:" + args.
struct NetAgentSpec {
  std::string path;
  NetAgentOptions options;
};
NetAgentSpec parse_net_agent_spec(std::string_view args, std::string_view whole_spec = {});

// The net at `path`, loaded once per process and shared (reloaded if the file changes).
// Throws Error naming the path if it is missing or not a checkpoint.
ValueNet load_shared_net(const std::string& path);

}  // namespace nardy
