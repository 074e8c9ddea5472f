// `nardy luck fit NET [--out FILE]`: fits a luck head (selfplay/evaluation/luck_head.h), the
// cheap luck measure of 0-ply rollouts.
#include <chrono>
#include <cstdio>
#include <exception>
#include <fstream>
#include <iostream>

#include "cli/command.h"
#include "core/error.h"
#include "core/file_error.h"
#include "core/file_io.h"
#include "selfplay/evaluation/luck_head.h"
#include "selfplay/search/agent_kinds.h"
#include "selfplay/search/net_agent.h"

namespace nardy::cli {

std::string checkpoint_of_net_arg(const std::string& cmd, const std::string& arg) {
  if (auto spec = net_agent_spec(arg)) return spec->path;
  if (arg.find(':') == std::string::npos) return arg;  // a plain path
  throw Error(cmd + ": " + quote(arg) +
              " is not a net (a checkpoint path, net:PATH, model:NAME or default)");
}

std::shared_ptr<const LuckHead> luck_head_option(const std::string& file, const std::string& agent,
                                                 const std::string& luck_net, const Rules& rules) {
  if (!file.empty()) return std::make_shared<LuckHead>(LuckHead::load(file));
  try {
    return default_luck_head(agent, luck_net, rules);
  } catch (const Error& e) {
    throw Error(std::string(e.what()) + " (or pass --exact-luck)");
  }
}

void add_luck_head_options(CLI::App& cmd, std::string& file, bool& exact,
                           const std::string& whose) {
  auto* head = cmd.add_option("--luck-head", file,
                              "Luck head file (nardy luck fit) measuring the rollouts' luck, for "
                              "any agent (default: NAME.luck beside " +
                                  whose + " checkpoint, if any, unless the agent searches)");
  cmd.add_flag("--exact-luck", exact,
               "Measure luck exactly over the 21 rolls even where a luck head exists")
      ->excludes(head);
}

void add_luck_command(CLI::App& app) {
  auto* luck = app.add_subcommand(
      "luck", "Luck heads: a learned, cheap luck measure for luck-adjusted 0-ply rollouts");
  luck->require_subcommand(1);
  struct Args {
    std::string net, out;
    std::vector<std::string> rules;
    LuckHeadFitOptions o;
  };
  auto a = std::make_shared<Args>();
  auto* fit = luck->add_subcommand(
      "fit",
      "Fit NET's luck head: self-play games of NET at 0-ply (with --noise), at every turn the\n"
      "exact luck of all 21 rolls under NET, and a small ReLU network trained (LibTorch) to\n"
      "predict it from the position. Writes\n"
      "NAME.luck beside the checkpoint (or --out); `nardy rollout` with a 0-ply agent of NET\n"
      "then uses it automatically. Under torchrun the ranks share the games; rank 0 trains\n"
      "and writes the head (the same bits).");
  fit->add_option("net", a->net, "Checkpoint path, net:PATH, model:NAME or default")->required();
  fit->add_option("--out", a->out, "Head file (default: the checkpoint's NAME.luck)");
  add_games_option(*fit, a->o.games,
                   "Self-play games to sample positions from (every tenth held out)", int64_t{10});
  fit->add_option("--noise", a->o.noise, "Gaussian noise on the sampling agent's equities")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 10.0));
  add_hidden_option(*fit, a->o.train.hidden, "Hidden ReLU layers of the head, e.g. 256 256");
  fit->add_option("--epochs", a->o.train.max_epochs, "Most training epochs (early stopping)")
      ->capture_default_str()
      ->check(CLI::Range(1, 10000));
  add_threads_option(*fit, a->o.threads,
                     "Threads, per rank (the positions do not depend on it; the training is "
                     "reproducible for the same count)");
  fit->add_option("--train-threads", a->o.train_threads,
                  "LibTorch threads of the training (0: --threads times the ranks, as one "
                  "process of as many threads)")
      ->capture_default_str()
      ->check(CLI::Range(0, 1024));
  add_seed_option(*fit, a->o.seed);
  add_rule_option(*fit, a->rules);
  fit->callback([a] {
    World& world = process_world();
    const bool root = world.is_root();  // reports, trains and writes; every rank plays its share
    const std::string path = checkpoint_of_net_arg("luck fit", a->net);
    const std::string out = a->out.empty() ? luck_head_path_for(path) : a->out;
    // Rank 0 checks now that it can write the head (what save() writes first), not after the
    // fit; a failure stops every rank.
    std::exception_ptr error;
    if (root) {
      try {
        AtomicFileWriter probe("luck head", out);  // removes its temporary file unused
      } catch (...) {
        error = std::current_exception();
      }
    }
    gather_results(world, "", error, "luck fit");
    const ValueNet net = load_shared_net(path);
    LuckHeadFitOptions o = a->o;
    o.rules = rules_from(a->rules);
    o.world = &world;
    const auto t0 = std::chrono::steady_clock::now();
    auto last = t0;
    o.progress = [&](int64_t done, int64_t total) {
      if (!root) return;
      const auto now = std::chrono::steady_clock::now();
      if (done < total && now - last < std::chrono::seconds(2)) return;
      last = now;
      const double secs = std::chrono::duration<double>(now - t0).count();
      std::fprintf(
          stderr, "luck fit: %lld/%lld games%s, %.0f s, ETA %.0f s\n", static_cast<long long>(done),
          static_cast<long long>(total), world.size() > 1 ? " (rank 0's share)" : "", secs,
          done > 0 ? secs * static_cast<double>(total - done) / static_cast<double>(done) : 0.0);
    };
    o.on_epoch = [](const LuckEpoch& e) {
      std::fprintf(stderr,
                   "luck fit: epoch %d  train loss %.6f  held-out loss %.6f  explained %.1f%%%s\n",
                   e.epoch, e.train_loss, e.heldout_loss, 100 * e.heldout_explained,
                   e.best ? "  (best)" : "");
    };
    const LuckFitSet set = sample_luck_positions(net, o);
    if (!root) return;  // the others' work is done: the training is one process's
    LuckHeadFitReport report;
    const LuckHead head = train_luck_head(net, set, o, &report);
    head.save(out);
    std::cout << report.to_text() << "wrote " << out << "\n";
  });
}

}  // namespace nardy::cli
