#include "core/movegen.h"

#include <algorithm>
#include <bit>
#include <cassert>
#include <cstring>

namespace nardy {
namespace {

// ---- Board keys --------------------------------------------------------------------------
// The key of a board is the sum over the mover's checkers of a random 64-bit number per route
// point (kPointKey[r], with kPointKey[0] = 0 for a checker borne off). Every board met during
// one call has the same opposing checkers, so the mover's checkers alone tell boards apart; a
// step from r to t changes the key by kPointKey[t] - kPointKey[r], so it is kept up to date in
// O(1) (Zobrist hashing with addition instead of XOR, since a point holds several checkers).
// Two different boards share a key only with probability about 2^-64.

constexpr uint64_t splitmix64_at(uint64_t i) {
  uint64_t z = 0x9E3779B97F4A7C15ull * (i + 1);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

struct PointKeys {
  uint64_t k[kNumPoints + 1] = {};
  constexpr PointKeys() {
    for (int r = 1; r <= kNumPoints; ++r) k[r] = splitmix64_at(static_cast<uint64_t>(r) + 0x6e61);
  }
};
constexpr PointKeys kPointKey;

// Open-addressing set of 64-bit keys, cleared in O(1) by bumping a stamp; key and stamp share
// one slot so a probe touches one cache line. Grows (and stays grown) when half full.
class StampedSet {
 public:
  StampedSet() : slots_(kInitial) {}
  void clear() {
    if (++stamp_ == 0) {  // wrapped: really clear
      for (Slot& s : slots_) s.stamp = 0;
      stamp_ = 1;
    }
    size_ = 0;
  }
  // Inserts key; returns false if it was already present.
  bool insert(uint64_t key) {
    if (2 * (size_ + 1) > slots_.size()) grow();
    const size_t mask = slots_.size() - 1;
    for (size_t i = index(key) & mask;; i = (i + 1) & mask) {
      Slot& s = slots_[i];
      if (s.stamp != stamp_) {
        s.stamp = stamp_;
        s.key = key;
        ++size_;
        return true;
      }
      if (s.key == key) return false;
    }
  }

 private:
  struct Slot {
    uint64_t key = 0;
    uint32_t stamp = 0;
  };
  static constexpr size_t kInitial = 1024;
  static size_t index(uint64_t key) { return (key * 0x9E3779B97F4A7C15ull) >> 40; }
  void grow() {
    std::vector<Slot> old(slots_.size() * 2);
    old.swap(slots_);
    const uint32_t s = stamp_;
    stamp_ = 1;
    size_ = 0;
    for (const Slot& o : old)
      if (o.stamp == s) insert(o.key);
  }
  std::vector<Slot> slots_;
  uint32_t stamp_ = 1;
  size_t size_ = 0;
};

// Bit of the mover's route r in the opponent-route occupancy mask (position.h six_runs()).
constexpr uint32_t opp_bit(int r) {
  return 1u << (opponent_route(r) - 1);
}

// Depth-first search over the steps of a turn on one mutable board (apply/undo), keeping
// incrementally: the mover's occupied points (as route bits and as opponent-route bits for the
// six-block rule), the checkers outside home and on the board, the head allowance left and the
// board key. See the contract and the algorithm in core/movegen.h.
class Generator {
 public:
  Generator(const Position& pos, Dice dice, int head_allowance, MoveList& out, StampedSet& nodes,
            StampedSet& results)
      : pos_(pos), out_(out), nodes_(nodes), results_(results) {
    const auto& mb = pos.mover_board();
    int opp_lowest = 25;
    for (int r = 1; r <= kNumPoints; ++r) {
      int v = mb[r - 1];
      b_[r] = static_cast<int8_t>(v);
      if (v > 0) {
        own_mask_ |= 1u << (r - 1);
        occ_ |= opp_bit(r);
        if (r > kHomeSize) outside_ += v;
        on_board_ += v;
        key_ += static_cast<uint64_t>(v) * kPointKey.k[r];
      } else if (v < 0) {
        opp_lowest = std::min(opp_lowest, opponent_route(r));
      }
    }
    block_windows_ = forbidden_windows(opp_lowest, pos.opp_off());
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
    results_.clear();
    if (is_double_) nodes_.clear();
    search(0, 0);
    finish();
  }

 private:
  // Whether one checker may move from r by d in the current state (docs/rules.md rules 2-5).
  bool can_step(int r, int d) const {
    if (r == kHeadRoute && head_left_ == 0) return false;  // rule 3: head rule
    const int t = r - d;
    if (t >= 1) {
      const int v = b_[t];
      if (v < 0) return false;  // rule 2: a point held by the opponent is closed
      if (v == 0 && block_windows_ != 0) {  // rule 4: a newly held point may complete a block
        uint32_t occ = occ_ | opp_bit(t);
        if (b_[r] == 1) occ &= ~opp_bit(r);
        if (six_runs(occ) & block_windows_) return false;
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
    const int t = r - d;
    if (--b_[r] == 0) {
      own_mask_ &= ~(1u << (r - 1));
      occ_ &= ~opp_bit(r);
    }
    key_ -= kPointKey.k[r];
    if (r == kHeadRoute) --head_left_;
    if (r > kHomeSize && t <= kHomeSize) --outside_;
    if (t >= 1) {
      if (b_[t]++ == 0) {
        own_mask_ |= 1u << (t - 1);
        occ_ |= opp_bit(t);
      }
      key_ += kPointKey.k[t];
    } else {
      --on_board_;
    }
  }

  void undo(int r, int d) {
    const int t = r - d;
    if (t >= 1) {
      if (--b_[t] == 0) {
        own_mask_ &= ~(1u << (t - 1));
        occ_ &= ~opp_bit(t);
      }
      key_ -= kPointKey.k[t];
    } else {
      ++on_board_;
    }
    if (r > kHomeSize && t <= kHomeSize) ++outside_;
    if (r == kHeadRoute) ++head_left_;
    if (b_[r]++ == 0) {
      own_mask_ |= 1u << (r - 1);
      occ_ |= opp_bit(r);
    }
    key_ += kPointKey.k[r];
  }

  // Whether die index i may be played at `depth` (a double plays its dice in turn).
  bool die_free(int i, int depth, unsigned used) const {
    return is_double_ ? i == depth : (used & (1u << i)) == 0;
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
    // Transposition: the same board with the same dice left has the same continuations, so
    // its results were all found the first time. Only a double can meet a board twice before
    // its last step: after one step the boards differ (one checker moved by one die from
    // different points), and a non-double's second step is its last.
    if (depth >= 2) {
      if (!nodes_.insert(key_ ^ splitmix64_at(static_cast<uint64_t>(depth)))) return;
    }
    if (depth == num_dice_ - 1) {
      last_step(depth, used);
      return;
    }
    bool moved = false;
    for (int i = 0; i < num_dice_; ++i) {
      if (!die_free(i, depth, used)) continue;
      const int d = die_[i];
      uint32_t m = own_mask_;
      while (m) {
        const int r = 32 - std::countl_zero(m);  // rearmost checker first
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

  // The last die: each step ends the turn with every die played, so the result's key is the
  // board key after the step, known without playing it; only a new result is played and kept.
  void last_step(int depth, unsigned used) {
    bool moved = false;
    for (int i = 0; i < num_dice_; ++i) {
      if (!die_free(i, depth, used)) continue;
      const int d = die_[i];
      uint32_t m = own_mask_;
      while (m) {
        const int r = 32 - std::countl_zero(m);
        m &= ~(1u << (r - 1));
        if (!can_step(r, d)) continue;
        if (!moved) {
          moved = true;
          raise_best(num_dice_);
        }
        const int t = r - d > 0 ? r - d : 0;
        if (!results_.insert(key_ - kPointKey.k[r] + kPointKey.k[t])) continue;
        apply(r, d);
        path_[depth] = Step{static_cast<uint8_t>(r), static_cast<uint8_t>(t)};
        emit(depth + 1, false);
        undo(r, d);
      }
    }
    if (!moved) leaf(depth, depth, used);
  }

  // A result counting `depth` dice played is about to be considered: deeper ones replace
  // shallower ones (rule 6: play as many dice as possible).
  void raise_best(int depth) {
    if (depth > best_depth_) {
      best_depth_ = depth;
      out_.clear();
      results_.clear();
    }
  }

  // A finished sequence: `depth` counts as dice played for the obligation (all of them when
  // the game ended), `played` is the number of steps actually made.
  void leaf(int depth, int played, unsigned used) {
    if (depth < best_depth_) return;
    raise_best(depth);
    // For a single die of a non-double, remember whether it was the larger (index 0).
    const bool high = depth == 1 && !is_double_ && (used & 1u);
    if (!results_.insert(key_ ^ (high ? 0x5bd1e995ull : 0))) return;
    emit(played, high);
  }

  // Appends the current board as a result: rotated by 12 points and negated, so that the
  // opponent is the mover (opponent_route), with the steps played to reach it.
  void emit(int played, bool high) {
    static_assert(kNumPoints == 24);
    std::array<int8_t, kNumPoints> flipped;
    std::memcpy(flipped.data(), b_ + 13, 12);
    std::memcpy(flipped.data() + 12, b_ + 1, 12);
    for (int8_t& v : flipped) v = static_cast<int8_t>(-v);
    MoveResult& res = out_.emplace_back();
    res.position = Position::from_mover_board(flipped, ~pos_.side_to_move(), pos_.opp_off(),
                                              kNumCheckers - on_board_);
    res.move.num_steps = static_cast<uint8_t>(played);
    for (int s = 0; s < played; ++s) res.move.steps[s] = path_[s];
    res.move.side = pos_.side_to_move();
    // Single-die results number at most 15 points x 2 dice, well inside high_flags_.
    if (best_depth_ == 1) high_flags_[out_.size() - 1] = high;
    if (high) any_high_ = true;
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
  int8_t b_[kNumPoints + 1] = {};  // 1-based
  uint32_t own_mask_ = 0;          // bit r-1: the mover holds route r
  uint32_t occ_ = 0;               // the same in opponent-route bits, for six_runs()
  uint32_t block_windows_ = 0;     // six-runs that rule 4 forbids (forbidden_windows())
  uint64_t key_ = 0;               // board key (see kPointKey)
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
