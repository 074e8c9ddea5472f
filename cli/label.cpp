// `nardy label --out FILE --games N`: positions from self-play, labelled by search or rollouts.
#include <unistd.h>

#include <chrono>
#include <cstdio>

#include "cli/command.h"
#include "selfplay/training/labeler.h"

namespace nardy::cli {

void add_label_command(CLI::App& app) {
  struct Args {
    LabelOptions o;
    std::string player = "default", labeler = "default:ply=1";  // parsed into o
    std::string out, luck_head;
    bool exact_luck = false;
    double interval = 10;
    std::vector<std::string> rules;
  };
  auto a = std::make_shared<Args>();
  auto* cmd = app.add_subcommand(
      "label",
      "Play games of --player (random moves with probability --explore), keep each\n"
      "position before a roll with probability --sample, and label it for its side to move with\n"
      "the --labeler net's value at its ply (or --rollouts N trials of the --labeler agent).\n"
      "Appends to --out game by game; a rerun with the same options continues up to --games.\n"
      "Under torchrun the ranks share the games and rank 0 writes the file (the same bytes).\n"
      "The file format is documented in selfplay/training/label_file.h.");
  cmd->add_option("--out", a->out, "Label file to create or continue")->required();
  add_games_option(*cmd, a->o.games, "Total games the file should hold");
  cmd->add_option("--player", a->player,
                  "Agent spec playing the games, or a comma-separated list of specs: each game's "
                  "White and Black drawn from it")
      ->capture_default_str();
  cmd->add_option("--explore", a->o.explore, "Probability of a random move per turn")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 1.0));
  cmd->add_option("--sample", a->o.sample, "Probability of keeping a position")
      ->capture_default_str()
      ->check(CLI::Range(1e-9, 1.0));
  cmd->add_option("--candidates", a->o.candidates,
                  "Probability per turn of also keeping a random legal result of the roll")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 1.0));
  cmd->add_option("--top", a->o.top,
                  "Keep the roll's K best results by the labeler net's 0-ply values instead of "
                  "one random result (on the turns drawn by --candidates; 0: random)")
      ->capture_default_str()
      ->check(CLI::Range(0, 1000));
  cmd->add_option("--labeler", a->labeler,
                  "Net spec whose value at its ply is the target (e.g. default:ply=2), or the "
                  "rollout agent with --rollouts")
      ->capture_default_str();
  cmd->add_option("--rollouts", a->o.rollouts, "Rollout trials per position (0: search targets)")
      ->capture_default_str()
      ->check(CLI::Range(int64_t{0}, int64_t{1} << 32));
  add_luck_head_options(*cmd, a->luck_head, a->exact_luck, "the --labeler's");
  add_threads_option(*cmd, a->o.threads,
                     "Worker threads (per rank; the file depends on neither threads nor ranks)");
  add_seed_option(*cmd, a->o.seed, "Seed of every game's dice, exploration and sampling");
  cmd->add_option("--interval", a->interval, "Seconds between progress lines")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 86400.0));
  add_rule_option(*cmd, a->rules);
  cmd->callback([a] {
    a->o.world = &process_world();
    a->o.rules = rules_from(a->rules);
    a->o.players = parse_agent_specs(a->player, "label: player");
    a->o.labeler = parse_agent_spec(a->labeler);
    if (a->o.rollouts > 0 && !a->exact_luck)
      a->o.luck_head = luck_head_option(a->luck_head, a->labeler, "", a->o.rules);
    const bool root = a->o.world->is_root();  // reports; every rank labels its share
    const bool live = root && isatty(STDOUT_FILENO);
    auto last = std::chrono::steady_clock::now();
    const LabelProgress p = label_positions(a->out, a->o, [&](const LabelProgress& p) {
      if (!root) return;
      const auto now = std::chrono::steady_clock::now();
      if (live) {
        std::printf("\r\033[K%s", format_label_progress(p).c_str());
      } else if (std::chrono::duration<double>(now - last).count() >= a->interval) {
        std::printf("%s\n", format_label_progress(p).c_str());
        last = now;
      }
      std::fflush(stdout);
    });
    if (!root) return;
    if (live) std::printf("\r\033[K");
    std::printf("%s\n%s: %lld games, %lld labelled positions\n", format_label_progress(p).c_str(),
                a->out.c_str(), static_cast<long long>(p.games_done),
                static_cast<long long>(p.positions));
  });
}

}  // namespace nardy::cli
