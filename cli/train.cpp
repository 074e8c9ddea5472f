// `nardy train`: TD(λ) self-play training from a YAML config (selfplay/training/td_trainer.h).
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <iostream>

#include "core/error.h"
#include "core/file_error.h"
#include "cli/command.h"
#include "selfplay/tables/bearoff_table.h"
#include "selfplay/training/config.h"
#include "selfplay/training/progress.h"
#include "selfplay/training/run_dir.h"
#include "selfplay/training/td_trainer.h"

namespace nardy::cli {
namespace {

std::atomic<bool> g_stop{false};

// First Ctrl-C: finish the games in flight, checkpoint, exit cleanly. Second: die at once.
extern "C" void on_interrupt(int sig) {
  if (g_stop.exchange(true)) {
    std::signal(sig, SIG_DFL);
    std::raise(sig);
  }
}

struct TrainArgs {
  std::string config;
  std::vector<std::string> overrides;
  std::string resume;
  bool auto_resume = false;
  bool keys = false;
};

void run_train(const TrainArgs& a) {
  if (a.keys) {  // the table configs/README.md shows
    std::fputs(config_keys_markdown().c_str(), stdout);
    return;
  }
  if (a.config.empty() == a.resume.empty())
    throw Error("train: give exactly one of --config FILE (a new run) or --resume RUN_DIR");
  if (a.auto_resume && a.config.empty())
    throw Error("train: --auto-resume goes with --config (it resumes that config's run)");
  World& world = process_world();
  if (!world.is_root()) {
    // Rank 0 reads the config and the run directory and sends this rank the start
    // (selfplay/training/td_trainer.h); this rank needs neither and prints nothing.
    TrainCallbacks quiet;
    quiet.stop = &g_stop;  // a stop is agreed on by all ranks at the next round end
    g_stop = false;
    auto previous_int = std::signal(SIGINT, on_interrupt);
    auto previous_term = std::signal(SIGTERM, on_interrupt);
    try {
      train(TrainConfig{}, quiet, &world);
    } catch (...) {
      std::signal(SIGINT, previous_int);
      std::signal(SIGTERM, previous_term);
      throw;
    }
    std::signal(SIGINT, previous_int);
    std::signal(SIGTERM, previous_term);
    return;
  }
  TrainConfig config;
  std::string run_dir;
  std::string resume_dir = a.resume;
  if (!a.config.empty()) {
    config = load_config(a.config, a.overrides);
    run_dir = config.run_path();
    if (a.auto_resume && path_exists("run directory", run_dir + "/state.json")) {
      resume_dir = run_dir;
      config = load_config(RunDir::open(run_dir).config_path());
      apply_overrides(config, a.overrides, run_dir + "/config.yaml");
    }
  } else {
    run_dir = a.resume;
    TrainConfig c = load_config(RunDir::open_for_resume(a.resume).config_path());
    apply_overrides(c, a.overrides, a.resume + "/config.yaml");
    config = c;
  }
  const bool live = config.log.progress && isatty(STDOUT_FILENO);
  std::printf(
      "nardy train: run %s, %lld games, net %s %s, %d thread%s\n", run_dir.c_str(),
      static_cast<long long>(config.train.games), config.net.encoder.c_str(),
      [&] {
        std::string h;
        for (int x : config.net.hidden) h += (h.empty() ? "" : "x") + std::to_string(x);
        return h;
      }()
          .c_str(),
      config.run.threads, config.run.threads == 1 ? "" : "s");
  if (world.size() > 1)
    std::printf("  on %d ranks (%s): %d workers in all\n", world.size(),
                world.description().c_str(), world.size() * config.run.threads);
  if (resume_dir != a.resume) std::printf("  resuming it from its latest checkpoint\n");
  if (const BearoffTable* t = default_bearoff_table())
    std::printf("race positions valued exactly by the %d-point race table %s\n", t->points(),
                default_bearoff_path().c_str());
  else
    std::printf(
        "no race table (%s): races valued by the net\n",
        default_bearoff_path().empty() ? "none configured" : default_bearoff_path().c_str());
  std::fflush(stdout);

  double last_plain = -1;
  TrainCallbacks callbacks;
  callbacks.stop = &g_stop;
  callbacks.on_progress = [&](const TrainProgress& p) {
    using E = TrainProgress::Event;
    if (p.event == E::Evaluation) {
      const std::string line = format_eval_line(p.latest_eval, p.latest_eval_games);
      std::printf(live ? "\r\033[K%s\n" : "%s\n", line.c_str());
    } else if (p.event == E::Checkpoint && !live) {
      std::printf("checkpoint %s\n", p.checkpoint.c_str());
    } else if (p.event == E::Tick || p.event == E::Metrics) {
      if (live) {
        std::printf("\r\033[K%s", format_progress_line(p).c_str());
      } else if (last_plain < 0 || p.elapsed_s - last_plain >= config.log.interval_s) {
        last_plain = p.elapsed_s;
        std::printf("%s\n", format_progress_line(p).c_str());
      }
    } else if (p.event == E::Done && live) {
      std::printf("\r\033[K");
    }
    std::fflush(stdout);
  };

  g_stop = false;
  auto previous_int = std::signal(SIGINT, on_interrupt);
  auto previous_term = std::signal(SIGTERM, on_interrupt);
  TrainResult result;
  try {
    result = resume_dir.empty() ? train(config, callbacks, &world)
                                : resume(resume_dir, a.overrides, callbacks, &world);
  } catch (...) {
    std::signal(SIGINT, previous_int);
    std::signal(SIGTERM, previous_term);
    if (live) std::printf("\n");
    throw;
  }
  std::signal(SIGINT, previous_int);
  std::signal(SIGTERM, previous_term);
  std::printf("%s\n", format_summary(result, config.best_opponent()).c_str());
}

}  // namespace

void add_train_command(CLI::App& app) {
  auto a = std::make_shared<TrainArgs>();
  auto* cmd = app.add_subcommand(
      "train",
      "TD(lambda) self-play training from a YAML config (see configs/README.md).\n"
      "Writes <run.dir>/<run.name>/: config.yaml, ckpt-<games>.pt, latest.pt, best.pt, "
      "metrics.jsonl,\n"
      "state.json. Ctrl-C writes a checkpoint and exits; --resume continues where it stopped.");
  cmd->add_option("--config", a->config, "YAML config file of a new run")->type_name("FILE");
  cmd->add_option(
         "--set", a->overrides,
         "Override one config key, e.g. --set td.alpha=0.05 --set net.hidden=[64] (repeatable)")
      ->type_name("KEY=VALUE");
  cmd->add_option("--resume", a->resume,
                  "Continue the run in this directory from its latest checkpoint")
      ->type_name("RUN_DIR");
  cmd->add_flag("--auto-resume", a->auto_resume,
                "With --config: if the config's run directory already holds a run, resume it "
                "instead (restarts under torchrun --max_restarts)");
  cmd->add_flag("--keys", a->keys,
                "Print every config key with its type, default and range (a Markdown table)");
  cmd->callback([a] { run_train(*a); });
}

}  // namespace nardy::cli
