// selfplay/tables/bearoff_table.h — exact one-sided race tables ("bear-off databases").
//
// For every arrangement of up to 15 of one side's checkers on its last N route points
// (bearoff_index.h; N = 1..12, every checker of a race stands at r <= 12, race.h) the table holds
// two exact distributions of the number of the side's own turns, counted from its coming roll:
//   finish     turns until all its checkers are borne off, when every roll is played to minimise
//              the expected number of turns to finish;
//   first off  turns until its first checker is borne off (0 when one already is), when every
//              roll is played to minimise the expected number of turns to that (what a side
//              facing mars does; docs/rules.md "End of the game and scoring").
// Moves are core/movegen.h's legal results, so every rule (bearing off with overshoot, the
// re-check after each step, the dice obligation; docs/rules.md rules 5-6) is the engine's own;
// the head rule and six-block rule cannot apply in a race. The tables are independent of the rule
// variants of core/rules.h. race_odds.h turns two sides' distributions into win/mars odds.
//
// Build: positions in increasing pip count (every move lowers it), 21 rolls each, the best
// result by the expectation already computed for the successors. Values are computed in double
// and stored as float; tail bins below 1e-9 are dropped, so each distribution sums to 1 within
// about 1e-6.
//
// File format, version 1 (little-endian, documented in docs/evaluation.md, "Race tables"):
//   offset 0   8 bytes   magic "NARDYBO1"
//           8  u32       format version (1)
//          12  u32       points N
//          16  u32       positions P = C(N + 15, N)
//          20  u32       floats F in the data block
//          24  u32       CRC-32 (zlib) of everything after the 32-byte header
//          28  u32       0 (reserved)
//          32  P records of 8 bytes: u32 offset into the data block (in floats), u8 first turn of
//              the finish distribution, u8 its length, u8 first turn of the first-off
//              distribution, u8 its length; the finish probabilities come first at the offset,
//              the first-off ones right after them
//      32+8P   F float32 probabilities
// Loading checks magic, version, N, P against N, F against the records, the size and the CRC,
// and names the file and the problem on any mismatch.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/position.h"
#include "selfplay/tables/bearoff_index.h"

namespace nardy {

// P(T = first + i) = p[i]; zero outside.
struct TurnDistribution {
  int first = 0;
  std::span<const float> p;
  double probability(int t) const {
    const int i = t - first;
    return i < 0 || i >= static_cast<int>(p.size()) ? 0.0 : p[static_cast<size_t>(i)];
  }
  // P(T >= t).
  double at_least(int t) const;
  double mean() const;
  int last() const { return first + static_cast<int>(p.size()) - 1; }
};

class BearoffTable {
 public:
  static constexpr uint32_t kFormatVersion = 1;

  // Computes the table for the last `points` points (1..12). `progress`, if given, is called
  // now and then with the fraction done. Throws Error on points out of range.
  static BearoffTable build(int points, const std::function<void(double)>& progress = {});
  // Reads a table file; throws Error naming the path and what is wrong (missing, truncated, bad
  // magic, version, sizes or checksum).
  static BearoffTable load(const std::string& path);
  // Writes the table; throws Error naming the path if it cannot be written.
  void save(const std::string& path) const;

  int points() const { return index_.points(); }
  uint32_t size() const { return index_.size(); }
  const BearoffIndex& index() const { return index_; }
  // CRC-32 of the file body (the value stored in the header).
  uint32_t checksum() const;

  TurnDistribution finish(uint32_t index) const;
  TurnDistribution first_off(uint32_t index) const;

  // Side s's arrangement in `pos` if every one of its checkers stands at r <= points().
  std::optional<uint32_t> index_of(const Position& pos, Side s) const;
  // True when `pos` is a race (race.h) with every checker of both sides at r <= points().
  bool covers(const Position& pos) const;

 private:
  struct Record {
    uint32_t offset;
    uint8_t finish_first, finish_len, first_off_first, first_off_len;
  };
  explicit BearoffTable(int points) : index_(points) {}
  std::vector<uint8_t> body_bytes() const;
  BearoffIndex index_;
  std::vector<Record> records_;
  std::vector<float> data_;
};

// The table that evaluation, search, rollouts and training use unless told otherwise, loaded once
// per process: the file named by the environment variable NARDY_BEAROFF if it is set ("off"
// disables tables), else the file the build writes (build/bearoff.nbt, a path compiled in), else
// none (null). A NARDY_BEAROFF file that is missing or damaged is an Error naming it; so is a
// damaged build file.
const BearoffTable* default_bearoff_table();
// Where default_bearoff_table() looks (for messages): the path, or "off".
std::string default_bearoff_path();

}  // namespace nardy
