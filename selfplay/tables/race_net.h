// selfplay/tables/race_net.h — one side's race-table distributions, estimated where no table is.
//
// A race table (bearoff_table.h) holds, for every arrangement of a side's checkers on its last N
// points, the exact distributions of its turns to finish and to its first checker off. The
// build's table has 8 points (33 MB, built in seconds); every race fits in 12 (race.h), but that
// table is 1.7 GB and half an hour to build. The race net is a small multilayer perceptron fitted
// to the 12-point table (scripts/train_race_net.py) that gives both distributions for any
// arrangement of up to 15 checkers on r <= 12 from a file of a few hundred KB; two sides'
// distributions then give a race's odds exactly as the table's do (race_odds.h). It is an
// estimate, not exact: RaceValuer uses the table for each side it covers and the net for the
// other, and search marks only table-valued races exact (docs/evaluation.md "Race net").
//
// The net: inputs per route point r = 1..points, with c the side's checkers there,
// [c >= 1, c >= 2, c >= 3, max(c - 3, 0) / 4], then pips / 100, checkers on the board / 15,
// checkers off / 15; hidden layers of ReLU units; one linear output layer of finish_bins +
// first_off_bins logits, each group turned into probabilities by a softmax. Bin t is "t turns"
// and the last bin of each group also holds the (tiny) mass of later turns.
//
// File format, version 1 (little-endian):
//   offset 0   8 bytes   magic "NARDYRN1"
//           8  u32       format version (1)
//          12  u32       points (1..12)
//          16  u32       L: the layers' input widths that follow (input, then each hidden layer)
//          20  u32       finish bins
//          24  u32       first-off bins
//          28  u32       CRC-32 (zlib) of the weights block
//          32  u32       0 (reserved)
//          36  L u32     widths w[0] (inputs, 4 * points + 3), w[1..L-1] (hidden layers)
//          ... for each of the L layers, its weights (out x in, row-major) then its biases
//              (out), float32; layer k maps w[k] to w[k + 1], the last to the output bins
// Loading checks the magic, version, points, the input width, the size, the CRC and that every
// weight is finite, and names the file and the problem on any mismatch.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/position.h"
#include "core/rules.h"
#include "selfplay/tables/bearoff_index.h"
#include "selfplay/tables/bearoff_table.h"
#include "selfplay/tables/race_odds.h"

namespace nardy {

class RaceNet {
 public:
  static constexpr uint32_t kFormatVersion = 1;
  static constexpr int kMaxBins = 64;

  // Reads a race net file; throws Error naming the path and what is wrong.
  static RaceNet load(const std::string& path);

  int points() const { return points_; }
  int finish_bins() const { return finish_bins_; }
  int first_off_bins() const { return first_off_bins_; }

  // The inputs of arrangement `a` (entries at r > points() must be 0), as documented above.
  void encode(const Arrangement& a, float* x) const;
  // The two distributions of arrangement `a`: finish[0 .. finish_bins) and
  // first_off[0 .. first_off_bins), each summing to 1.
  void estimate(const Arrangement& a, float* finish, float* first_off) const;

 private:
  int points_ = 0, finish_bins_ = 0, first_off_bins_ = 0;
  std::vector<int> widths_;                  // inputs, hidden..., then the output bins
  std::vector<std::vector<float>> weights_;  // per layer, transposed: in x out
  std::vector<std::vector<float>> biases_;
};

// Races valued from one side's distributions each: the table's for a side whose checkers all stand
// within its points, else the net's (kept for the last few thousand arrangements asked, so a
// search asks the net once per arrangement, not once per position). Not thread-safe: one per
// search.
class RaceValuer {
 public:
  // `table` may be null; `net` must outlive this. 2^cache_bits arrangements are kept (0..20).
  RaceValuer(const BearoffTable* table, const RaceNet& net, int cache_bits = 12);

  // The odds for the side to move if `pos` is a race (race.h) with every checker within the
  // net's points, else empty.
  std::optional<RaceOdds> odds(const Position& pos, const Rules& rules);

 private:
  struct Slot {
    uint32_t key = UINT32_MAX;  // the arrangement's rank among 12-point ones
    float finish[RaceNet::kMaxBins];
    float first_off[RaceNet::kMaxBins];
  };
  // The side's distributions; returns the slot that holds them (null: the table's). `keep` is
  // not overwritten.
  const Slot* distributions(const Position& pos, Side s, TurnDistribution& finish,
                            TurnDistribution& first_off, const Slot* keep);
  const BearoffTable* table_;
  const RaceNet& net_;
  BearoffIndex index_{kMaxBearoffPoints};
  std::vector<Slot> slots_;
  int shift_;     // 32 - cache_bits: the hash's top bits pick the slot
  Slot scratch_;  // when both sides' arrangements fall in one slot
};

// The race net evaluation and search use unless told otherwise, loaded once per process: the file
// named by NARDY_RACE_NET ("off" disables it), else `path_if_unset` when it names an existing
// file, else none (null). A named file that is missing or damaged is an Error naming it.
const RaceNet* default_race_net(const std::string& path_if_unset);

}  // namespace nardy
