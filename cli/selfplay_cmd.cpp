// `nardy selfplay`: plays complete games between agents and prints a summary.
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <optional>

#include "core/error.h"
#include "core/file_io.h"
#include "core/file_error.h"
#include "core/record.h"
#include "cli/command.h"
#include "selfplay/agents/play.h"

namespace nardy::cli {

void add_selfplay_command(CLI::App& app, AgentBySpec make_agent) {
  struct Args {
    std::string agent = "random", white, black, record;
    int64_t games = 100;
    uint64_t seed = 1;
    std::vector<std::string> rules;
  };
  auto a = std::make_shared<Args>();
  auto* cmd = app.add_subcommand(
      "selfplay", "Play complete games between agents and print wins, mars and mean game length.");
  cmd->add_option("--agent", a->agent,
                  "Agent spec for both sides (default, model:NAME, random, heuristic, net:PATH...)")
      ->capture_default_str();
  cmd->add_option("--white", a->white, "Agent spec for White (overrides --agent)");
  cmd->add_option("--black", a->black, "Agent spec for Black (overrides --agent)");
  add_games_option(*cmd, a->games, "Number of games");
  add_seed_option(*cmd, a->seed, "Seed for dice and agents");
  cmd->add_option("--record", a->record, "Write every game as a record to FILE");
  add_rule_option(*cmd, a->rules);
  cmd->callback([a, make_agent] {
    Rules rules = rules_from(a->rules);
    auto white = make_agent(a->white.empty() ? a->agent : a->white, rules);
    auto black = make_agent(a->black.empty() ? a->agent : a->black, rules);
    // Opened before the games (a path that cannot be written stops the run at once), and the
    // file appears whole once every game is written.
    std::optional<AtomicFileWriter> rec;
    auto recording = [](auto&& step) {  // a record file's error, named by the command
      try {
        step();
      } catch (const Error& e) {
        throw Error(std::string("selfplay: ") + e.what());
      }
    };
    if (!a->record.empty()) recording([&] { rec.emplace("record file", a->record); });
    Rng dice_rng(a->seed), agent_rng(a->seed ^ 0xA5A5A5A5ull);
    long long wins[2] = {0, 0}, mars[2] = {0, 0}, draws = 0;
    long turns = 0;
    auto t0 = std::chrono::steady_clock::now();
    for (int64_t g = 0; g < a->games; ++g) {
      Game game(rules);
      game.set_name(Side::White, white->spec());  // the record's players
      game.set_name(Side::Black, black->spec());
      GameSummary s = play_game(*white, *black, rules, dice_rng, agent_rng, rec ? &game : nullptr);
      if (rec) recording([&] { rec->write(write_record(game) + "\n"); });
      turns += s.turns;
      if (s.outcome.is_draw())
        ++draws;
      else {
        int w = index_of(*s.outcome.winner);
        ++wins[w];
        if (s.outcome.is_mars()) ++mars[w];
      }
    }
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("games %lld  white %s  black %s  seed %llu\n", static_cast<long long>(a->games),
                white->spec().c_str(), black->spec().c_str(),
                static_cast<unsigned long long>(a->seed));
    std::printf("white wins %lld (mars %lld)  black wins %lld (mars %lld)  draws %lld\n", wins[0],
                mars[0], wins[1], mars[1], draws);
    std::printf("mean game length %.2f turns  (%.0f games/s)\n",
                static_cast<double>(turns) / static_cast<double>(a->games),
                static_cast<double>(a->games) / secs);
    if (rec) {
      recording([&] { rec->commit(); });
      std::printf("records written to %s\n", a->record.c_str());
    }
  });
}

}  // namespace nardy::cli
