#include "selfplay/protocol/engine_protocol.h"

#include <cstdio>
#include <istream>
#include <ostream>
#include <sstream>
#include <vector>

#include "core/error.h"
#include "core/game.h"
#include "core/notation.h"
#include "core/pos_text.h"
#include "core/printable.h"
#include "selfplay/search/net_agent.h"

namespace nardy {

namespace {

std::vector<std::string> split_ws(const std::string& line) {
  std::istringstream is(line);
  std::vector<std::string> out;
  std::string tok;
  while (is >> tok) out.push_back(tok);
  return out;
}

void expect_fields(const std::vector<std::string>& t, size_t n, const char* usage) {
  if (t.size() != n)
    throw Error(std::string("expected '") + usage + "' (" + std::to_string(n) + " fields), got " +
                std::to_string(t.size()) + " fields");
}

// A position that can be played from: valid and not finished.
Position playable_position(const std::string& counts, const std::string& side, const Rules& rules) {
  Position pos = parse_pos(counts + " " + side);
  if (auto o = game_outcome(pos, rules))
    throw Error("the game is over at this position (" + format_outcome(*o) + ")");
  return pos;
}

}  // namespace

Engine::Engine(Agent& agent, const EngineOptions& options)
    : agent_(agent), options_(options), rng_(options.seed) {}

std::string Engine::handle(const std::string& line) {
  const std::vector<std::string> t = split_ws(line);
  if (t.empty() || t[0][0] == '#') return "";
  try {
    const std::string& cmd = t[0];
    if (cmd == "quit") {
      expect_fields(t, 1, "quit");
      quit_ = true;
      return "";
    }
    if (cmd == "legal" || cmd == "move") {
      expect_fields(t, 5, cmd == "legal" ? "legal POS D1 D2" : "move POS D1 D2");
      const Position pos = playable_position(t[1], t[2], options_.rules);
      // One at a time, so that of two bad dice the first is named (argument order is unspecified).
      const int d1 = parse_die(t[3]);
      const int d2 = parse_die(t[4]);
      const Dice dice = make_dice(d1, d2);
      MoveList moves = legal_moves(pos, dice, options_.rules);
      sort_by_position(moves);
      if (cmd == "legal") {
        std::string out = "legal " + std::to_string(moves.size());
        for (const auto& m : moves)
          out += "\n" + format_pos(m.position) + "\t" + format_move(m.move);
        return out;
      }
      const size_t i = agent_.choose(pos, dice, moves, rng_);
      if (i >= moves.size())
        throw Error("agent " + quote(agent_.spec()) + " chose an invalid result");
      return "move " + format_pos(moves[i].position) + "\t" + format_move(moves[i].move);
    }
    if (cmd == "eval") {
      expect_fields(t, 3, "eval POS");
      const Position pos = parse_pos(t[1] + " " + t[2]);
      auto* net = dynamic_cast<NetAgent*>(&agent_);
      if (!net) return "error no evaluator for agent " + agent_.spec();
      const Evaluation e = net->evaluate(pos);
      char buf[160];
      std::snprintf(buf, sizeof buf,
                    "eval win=%.6f win_mars=%.6f lose_mars=%.6f draw=%.6f equity=%.6f", e.win,
                    e.win_mars, e.lose_mars, e.draw, e.equity());
      return buf;
    }
    throw Error("unknown command " + quote(cmd) + " (expected legal, move, eval or quit)");
  } catch (const std::exception& e) {
    // nardy::Error messages are printable already (core/error.h); others are made so here.
    std::string msg = printable_message(e.what(), 1000);
    for (char& c : msg)
      if (c == '\n' || c == '\r') c = ' ';
    return "error " + msg;
  }
}

int64_t run_engine(std::istream& in, std::ostream& out, Agent& agent,
                   const EngineOptions& options) {
  Engine engine(agent, options);
  std::string line;
  int64_t handled = 0;
  while (std::getline(in, line)) {
    const std::string reply = engine.handle(line);
    if (!reply.empty()) {
      out << reply << '\n';
      out.flush();
      ++handled;
    }
    if (engine.quit_requested()) break;
  }
  return handled;
}

}  // namespace nardy
