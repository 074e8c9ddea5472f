#include "selfplay/tables/race_net.h"

#include <zlib.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>

#include "core/error.h"
#include "selfplay/tables/load_once.h"
#include "selfplay/tables/race.h"

namespace nardy {
namespace {

constexpr char kMagic[8] = {'N', 'A', 'R', 'D', 'Y', 'R', 'N', '1'};
constexpr size_t kHeaderBytes = 36;
constexpr int kMaxLayers = 8;
constexpr int kMaxWidth = 4096;

uint32_t u32_at(const std::vector<char>& b, size_t at) {
  uint32_t v;
  std::memcpy(&v, b.data() + at, 4);
  return v;
}

// out = b + W x, then max(0, .) when `relu`; `wt` is W transposed (in x out), so each input adds
// a scaled row to the outputs (vectorised, at -O3: selfplay/tables/CMakeLists.txt, without
// reordering any sum) and zero inputs, most of the first layer's, cost nothing. Compiled for
// AVX2 too (without FMA, so both give the same bits), picked at run time.
__attribute__((target_clones("avx2", "default"))) void dense(const float* __restrict wt,
                                                             const float* __restrict b,
                                                             const float* __restrict x, int in,
                                                             int n_out, float* __restrict out,
                                                             bool relu) {
  for (int o = 0; o < n_out; ++o) out[o] = b[o];
  for (int i = 0; i < in; ++i) {
    const float xi = x[i];
    if (xi == 0.0f) continue;
    const float* row = wt + static_cast<size_t>(i) * static_cast<size_t>(n_out);
    for (int o = 0; o < n_out; ++o) out[o] += row[o] * xi;
  }
  if (relu)
    for (int o = 0; o < n_out; ++o) out[o] = std::max(out[o], 0.0f);
}

void softmax(float* z, int n) {
  const float hi = *std::max_element(z, z + n);
  double sum = 0;
  for (int i = 0; i < n; ++i) sum += z[i] = std::exp(z[i] - hi);
  const float inv = static_cast<float>(1.0 / sum);
  for (int i = 0; i < n; ++i) z[i] *= inv;
}

}  // namespace

RaceNet RaceNet::load(const std::string& path) {
  auto bad = [&](const std::string& what) {
    return Error("race net " + quote(path) + ": " + what);
  };
  std::ifstream in(path, std::ios::binary);
  if (!in) throw bad("cannot open the file");
  std::vector<char> b((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (b.size() < kHeaderBytes)
    throw bad("truncated header (" + std::to_string(b.size()) + " bytes)");
  if (std::memcmp(b.data(), kMagic, sizeof kMagic) != 0)
    throw bad("not a race net file (bad magic)");
  RaceNet net;
  const uint32_t version = u32_at(b, 8), points = u32_at(b, 12), layers = u32_at(b, 16);
  if (version != kFormatVersion)
    throw bad("format version " + std::to_string(version) + ", this build reads " +
              std::to_string(kFormatVersion));
  if (points < 1 || points > static_cast<uint32_t>(kMaxBearoffPoints))
    throw bad("points " + std::to_string(points) + " out of range 1.." +
              std::to_string(kMaxBearoffPoints));
  if (layers < 1 || layers > kMaxLayers)
    throw bad("layer count " + std::to_string(layers) + " out of range 1.." +
              std::to_string(kMaxLayers));
  const uint32_t fb = u32_at(b, 20), ob = u32_at(b, 24), crc = u32_at(b, 28);
  if (fb < 1 || fb > kMaxBins || ob < 1 || ob > kMaxBins)
    throw bad("bins " + std::to_string(fb) + " and " + std::to_string(ob) + " out of range 1.." +
              std::to_string(kMaxBins));
  const size_t widths_end = kHeaderBytes + 4 * size_t{layers};
  if (b.size() < widths_end) throw bad("truncated layer widths");
  net.points_ = static_cast<int>(points);
  net.finish_bins_ = static_cast<int>(fb);
  net.first_off_bins_ = static_cast<int>(ob);
  for (uint32_t k = 0; k < layers; ++k) {
    const uint32_t w = u32_at(b, kHeaderBytes + 4 * size_t{k});
    if (w < 1 || w > kMaxWidth)
      throw bad("layer width " + std::to_string(w) + " out of range 1.." +
                std::to_string(kMaxWidth));
    net.widths_.push_back(static_cast<int>(w));
  }
  if (net.widths_.front() != 4 * net.points_ + 3)
    throw bad(std::to_string(net.widths_.front()) + " inputs; " + std::to_string(points) +
              " points take " + std::to_string(4 * net.points_ + 3));
  net.widths_.push_back(net.finish_bins_ + net.first_off_bins_);
  size_t floats = 0;
  for (uint32_t k = 0; k < layers; ++k)
    floats += size_t(net.widths_[k + 1]) * size_t(net.widths_[k] + 1);
  if (b.size() != widths_end + 4 * floats)
    throw bad("size " + std::to_string(b.size()) + " bytes, the header implies " +
              std::to_string(widths_end + 4 * floats));
  const auto* body = reinterpret_cast<const Bytef*>(b.data() + widths_end);
  if (static_cast<uint32_t>(crc32(0, body, static_cast<uInt>(4 * floats))) != crc)
    throw bad("checksum mismatch (damaged file)");
  const char* p = b.data() + widths_end;
  for (uint32_t k = 0; k < layers; ++k) {
    const size_t in = static_cast<size_t>(net.widths_[k]), out = size_t(net.widths_[k + 1]);
    net.weights_.emplace_back(in * out);
    net.biases_.emplace_back(out);
    // Stored out x in; kept transposed (in x out) for dense().
    std::vector<float>& wt = net.weights_.back();
    for (size_t o = 0; o < out; ++o)
      for (size_t i = 0; i < in; ++i, p += 4) std::memcpy(&wt[i * out + o], p, 4);
    std::memcpy(net.biases_.back().data(), p, 4 * out);
    p += 4 * out;
    for (float v : net.weights_.back())
      if (!std::isfinite(v)) throw bad("a weight of layer " + std::to_string(k) + " is not finite");
    for (float v : net.biases_.back())
      if (!std::isfinite(v)) throw bad("a bias of layer " + std::to_string(k) + " is not finite");
  }
  return net;
}

void RaceNet::encode(const Arrangement& a, float* x) const {
  int pips = 0, on = 0;
  for (int r = 1; r <= points_; ++r) {
    const int c = a[static_cast<size_t>(r - 1)];
    float* f = x + 4 * (r - 1);
    f[0] = c >= 1, f[1] = c >= 2, f[2] = c >= 3;
    f[3] = static_cast<float>(std::max(c - 3, 0)) / 4.0f;
    pips += r * c;
    on += c;
  }
  x[4 * points_] = static_cast<float>(pips) / 100.0f;
  x[4 * points_ + 1] = static_cast<float>(on) / 15.0f;
  x[4 * points_ + 2] = static_cast<float>(kNumCheckers - on) / 15.0f;
}

void RaceNet::estimate(const Arrangement& a, float* finish, float* first_off) const {
  float buf[2][kMaxWidth];
  encode(a, buf[0]);
  const size_t layers = weights_.size();
  for (size_t k = 0; k < layers; ++k)
    dense(weights_[k].data(), biases_[k].data(), buf[k % 2], widths_[k], widths_[k + 1],
          buf[(k + 1) % 2], k + 1 < layers);
  float* z = buf[layers % 2];
  softmax(z, finish_bins_);
  softmax(z + finish_bins_, first_off_bins_);
  std::copy(z, z + finish_bins_, finish);
  std::copy(z + finish_bins_, z + finish_bins_ + first_off_bins_, first_off);
}

RaceValuer::RaceValuer(const BearoffTable* table, const RaceNet& net, int cache_bits)
    : table_(table), net_(net) {
  if (cache_bits < 0 || cache_bits > 20)
    throw Error("race valuer: cache bits must be 0..20 (got " + std::to_string(cache_bits) + ")");
  slots_.resize(size_t{1} << cache_bits);
  shift_ = 32 - cache_bits;
}

const RaceValuer::Slot* RaceValuer::distributions(const Position& pos, Side s,
                                                  TurnDistribution& finish,
                                                  TurnDistribution& first_off, const Slot* keep) {
  if (table_) {
    if (auto i = table_->index_of(pos, s)) {
      finish = table_->finish(*i), first_off = table_->first_off(*i);
      return nullptr;
    }
  }
  Arrangement a{};
  for (int r = 1; r <= kMaxBearoffPoints; ++r)
    a[static_cast<size_t>(r - 1)] = static_cast<uint8_t>(pos.count(s, r));
  const uint32_t key = index_.rank(a);
  // A multiplicative hash of the rank picks the slot; a slot holds one arrangement. The slot the
  // other side's distributions are in (`keep`) is not overwritten: a clash uses the scratch slot.
  const uint32_t hash = key * 2654435761u;
  Slot* slot = &slots_[shift_ == 32 ? 0 : hash >> shift_];
  if (slot == keep && slot->key != key) slot = &scratch_;
  if (slot->key != key) {
    net_.estimate(a, slot->finish, slot->first_off);
    slot->key = key;
  }
  finish = {0, std::span<const float>(slot->finish, static_cast<size_t>(net_.finish_bins()))};
  first_off = {0,
               std::span<const float>(slot->first_off, static_cast<size_t>(net_.first_off_bins()))};
  return slot;
}

std::optional<RaceOdds> RaceValuer::odds(const Position& pos, const Rules& rules) {
  if (!is_race(pos) ||
      std::max(highest_route(pos, Side::White), highest_route(pos, Side::Black)) > net_.points())
    return std::nullopt;
  const Side me = pos.side_to_move();
  TurnDistribution ta, fa, tb, fb;
  const Slot* mine = distributions(pos, me, ta, fa, nullptr);
  distributions(pos, ~me, tb, fb, mine);
  return race_odds(ta, fa, tb, fb, me == Side::White, rules.last_roll_draw);
}

const RaceNet* default_race_net(const std::string& path_if_unset) {
  return load_once<RaceNet>("NARDY_RACE_NET", path_if_unset);
}

}  // namespace nardy
