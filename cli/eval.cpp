// `nardy eval A B --games N ...`: a mirrored-dice match between two agents, with statistics.
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <optional>

#include "core/error.h"
#include "core/file_io.h"
#include "core/file_error.h"
#include "selfplay/evaluation/arena.h"
#include "cli/command.h"

namespace nardy::cli {

namespace {

SprtOptions parse_sprt(const std::string& text) {
  auto comma = text.find(',');
  auto number = [&](const std::string& s) {
    size_t used = 0;
    double v = 0;
    try {
      v = std::stod(s, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != s.size())
      throw Error("eval: --sprt " + quote(text) + ": " + quote(s) +
                  " is not a number (expected ELO0,ELO1)");
    return v;
  };
  if (comma == std::string::npos)
    throw Error("eval: --sprt " + quote(text) + ": expected ELO0,ELO1 (e.g. 0,20)");
  SprtOptions o;
  o.elo0 = number(text.substr(0, comma));
  o.elo1 = number(text.substr(comma + 1));
  if (!(o.elo1 > o.elo0))
    throw Error("eval: --sprt " + quote(text) + ": ELO0 must be smaller than ELO1");
  return o;
}

}  // namespace

void add_eval_command(CLI::App& app) {
  struct Args {
    std::string a, b, json, sprt;
    int64_t games = 1000;
    int threads = 1;
    uint64_t seed = 1;
    double alpha = 0.05, beta = 0.05;
    std::vector<std::string> rules;
  };
  auto args = std::make_shared<Args>();
  auto* cmd = app.add_subcommand(
      "eval",
      "Play agent A against agent B in pairs of games with mirrored dice (same dice, colours "
      "swapped)\n"
      "and print wins/oin/mars per side, A's points per game with a 95% CI, the win rate and Elo.\n"
      "Agents: default, model:NAME, net:PATH (each [:ply=N][:noise=S]...), random, heuristic\n"
      "(docs/evaluation.md, Agents).");
  cmd->add_option("A", args->a, "Agent spec of A")->required();
  cmd->add_option("B", args->b, "Agent spec of B")->required();
  add_games_option(*cmd, args->games, "Games (rounded up to an even number)");
  add_threads_option(*cmd, args->threads, "Worker threads (results do not depend on it)");
  add_seed_option(*cmd, args->seed, "Seed of the dice and the agents' randomness");
  add_json_option(*cmd, args->json, "Also write the full result as JSON to FILE");
  cmd->add_option("--sprt", args->sprt,
                  "Sequential test H0: elo <= ELO0 vs H1: elo >= ELO1 on pair scores; stops early")
      ->type_name("ELO0,ELO1");
  cmd->add_option("--alpha", args->alpha, "SPRT false-positive rate")->capture_default_str();
  cmd->add_option("--beta", args->beta, "SPRT false-negative rate")->capture_default_str();
  add_rule_option(*cmd, args->rules);
  cmd->callback([args] {
    ArenaOptions o;
    o.games = args->games;
    o.threads = args->threads;
    o.seed = args->seed;
    o.rules = rules_from(args->rules);
    o.world = &process_world();
    if (!args->sprt.empty()) {
      SprtOptions s = parse_sprt(args->sprt);
      s.alpha = args->alpha;
      s.beta = args->beta;
      o.sprt = s;
    }
    const bool root = o.world->is_root();  // prints and writes; every rank plays its share
    // Opened now, so that a path that cannot be written stops the run before the games.
    std::optional<AtomicFileWriter> json;
    if (root && !args->json.empty()) json.emplace("JSON file", args->json);
    auto t0 = std::chrono::steady_clock::now();
    ArenaResult r = run_arena(args->a, args->b, o);
    const double secs =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (!root) return;
    std::cout << r.to_text();
    std::printf(
        "%.2f s, %.1f games/s on %d thread(s)%s, %.1f turns per game\n", secs, r.games / secs,
        args->threads,
        o.world->size() > 1 ? (" x " + std::to_string(o.world->size()) + " ranks").c_str() : "",
        r.games ? static_cast<double>(r.turns) / r.games : 0.0);
    if (json) {
      json->write(r.to_json() + "\n");
      json->commit();
    }
  });
}

}  // namespace nardy::cli
