// `nardy train`: TD(λ) self-play training from a YAML config (selfplay/training/td_trainer.h).
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <iostream>

#include "core/error.h"
#include "core/file_error.h"
#include "cli/command.h"
#include "selfplay/tables/bearoff_table.h"
#include "selfplay/training/config.h"
#include "selfplay/training/generations.h"
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

// While it lives, SIGINT and SIGTERM set g_stop (a second one kills at once); then the previous
// handlers again (an inherited "ignore" included).
class StopOnInterrupt {
 public:
  explicit StopOnInterrupt(bool install = true) : installed_(install) {
    g_stop = false;
    if (!installed_) return;
    previous_int_ = std::signal(SIGINT, on_interrupt);
    previous_term_ = std::signal(SIGTERM, on_interrupt);
  }
  ~StopOnInterrupt() {
    if (!installed_) return;
    std::signal(SIGINT, previous_int_);
    std::signal(SIGTERM, previous_term_);
  }
  StopOnInterrupt(const StopOnInterrupt&) = delete;
  StopOnInterrupt& operator=(const StopOnInterrupt&) = delete;

 private:
  bool installed_;
  void (*previous_int_)(int) = SIG_DFL;
  void (*previous_term_)(int) = SIG_DFL;
};

struct TrainArgs {
  std::string config;
  std::vector<std::string> overrides;
  std::string resume;
  bool auto_resume = false;
  bool keys = false;
  bool plan = false;
};

// The TD(lambda) stage: a new run of `config` in run_dir, or the continuation of resume_dir.
TrainResult run_td_stage(const TrainConfig& config, const std::string& run_dir,
                         const std::string& resume_dir, const TrainArgs& a) {
  World& world = process_world();
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
  if (const std::string r = config.rules.non_default(); !r.empty())
    std::printf("  rules in force (not the defaults): %s\n", r.c_str());
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

  TrainResult result;
  try {
    StopOnInterrupt handlers;
    result = resume_dir.empty() ? train(config, callbacks, &world)
                                : resume(resume_dir, a.overrides, callbacks, &world);
  } catch (...) {
    if (live) std::printf("\n");
    throw;
  }
  std::printf("%s\n", format_summary(result, config.best_opponent()).c_str());
  return result;
}

// The generations (selfplay/training/generations.h) after the TD stage or from generations.init.
void run_generations_stage(const TrainConfig& config, const std::string& run_dir,
                           const TrainArgs& a) {
  // The start (ignored when the run holds generations already): the TD stage's net or the init.
  const std::string start = generations_start_net(config, run_dir);
  if (!config.generations.init.empty() || !a.overrides.empty()) {
    std::filesystem::create_directories(run_dir);
    write_file_atomic(run_dir + "/config.yaml", to_yaml(config));
  }
  const bool live = config.log.progress && isatty(STDOUT_FILENO);
  std::printf("generations: %d, in %s; from %s\n", config.generations.count, run_dir.c_str(),
              holds_generations(run_dir) ? "where the run stopped" : start.c_str());
  if (const std::string r = config.rules.non_default(); !r.empty())
    std::printf("  rules in force (not the defaults): %s\n", r.c_str());
  std::fflush(stdout);
  double last_plain = -1;
  const auto t0 = std::chrono::steady_clock::now();
  GenerationsCallbacks callbacks;
  callbacks.on_line = [&](const std::string& text, bool final) {
    const double now = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (live) {
      std::printf(final ? "\r\033[K%s\n" : "\r\033[K%s", text.c_str());
    } else if (final || last_plain < 0 || now - last_plain >= config.log.interval_s) {
      last_plain = now;
      std::printf("%s\n", text.c_str());
    }
    std::fflush(stdout);
  };
  // Ctrl-C: the stage stops at its next checkpoint (a label block, an epoch, a gate pair);
  // a second Ctrl-C kills at once. Either way --resume continues.
  World& world = process_world();
  if (world.size() > 1)
    std::printf("  on %d ranks (%s): labels, fits and gates split across them\n", world.size(),
                world.description().c_str());
  // One process: Ctrl-C stops cleanly. Several ranks: a stop is a kill (the ranks would stop at
  // different moments), so the handlers stay the default ones.
  if (world.size() == 1) callbacks.stop = &g_stop;
  GenerationsResult r;
  try {
    StopOnInterrupt handlers(world.size() == 1);
    r = run_generations(config, run_dir, start, callbacks, &world);
  } catch (...) {
    if (live) std::printf("\n");
    throw;
  }
  if (r.stopped)
    std::printf("stopped after %d generation%s; continue with: nardy train --resume %s\n",
                r.generations_done, r.generations_done == 1 ? "" : "s", run_dir.c_str());
  else
    std::printf("generations done: %d (%d promoted); the current net is %s\n", r.generations_done,
                r.promoted, r.current.c_str());
}

// Which stages a run has left: rank 0 decides, and with several ranks tells the others.
struct Plan {
  bool td = false, generations = false;
};

// The TD stage on a rank other than 0: rank 0 reads the config and the run directory and sends
// this rank the start (selfplay/training/td_trainer.h); this rank needs neither and prints
// nothing. Returns whether the stage completed.
bool follow_td_stage(World& world) {
  TrainCallbacks quiet;
  quiet.stop = &g_stop;  // a stop is agreed on by all ranks at the next round end
  StopOnInterrupt handlers;
  return train(TrainConfig{}, quiet, &world).completed;
}

void run_train(const TrainArgs& a) {
  if (a.keys) {  // the table configs/README.md shows
    std::fputs(config_keys_markdown().c_str(), stdout);
    return;
  }
  if (a.config.empty() == a.resume.empty())
    throw Error("train: give exactly one of --config FILE (a new run) or --resume RUN_DIR");
  if (a.plan) {  // what the generations would do; nothing runs, nothing is written
    const TrainConfig c = a.config.empty() ? load_config(a.resume + "/config.yaml", a.overrides)
                                           : load_config(a.config, a.overrides);
    if (c.generations.count == 0)
      std::printf("no generations (generations.count 0): the TD stage alone, %lld games\n",
                  static_cast<long long>(c.train.games));
    else
      std::fputs(describe_generations(c).c_str(), stdout);
    return;
  }
  if (a.auto_resume && a.config.empty())
    throw Error("train: --auto-resume goes with --config (it resumes that config's run)");
  World& world = process_world();
  if (!world.is_root()) {
    std::string message;
    world.broadcast(message, 0);  // rank 0's plan, or its error
    if (message.starts_with("error\n")) throw Error("train: rank 0 failed: " + message.substr(6));
    const bool td = message.find("td") != std::string::npos;
    const bool generations = message.find("generations") != std::string::npos;
    if (td && !follow_td_stage(world)) return;
    if (generations) run_generations(TrainConfig{}, "", "", {}, &world);  // rank 0's run
    return;
  }
  TrainConfig config;
  std::string run_dir;
  std::string resume_dir = a.resume;
  Plan plan;
  try {
    // A run that went straight to generations (generations.init) has generations.json but no
    // TD state: its config is read from the run directory without the TD run's checks.
    auto resume_config = [&](const std::string& dir) {
      TrainConfig c =
          load_config(holds_generations(dir) ? dir + "/config.yaml"
                                             : RunDir::open_for_resume(dir).config_path());
      apply_overrides(c, a.overrides, dir + "/config.yaml");
      return c;
    };
    if (!a.config.empty()) {
      config = load_config(a.config, a.overrides);
      run_dir = config.run_path();
      if (a.auto_resume &&
          (path_exists("run directory", run_dir + "/state.json") || holds_generations(run_dir))) {
        resume_dir = run_dir;
        config = resume_config(run_dir);
      }
    } else {
      run_dir = a.resume;
      config = resume_config(a.resume);
    }
    if (resume_dir.empty() && holds_generations(run_dir))
      throw Error("train: run directory " + quote_path(run_dir) +
                  " already holds a run: continue it with --resume " + run_dir +
                  " (or --auto-resume), or choose another run.name");
    const bool td_stage = config.generations.init.empty() && !holds_generations(run_dir);
    if (td_stage && resume_dir.empty()) RunDir::require_new(run_dir);  // before the banner
    const bool td_done = td_stage && !resume_dir.empty() &&
                         std::filesystem::exists(run_dir + "/state.json") &&
                         RunDir::open(run_dir).read_state().games_done >= config.train.games;
    plan.td = td_stage && !td_done;
    plan.generations = config.generations.count > 0;
  } catch (const std::exception& e) {
    if (world.size() > 1) {
      std::string message = std::string("error\n") + e.what();
      world.broadcast(message, 0);
    }
    throw;
  }
  if (world.size() > 1) {
    std::string message =
        std::string(plan.td ? "td " : "") + (plan.generations ? "generations" : "");
    world.broadcast(message, 0);
  }
  if (plan.td) {
    const TrainResult result = run_td_stage(config, run_dir, resume_dir, a);
    if (!result.completed) return;
  }
  if (plan.generations) run_generations_stage(config, run_dir, a);
}

}  // namespace

void add_train_command(CLI::App& app) {
  auto a = std::make_shared<TrainArgs>();
  auto* cmd = app.add_subcommand(
      "train",
      "TD(lambda) self-play training from a YAML config (see configs/README.md).\n"
      "Writes <run.dir>/<run.name>/: config.yaml, ckpt-<games>.pt, latest.pt, best.pt, "
      "metrics.jsonl,\n"
      "state.json. With generations.count > 0 (configs/strong.yaml), then generations of\n"
      "label -> fit -> gate from the TD net (or generations.init): gen-NNN/, current.pt,\n"
      "generations.json. Ctrl-C stops at the next checkpoint; --resume continues where it "
      "stopped.");
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
  cmd->add_flag("--plan", a->plan,
                "Print what each generation of the config (with --set) would do — label files, "
                "labeller, fit and its data, gate — and stop: a recipe checked before it runs");
  cmd->add_flag("--keys", a->keys,
                "Print every config key with its type, default and range (a Markdown table)");
  cmd->callback([a] { run_train(*a); });
}

}  // namespace nardy::cli
