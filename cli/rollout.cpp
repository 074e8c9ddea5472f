// `nardy rollout POS [--move NOTATION --dice D1D2] --trials N`: Monte Carlo equity of a position.
#include <chrono>
#include <cstdio>
#include <iostream>

#include "core/error.h"
#include "core/game.h"
#include "core/notation.h"
#include "core/pos_text.h"
#include "cli/command.h"
#include "selfplay/search/net_agent.h"
#include "selfplay/evaluation/luck_head.h"
#include "selfplay/evaluation/rollout.h"
#include "selfplay/search/agent_kinds.h"

namespace nardy::cli {

void add_rollout_command(CLI::App& app) {
  struct Args {
    std::vector<std::string> positional, rules;
    std::string move, dice, agent = "heuristic", luck_net, luck_head, json;
    int64_t trials = 1296;
    int threads = 1, luck_turns = 0;
    uint64_t seed = 1;
    bool no_luck = false, no_stratify = false, exact_luck = false;
  };
  auto a = std::make_shared<Args>();
  auto* cmd = app.add_subcommand(
      "rollout",
      "Play POS out to the end --trials times with one agent on both sides and report the equity "
      "and\n"
      "outcome probabilities with standard errors, for the side to move (or, with --move and "
      "--dice,\n"
      "for the player making that move). Variance reduction: stratified first two rolls, and luck\n"
      "adjustment with a net's 0-ply evaluation (the agent's own net, or --luck-net): exact over\n"
      "the 21 rolls, or, where the net has a luck head (`nardy luck fit`; NAME.luck beside the\n"
      "checkpoint) and the agent does not search, the head's cheap prediction of it.");
  cmd->add_option("pos", a->positional, "POS (quoted as one argument, or as two) or a position ID")
      ->required()
      ->allow_extra_args();
  cmd->add_option("--move", a->move, "Roll out the position after this move (needs --dice)");
  cmd->add_option("--dice", a->dice, "Dice of --move, e.g. 65 or 6-5");
  cmd->add_option("--trials", a->trials, "Number of games")
      ->capture_default_str()
      ->check(CLI::Range(int64_t{1}, int64_t{1} << 32));
  cmd->add_option("--agent", a->agent, "Agent spec playing both sides")->capture_default_str();
  cmd->add_option("--luck-net", a->luck_net,
                  "Checkpoint whose 0-ply evaluation measures luck (default: the agent's net)");
  add_threads_option(*cmd, a->threads, "Threads (results do not depend on it)");
  add_seed_option(*cmd, a->seed);
  cmd->add_flag("--no-luck", a->no_luck, "Disable luck adjustment");
  add_luck_head_options(*cmd, a->luck_head, a->exact_luck, "the luck net's (or the agent's)");
  cmd->add_option(
         "--luck-turns", a->luck_turns,
         "Measure luck in the first N turns only (0 = all; each costs ~21 evaluations of a roll)")
      ->capture_default_str()
      ->check(CLI::Range(0, 100000));
  cmd->add_flag("--no-stratify", a->no_stratify, "Disable stratified first rolls");
  add_json_option(*cmd, a->json, "Also write the result as JSON to FILE");
  add_rule_option(*cmd, a->rules);
  cmd->callback([a] {
    if (a->positional.size() != 1 && a->positional.size() != 2)
      throw Error("rollout: expected one POS, got " + std::to_string(a->positional.size()) +
                  " arguments");
    const Rules rules = rules_from(a->rules);
    Position pos = parse_position(join_pos_args(a->positional, a->positional.size()));
    const bool after_move = !a->move.empty();
    if (after_move != !a->dice.empty()) throw Error("rollout: --move and --dice go together");
    std::string header = format_pos(pos);
    if (after_move) {
      const Dice dice = parse_dice(a->dice);
      if (dice.is_double() && opening_excludes_doubles(pos, rules))
        throw Error(
            "rollout: the opening roll is never a double under opening=no_doubles (use --rule "
            "opening=any_roll)");
      const MoveResult m = find_move(pos, dice, rules, a->move);
      header += "  after " + format_dice(dice) + " " + format_move(m.move) +
                " (for the player making it)";
      pos = m.position;
    }
    RolloutOptions o;
    o.trials = a->trials;
    o.threads = a->threads;
    o.seed = a->seed;
    o.rules = rules;
    o.stratify = !a->no_stratify;
    o.luck_adjust = !a->no_luck;
    o.luck_turns = a->luck_turns;
    o.world = &process_world();
    EvaluatorMaker luck;
    if (!a->luck_net.empty()) {
      ValueNet net = load_shared_net(a->luck_net);
      luck = [net] { return std::make_unique<NetEvaluator>(net); };
    }
    make_agent(a->agent, rules);  // a bad spec fails here, on this thread
    const std::string spec = a->agent;
    if (o.luck_adjust && !a->exact_luck)
      o.luck_head = luck_head_option(a->luck_head, a->agent, a->luck_net, rules);
    auto t0 = std::chrono::steady_clock::now();
    RolloutResult r = rollout(
        pos, [spec, rules] { return make_agent(spec, rules); }, luck, o);
    const double secs =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (after_move) r = r.flipped();
    if (!o.world->is_root()) return;  // every rank rolled its share; rank 0 reports
    std::cout << header << "\n" << r.to_text();
    std::printf("%.2f s (%.0f trials/s on %d thread(s))\n", secs, r.trials / secs, a->threads);
    if (!a->json.empty()) write_output_file("rollout", "JSON", a->json, r.to_json() + "\n");
  });
}

}  // namespace nardy::cli
