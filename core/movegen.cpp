#include "core/movegen.h"

#include <algorithm>
#include <bit>
#include <cassert>
#include <cstring>

namespace nardy {
namespace {

// Open-addressing set of 64-bit keys, cleared in O(1) by bumping a stamp. Keys are position
// hashes salted with the search depth, so one table serves all the dedup of a call.
class StampedSet {
 public:
  StampedSet() : keys_(kInitial), stamps_(kInitial, 0) {}
  void clear() {
    if (++stamp_ == 0) {  // wrapped: really clear
      std::fill(stamps_.begin(), stamps_.end(), 0);
      stamp_ = 1;
    }
    size_ = 0;
  }
  // Inserts key; returns false if it was already present.
  bool insert(uint64_t key) {
    if (2 * (size_ + 1) > keys_.size()) grow();
    size_t mask = keys_.size() - 1;
    for (size_t i = key & mask;; i = (i + 1) & mask) {
      if (stamps_[i] != stamp_) {
        stamps_[i] = stamp_;
        keys_[i] = key;
        ++size_;
        return true;
      }
      if (keys_[i] == key) return false;
    }
  }

 private:
  static constexpr size_t kInitial = 4096;
  void grow() {
    std::vector<uint64_t> old_keys;
    std::vector<uint32_t> old_stamps;
    old_keys.swap(keys_);
    old_stamps.swap(stamps_);
    keys_.assign(old_keys.size() * 2, 0);
    stamps_.assign(old_keys.size() * 2, 0);
    uint32_t s = stamp_;
    stamp_ = 1;
    size_ = 0;
    for (size_t i = 0; i < old_keys.size(); ++i)
      if (old_stamps[i] == s) insert(old_keys[i]);
  }
  std::vector<uint64_t> keys_;
  std::vector<uint32_t> stamps_;
  uint32_t stamp_ = 1;
  size_t size_ = 0;
};

inline uint64_t mix(uint64_t h) {
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ull;
  h ^= h >> 33;
  return h;
}

// Bit of the mover's route r in the opponent-route occupancy mask used by forbidden_block().
constexpr uint32_t opp_bit(int r) {
  return 1u << (opponent_route(r) - 1);
}

class Generator {
 public:
  Generator(const Position& pos, Dice dice, int head_allowance, MoveList& out, StampedSet& nodes,
            StampedSet& results)
      : pos_(pos), out_(out), nodes_(nodes), results_(results) {
    const auto& mb = pos.mover_board();
    for (int r = 1; r <= kNumPoints; ++r) {
      int v = mb[r - 1];
      b_[r] = static_cast<int8_t>(v);
      if (v > 0) {
        own_mask_ |= 1u << (r - 1);
        occ_ |= opp_bit(r);
        if (r > kHomeSize) outside_ += v;
        on_board_ += v;
      } else if (v < 0) {
        int orr = opponent_route(r);
        if (orr < opp_lowest_) opp_lowest_ = orr;
      }
    }
    opp_off_ = pos.opp_off();
    head_left_ = head_allowance;
    is_double_ = dice.is_double();
    if (is_double_) {
      num_dice_ = 4;
      for (int i = 0; i < 4; ++i) die_[i] = dice.d1;
    } else {
      num_dice_ = 2;
      die_[0] = static_cast<uint8_t>(dice.high());
      die_[1] = static_cast<uint8_t>(dice.low());
    }
  }

  void run() {
    out_.clear();
    nodes_.clear();
    results_.clear();
    search(0, 0);
    finish();
  }

 private:
  // Whether one checker may move from r by d in the current state (docs/rules.md rules 2-5).
  bool can_step(int r, int d) const {
    if (r == kHeadRoute && head_left_ == 0) return false;  // rule 3: head rule
    int t = r - d;
    if (t >= 1) {
      if (b_[t] < 0) return false;  // rule 2: a point held by the opponent is closed
      if (b_[t] == 0) {             // rule 4: a newly held point may complete a six-block
        uint32_t occ = occ_ | opp_bit(t);
        if (b_[r] == 1) occ &= ~opp_bit(r);
        if (forbidden_block(occ, opp_lowest_, opp_off_)) return false;
      }
      return true;
    }
    // Rule 5: bearing off once all remaining checkers are home; an overshooting die only
    // from the highest occupied point.
    if (outside_ > 0) return false;
    if (t == 0) return true;
    return (own_mask_ >> r) == 0;
  }

  void apply(int r, int d) {
    int t = r - d;
    if (--b_[r] == 0) {
      own_mask_ &= ~(1u << (r - 1));
      occ_ &= ~opp_bit(r);
    }
    if (r == kHeadRoute) --head_left_;
    if (r > kHomeSize && t <= kHomeSize) --outside_;
    if (t >= 1) {
      if (b_[t]++ == 0) {
        own_mask_ |= 1u << (t - 1);
        occ_ |= opp_bit(t);
      }
    } else {
      --on_board_;
    }
  }

  void undo(int r, int d) {
    int t = r - d;
    if (t >= 1) {
      if (--b_[t] == 0) {
        own_mask_ &= ~(1u << (t - 1));
        occ_ &= ~opp_bit(t);
      }
    } else {
      ++on_board_;
    }
    if (r > kHomeSize && t <= kHomeSize) ++outside_;
    if (r == kHeadRoute) ++head_left_;
    if (b_[r]++ == 0) {
      own_mask_ |= 1u << (r - 1);
      occ_ |= opp_bit(r);
    }
  }

  uint64_t board_hash() const {
    uint64_t w[3];
    std::memcpy(w, b_ + 1, 24);
    return mix(w[0] ^ mix(w[1] ^ mix(w[2])));
  }

  // used: bitmask of dice indices already played (non-doubles); depth: steps played.
  void search(int depth, unsigned used) {
    if (on_board_ == 0) {  // rule 6: the last checker is off, the game ends, dice are void
      leaf(num_dice_, depth, used);
      return;
    }
    if (depth == num_dice_) {
      leaf(depth, depth, used);
      return;
    }
    if (depth > 0) {
      // Transposition: the same board with the same dice left has the same continuations.
      uint64_t key = board_hash() ^ mix(0x100 + depth * 8 + used);
      if (!nodes_.insert(key)) return;
    }
    bool moved = false;
    for (int i = 0; i < num_dice_; ++i) {
      if (is_double_) {
        if (i != depth) continue;
      } else if (used & (1u << i)) {
        continue;
      }
      int d = die_[i];
      uint32_t m = own_mask_;
      while (m) {
        int r = 32 - std::countl_zero(m);  // rearmost checker first
        m &= ~(1u << (r - 1));
        if (!can_step(r, d)) continue;
        moved = true;
        apply(r, d);
        path_[depth] = Step{static_cast<uint8_t>(r), static_cast<uint8_t>(r - d > 0 ? r - d : 0)};
        search(depth + 1, used | (1u << i));
        undo(r, d);
      }
    }
    if (!moved) leaf(depth, depth, used);
  }

  // A finished sequence: `depth` counts as dice played for the obligation (all of them when
  // the game ended), `played` is the number of steps actually made.
  void leaf(int depth, int played, unsigned used) {
    if (depth < best_depth_) return;
    if (depth > best_depth_) {
      best_depth_ = depth;
      out_.clear();
      results_.clear();
    }
    // For a single die of a non-double, remember whether it was the larger (index 0).
    bool high = depth == 1 && !is_double_ && (used & 1u);
    uint64_t key = board_hash() ^ (high ? 0x5bd1e995ull : 0);
    if (!results_.insert(key)) return;
    MoveResult res;
    // Result with the opponent to move: rotate by 12 (opponent_route) and negate.
    static_assert(kNumPoints == 24);
    std::array<int8_t, kNumPoints> flipped;
    for (int r = 1; r <= 12; ++r) {
      flipped[r + 11] = static_cast<int8_t>(-b_[r]);
      flipped[r - 1] = static_cast<int8_t>(-b_[r + 12]);
    }
    res.position = Position::from_mover_board(flipped, ~pos_.side_to_move());
    res.move.num_steps = static_cast<uint8_t>(played);
    for (int s = 0; s < played; ++s) res.move.steps[s] = path_[s];
    res.move.side = pos_.side_to_move();
    // Single-die results number at most 15 points x 2 dice, well inside high_flags_.
    if (depth == 1) high_flags_[out_.size()] = high;
    if (high) any_high_ = true;
    out_.push_back(res);
  }

  void finish() {
    // Rule 6: if only one die of a non-double can be played, the larger one if possible.
    if (best_depth_ == 1 && !is_double_ && any_high_) {
      size_t w = 0;
      for (size_t i = 0; i < out_.size(); ++i)
        if (high_flags_[i]) out_[w++] = out_[i];
      out_.resize(w);
    }
    if (out_.empty() || best_depth_ == 0) {
      out_.clear();
      MoveResult pass;
      pass.position = pos_.with_side_to_move(~pos_.side_to_move());
      pass.move.side = pos_.side_to_move();
      out_.push_back(pass);
    }
  }

  const Position& pos_;
  MoveList& out_;
  StampedSet& nodes_;
  StampedSet& results_;
  int8_t b_[kNumPoints + 1 + 7] = {};  // 1-based; padded for the 24-byte hash read
  uint32_t own_mask_ = 0;              // bit r-1: the mover holds route r
  uint32_t occ_ = 0;                   // the same in opponent-route bits, for forbidden_block()
  int opp_lowest_ = 25;
  int opp_off_ = 0;
  int outside_ = 0;
  int on_board_ = 0;
  int head_left_ = 1;
  bool is_double_ = false;
  int num_dice_ = 2;
  uint8_t die_[4] = {};
  Step path_[4] = {};
  int best_depth_ = -1;
  bool any_high_ = false;
  bool high_flags_[64] = {};
};

}  // namespace

int head_allowance(const Position& pos, Dice dice, const Rules& rules) {
  // Rule 3 exception: a turn that begins with all 15 on the head and rolls 6-6, 4-4 or 3-3.
  if (rules.head_exception == HeadException::None) return 1;
  if (!dice.is_double() || pos.at_route(kHeadRoute) != kNumCheckers) return 1;
  int d = dice.d1;
  if (d != 6 && d != 4 && d != 3) return 1;
  if (rules.head_exception == HeadException::Standard) return 2;
  // Strict: only when a single head checker's run is stopped by the opponent's head point
  // itself (route 12 from the mover's view), not by another opposing checker first.
  for (int k = 1; k <= 4; ++k) {
    int t = kHeadRoute - k * d;
    if (t < 1) break;
    if (pos.at_route(t) < 0) return t == opponent_route(kHeadRoute) ? 2 : 1;
  }
  return 1;
}

void generate_moves(const Position& pos, Dice dice, const Rules& rules, MoveList& out) {
  assert(dice.valid());
  thread_local StampedSet nodes, results;
  Generator g(pos, dice, head_allowance(pos, dice, rules), out, nodes, results);
  g.run();
}

MoveList legal_moves(const Position& pos, Dice dice, const Rules& rules) {
  MoveList out;
  generate_moves(pos, dice, rules, out);
  return out;
}

void sort_by_position(MoveList& moves) {
  std::sort(moves.begin(), moves.end(), [](const MoveResult& a, const MoveResult& b) {
    auto pa = a.position.points(), pb = b.position.points();
    if (pa != pb) return pa < pb;
    return a.position.side_to_move() < b.position.side_to_move();
  });
}

}  // namespace nardy
