// Fuzz target: engine-protocol lines (selfplay/protocol/engine_protocol.h).
//
// Input: protocol lines separated by '\n' (at most kMaxLines), fed to two engines, one driving
// the heuristic agent and one a small freshly created net at 0-ply (so `eval` is answered too).
// Engine::handle must never throw, and each reply must follow the protocol:
//  * blank and '#' lines get no reply; quit gets none and stops the engine;
//  * any other line gets exactly one reply: "error <message>" on one line with a non-empty
//    message, or the command's answer — "legal N" and exactly the N sorted legal results of the
//    line's position and dice; "move POS<TAB>NOTATION" with one of those results; "eval ..."
//    with probabilities in [0, 1].
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "core/notation.h"
#include "core/pos_text.h"
#include "nn/value_net.h"
#include "selfplay/protocol/engine_protocol.h"
#include "selfplay/search/agent_kinds.h"
#include "selfplay/search/net_agent.h"
#include "tests/fuzz/fuzz_contract.h"

namespace {

using namespace nardy;

constexpr int kMaxLines = 64;

std::vector<std::string> split(std::string_view text, char sep) {
  std::vector<std::string> out;
  for (;;) {
    const size_t at = text.find(sep);
    out.emplace_back(text.substr(0, at));
    if (at == std::string_view::npos) return out;
    text.remove_prefix(at + 1);
  }
}

std::vector<std::string> tokens(const std::string& line) {
  std::istringstream is(line);
  std::vector<std::string> out;
  for (std::string t; is >> t;) out.push_back(t);
  return out;
}

// The sorted legal results the line "legal|move COUNTS SIDE D1 D2" asks about.
MoveList legal_results(const std::vector<std::string>& t) {
  const Position pos = parse_pos(t[1] + " " + t[2]);
  MoveList moves = legal_moves(pos, make_dice(parse_die(t[3]), parse_die(t[4])), Rules{});
  sort_by_position(moves);
  return moves;
}

void check_reply(const std::string& line, const std::string& reply, bool quit,
                 std::string_view input) {
  const std::vector<std::string> t = tokens(line);
  if (t.empty() || t[0][0] == '#' || quit) {
    fuzz::check(reply.empty(), "an ignored line or quit got a reply: " + reply, input);
    return;
  }
  fuzz::check(!reply.empty(), "a command got no reply: " + line, input);
  if (reply.rfind("error ", 0) == 0) {
    fuzz::check(reply.find('\n') == std::string::npos, "an error reply spans lines", input);
    const std::string message = reply.substr(6);
    fuzz::check(!message.empty(), "an error reply without a message", input);
    if (fuzz::kRequirePrintableMessages)
      fuzz::check(fuzz::printable_text(message), "an error reply is not printable", input);
    return;
  }
  const std::vector<std::string> lines = split(reply, '\n');
  const std::vector<std::string> head = tokens(lines[0]);
  fuzz::check(!head.empty() && head[0] == t[0], "reply is not for the command: " + reply, input);
  if (t[0] == "legal" || t[0] == "move") {
    fuzz::check(t.size() == 5, "a legal/move command with the wrong field count succeeded", input);
    const MoveList legal = legal_results(t);
    if (t[0] == "legal") {
      fuzz::check(
          lines.size() == legal.size() + 1 && lines[0] == "legal " + std::to_string(legal.size()),
          "legal reply does not list the legal results: " + reply, input);
      for (size_t i = 0; i < legal.size(); ++i)
        fuzz::check(
            lines[i + 1] == format_pos(legal[i].position) + "\t" + format_move(legal[i].move),
            "legal reply line " + std::to_string(i + 1) + " is wrong", input);
    } else {
      fuzz::check(lines.size() == 1, "move reply spans lines", input);
      fuzz::check(std::any_of(legal.begin(), legal.end(),
                              [&](const MoveResult& m) {
                                return lines[0] == "move " + format_pos(m.position) + "\t" +
                                                       format_move(m.move);
                              }),
                  "move reply is not a legal result: " + reply, input);
    }
    return;
  }
  fuzz::check(t[0] == "eval" && lines.size() == 1, "unexpected reply: " + reply, input);
  double win, win_mars, lose_mars, draw, equity;
  fuzz::check(
      std::sscanf(reply.c_str(), "eval win=%lf win_mars=%lf lose_mars=%lf draw=%lf equity=%lf",
                  &win, &win_mars, &lose_mars, &draw, &equity) == 5,
      "eval reply is malformed: " + reply, input);
  for (double p : {win, win_mars, lose_mars, draw})
    fuzz::check(p >= 0 && p <= 1, "eval probability outside [0, 1]: " + reply, input);
  fuzz::check(equity >= -2 && equity <= 2, "eval equity outside [-2, 2]: " + reply, input);
}

struct Agents {
  std::unique_ptr<Agent> heuristic = make_agent("heuristic", Rules{});
  ValueNet net = ValueNet::create(NetShape{"raw-v1", {8}, Activation::Sigmoid, 3}, 1);
  std::unique_ptr<Agent> greedy_net = make_net_agent(net, NetAgentOptions{}, Rules{});
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static Agents agents;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  std::vector<std::string> lines = split(input, '\n');
  if (lines.size() > kMaxLines) lines.resize(kMaxLines);
  for (Agent* agent : {agents.heuristic.get(), agents.greedy_net.get()}) {
    Engine engine(*agent, EngineOptions{});
    for (const std::string& line : lines) {
      std::string reply;
      try {
        reply = engine.handle(line);
      } catch (const std::exception& e) {
        fuzz::violation(std::string("Engine::handle threw: ") + e.what(), input);
      }
      check_reply(line, reply, engine.quit_requested(), input);
      if (engine.quit_requested()) break;
    }
  }
  return 0;
}
