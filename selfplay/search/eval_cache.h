// selfplay/search/eval_cache.h — a fixed-size cache of position evaluations, keyed by position.
//
// Search and rollouts meet the same positions many times (transpositions of the two dice
// orders, sibling subtrees, the 21 rolls of one position evaluated again one turn later), so
// every evaluation is looked up here first. Key: Position::hash() mixed with the search depth
// the value was computed at; a hit also compares the stored position and depth exactly, so a
// hash collision can only cost a miss, never a wrong value.
//
// Layout: 2^bits direct-mapped slots (a new value overwrites whatever held its slot: recent
// positions are the likely repeats). Each slot is one 64-byte cache line (position 28, depth 1,
// generation 4, evaluation 16, padding), so the default 2^16 slots take 4 MB; a lookup touches
// one line, and prefetch() lets a batch of lookups wait for memory once. One cache per
// agent/thread: not thread-safe, never allocates after construction.
//
// Generations: new_generation() empties the cache in O(1) (entries of older generations never
// hit). Net agents start one per decision, so a decision depends only on its position and
// roll — never on what the agent evaluated before — which keeps arena and rollout results
// bit-identical for any thread count (the incremental net forward rounds differently from
// different parents, so a value cached from another parent could differ in the last bits).
#pragma once

#include <cstdint>
#include <vector>

#include "core/position.h"
#include "nn/evaluation.h"

namespace nardy {

class EvalCache {
 public:
  static constexpr int kDefaultBits = 16;

  // 2^bits slots; bits = 0 disables the cache (every lookup misses, stores are dropped).
  explicit EvalCache(int bits = kDefaultBits);

  // The value stored for exactly (pos, depth), if present.
  bool lookup(const Position& pos, int depth, Evaluation& out) {
    return lookup_at(slot(pos, depth), pos, depth, out);
  }
  void store(const Position& pos, int depth, const Evaluation& eval) {
    store_at(slot(pos, depth), pos, depth, eval);
  }
  // Whether nothing was stored since the last new_generation(): every lookup would miss.
  bool generation_empty() const { return empty_; }
  // Starts loading the slot of (pos, depth) into the CPU cache; a later lookup or store of it
  // then does not wait for memory. No effect on the contents.
  void prefetch(const Position& pos, int depth) const { prefetch_at(slot(pos, depth)); }
  // The same three with the slot given: slot(pos, depth) computed once (the position's hash)
  // for several calls about the same (pos, depth).
  size_t slot(const Position& pos, int depth) const {
    return slots_.empty() ? 0 : index(pos, depth);
  }
  bool lookup_at(size_t slot, const Position& pos, int depth, Evaluation& out) {
    if (slots_.empty()) return ++misses_, false;
    const Slot& s = slots_[slot];
    if (s.generation == generation_ && s.depth == depth && s.position == pos) {
      out = s.eval;
      ++hits_;
      return true;
    }
    ++misses_;
    return false;
  }
  void store_at(size_t slot, const Position& pos, int depth, const Evaluation& eval) {
    if (slots_.empty()) return;
    Slot& s = slots_[slot];
    s.position = pos;
    s.depth = static_cast<int8_t>(depth);
    s.generation = generation_;
    s.eval = eval;
    empty_ = false;
  }
  void prefetch_at(size_t slot) const {
    if (!slots_.empty()) __builtin_prefetch(&slots_[slot], 1);
  }
  // Forgets every stored value (O(1); a full clear only when the 32-bit counter wraps).
  void new_generation() {
    empty_ = true;
    if (++generation_ == 0) clear();
  }

  void clear();
  int bits() const { return bits_; }
  uint64_t hits() const { return hits_; }
  uint64_t misses() const { return misses_; }
  void reset_counters() { hits_ = misses_ = 0; }

 private:
  struct alignas(64) Slot {  // one cache line each
    Position position;
    int8_t depth = -1;  // -1: empty
    uint32_t generation = 0;
    Evaluation eval;
  };
  size_t index(const Position& pos, int depth) const {
    uint64_t h = pos.hash() ^ (static_cast<uint64_t>(depth + 1) * 0x9E3779B97F4A7C15ull);
    h ^= h >> 29;
    return static_cast<size_t>(h & mask_);
  }
  int bits_ = 0;
  uint64_t mask_ = 0;
  std::vector<Slot> slots_;
  uint32_t generation_ = 1;
  bool empty_ = true;
  uint64_t hits_ = 0, misses_ = 0;
};

}  // namespace nardy
