// selfplay/protocol/engine_protocol.h — a line protocol for driving an agent from another program.
//
// `nardy engine --agent SPEC` reads commands from stdin, one per line, and answers each on
// stdout, flushing after every reply. POS is the POS text "COUNTS SIDE" (24 comma-separated
// counts, one space, w or b), so it spans two whitespace-separated tokens.
//
//   legal POS D1 D2   ->  "legal N", then N lines "POS<TAB>NOTATION": every legal result,
//                         sorted by position (as `nardy legal`); a pass is one result "pass".
//   move POS D1 D2    ->  "move POS<TAB>NOTATION": the agent's choice.
//   eval POS          ->  "eval win=W win_mars=WM lose_mars=LM draw=D equity=E" for the side
//                         to move, at the agent's ply (6 decimals); agents without an evaluator
//                         (random, heuristic) answer "error no evaluator for agent SPEC".
//   quit              ->  no reply; the engine stops. End of input stops it too.
//
// Blank lines and lines starting with '#' are ignored (no reply). Anything else that is not a
// well-formed command — unknown command, wrong number of fields, bad POS, dice outside 1..6, a
// finished game — gets exactly one line "error <message>" and the engine keeps running.
// Dice randomness for agents that need it comes from one Rng seeded with `seed`.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>

#include "core/rules.h"
#include "selfplay/agents/agent.h"

namespace nardy {

struct EngineOptions {
  Rules rules;
  uint64_t seed = 1;
};

class Engine {
 public:
  // `agent` must outlive the engine.
  Engine(Agent& agent, const EngineOptions& options);
  // The full reply to one input line (lines separated by '\n', no trailing newline); empty
  // for ignored lines and for quit. Sets quit_requested() on quit. Never throws for bad input.
  std::string handle(const std::string& line);
  bool quit_requested() const { return quit_; }

 private:
  Agent& agent_;
  EngineOptions options_;
  Rng rng_;
  bool quit_ = false;
};

// Runs the protocol on the streams until quit or end of input; returns the commands handled.
int64_t run_engine(std::istream& in, std::ostream& out, Agent& agent, const EngineOptions& options);

}  // namespace nardy
