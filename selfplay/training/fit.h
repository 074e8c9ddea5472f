// selfplay/training/fit.h — `nardy fit`: a net fitted to label files (label_file.h).
//
// The files' positions are encoded with the net's encoder and split by game: game g of file f
// (f = 0, 1, ... in the order given) is held out when a hash of (seed, g + f * 2^32) falls below
// `holdout`, so positions of one game (which are alike) are never on both sides of the split,
// the first file's split is the same with or without further files, and the split does not
// depend on a file's length beyond its games. Several files (e.g. the labels of successive
// rounds) are fitted as one data set; they must be labelled under the same rules. The net
// starts from `init` (a checkpoint; first widened to `widen` and given the inputs of `encoder`
// if those are given, nn/net_widening.h) or
// fresh weights of the given shape (seeded) and is fitted by nn/supervised_fit.h; the result is
// saved as a normal checkpoint (nn/value_net.h: TorchScript with nardy.json metadata and
// checksums) whose info keeps the init's config and counters (not its training-time
// evaluation, extra["eval"], which described the init) and adds the fit's data and figures
// under extra["fit.*"] (fit.widened: "256 -> 512" for a widened init, fit.encoded:
// "extended-v1 -> mobility-v1" for a re-encoded one).
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "nn/supervised_fit.h"
#include "selfplay/distributed/world.h"
#include "nn/value_net.h"

namespace nardy {

struct FitRunOptions {
  std::vector<std::string> data;  // label files (at least one), fitted together
  std::string init;               // checkpoint to start from ("": a fresh net of `shape`)
  std::vector<int> widen;         // widen init's hidden layers to these widths first
                                  // (nn/net_widening.h; seeded by net_seed); empty: as it is
  std::string encoder;            // give init this encoder first (one extending its own: the
                                  // new inputs start with zero weights, nn/net_widening.h);
                                  // "": as it is
  std::string out;                // checkpoint to write
  // Metadata entries the checkpoint gets besides the fit's own (e.g. the generational run's
  // "run" and "fit.recipe"); the init's "fit.recipe" is never kept, as it says how the init
  // was made.
  std::map<std::string, std::string> extra;
  NetShape shape;  // for a fresh net (num_outputs follows the data's rules)
  uint64_t net_seed = 1;
  double holdout = 0.1;  // fraction of games held out, (0, 1)
  FitOptions fit;        // fit.seed also seeds the split unless split_seed is set
  // The held-out split. 0: games held out by a hash of (fit.seed, the file's place in `data`,
  // game). Nonzero: by a hash of (split_seed, the file's labelling seed from its header, game),
  // so a file's held-out games are the same whatever fit.seed, the other files and their order:
  // a fit that pools label files an earlier fit (with the same split_seed) was fitted to then
  // holds out none of the games that fit trained on. Every file needs a 'seed' in its header.
  uint64_t split_seed = 0;
  // Ranks sharing the fit (selfplay/distributed/world.h; null: this process alone): every rank
  // reads the label files (each needs them), computes its part of every minibatch
  // (FitOptions::shards = the ranks, nn/supervised_fit.h) and all-gathers the others', so R
  // ranks of T LibTorch threads give the weights of one process with fit.shards = R and T
  // threads; rank 0 alone writes `out`. A rank that cannot read the data stops every rank.
  World* world = nullptr;
};

struct FitRunResult {
  FitResult fit;
  int64_t train_positions = 0, heldout_positions = 0;
  int64_t train_games = 0, heldout_games = 0;
};

// Throws Error naming the file or option for unreadable or bad data, files labelled under
// different rules, a net that does not match the data's rules, widths that cannot widen the
// init (or `widen` without an init), an encoder that does not extend the init's, or too few
// games for a held-out split.
FitRunResult run_fit(const FitRunOptions& options,
                     const std::function<void(const FitEpoch&)>& on_epoch = {});

}  // namespace nardy
