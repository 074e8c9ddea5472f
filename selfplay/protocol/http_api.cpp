#include "selfplay/protocol/http_api.h"

#include <charconv>
#include <nlohmann/json.hpp>

#include "core/board_svg.h"
#include "core/error.h"
#include "core/printable.h"
#include "core/game.h"
#include "core/match.h"
#include "core/match_equity.h"
#include "core/move_builder.h"
#include "core/notation.h"
#include "core/pos_text.h"
#include "core/position_id.h"
#include "core/random.h"
#include "selfplay/evaluation/analysis.h"
#include "selfplay/evaluation/review.h"
#include "selfplay/evaluation/rollout.h"
#include "selfplay/protocol/web_assets.h"
#include "selfplay/search/agent_kinds.h"
#include "selfplay/search/net_agent.h"

namespace nardy {

namespace {

using Json = nlohmann::json;
using Params = std::multimap<std::string, std::string>;

const char* side_name(Side s) {
  return s == Side::White ? "white" : "black";
}

std::optional<std::string> param(const Params& q, const std::string& name) {
  auto it = q.find(name);
  if (it == q.end()) return std::nullopt;
  return it->second;
}

std::string required(const Params& q, const std::string& name) {
  auto v = param(q, name);
  if (!v) throw Error("missing parameter " + quote(name));
  return *v;
}

// Runs `f` and prefixes its Error with the parameter's name (unless it starts with it).
template <class F>
auto parsing(const std::string& name, F&& f) {
  try {
    return f();
  } catch (const Error& e) {
    const std::string what = e.what();
    const bool named = what.rfind(name + ":", 0) == 0 || what.rfind(name + " ", 0) == 0;
    throw Error(named ? what : name + ": " + what);
  }
}

// POS text (it has commas) or a position ID.
Position parse_position_param(const Params& q, const std::string& name = "pos") {
  const std::string text = required(q, name);
  return parsing(name, [&] { return parse_position(text); });
}

Dice parse_dice_param(const Params& q) {
  const std::string text = required(q, "dice");
  return parsing("dice", [&] { return parse_dice(text); });
}

int64_t parse_int_param(const Params& q, const std::string& name, int64_t lo, int64_t hi,
                        int64_t fallback) {
  auto v = param(q, name);
  if (!v) return fallback;
  int64_t x = 0;
  auto [p, ec] = std::from_chars(v->data(), v->data() + v->size(), x);
  if (v->empty() || ec != std::errc() || p != v->data() + v->size())
    throw Error(name + ": " + quote(*v) + " is not an integer");
  if (x < lo || x > hi)
    throw Error(name + ": " + printable(*v) + " is outside " + std::to_string(lo) + ".." +
                std::to_string(hi));
  return x;
}

uint64_t parse_seed_param(const Params& q, uint64_t fallback) {
  auto v = param(q, "seed");
  if (!v) return fallback;
  uint64_t x = 0;
  auto [p, ec] = std::from_chars(v->data(), v->data() + v->size(), x);
  if (v->empty() || ec != std::errc() || p != v->data() + v->size())
    throw Error("seed: " + quote(*v) + " is not a non-negative integer");
  return x;
}

Json outcome_json(const std::optional<Outcome>& o) {
  if (!o) return nullptr;
  Json j;
  j["winner"] = o->winner ? Json(side_name(*o->winner)) : Json(nullptr);
  j["points"] = o->points;
  j["text"] = format_outcome(*o);
  return j;
}

Json position_json(const Position& pos, const Rules& rules) {
  Json j;
  j["pos"] = format_pos(pos);
  j["id"] = position_id(pos);
  j["side"] = side_name(pos.side_to_move());
  j["points"] = pos.points();
  j["pips"] = {{"white", pos.pips(Side::White)}, {"black", pos.pips(Side::Black)}};
  j["off"] = {{"white", pos.off(Side::White)}, {"black", pos.off(Side::Black)}};
  j["outcome"] = outcome_json(game_outcome(pos, rules));
  return j;
}

// The rules as an object of their keys: a key whose values are false and true (last_roll_draw)
// is a JSON boolean, the others their value's name.
Json rules_json(const Rules& rules) {
  Json r = Json::object();
  for (const std::string& k : Rules::keys()) {
    const std::string value = rules.get(k);
    const bool is_bool = Rules::values_of(k) == std::vector<std::string>{"false", "true"};
    r[k] = is_bool ? Json(value == "true") : Json(value);
  }
  return r;
}

Json dice_json(Dice d) {
  return Json::array({d.d1, d.d2});
}

Json result_json(const MoveResult& m) {
  Json j;
  j["notation"] = format_move(m.move);
  j["pos"] = format_pos(m.position);
  j["id"] = position_id(m.position);
  Json paths = Json::array();
  for (const PathMove& p : parse_notation(j["notation"].get<std::string>()))
    paths.push_back({p.from, p.to});
  j["paths"] = paths;
  return j;
}

// A position a turn can be played from: the game is not over.
void require_playable(const Position& pos, const Rules& rules) {
  if (auto o = game_outcome(pos, rules))
    throw Error("pos: the game is over at this position (" + format_outcome(*o) + ")");
}

// The dice for a turn at `pos`: 1..6 and no opening double under opening=no_doubles.
void require_dice_allowed(const Position& pos, Dice dice, const Rules& rules) {
  if (dice.is_double() && opening_excludes_doubles(pos, rules))
    throw Error("dice: " + format_dice(dice) +
                " is a double, which may not open the game (opening=no_doubles)");
}

// The position and roll of a turn to be played: `pos` and `dice` parsed, the game not over, the
// dice allowed there.
struct TurnRequest {
  Position pos;
  Dice dice;
};
TurnRequest parse_turn(const Params& q, const Rules& rules) {
  TurnRequest t{parse_position_param(q), parse_dice_param(q)};
  require_playable(t.pos, rules);
  require_dice_allowed(t.pos, t.dice, rules);
  return t;
}

MoveList sorted_legal_moves(const TurnRequest& t, const Rules& rules) {
  MoveList moves = legal_moves(t.pos, t.dice, rules);
  sort_by_position(moves);
  return moves;
}

HttpReply json_reply(const Json& j) {
  return {200, "application/json", j.dump()};
}

// ---- Matches (POST /api/match...) ----

// The match a POST /api/match... request is about: the match record in the body (core/match.h),
// or, for /api/match with an empty body, a new match (`to`, `white`) between "you" and `agent`.
// The record's rules must be the server's: the agent plays by them.
Match match_from_request(const std::string& path, const Params& q, const std::string& body,
                         const Rules& rules, const std::string& agent) {
  const bool blank = body.find_first_not_of(" \t\r\n") == std::string::npos;
  if (blank) {
    if (path != "/api/match")
      throw Error("body: empty; send the match record (core/match.h) as the request body");
    const int64_t to = parse_int_param(q, "to", 1, kMaxMatchTarget, 0);
    if (to == 0) throw Error("missing parameter 'to' (a new match) or a match record as the body");
    Match m(static_cast<int>(to), rules, static_cast<int>(parse_int_param(q, "white", 0, 1, 0)));
    m.names = {"you", agent};
    return m;
  }
  if (param(q, "to") || param(q, "white"))
    throw Error("to: only for a new match (an empty body), not with a match record");
  Match m = parsing("record", [&] { return read_match_record(body); });
  if (!(m.rules() == rules))
    throw Error("record: its rules (" + m.rules().to_string() + ") are not the server's (" +
                rules.to_string() + ")");
  return m;
}

// The state of a match: score, the current game, whether it or the match is over, who is White
// next, and the updated record.
Json match_json(const Match& m, const Rules& rules) {
  const MatchScore score = m.score();
  const Game& game = m.current_game();
  Json j;
  j["target"] = m.target();
  j["names"] = {m.names[0], m.names[1]};
  j["score"] = {score.points(0), score.points(1)};
  j["score_text"] = score.to_string(
      {m.names[0].empty() ? "player 0" : m.names[0], m.names[1].empty() ? "player 1" : m.names[1]});
  j["game"] = static_cast<int>(m.games().size());  // the current game, from 1
  j["white"] = m.current_white_player();
  j["turns"] = game.history().size();
  j["position"] = position_json(game.position(), rules);
  const auto outcome = game.outcome();
  j["game_over"] = outcome.has_value();
  j["player_to_move"] = outcome ? Json(nullptr) : Json(m.player_to_move());
  Json o = outcome_json(outcome);
  if (outcome && outcome->winner)
    o["player"] =
        *outcome->winner == Side::White ? m.current_white_player() : 1 - m.current_white_player();
  j["game_outcome"] = o;
  j["match_over"] = score.is_over();
  j["winner"] = score.winner() ? Json(*score.winner()) : Json(nullptr);
  // Who plays White in the next game (next_game_starter), once this one is over.
  j["next_white"] = outcome && !score.is_over() ? Json(score.white_player()) : Json(nullptr);
  j["record"] = write_match_record(m);
  return j;
}

// The current game of `m`, to play a turn in: not over.
Game& playable_game(Match& m) {
  if (m.current_game().is_over())
    throw Error(std::string("record: the current game is over (") +
                (m.is_over() ? "and so is the match" : "start the next with /api/match/next") +
                ")");
  return m.current_game();
}

}  // namespace

HttpApi::HttpApi(const HttpApiOptions& options)
    : options_(options), agent_(make_agent(options.agent, options.rules)) {}

HttpApi::~HttpApi() = default;

HttpReply HttpApi::error_reply(int status, const std::string& message) {
  // Printable and valid UTF-8 (nlohmann::json refuses to dump anything else).
  return {status, "application/json", Json{{"error", printable_message(message)}}.dump()};
}

namespace {

// POST /api/review: the review (selfplay/evaluation/review.h) of the record in the body, as
// `nardy review --json` writes it, by the server's agent.
HttpReply review_reply(const Params& q, const std::string& body, const HttpApiOptions& options) {
  if (body.find_first_not_of(" \t\r\n") == std::string::npos)
    throw Error("body: empty; send a game record, match record or .mat file as the request body");
  const ReviewInput input = read_review_input(body, "record", options.rules);
  ReviewOptions o;
  const int64_t ply = parse_int_param(q, "ply", 0, 2, -1);  // bounded: one request stays short
  if (ply >= 0) o.ply = static_cast<int>(ply);
  o.rollout_trials = parse_int_param(q, "trials", 1, options.max_trials, 36);
  o.seed = parse_seed_param(q, options.seed);
  return json_reply(Json::parse(review_games(input, options.agent, o).to_json()));
}

}  // namespace

HttpReply HttpApi::handle(const std::string& path, const Params& params) {
  return handle("GET", path, params, "");
}

HttpReply HttpApi::handle(const std::string& method, const std::string& path, const Params& params,
                          const std::string& body) {
  std::lock_guard<std::mutex> lock(mutex_);
  try {
    const bool post_path =
        path == "/api/match" || path.rfind("/api/match/", 0) == 0 || path == "/api/review";
    if (method == "POST" && path == "/api/review") return review_reply(params, body, options_);
    if (method == "POST" && post_path) return dispatch_match(path, params, body);
    if (method == "GET" && !post_path) return dispatch(path, params);
    return error_reply(405, "method " + method + " not allowed for " + path + " (use " +
                                (post_path ? "POST" : "GET") + ")");
  } catch (const Error& e) {
    return error_reply(400, e.what());
  } catch (const std::exception& e) {
    return error_reply(500, std::string("internal error: ") + e.what());
  }
}

HttpReply HttpApi::dispatch_match(const std::string& path, const Params& q,
                                  const std::string& body) {
  const Rules& rules = options_.rules;
  if (path != "/api/match" && path != "/api/match/play" && path != "/api/match/agent" &&
      path != "/api/match/next")
    return error_reply(404, "unknown endpoint '" + path + "'");
  Match m = match_from_request(path, q, body, rules, agent_->spec());
  Json played;
  if (path == "/api/match/next") {
    if (!m.current_game().is_over()) throw Error("record: the current game is not over");
    if (m.is_over()) throw Error("record: the match is over");
    m.start_next_game();
  } else if (path == "/api/match/play" || path == "/api/match/agent") {
    Game& game = playable_game(m);
    const Position before = game.position();
    const Dice dice = parse_dice_param(q);
    require_dice_allowed(before, dice, rules);
    const int player = m.player_to_move();
    MoveResult result;
    if (path == "/api/match/play") {
      const std::string move = required(q, "move");
      result = parsing("move", [&] { return find_move(before, dice, rules, move); });
    } else {
      // The agent plays for the match: told the stakes of this game at the current score.
      const MoveList moves = sorted_legal_moves({before, dice}, rules);
      const MatchEquityTable table(m.target(), GameOutcomeModel::self_play(rules), rules);
      const GameStakes stakes = table.stakes(m.score_before_current_game());
      Rng rng(parse_seed_param(q, options_.seed));
      struct Stakes {  // told for this turn only: /api/move stays score-blind
        Agent& agent;
        ~Stakes() { agent.set_game_stakes(std::nullopt); }
      } told{*agent_};
      agent_->set_game_stakes(stakes);
      const size_t i = agent_->choose(before, dice, moves, rng);
      if (i >= moves.size()) throw std::runtime_error("the agent chose an invalid result");
      result = moves[i];
      if (auto* net = dynamic_cast<NetAgent*>(agent_.get())) {
        // The mover's match winning chance and equity after its move (net agents).
        const Evaluation e = game_outcome(result.position, rules)
                                 ? exact_evaluation(result.position, rules)->flipped()
                                 : net->evaluate(result.position).flipped();
        played["mwc_after"] =
            stakes.for_side(before.side_to_move()).value(e.win, e.win_mars, e.lose_mars, e.draw);
        played["equity_after"] = e.equity();
      }
    }
    game.play(dice, result);
    played.update(result_json(result));
    played["dice"] = dice_json(dice);
    played["side"] = side_name(before.side_to_move());
    played["player"] = player;
  }
  Json j = match_json(m, rules);
  if (!played.is_null()) j["played"] = played;
  return json_reply(j);
}

HttpReply HttpApi::dispatch(const std::string& path, const Params& q) {
  const Rules& rules = options_.rules;
  if (path == "/" || path.rfind("/api/", 0) != 0) {
    const std::string file = path == "/" ? "/index.html" : path;
    for (const WebAsset& a : web_assets())
      if (a.path == file) return {200, std::string(a.content_type), std::string(a.body)};
    return error_reply(404, "no page " + quote(path));
  }
  if (path == "/api/info") {
    Json j;
    j["agent"] = agent_->spec();
    j["evaluator"] = dynamic_cast<NetAgent*>(agent_.get()) != nullptr;
    j["rules"] = rules_json(rules);
    j["start"] = position_json(Position::start(), rules);
    j["endpoints"] = {"info",    "position",   "legal",       "move",       "eval",
                      "analyze", "show",       "roll",        "steps",      "next_game",
                      "match",   "match/play", "match/agent", "match/next", "review"};
    return json_reply(j);
  }
  if (path == "/api/position") return json_reply(position_json(parse_position_param(q), rules));
  if (path == "/api/legal") {
    const auto [pos, dice] = parse_turn(q, rules);
    const MoveList moves = sorted_legal_moves({pos, dice}, rules);
    Json j;
    j["position"] = position_json(pos, rules);
    j["dice"] = dice_json(dice);
    j["moves"] = Json::array();
    for (const MoveResult& m : moves) j["moves"].push_back(result_json(m));
    return json_reply(j);
  }
  if (path == "/api/move") {
    const auto [pos, dice] = parse_turn(q, rules);
    const MoveList moves = sorted_legal_moves({pos, dice}, rules);
    Rng rng(parse_seed_param(q, options_.seed));
    const size_t i = agent_->choose(pos, dice, moves, rng);
    if (i >= moves.size()) throw std::runtime_error("the agent chose an invalid result");
    Json j = result_json(moves[i]);
    j["agent"] = agent_->spec();
    j["dice"] = dice_json(dice);
    j["position"] = position_json(moves[i].position, rules);
    if (auto* net = dynamic_cast<NetAgent*>(agent_.get())) {
      // Equity for the mover before the roll and after the chosen move.
      j["equity_before"] = net->evaluate(pos).equity();
      j["equity_after"] =
          game_outcome(moves[i].position, rules)
              ? Json(game_outcome(moves[i].position, rules)->points_for(pos.side_to_move()))
              : Json(-net->evaluate(moves[i].position).equity());
    }
    return json_reply(j);
  }
  if (path == "/api/eval") {
    const Position pos = parse_position_param(q);
    require_playable(pos, rules);
    Json j;
    j["agent"] = agent_->spec();
    j["position"] = position_json(pos, rules);
    if (auto* net = dynamic_cast<NetAgent*>(agent_.get())) {
      if (param(q, "trials")) throw Error("trials: only for agents without a net");
      const Evaluation e = net->evaluate(pos);
      j["method"] = "net";
      j["win"] = e.win;
      j["win_mars"] = e.win_mars;
      j["lose_mars"] = e.lose_mars;
      j["draw"] = e.draw;
      j["equity"] = e.equity();
      return json_reply(j);
    }
    RolloutOptions o;
    o.trials = parse_int_param(q, "trials", 1, options_.max_trials, options_.default_trials);
    o.seed = parse_seed_param(q, options_.seed);
    o.rules = rules;
    const std::string spec = options_.agent;
    const RolloutResult r = rollout(
        pos, [spec, rules] { return make_agent(spec, rules); }, {}, o);
    j["method"] = "rollouts (" + std::to_string(r.trials) + " trials)";
    j["win"] = r.adjusted[kRoWin].mean;
    j["win_mars"] = r.adjusted[kRoWinMars].mean;
    j["lose_mars"] = r.adjusted[kRoLoseMars].mean;
    j["draw"] = r.adjusted[kRoDraw].mean;
    j["equity"] = r.equity().mean;
    j["equity_se"] = r.equity().se;
    j["rollout"] = Json::parse(r.to_json());
    return json_reply(j);
  }
  if (path == "/api/analyze") {
    const auto [pos, dice] = parse_turn(q, rules);
    AnalysisOptions o;
    o.rules = rules;
    o.rollout_trials =
        parse_int_param(q, "trials", 1, options_.max_trials, options_.default_trials);
    o.seed = parse_seed_param(q, options_.seed);
    Json j = Json::parse(analyze_moves(pos, dice, options_.agent, o).to_json());
    j["position"] = position_json(pos, rules);
    j["dice"] = dice_json(dice);
    return json_reply(j);
  }
  if (path == "/api/show") {
    const Position pos = parse_position_param(q);
    BoardSvgOptions o;
    o.width_px = static_cast<int>(parse_int_param(q, "width", 100, 4000, 640));
    if (auto move = param(q, "move")) {
      if (auto dice_text = param(q, "dice")) {
        // Checked against the legal moves of the roll.
        const Dice dice = parse_dice_param(q);
        require_playable(pos, rules);
        const MoveResult m = parsing("move", [&] { return find_move(pos, dice, rules, *move); });
        o.arrows = parse_notation(format_move(m.move));
      } else {
        o.arrows = parsing("move", [&] { return parse_notation(*move); });
      }
    }
    return {200, "image/svg+xml", board_svg(pos, o)};
  }
  if (path == "/api/roll") {
    const Position pos = parse_position_param(q);
    require_playable(pos, rules);
    const uint64_t seed = parse_seed_param(q, options_.seed);
    const int64_t turn = parse_int_param(q, "turn", 0, int64_t{1} << 40, 0);
    Rng rng = Rng(seed).split(static_cast<uint64_t>(turn));
    const Dice dice = roll_turn(rng, rules, opening_excludes_doubles(pos, rules));
    return json_reply(Json{{"dice", dice_json(dice)}, {"seed", seed}, {"turn", turn}});
  }
  if (path == "/api/steps") {
    const auto [pos, dice] = parse_turn(q, rules);
    const auto steps =
        parsing("played", [&] { return parse_checker_steps(param(q, "played").value_or("")); });
    // (clang 14 cannot capture structured bindings in a lambda: copy them first.)
    const Position at = pos;
    const Dice roll = dice;
    const MoveInProgress m = parsing("played", [&] { return build_move(at, roll, rules, steps); });
    Json j;
    j["board"] = position_json(m.board, rules);
    j["dice_left"] = m.dice_left;
    j["next"] = Json::array();
    for (const CheckerStep& s : m.next)
      j["next"].push_back({{"from", s.from}, {"to", s.to}, {"die", s.die}});
    j["reachable"] = m.reachable.size();
    j["complete"] = m.complete ? result_json(m.results[*m.complete]) : Json(nullptr);
    return json_reply(j);
  }
  if (path == "/api/next_game") {
    const Position pos = parse_position_param(q);
    const int white = static_cast<int>(parse_int_param(q, "white", 0, 1, -1));
    if (white < 0) throw Error("missing parameter 'white'");
    const auto o = game_outcome(pos, rules);
    if (!o) throw Error("pos: the game is not over at this position");
    Json j;
    j["outcome"] = outcome_json(o);
    j["next_white"] = next_white_player(white, *o, rules);
    return json_reply(j);
  }
  return error_reply(404, "unknown endpoint " + quote(path));
}

}  // namespace nardy
