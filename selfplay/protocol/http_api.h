// selfplay/protocol/http_api.h — the JSON API and web board behind `nardy serve`.
//
// HttpApi maps one GET request (path and decoded query parameters) to a reply, without sockets;
// selfplay/protocol/http_server.h puts it on a port. Every answer is JSON except /api/show
// (SVG) and the page's static files. POS is the POS text (URL-encoded: the space as %20 or +)
// or a 14-character position ID; dice are "6,5", "6-5" or "65".
//
//   GET /api/info                        agent spec, rules, the endpoints
//   GET /api/position?pos=P              P described: POS, ID, side to move, points, pips,
//                                        borne-off counts, the outcome if the game is over
//   GET /api/legal?pos=P&dice=D          every legal result, sorted by position: notation,
//                                        POS, ID and the checker paths
//   GET /api/move?pos=P&dice=D[&seed=S]  the agent's choice (with its equity for net agents)
//   GET /api/eval?pos=P[&trials=N]       win/mars/draw probabilities and equity of the side to
//                                        move: net agents at their ply, others by rollouts
//   GET /api/analyze?pos=P&dice=D[&trials=N]   the legal results ranked with probabilities
//                                        (selfplay/evaluation/analysis.h)
//   GET /api/show?pos=P[&move=NOTATION][&dice=D]   an SVG board (core/board_svg.h), the move
//                                        drawn as arrows
//   GET /api/roll?pos=P&seed=S&turn=T    the dice of turn T of game seed S (opening rule at the
//                                        start): reproducible rolls for the page
//   GET /api/steps?pos=P&dice=D[&played=STEPS]   entering a move checker by checker
//                                        (core/move_builder.h): next steps, completion
//   GET /api/next_game?pos=P&white=K     for a finished game whose White was player K (0|1):
//                                        its outcome and the player who is White next
//                                        (docs/rules.md "Matches", next_game_starter)
//   GET / and /index.html, /board.js, /style.css   the web board (selfplay/protocol/web)
//
// Matches: the server keeps no state; the client sends the match record (core/match.h) as the
// body of a POST and gets the match state back (score, the current game and position, whether
// it and the match are over, the winner, who is White next by next_game_starter, and the
// updated record). The record's rules must be the server's.
//   POST /api/match?to=N[&white=K]       (empty body) a new match to N points, player K (0: the
//                                        default) White in game 1, players "you" and the agent
//   POST /api/match                      (body: a record) the state of that match
//   POST /api/match/play?dice=D&move=M   plays move M with dice D in the current game
//   POST /api/match/agent?dice=D[&seed=S]   the agent plays the turn, told the game's stakes at
//                                        the match score (score-aware for net agents; the
//                                        mover's match winning chance after it as mwc_after)
//   POST /api/match/next                 starts the next game once the current one is over
//   POST /api/review[?ply=N][&trials=N]  (body: a game record, match record or .mat file) its
//                                        review by the agent (selfplay/evaluation/review.h), the
//                                        JSON of `nardy review --json`; ply 0..2 for net agents,
//                                        trials (default 36) per move for the others
//
// Bad requests — a missing or malformed parameter, a finished game, dice outside 1..6, an
// opening double under opening=no_doubles, trials out of range, an agent without what is asked
// — get status 400 and {"error": "PARAM: problem"} (a bad match record: "record: line N: ...");
// unknown paths 404 and a wrong method 405 with the same shape.
// Nothing a client sends makes handle() throw. Requests are served one at a time (the agent
// is not shared between threads), so a long analysis delays the others.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "core/rules.h"
#include "selfplay/agents/agent.h"

namespace nardy {

struct HttpApiOptions {
  std::string agent = "heuristic";  // agent spec (selfplay/search/agent_kinds.h)
  Rules rules;
  uint64_t seed = 1;             // default seed for /api/move, /api/eval, /api/analyze
  int64_t default_trials = 360;  // rollouts per move (or position) for agents without a net
  int64_t max_trials = 10000;    // larger `trials` is a 400: keeps one request bounded
};

struct HttpReply {
  int status = 200;
  std::string content_type = "application/json";
  std::string body;
};

class HttpApi {
 public:
  // Makes the agent once; throws Error for a bad spec.
  explicit HttpApi(const HttpApiOptions& options);
  ~HttpApi();

  // The reply to GET `path` with decoded query parameters (repeated keys: the first counts).
  // Thread-safe; never throws.
  HttpReply handle(const std::string& path, const std::multimap<std::string, std::string>& params);
  // The same for any method: POST for /api/match..., GET for the rest (else 405); `body` is
  // the request body (the match record of POST /api/match...).
  HttpReply handle(const std::string& method, const std::string& path,
                   const std::multimap<std::string, std::string>& params, const std::string& body);

  // A 4xx reply {"error": message} (also used by the server for requests it rejects itself).
  static HttpReply error_reply(int status, const std::string& message);

  const HttpApiOptions& options() const { return options_; }

 private:
  HttpReply dispatch(const std::string& path, const std::multimap<std::string, std::string>& q);
  HttpReply dispatch_match(const std::string& path,
                           const std::multimap<std::string, std::string>& q,
                           const std::string& body);
  HttpApiOptions options_;
  std::unique_ptr<Agent> agent_;
  std::mutex mutex_;
};

}  // namespace nardy
