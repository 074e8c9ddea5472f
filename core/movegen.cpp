#include "core/movegen.h"

#include <algorithm>
#include <bit>
#include <cassert>
#include <cstring>

namespace nardy {
namespace {

// ---- Board keys --------------------------------------------------------------------------
// The key of a board is its mover's counts written as a base-16 number: digit r - 1 is the
// count on route point r (at most 15: a side has 15 checkers, docs/rules.md "Start"), so 24
// digits fill 96 bits and kPointKey[r] = 16^(r-1) (kPointKey[0] = 0 for a checker borne off,
// whose count follows from the others). Every board met during one call has the same opposing
// checkers, so the mover's checkers alone tell boards apart, and two different boards never
// share a key: the key is exact, not a hash. A step from r to t changes the key by
// kPointKey[t] - kPointKey[r], so it is kept up to date in O(1). Bits 96 and up are free for
// tags (kHighTag).

using BoardKey = unsigned __int128;

struct PointKeys {
  BoardKey k[kNumPoints + 1] = {};
  constexpr PointKeys() {
    for (int r = 1; r <= kNumPoints; ++r) k[r] = BoardKey{1} << (4 * (r - 1));
  }
};
constexpr PointKeys kPointKey;
constexpr BoardKey kHighTag = BoardKey{1} << 100;  // a single die played was the larger

// Open-addressing set of board keys, cleared in O(1) by bumping a stamp; key and stamp share
// one slot so a probe touches one cache line. Each call starts on a small prefix of the slots
// (2^bits: most turns have a few dozen keys, and a small table stays in L1) and doubles it when
// half full; the storage grows when needed and is kept for later calls. insert() is forced
// inline (at -O3 GCC would call it) and grow() kept out of the way.
class StampedSet {
 public:
  StampedSet() : slots_(kInitial) {}
  void clear(int bits) {
    next_stamp();
    set_bits(bits);
    size_ = 0;
  }
  int bits() const { return bits_; }
  // Inserts key; returns false if it was already present.
  [[gnu::always_inline]] bool insert(BoardKey key) {
    if (size_ >= limit_) grow();
    const size_t mask = (size_t{1} << bits_) - 1;
    for (size_t i = index(key);; i = (i + 1) & mask) {
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
    BoardKey key = 0;
    uint32_t stamp = 0;
  };
  static constexpr int kInitialBits = 7;
  static constexpr size_t kInitial = 4096;
  size_t index(BoardKey key) const {
    const uint64_t mixed =
        static_cast<uint64_t>(key) ^ (static_cast<uint64_t>(key >> 64) * 0xC2B2AE3D27D4EB4Full);
    return (mixed * 0x9E3779B97F4A7C15ull) >> (64 - bits_);
  }
  void set_bits(int bits) {
    bits_ = bits;
    limit_ = (size_t{1} << bits) / 2;  // at most half full
  }
  void next_stamp() {
    if (++stamp_ == 0) {  // wrapped: really clear
      for (Slot& s : slots_) s.stamp = 0;
      stamp_ = 1;
    }
  }
  [[gnu::noinline]] void grow() {
    const size_t n = size_t{1} << bits_;
    std::vector<BoardKey>& keys = scratch_;  // kept, so that it too stops allocating
    keys.clear();
    for (size_t i = 0; i < n; ++i)
      if (slots_[i].stamp == stamp_) keys.push_back(slots_[i].key);
    set_bits(bits_ + 1);
    if ((size_t{1} << bits_) > slots_.size()) slots_.resize(size_t{1} << bits_);
    next_stamp();
    size_ = 0;
    for (BoardKey k : keys) insert(k);
  }
  std::vector<Slot> slots_;
  std::vector<BoardKey> scratch_;
  uint32_t stamp_ = 1;
  int bits_ = kInitialBits;
  size_t limit_ = (size_t{1} << kInitialBits) / 2;
  size_t size_ = 0;
};

// SWAR helpers on eight signed counts packed in a word (byte i = one point).
constexpr uint64_t kLow7 = 0x7f7f7f7f7f7f7f7full, kHigh1 = 0x8080808080808080ull;
// Bit 7 of each byte set where the byte is non-zero.
constexpr uint64_t nonzero_bytes(uint64_t x) {
  return (((x & kLow7) + kLow7) | x) & kHigh1;
}
// Gathers bit 7 of each byte into bits 0..7 (byte i -> bit i).
constexpr uint32_t byte_mask(uint64_t x) {
  return static_cast<uint32_t>((((x & kHigh1) >> 7) * 0x0102040810204080ull) >> 56);
}
// Negates each byte (two's complement, no carry between bytes).
constexpr uint64_t negate_bytes(uint64_t x) {
  const uint64_t a = ~x;
  return ((a & kLow7) + 0x0101010101010101ull) ^ (a & kHigh1);
}
// The low nibbles of the eight bytes as one 32-bit number (byte i -> bits 4i..4i+3); each
// byte must be below 16.
constexpr uint64_t pack_nibbles(uint64_t x) {
  x = (x | (x >> 4)) & 0x00ff00ff00ff00ffull;
  x = (x | (x >> 8)) & 0x0000ffff0000ffffull;
  return (x | (x >> 16)) & 0xffffffffull;
}
static_assert(byte_mask(nonzero_bytes(0x00ff0100fe000f00ull)) == 0b01101010);
static_assert(pack_nibbles(0x0f00010203040e05ull) == 0xf01234e5ull);
static_assert(byte_mask(0x00ff0100fe000f00ull) == 0b01001000);
static_assert(negate_bytes(0x00ff0100fe807f01ull) == 0x0001ff00028081ffull);

// Bit of the mover's route r in the opponent-route occupancy mask (position.h six_runs()),
// from a table (r = 1..24).
struct OppBits {
  uint32_t bit[kNumPoints + 1] = {};
  constexpr OppBits() {
    for (int r = 1; r <= kNumPoints; ++r) bit[r] = 1u << (opponent_route(r) - 1);
  }
};
constexpr OppBits kOppBits;
inline uint32_t opp_bit(int r) {
  return kOppBits.bit[r];
}

// Index of the mover's route r in the result's board, which is seen from the opponent: the
// opponent's route coordinate of the same point, minus one (the board is also negated).
constexpr int result_index(int r) {
  return opponent_route(r) - 1;
}

// The result board is kept in two 16-byte vectors (GCC/Clang vector extension) and changed by
// whole-vector additions: a byte store followed by a wider load of the same bytes stalls the
// CPU (failed store forwarding), which copying the board out after byte-wise updates did.
typedef int8_t Bytes16 __attribute__((vector_size(16)));
struct Board32 {
  Bytes16 lo, hi;  // bytes 0..15 and 16..31; 24..31 stay zero
};

// kUnit.v[r + 6] has a single 1 at the result byte of the mover's route r (result_index(r));
// the rows of r = -5..0 (off the board, or no point) are all zero, so that r - d needs no
// clamping.
constexpr int kUnitOffset = 6;
struct UnitBoards {
  alignas(16) int8_t v[kNumPoints + 1 + kUnitOffset][32] = {};
  constexpr UnitBoards() {
    for (int r = 1; r <= kNumPoints; ++r) v[r + kUnitOffset][result_index(r)] = 1;
  }
};
constexpr UnitBoards kUnit;

// The unit board of route r (-5 <= r <= 24; r <= 0: the zero board).
inline Board32 unit(int r) {
  Board32 u;
  const int8_t* p = kUnit.v[r + kUnitOffset];
  std::memcpy(&u.lo, p, 16);
  std::memcpy(&u.hi, p + 16, 16);
  return u;
}

// Depth-first search over the steps of a turn on one mutable board (apply/undo), keeping
// incrementally: the mover's occupied points as route bits (to find the steps of a die with a
// few bit operations) and as opponent-route bits (for the six-block rule), the checkers
// outside home and on the board, the head allowance left, the board key and the board as the
// result will show it. See the contract and the algorithm in core/movegen.h.
class Generator {
 public:
  Generator(const Position& pos, Dice dice, int head_allowance, MoveList& out, StampedSet& results)
      : pos_(pos), out_(out), results_(results) {
    // The 24 counts as three words, read eight points at a time (SWAR).
    uint64_t w[3];
    std::memcpy(w, pos.mover_board().data(), kNumPoints);
    std::memcpy(b_ + 1, w, kNumPoints);
    for (int k = 0; k < 3; ++k) {
      own_mask_ |= byte_mask(nonzero_bytes(w[k]) & ~w[k]) << (8 * k);
      opp_mask_ |= byte_mask(w[k]) << (8 * k);
    }
    own_start_ = own_mask_;
    occ_ = ((own_mask_ & 0xfffu) << 12) | (own_mask_ >> 12);  // opp_bit() of every point
    on_board_ = kNumCheckers - pos.own_off();
    // The mover's counts (the opponent's bytes zeroed): the key's nibbles, and the home's
    // checkers as a byte sum.
    uint64_t own[3];
    for (int k = 0; k < 3; ++k) own[k] = w[k] & ~(((w[k] & kHigh1) >> 7) * 0xff);
    key_ = pack_nibbles(own[0]) | (BoardKey{pack_nibbles(own[1])} << 32) |
           (BoardKey{pack_nibbles(own[2])} << 64);
    static_assert(kHomeSize == 6);
    const int home = static_cast<int>(((own[0] & 0xffffffffffffull) * 0x0101010101010101ull) >> 56);
    outside_ = on_board_ - home;
    // The opponent's rearmost-from-its-end checker: its lowest route, on the mover's r > 12
    // (opponent route r - 12) if any, else on r <= 12 (opponent route r + 12).
    const int opp_lowest = (opp_mask_ >> 12) ? std::countr_zero(opp_mask_ >> 12) + 1
                           : opp_mask_       ? std::countr_zero(opp_mask_) + 13
                                             : 25;
    // The result board: rotated by 12 points (opponent_route) and negated.
    typedef uint64_t Words2 __attribute__((vector_size(16)));
    const Words2 lo = {negate_bytes((w[1] >> 32) | (w[2] << 32)),
                       negate_bytes((w[2] >> 32) | (w[0] << 32))};
    const Words2 hi = {negate_bytes((w[0] >> 32) | (w[1] << 32)), 0};
    rb_.lo = std::bit_cast<Bytes16>(lo);
    rb_.hi = std::bit_cast<Bytes16>(hi);
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
    // A double's turn often has more than 64 results (a non-double's rarely): starting it at
    // 512 slots spares most doublings (1.02-1.03x the games per second).
    results_.clear(is_double_ ? 9 : 7);
    if (is_double_)
      search<true>(0, 0, 0, 0);
    else
      search<false>(0, 0, 0, 0);
    finish();
  }

 private:
  // Route bits (bit r-1) of the checkers that may step by d now (docs/rules.md rules 2-5),
  // all but the six-block check, which blocked() makes per step.
  uint32_t movable(int d) const {
    // Rule 2: the landing point r - d >= 1 holds no opposing checker.
    uint32_t m = own_mask_ & ~(opp_mask_ << d) & ~((1u << d) - 1);
    if (head_left_ == 0) m &= ~(1u << (kHeadRoute - 1));  // rule 3: head rule
    // Rule 5: bearing off once all remaining checkers are home; a die equal to r bears off
    // from r, a larger die only from the highest occupied point.
    if (outside_ == 0) {
      const int highest = std::bit_width(own_mask_);
      if (highest <= d)
        m |= 1u << (highest - 1);
      else
        m |= own_mask_ & (1u << (d - 1));
    }
    return m;
  }

  // Rule 4: whether the step r -> t (t >= 1) makes a forbidden six-block. Only a step onto an
  // empty point can, since the points held change only there.
  bool blocked(int r, int t) const {
    if (block_windows_ == 0 || (own_mask_ & (1u << (t - 1)))) return false;
    uint32_t occ = occ_ | opp_bit(t);
    if (b_[r] == 1) occ &= ~opp_bit(r);
    return (six_runs(occ) & block_windows_) != 0;
  }

  void apply(int r, int d) {
    const int t = r - d;
    if (--b_[r] == 0) {
      own_mask_ &= ~(1u << (r - 1));
      occ_ &= ~opp_bit(r);
    }
    shift_result(r, t);
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
    shift_result(t, r);
    key_ += kPointKey.k[r];
  }

  // The result board after one checker of the mover went from route r to t (0: off, or no
  // point when r == 0): the board is negated, so r gains one and t loses one.
  static Board32 moved(const Board32& b, int r, int t) {
    const Board32 ur = unit(r);
    const Board32 ut = unit(t);
    return {b.lo + ur.lo - ut.lo, b.hi + ur.hi - ut.hi};
  }
  void shift_result(int r, int t) { rb_ = moved(rb_, r, t); }

  // The path is kept as one word, written whole: a 2-byte store read back by an 8-byte load
  // would stall as the result board did.
  static uint64_t step_bits(int r, int t) {
    return std::bit_cast<uint16_t>(Step{static_cast<uint8_t>(r), static_cast<uint8_t>(t)});
  }
  static uint64_t low_steps(int n) { return n >= 4 ? ~uint64_t{0} : (uint64_t{1} << (16 * n)) - 1; }
  void set_step(int depth, int r, int t) {
    path_ = (path_ & low_steps(depth)) | (step_bits(r, t) << (16 * depth));
  }

  // Whether die index i may be played at `depth` (a double plays its dice in turn).
  template <bool D>
  static bool die_free(int i, int depth, unsigned used) {
    return D ? i == depth : (used & (1u << i)) == 0;
  }

  // used: bitmask of dice indices already played (non-doubles); depth: steps played.
  // Known duplicates (both kinds skip a step whose sequence was met earlier in the search,
  // which the hash sets would reject anyway, but at the cost of playing and probing it):
  //  * doubles: after a step from `prev`, a step from a point r > prev from which the die was
  //    legal before that step (`prev_legal`, the parent's legal steps, all known for r > prev
  //    since the rearmost are tried first) reaches the board that "r first, then prev" reached
  //    earlier: the prev step stays legal after r's (same landing; the head allowance and
  //    bearing off only get easier, and an overshoot from prev leaves nothing above prev; the
  //    board after both is the same one, checked for six-blocks);
  //  * non-doubles, smaller die first (the second dice order): a larger-die step from a point
  //    that held a checker before the turn and from which the larger die was legal as the
  //    first step ends where "that step, then the smaller-die step just played" ended in the
  //    first order, by the same argument.
  // A known duplicate still counts as a legal step for rule 6 (`moved`) once its six-block
  // check passes.
  template <bool D>
  uint32_t known_duplicates(int depth, int i, int prev, uint32_t prev_legal) const {
    if constexpr (D) return depth > 0 ? prev_legal & (~0u << prev) : 0;
    return depth == 1 && i == 0 ? first_high_ & own_start_ : 0;
  }

  // used: bitmask of dice indices already played (non-doubles); depth: steps played; prev and
  // prev_legal: the route of the last step and the steps that were legal with it (above).
  // D: the roll is a double (the search is compiled once for each kind).
  template <bool D>
  void search(int depth, unsigned used, int prev, uint32_t prev_legal) {
    constexpr int num_dice = D ? 4 : 2;
    if (on_board_ == 0) {  // rule 6: the last checker is off, the game ends, dice are void
      leaf(num_dice, depth, used);
      return;
    }
    if (depth == num_dice) {
      leaf(depth, depth, used);
      return;
    }
    if (depth == num_dice - 1) {
      last_step<D>(depth, used, prev, prev_legal);
      return;
    }
    bool moved = false;
    for (int i = D ? depth : 0; i < (D ? depth + 1 : 2); ++i) {
      if (!die_free<D>(i, depth, used)) continue;
      const int d = die_[i];
      uint32_t m = movable(d);
      const uint32_t known = known_duplicates<D>(depth, i, prev, prev_legal);
      uint32_t legal = 0;
      while (m) {
        const int r = std::bit_width(m);  // rearmost checker first
        m &= ~(1u << (r - 1));
        const int t = r > d ? r - d : 0;
        if (t > 0 && blocked(r, t)) continue;
        moved = true;
        legal |= 1u << (r - 1);
        if ((known >> (r - 1)) & 1u) continue;
        apply(r, d);
        set_step(depth, r, t);
        search<D>(depth + 1, used | (1u << i), r, legal);
        undo(r, d);
      }
      if (depth == 0 && i == 0) first_high_ = legal;
    }
    if (!moved) leaf(depth, depth, used);
  }

  // The last die: each step ends the turn with every die played, so the result's key is the
  // board key after the step, known without playing it; only a new result is kept, written
  // from the current board with the step patched in. Known duplicates (above) are not probed,
  // nor even checked once `moved`.
  template <bool D>
  void last_step(int depth, unsigned used, int prev, uint32_t prev_legal) {
    constexpr int num_dice = D ? 4 : 2;
    bool moved = false;
    for (int i = D ? depth : 0; i < (D ? depth + 1 : 2); ++i) {
      if (!die_free<D>(i, depth, used)) continue;
      const int d = die_[i];
      uint32_t m = movable(d);
      const uint32_t known = known_duplicates<D>(depth, i, prev, prev_legal);
      while (m) {
        const int r = std::bit_width(m);
        m &= ~(1u << (r - 1));
        const int t = r > d ? r - d : 0;
        const bool dup = (known >> (r - 1)) & 1u;
        if (dup && moved) continue;
        if (t > 0 && blocked(r, t)) continue;
        if (dup) {
          moved = true;  // best_depth_ is already num_dice: the earlier sequence got there
          continue;
        }
        if (!moved) {
          moved = true;
          raise_best(num_dice);
        }
        if (!results_.insert(key_ - kPointKey.k[r] + kPointKey.k[t])) continue;
        emit(depth + 1, false, r, t);
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
      results_.clear(results_.bits());
    }
  }

  // A finished sequence: `depth` counts as dice played for the obligation (all of them when
  // the game ended), `played` is the number of steps actually made.
  void leaf(int depth, int played, unsigned used) {
    if (depth < best_depth_) return;
    raise_best(depth);
    // For a single die of a non-double, remember whether it was the larger (index 0).
    const bool high = depth == 1 && !is_double_ && (used & 1u);
    if (!results_.insert(high ? key_ | kHighTag : key_)) return;
    emit(played, high, 0, 0);
  }

  // Appends the current board, after one more step r -> t if r > 0, as a result with the
  // first `played` steps of path_.
  void emit(int played, bool high, int r, int t) {
    MoveResult& res = out_.emplace_back();
    const Board32 b = moved(rb_, r, t);
    alignas(16) int8_t board[32];
    std::memcpy(board, &b.lo, 16);
    std::memcpy(board + 16, &b.hi, 16);
    const int mover_off = kNumCheckers - on_board_ + (r > 0 && t == 0);
    res.position.assign_mover_board(board, ~pos_.side_to_move(), pos_.opp_off(), mover_off);
    res.move.num_steps = static_cast<uint8_t>(played);
    // The steps played, the rest zero as in a default Move; with r > 0 the last one is r -> t.
    static_assert(sizeof(res.move.steps) == 8 && sizeof(Step) == 2 &&
                  std::endian::native == std::endian::little);
    uint64_t steps = path_ & low_steps(r > 0 ? played - 1 : played);
    if (r > 0) steps |= step_bits(r, t) << (16 * (played - 1));
    res.move.steps = std::bit_cast<std::array<Step, 4>>(steps);
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
  StampedSet& results_;
  int8_t b_[kNumPoints + 1] = {};  // 1-based, mover's route coordinates: + mover, - opponent
  Board32 rb_{};                   // the same board as a result shows it (result_index())
  uint32_t own_mask_ = 0;          // bit r-1: the mover holds route r
  uint32_t opp_mask_ = 0;          // bit r-1: the opponent holds route r (fixed for the turn)
  uint32_t occ_ = 0;               // own_mask_ in opponent-route bits, for six_runs()
  uint32_t block_windows_ = 0;     // six-runs that rule 4 forbids (forbidden_windows())
  BoardKey key_ = 0;               // board key (see kPointKey)
  int outside_ = 0;
  int on_board_ = 0;
  int head_left_ = 1;
  bool is_double_ = false;
  int num_dice_ = 2;
  uint8_t die_[4] = {};
  uint64_t path_ = 0;        // the steps so far, step i in bits 16i..16i+15 (Step's layout)
  uint32_t own_start_ = 0;   // own_mask_ before the turn
  uint32_t first_high_ = 0;  // non-doubles: points the larger die may leave first
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
  thread_local StampedSet results;
  Generator g(pos, dice, head_allowance(pos, dice, rules), out, results);
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
