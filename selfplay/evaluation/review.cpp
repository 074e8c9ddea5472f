#include "selfplay/evaluation/review.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>

#include "core/error.h"
#include "core/mat_format.h"
#include "core/match_equity.h"
#include "core/notation.h"
#include "core/parallel_for.h"
#include "core/record.h"
#include "selfplay/evaluation/analysis.h"
#include "selfplay/search/agent_kinds.h"
#include "selfplay/search/net_agent.h"

namespace nardy {

const char* mark_name(Mark m) {
  switch (m) {
    case Mark::None:
      return "";
    case Mark::Doubtful:
      return "doubtful";
    case Mark::Bad:
      return "bad";
    case Mark::VeryBad:
      return "very bad";
  }
  return "";
}

const char* mark_symbol(Mark m) {
  switch (m) {
    case Mark::None:
      return "";
    case Mark::Doubtful:
      return "?!";
    case Mark::Bad:
      return "?";
    case Mark::VeryBad:
      return "??";
  }
  return "";
}

Mark MarkThresholds::mark_of(double error) const {
  if (error >= very_bad) return Mark::VeryBad;
  if (error >= bad) return Mark::Bad;
  if (error >= doubtful) return Mark::Doubtful;
  return Mark::None;
}

const char* rating_band(double rating) {
  static const struct {
    double below;
    const char* name;
  } kBands[] = {{1.0, "supernatural"}, {2.5, "world class"}, {4.0, "expert"},   {6.0, "advanced"},
                {9.0, "intermediate"}, {13.0, "casual"},     {17.5, "beginner"}};
  for (const auto& b : kBands)
    if (rating < b.below) return b.name;
  return "awful";
}

void ErrorTally::add(const TurnReview& t) {
  ++turns;
  total_luck += t.luck;
  if (!t.decision) return;
  ++decisions;
  total_error += t.error;
  if (t.mwc_error) total_mwc_error += *t.mwc_error;
  if (t.mark != Mark::None) ++marks[static_cast<size_t>(t.mark) - 1];
}

double PlayerSummary::luck_adjusted_result() const {
  return result - (all.total_luck - opponent_luck);
}

ReviewInput review_input_of(const Game& game) {
  ReviewInput in;
  in.games = {game};
  in.white_players = {0};
  for (int p = 0; p < 2; ++p)
    if (!game.names()[static_cast<size_t>(p)].empty())
      in.names[static_cast<size_t>(p)] = game.names()[static_cast<size_t>(p)];
  return in;
}

ReviewInput review_input_of(const Match& match) {
  ReviewInput in;
  in.games = match.games();
  in.white_players = match.white_players();
  in.match = match;
  for (int p = 0; p < 2; ++p)
    in.names[p] = match.names[p].empty() ? "player " + std::to_string(p) : match.names[p];
  return in;
}

ReviewInput read_review_input(std::string_view text, const std::string& source,
                              const Rules& mat_rules) {
  // The first line that is neither blank nor a comment says which kind of record it is.
  size_t pos = 0;
  std::string_view first;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    pos = end + 1;
    if (line.empty() || line[0] == '#') continue;
    first = line;
    break;
  }
  try {
    if (looks_like_mat(text)) return review_input_of(read_mat(text, mat_rules));
    if (first.rfind("nardy-match", 0) == 0) return review_input_of(read_match_record(text));
    if (first.rfind("nardy-record", 0) == 0) {
      ReviewInput in;
      in.games = read_records(text);
      in.white_players.assign(in.games.size(), 0);
      for (int p = 0; p < 2; ++p)  // the first game's names, when its record has them
        if (!in.games.front().names()[static_cast<size_t>(p)].empty())
          in.names[static_cast<size_t>(p)] = in.games.front().names()[static_cast<size_t>(p)];
      return in;
    }
  } catch (const Error& e) {
    throw Error(source + ": " + e.what());
  }
  throw Error(source + ": not a game or match record (its first line is " +
              (first.empty() ? std::string("missing") : quote(first)) +
              "; expected 'nardy-record 1', 'nardy-match 1' or a .mat file's 'N point match')");
}

namespace {

ReviewedMove reviewed_move(const MoveAnalysis& m, int rank, const OutcomeValues* values) {
  ReviewedMove r;
  r.notation = m.notation;
  r.position = m.position;
  r.equity = m.equity;
  r.win = m.win;
  r.win_mars = m.win_mars;
  r.lose_mars = m.lose_mars;
  r.draw = m.draw;
  r.equity_se = m.equity_se;
  r.ply = m.ply;
  r.exact = m.exact;
  r.rank = rank;
  if (values) r.mwc = values->value(m.win, m.win_mars, m.lose_mars, m.draw);
  return r;
}

struct Job {
  int game, turn;
};

// The position after turn t of `game` (the next turn's start, or where the game stands).
const Position& position_after(const Game& game, size_t t) {
  return t + 1 < game.history().size() ? game.history()[t + 1].before : game.position();
}

// What a worker thread keeps: the agent whose search measures the luck of the rolls.
struct Worker {
  std::unique_ptr<Agent> agent;
  NetAgent* net = nullptr;
};

}  // namespace

Review review_games(const ReviewInput& input, const AgentMaker& make,
                    const ReviewOptions& options) {
  if (options.threads < 1)
    throw Error("review: threads must be at least 1 (got " + std::to_string(options.threads) + ")");
  if (options.alternatives < 1)
    throw Error("review: alternatives must be at least 1 (got " +
                std::to_string(options.alternatives) + ")");
  const MarkThresholds& th = options.thresholds;
  if (!(th.doubtful > 0 && th.doubtful <= th.bad && th.bad <= th.very_bad) ||
      !std::isfinite(th.very_bad))
    throw Error("review: the mark thresholds must be finite and 0 < doubtful <= bad <= very bad");
  if (input.games.size() != input.white_players.size())
    throw Error("review: each game needs who played White");
  if (input.games.empty()) throw Error("review: the record holds no game");

  Review review;
  review.names = input.names;
  review.thresholds = th;
  review.rules = input.games.front().rules();
  review.is_match = input.match.has_value();
  std::optional<MatchEquityTable> equity_table;
  std::vector<std::optional<GameStakes>> stakes(input.games.size());
  if (input.match) {
    review.target = input.match->target();
    equity_table.emplace(review.target, GameOutcomeModel::self_play(review.rules), review.rules);
    MatchScore score(review.target, input.white_players.front());
    for (size_t g = 0; g < input.games.size(); ++g) {
      stakes[g] = equity_table->stakes(score);
      GameReview gr;
      gr.score_before = score;
      review.games.push_back(gr);
      if (auto o = input.games[g].outcome(); o && g + 1 < input.games.size())
        score.add_game(*o, review.rules);
    }
  } else {
    review.games.resize(input.games.size());
  }

  std::vector<Job> jobs;
  for (size_t g = 0; g < input.games.size(); ++g) {
    GameReview& gr = review.games[g];
    gr.white_player = input.white_players[g];
    gr.outcome = input.games[g].outcome();
    gr.turns.resize(input.games[g].history().size());
    for (size_t t = 0; t < input.games[g].history().size(); ++t)
      jobs.push_back({static_cast<int>(g), static_cast<int>(t)});
  }

  // The agent checked once on this thread: its spec, whether it has a net, ply against it.
  {
    std::unique_ptr<Agent> probe = make();
    if (!probe) throw Error("review: the agent factory returned no agent");
    review.agent_spec = probe->spec();
    const bool is_net = dynamic_cast<NetAgent*>(probe.get()) != nullptr;
    if (options.ply && !is_net)
      throw Error("review: ply needs a net agent (" + quote(probe->spec()) +
                  " has no value network)");
    if (options.ply && (*options.ply < 0 || *options.ply > 4))
      throw Error("review: ply must be 0..4 (got " + std::to_string(*options.ply) + ")");
    if (options.rollout_trials < 1)
      throw Error("review: trials must be at least 1 (got " +
                  std::to_string(options.rollout_trials) + ")");
  }

  std::vector<std::string> methods(jobs.size());
  const uint64_t seed_base = Rng(options.seed).next();
  auto make_worker = [&](int) {
    Worker w;
    if (options.luck) {
      w.agent = make();
      w.net = dynamic_cast<NetAgent*>(w.agent.get());
    }
    return w;
  };
  auto review_turn = [&](Worker& w, int64_t j) {
    if (options.should_stop && options.should_stop()) throw Stopped();
    const Job job = jobs[static_cast<size_t>(j)];
    const Game& game = input.games[static_cast<size_t>(job.game)];
    const Game::Turn& turn = game.history()[static_cast<size_t>(job.turn)];
    TurnReview& tr =
        review.games[static_cast<size_t>(job.game)].turns[static_cast<size_t>(job.turn)];
    tr.game = job.game;
    tr.turn = job.turn;
    tr.side = turn.before.side_to_move();
    const int white = input.white_players[static_cast<size_t>(job.game)];
    tr.player = tr.side == Side::White ? white : 1 - white;
    tr.before = turn.before;
    tr.dice = turn.dice;
    tr.phase = phase_of(turn.before);

    AnalysisOptions ao;
    ao.rules = game.rules();
    ao.rollout_trials = options.rollout_trials;
    ao.threads = 1;
    ao.seed = seed_base ^ (static_cast<uint64_t>(j) * 0xD1B54A32D192ED03ull);
    ao.ply = options.ply;
    ao.rollouts = options.rollouts;
    ao.should_stop = options.should_stop;
    const Analysis a = analyze_moves(turn.before, turn.dice, make, ao);
    methods[static_cast<size_t>(j)] = a.method;
    tr.legal = static_cast<int>(a.moves.size());
    tr.decision = tr.legal > 1;

    const std::optional<GameStakes>& st = stakes[static_cast<size_t>(job.game)];
    const OutcomeValues* values = st ? &st->for_side(tr.side) : nullptr;
    const Position& after = position_after(game, static_cast<size_t>(job.turn));
    int played = -1;
    for (size_t i = 0; i < a.moves.size(); ++i)
      if (a.moves[i].position == after) played = static_cast<int>(i);
    if (played < 0)  // cannot happen for a replayed game: its moves are legal results
      throw Error("review: game " + std::to_string(job.game + 1) + " turn " +
                  std::to_string(job.turn + 1) + ": the move played is not a legal result");
    tr.best = reviewed_move(a.moves[0], 1, values);
    tr.played = reviewed_move(a.moves[static_cast<size_t>(played)], played + 1, values);
    for (size_t i = 0; i < a.moves.size() && i < static_cast<size_t>(options.alternatives); ++i)
      tr.alternatives.push_back(reviewed_move(a.moves[i], static_cast<int>(i) + 1, values));
    if (tr.decision) {
      tr.error = std::max(0.0, tr.best.equity - tr.played.equity);
      tr.mark = th.mark_of(tr.error);
      if (values) {
        double best_mwc = -std::numeric_limits<double>::infinity();
        for (const auto& m : a.moves)
          if (m.ply == a.moves[0].ply)
            best_mwc = std::max(best_mwc, values->value(m.win, m.win_mars, m.lose_mars, m.draw));
        tr.mwc_error = std::max(0.0, best_mwc - *tr.played.mwc);
      }
    } else if (values) {
      tr.mwc_error = 0.0;
    }

    tr.luck = std::numeric_limits<double>::quiet_NaN();
    if (w.net) {
      // The rollouts' luck term (rollout.h), from a fresh cache generation: thread-independent.
      Search& search = w.net->search();
      search.cache().new_generation();
      const MoveList moves = legal_moves(turn.before, turn.dice, game.rules());
      const double expected = search.evaluate(turn.before, 1).equity();
      const double actual = search.best_static(turn.before, moves).second.equity();
      tr.luck = actual - expected;
    }
  };
  parallel_for(static_cast<int64_t>(jobs.size()), options.threads, make_worker, review_turn);
  review.method = methods.empty() ? "" : methods.front();

  // Summaries, in turn order (sums do not depend on the threads).
  for (GameReview& gr : review.games) {
    for (const TurnReview& t : gr.turns) {
      gr.players[static_cast<size_t>(t.player)].all.add(t);
      gr.players[static_cast<size_t>(t.player)].phases[static_cast<size_t>(t.phase)].add(t);
    }
    for (int p = 0; p < 2; ++p) {
      const Side s = p == gr.white_player ? Side::White : Side::Black;
      gr.players[static_cast<size_t>(p)].result = gr.outcome ? gr.outcome->points_for(s) : 0;
    }
    for (int p = 0; p < 2; ++p) {
      PlayerSummary& ps = gr.players[static_cast<size_t>(p)];
      ps.opponent_luck = gr.players[static_cast<size_t>(1 - p)].all.total_luck;
      PlayerSummary& total = review.players[static_cast<size_t>(p)];
      for (const TurnReview& t : gr.turns)
        if (t.player == p) {
          total.all.add(t);
          total.phases[static_cast<size_t>(t.phase)].add(t);
        }
      total.result += ps.result;
    }
  }
  for (int p = 0; p < 2; ++p)
    review.players[static_cast<size_t>(p)].opponent_luck =
        review.players[static_cast<size_t>(1 - p)].all.total_luck;
  return review;
}

Review review_games(const ReviewInput& input, const std::string& agent_spec,
                    const ReviewOptions& options) {
  const Rules rules = input.games.empty() ? Rules{} : input.games.front().rules();
  return review_games(input, checked_agent_maker(agent_spec, rules), options);
}

}  // namespace nardy
