// `nardy fit --data FILE... [--init CKPT] --out CKPT`: supervised fitting on label files.
#include <cstdio>

#include "cli/command.h"
#include "core/error.h"
#include "nn/blas_threads.h"
#include "nn/encoder.h"
#include "selfplay/training/fit.h"

namespace nardy::cli {

void add_fit_command(CLI::App& app) {
  struct Args {
    FitRunOptions o;
    std::string encoder, activation = "sigmoid";
    std::vector<int> hidden = {128};
    int threads = 1;
    int blas_threads = 0;
  };
  auto a = std::make_shared<Args>();
  auto* cmd = app.add_subcommand(
      "fit",
      "Fit a net to the targets of label files (nardy label): minibatch training with LibTorch's\n"
      "Adam or SGD, shuffled by --seed, a held-out split by game, early stopping on the held-out\n"
      "loss (the best epoch's weights are kept). Prints the loss per epoch and writes a normal\n"
      "checkpoint (usable as net:CKPT everywhere).");
  cmd->add_option("--data", a->o.data, "Label file(s), fitted as one data set")
      ->required()
      ->expected(1, -1);
  cmd->add_option("--init", a->o.init, "Checkpoint to start from (default: a fresh net)");
  cmd->add_option("--widen", a->o.widen,
                  "Widen the --init net's hidden layers to these widths first (input side "
                  "first); the new units start with zero output weights, so the wider net "
                  "begins with the init's values")
      ->expected(1, 4)
      ->check(CLI::Range(1, 4096));
  cmd->add_option("--out", a->o.out, "Checkpoint to write")->required();
  cmd->add_option("--optimizer", a->o.fit.optimizer, "adam or sgd")
      ->capture_default_str()
      ->check(CLI::IsMember({"adam", "sgd"}));
  cmd->add_option("--lr", a->o.fit.lr, "Learning rate")
      ->capture_default_str()
      ->check(CLI::Range(1e-12, 100.0));
  cmd->add_option("--momentum", a->o.fit.momentum, "SGD momentum")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 0.999999));
  cmd->add_option("--weight-decay", a->o.fit.weight_decay, "L2 penalty")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 100.0));
  cmd->add_option("--batch", a->o.fit.batch, "Positions per minibatch")
      ->capture_default_str()
      ->check(CLI::Range(1, 1 << 20));
  cmd->add_option("--epochs", a->o.fit.max_epochs, "Most epochs")
      ->capture_default_str()
      ->check(CLI::Range(1, 100000));
  cmd->add_option("--patience", a->o.fit.patience,
                  "Stop after this many epochs without a better held-out loss")
      ->capture_default_str()
      ->check(CLI::Range(1, 100000));
  cmd->add_option("--lr-drops", a->o.fit.lr_drops,
                  "Plateaus met by going on from the best epoch at the lr times --lr-drop "
                  "instead of stopping")
      ->capture_default_str()
      ->check(CLI::Range(0, 100));
  cmd->add_option("--lr-drop", a->o.fit.lr_drop, "The lr's factor at each drop")
      ->capture_default_str()
      ->check(CLI::Range(1e-6, 0.999999));
  cmd->add_option("--sibling-weight", a->o.fit.sibling_weight,
                  "Weight of the error in each position's equity relative to its siblings "
                  "(the other best results of its roll: nardy label --top); 0: off")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 1e6));
  cmd->add_option("--holdout", a->o.holdout, "Fraction of the games held out")
      ->capture_default_str()
      ->check(CLI::Range(1e-6, 0.999999));
  add_seed_option(*cmd, a->o.fit.seed, "Seed of the split, the minibatch order and a fresh net");
  cmd->add_option("--split-seed", a->o.split_seed,
                  "Hold out games by a hash of (this seed, the file's labelling seed, game) "
                  "instead of (--seed, the file's place, game): the same games of a file in "
                  "every fit with this seed, whatever the other files; 0: off")
      ->capture_default_str();
  cmd->add_option("--shards", a->o.fit.shards,
                  "Cut every minibatch into N parts, each with its own gradient, added in part "
                  "order before the step: what N ranks compute (the same weights as --shards N "
                  "on one process)")
      ->capture_default_str()
      ->check(CLI::Range(1, 1024));
  cmd->add_option("--threads", a->threads,
                  "LibTorch threads (the weights depend on it; OMP_NUM_THREADS sets only the BLAS "
                  "threads underneath)")
      ->capture_default_str()
      ->check(CLI::Range(1, 256));
  cmd->add_option("--blas-threads", a->blas_threads,
                  "OpenBLAS threads under LibTorch (the weights depend on them too; 0: as "
                  "OMP_NUM_THREADS set them at the start)")
      ->capture_default_str()
      ->check(CLI::Range(0, 256));
  cmd->add_option(
      "--encoder", a->encoder,
      "Encoder of a fresh net (raw, extended, mobility, reach, zones; default raw); with --init, "
      "an encoder extending the init's (e.g. mobility for an extended net), whose "
      "new inputs start with zero weights, so the fit begins with the init's values");
  add_hidden_option(*cmd, a->hidden, "Hidden widths of a fresh net");
  cmd->add_option("--activation", a->activation, "Activation of a fresh net")
      ->capture_default_str();
  cmd->callback([a] {
    a->o.shape.encoder = encoder_by_name(a->encoder.empty() ? "raw" : a->encoder).id();
    if (!a->o.init.empty()) a->o.encoder = a->encoder;
    a->o.shape.hidden = a->hidden;
    a->o.shape.activation = parse_activation(a->activation);
    a->o.net_seed = a->o.fit.seed;
    set_torch_threads(a->threads);
    if (a->blas_threads > 0 && blas_threads() == 0)
      std::fprintf(stderr, "fit: warning: --blas-threads %d: this process has no OpenBLAS\n",
                   a->blas_threads);
    const ScopedBlasThreads blas(a->blas_threads);
    World& world = process_world();
    if (world.size() > 1) {
      if (a->o.fit.shards != 1 && a->o.fit.shards != world.size())
        throw Error("fit: --shards " + std::to_string(a->o.fit.shards) + " on " +
                    std::to_string(world.size()) + " ranks (each rank computes one part)");
      a->o.world = &world;
    }
    const bool root = world.is_root();  // prints; every rank computes its part
    const double lr = a->o.fit.lr;
    const FitRunResult r = run_fit(a->o, [lr, root](const FitEpoch& e) {
      if (!root) return;
      char at_lr[48] = "";  // after a drop
      if (e.lr != lr) std::snprintf(at_lr, sizeof at_lr, "  (lr %g)", e.lr);
      std::printf("epoch %3d  train loss %.6f  held-out loss %.6f%s%s\n", e.epoch, e.train_loss,
                  e.heldout_loss, e.best ? "  *" : "", at_lr);
      std::fflush(stdout);
    });
    if (!root) return;
    std::printf(
        "%lld training positions (%lld games), %lld held out (%lld games)\n"
        "best epoch %d: held-out loss %.6f (initial %.6f)%s%s\nwrote %s\n",
        static_cast<long long>(r.train_positions), static_cast<long long>(r.train_games),
        static_cast<long long>(r.heldout_positions), static_cast<long long>(r.heldout_games),
        r.fit.best_epoch, r.fit.best_heldout(), r.fit.epochs.front().heldout_loss,
        r.fit.stopped_early ? ", stopped early" : "",
        r.fit.lr_drops > 0 ? (", " + std::to_string(r.fit.lr_drops) + " lr drops").c_str() : "",
        a->o.out.c_str());
  });
}

}  // namespace nardy::cli
