// selfplay/agents/callback_agent.h — an agent whose choice comes from a callback.
//
// The bridge for agents written elsewhere (e.g. a Python callable through the bindings): the
// callback sees the position, the dice and the legal results (never empty) and returns the
// index of its choice. An index out of range is an Error naming the agent and the range, so a
// faulty callback stops the game instead of corrupting it. Randomness, if any, is the
// callback's own business; torch-free, no nn dependency.
#pragma once

#include <functional>
#include <string>
#include <utility>

#include "core/error.h"
#include "selfplay/agents/agent.h"

namespace nardy {

class CallbackAgent final : public Agent {
 public:
  using Callback = std::function<size_t(const Position&, Dice, const MoveList&)>;
  explicit CallbackAgent(Callback callback, std::string spec = "callback")
      : callback_(std::move(callback)), spec_(std::move(spec)) {}

  size_t choose(const Position& pos, Dice dice, const MoveList& moves, Rng&) override {
    const size_t i = callback_(pos, dice, moves);
    if (i >= moves.size())
      throw Error("agent " + quote(spec_) + " chose result " + std::to_string(i) + " of " +
                  std::to_string(moves.size()) + " (expected 0.." +
                  std::to_string(moves.size() - 1) + ")");
    return i;
  }
  std::string spec() const override { return spec_; }

 private:
  Callback callback_;
  std::string spec_;
};

}  // namespace nardy
