// selfplay/evaluation/luck_head.h — a learned, cheap measure of a roll's luck for rollouts.
//
// Luck adjustment (selfplay/evaluation/rollout.h) subtracts at every turn, with position P (the
// mover to roll) and roll d, a term of mean zero over the roll. The exact term
//     luck(P, d) = f(P, d) − Σ_{d'} w(d') f(P, d'),   f(P, d) = the mover's best 0-ply value
// needs the best result of all 21 rolls: about 20 plain 0-ply turns of work. A luck head is a
// small ReLU network (nn/luck_fit.h) that predicts that term for each of the 21 distinct rolls
// from P's encoding (seen by its side to move):
//     head(P, d)[o],   o = win, win_mars, lose_mars, draw (mover's view)
// (lose and equity follow: Δlose = −Δwin − Δdraw, Δequity = Δwin + Δwin_mars − Δlose −
// Δlose_mars). Its outputs are centred over the rolls, Σ_d w(d) head(P, d) = 0 for every P
// (w = kDistinctRolls' 36ths; the centring is folded into the output layer, in double, on
// load), so a rollout adjusted with it stays unbiased whatever the network predicts, for any
// agent and rules: only how much variance it removes depends on the fit. A turn costs one
// forward of the network (sparse first layer, dense further layers, and the 4 outputs of the
// roll played) on the fast kernels (nn/fast_kernels.h): a 0-ply trial costs 1.65x a plain one
// with the shipped 256-256 head (docs/evaluation.md, "Luck heads"), against ~20x for the exact
// measure.
//
// Fitting (fit_luck_head): self-play games from the start of a 0-ply agent of a value net (the
// teacher) with Gaussian noise on its choices (diverse positions); at every turn of a game that
// is not over and not a race the default race table covers (rollouts stop there), the exact
// terms of all 21 rolls under the teacher (Search::best_static) are the targets. Every tenth
// game is held out; the network is trained with LibTorch (nn/luck_fit.h) and the report gives
// the share of the exact equity term's variance (roll-weighted) it explains on the held-out
// games. Games are played in fixed blocks and their rows kept in game order: the same data for
// any thread count, and the same network for the same seed and LibTorch thread count.
//
// Ranks (`world`, selfplay/distributed/world.h): the fit's first phase, sample_luck_positions,
// splits the blocks of games into one contiguous share per rank (block_of), each played on the
// rank's own `threads`, and all-gathers the rows in block order: every rank gets the data of
// one process. The second phase, train_luck_head, is one process's work (LibTorch's threads on
// one machine): `nardy luck fit` runs it on rank 0 alone, with `train_threads` or else every
// rank's threads (ranks × threads), so the head is the same bits as one process's with as many
// threads. The games are the cheap phase (about 50 s of the 10 min fit of docs/evaluation.md),
// so ranks save little of a whole fit.
//
// File (binary, little-endian floats; `nardy luck fit` writes it beside the teacher's
// checkpoint as NAME.luck):
//   line 1   "nardy-luck-head 1\n"
//   line 2   a JSON object and "\n": encoder (id), hidden (sizes), teacher (the teacher net's
//            parameters checksum, nn/checkpoint_json.h), rules (Rules::to_string()), fit
//            (how it was made: informative)
//   then     every layer's weight [in][out] and bias [out] as float32, input layer first (the
//            last layer's outputs roll-major, r * 4 + o, not yet centred)
//   last     "\nend crc32:XXXXXXXX\n": CRC-32 of every byte before it
// Readers check every part and name the file and the problem.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/position.h"
#include "core/rules.h"
#include "core/types.h"
#include "nn/encoder.h"
#include "nn/fast_kernels.h"
#include "nn/luck_fit.h"
#include "nn/value_net.h"
#include "selfplay/distributed/world.h"

namespace nardy {

// The six rollout outputs' luck terms, mover's view: win, win_mars, lose, lose_mars, draw,
// equity (the order of rollout.h's RolloutOutput).
using LuckTerms = std::array<double, 6>;

// Index into kDistinctRolls of a roll (order of the dice ignored).
int distinct_roll_index(Dice d);

class LuckHead {
 public:
  static constexpr int kFormatVersion = 1;

  // A head from a trained network (nn/luck_fit.h) on `encoder` (an id of nn/encoder.h).
  // Throws Error if the shapes do not fit together.
  LuckHead(const std::string& encoder, LuckMlp mlp, std::string teacher, const Rules& rules,
           std::string fit_note);
  // The kernels' views point into the object's own buffers: a copy builds its own views; a move
  // keeps the buffers (and so the views).
  LuckHead(const LuckHead& other);
  LuckHead(LuckHead&&) noexcept = default;
  LuckHead& operator=(const LuckHead&) = delete;
  LuckHead& operator=(LuckHead&&) = delete;

  // Reads a head file. Throws Error naming `path` for a missing or damaged file.
  static LuckHead load(const std::string& path);
  // Writes the file atomically (temporary file, then rename).
  void save(const std::string& path) const;

  const Encoder& encoder() const { return *encoder_; }
  const std::vector<int>& hidden() const { return mlp_.hidden; }
  const std::string& teacher() const { return teacher_; }  // the teacher's parameters checksum
  const Rules& rules() const { return rules_; }            // of the fit
  const std::string& fit_note() const { return fit_note_; }
  std::string describe() const;  // "luck head 256-256 (teacher crc32:...)"

  // Caller-owned buffers of one thread (the head itself is immutable and shared).
  struct Scratch {
    std::vector<float> x, sums, hidden;
  };
  Scratch make_scratch() const;
  // The predicted luck of roll `d` at `pos` (mover's view), all six outputs. With
  // `non_doubles_only` (the opening turn under opening=no_doubles, where only the 15
  // non-doubles can be rolled) the outputs are centred over those rolls instead.
  LuckTerms luck(const Position& pos, Dice d, Scratch& s, bool non_doubles_only = false) const;

 private:
  const Encoder* encoder_;
  LuckMlp mlp_;  // as trained (what save() writes)
  std::string teacher_, fit_note_;
  Rules rules_;
  const FastKernels* kernels_;
  // Centred output layers, per roll: [last hidden][4] and [4]; over all rolls, and over the
  // non-doubles (meaningful for non-double rolls).
  std::vector<std::vector<float>> out_w_[2], out_b_[2];
  // The kernels' views: the first layer (and, for one hidden layer, roll r's output layer), and
  // for deeper nets the further layers plus roll r's output layer.
  std::vector<KernelNet> first_[2];
  std::vector<std::vector<KernelLayer>> upper_layers_[2];
  std::vector<KernelUpper> upper_[2];
  int activations_ = 0;  // hidden units of all layers
  void build_views();
};

// The sidecar head file of a checkpoint: PATH with a trailing ".pt" replaced by ".luck" (else
// PATH + ".luck").
std::string luck_head_path_for(const std::string& checkpoint_path);

// The head beside the checkpoint at `net_path` (luck_head_path_for) if that file exists and was
// fitted under `rules`; null otherwise. Throws Error naming the file if it is damaged.
std::shared_ptr<const LuckHead> find_luck_head(const std::string& net_path, const Rules& rules);

// The head a rollout by `agent_spec` uses unless told otherwise: the one beside the checkpoint
// of `luck_net` (a path; "" = the agent's own net, if it is a net agent) fitted under `rules`,
// when the agent does not search (a searching agent measures luck exactly at little cost).
// Null when there is none: luck is then measured exactly. Throws Error (find_luck_head) for a
// damaged file.
std::shared_ptr<const LuckHead> default_luck_head(const std::string& agent_spec,
                                                  const std::string& luck_net, const Rules& rules);

struct LuckHeadFitOptions {
  int64_t games = 6000;   // self-play games sampled (every tenth held out)
  double noise = 0.05;    // the sampling agent's Gaussian noise on equities (net_agent.h noise=)
  int threads = 1;        // games in parallel, per rank (the data do not depend on it)
  int train_threads = 0;  // LibTorch's threads while training (0: `threads` × ranks); the
                          // network is reproducible for the same seed and train_threads
  uint64_t seed = 1;
  Rules rules;
  LuckTrainOptions train;
  // Called while games are played with (games done, games) of this rank's share, and after
  // each training epoch;
  // either may be empty.
  std::function<void(int64_t, int64_t)> progress;
  std::function<void(const LuckEpoch&)> on_epoch;
  World* world = nullptr;  // ranks sharing the games (see above); null: this process alone
};

struct LuckHeadFitReport {
  int64_t games = 0, positions = 0, held_out_positions = 0;
  double luck_rms = 0;   // root mean square of the exact equity term (held out, weighted)
  double explained = 0;  // held-out share of its variance the head explains
  std::vector<LuckEpoch> epochs;
  std::string to_text() const;
};

// The fit's rows, training and held out, each in game order.
struct LuckFitSet {
  LuckFitData train, held;
};

// The fit's first phase: the games and the exact luck of their positions (see the header
// comment). With options.world a collective: every rank plays its share and returns all rows.
// Throws Error for options out of range (on every rank, the failed rank's message on the others).
LuckFitSet sample_luck_positions(const ValueNet& teacher, const LuckHeadFitOptions& options);
// The second phase: trains the head on `set` (this process alone; see train_threads).
LuckHead train_luck_head(const ValueNet& teacher, const LuckFitSet& set,
                         const LuckHeadFitOptions& options, LuckHeadFitReport* report = nullptr);
// Both phases: fits a head to the exact luck of `teacher`. Throws Error for options out of
// range. With options.world every rank trains the same head.
LuckHead fit_luck_head(const ValueNet& teacher, const LuckHeadFitOptions& options,
                       LuckHeadFitReport* report = nullptr);

}  // namespace nardy
