#include "selfplay/tables/bearoff_table.h"

#include <zlib.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>

#include "core/error.h"
#include "core/file_io.h"
#include "core/movegen.h"
#include "core/rules.h"
#include "selfplay/tables/load_once.h"
#include "selfplay/tables/race.h"

#ifndef NARDY_DEFAULT_BEAROFF_FILE
#define NARDY_DEFAULT_BEAROFF_FILE ""
#endif

namespace nardy {

static_assert(std::endian::native == std::endian::little, "the table format is little-endian");

namespace {

constexpr char kMagic[8] = {'N', 'A', 'R', 'D', 'Y', 'B', 'O', '1'};
constexpr size_t kHeaderBytes = 32;
constexpr size_t kRecordBytes = 8;
constexpr int kMaxTurns = 255;        // a u8 holds first + length
constexpr double kDropBelow = 1e-12;  // tail bins this small are not stored

// zlib's CRC-32 of `size` bytes, continuing `crc` (0 to start), in pieces crc32's uInt takes.
uint32_t crc_of(const uint8_t* bytes, size_t size, uint32_t crc = 0) {
  uLong c = crc;
  for (size_t done = 0; done < size;) {
    const size_t n = std::min<size_t>(size - done, 1u << 30);
    c = crc32(c, bytes + done, static_cast<uInt>(n));
    done += n;
  }
  return static_cast<uint32_t>(c);
}
uint32_t crc_of(const std::vector<uint8_t>& bytes) {
  return crc_of(bytes.data(), bytes.size());
}

template <class T>
void put(std::vector<uint8_t>& out, T v) {
  uint8_t b[sizeof(T)];
  std::memcpy(b, &v, sizeof(T));
  out.insert(out.end(), b, b + sizeof(T));
}
template <class T>
T get(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

}  // namespace

double TurnDistribution::at_least(int t) const {
  double s = 0;
  for (int u = std::max(t, first); u <= last(); ++u) s += p[static_cast<size_t>(u - first)];
  return s;
}

double TurnDistribution::mean() const {
  double s = 0;
  for (size_t i = 0; i < p.size(); ++i) s += (first + static_cast<double>(i)) * p[i];
  return s;
}

TurnDistribution BearoffTable::finish(uint32_t index) const {
  const Record& r = records_[index];
  return {r.finish_first, std::span<const float>(data_.data() + r.offset, r.finish_len)};
}

TurnDistribution BearoffTable::first_off(uint32_t index) const {
  const Record& r = records_[index];
  return {r.first_off_first,
          std::span<const float>(data_.data() + r.offset + r.finish_len, r.first_off_len)};
}

std::optional<uint32_t> BearoffTable::index_of(const Position& pos, Side s) const {
  Arrangement a{};
  for (int r = 1; r <= kNumPoints; ++r) {
    const int c = pos.count(s, r);
    if (c == 0) continue;
    if (r > points()) return std::nullopt;
    a[static_cast<size_t>(r - 1)] = static_cast<uint8_t>(c);
  }
  return index_.rank(a);
}

bool BearoffTable::covers(const Position& pos) const {
  return is_race(pos) && highest_route(pos, Side::White) <= points() &&
         highest_route(pos, Side::Black) <= points();
}

BearoffTable BearoffTable::build(int points, const std::function<void(double)>& progress) {
  BearoffTable table(points);
  const BearoffIndex& index = table.index_;
  const uint32_t n = index.size();

  // Every legal move lowers the pip count, so positions in increasing pips see their
  // successors done.
  std::vector<uint32_t> order(n);
  std::vector<uint16_t> pips(n);
  for (uint32_t i = 0; i < n; ++i) {
    const Arrangement a = index.unrank(i);
    int p = 0;
    for (int r = 1; r <= points; ++r) p += r * a[static_cast<size_t>(r - 1)];
    pips[i] = static_cast<uint16_t>(p);
    order[i] = i;
  }
  std::stable_sort(order.begin(), order.end(),
                   [&](uint32_t x, uint32_t y) { return pips[x] < pips[y]; });

  // Built in double; stored as float at the end.
  std::vector<double> data;
  std::vector<Record> records(n);
  std::vector<double> mean_finish(n, 0.0), mean_first(n, 0.0);
  const Rules rules;  // one-sided bear-off play is the same under every variant
  MoveList moves;
  std::vector<double> sum_finish, sum_first;
  auto add_child = [&](std::vector<double>& acc, uint32_t offset, int first, int len, double w) {
    const size_t need = static_cast<size_t>(first + len + 1);
    if (acc.size() < need) acc.resize(need, 0.0);
    for (int i = 0; i < len; ++i)
      acc[static_cast<size_t>(first + 1 + i)] += w * data[offset + static_cast<size_t>(i)];
  };
  auto store = [&](const std::vector<double>& acc, uint8_t& first_out, uint8_t& len_out) {
    size_t lo = 0, hi = acc.size();
    while (lo < hi && acc[lo] < kDropBelow) ++lo;
    while (hi > lo && acc[hi - 1] < kDropBelow) --hi;
    if (hi > static_cast<size_t>(kMaxTurns))
      throw Error("bear-off build: more than " + std::to_string(kMaxTurns) + " turns");
    first_out = static_cast<uint8_t>(lo);
    len_out = static_cast<uint8_t>(hi - lo);
    data.insert(data.end(), acc.begin() + static_cast<ptrdiff_t>(lo),
                acc.begin() + static_cast<ptrdiff_t>(hi));
  };

  size_t done = 0;
  for (uint32_t idx : order) {
    if (progress && done % 4096 == 0) progress(static_cast<double>(done) / n);
    ++done;
    const Arrangement a = index.unrank(idx);
    int on_board = 0;
    for (int r = 1; r <= points; ++r) on_board += a[static_cast<size_t>(r - 1)];
    Record& rec = records[idx];
    rec.offset = static_cast<uint32_t>(data.size());
    if (on_board == 0) {  // finished: T = 0, first off = 0
      data.push_back(1.0);
      data.push_back(1.0);
      rec.finish_first = 0, rec.finish_len = 1, rec.first_off_first = 0, rec.first_off_len = 1;
      continue;
    }
    // The side alone on its last points; the other side's 15 sit on their route 1 (the mover's
    // 13), which no move of the mover reaches and which allows every block (race.h).
    std::array<int8_t, kNumPoints> board{};
    for (int r = 1; r <= points; ++r)
      board[static_cast<size_t>(r - 1)] = static_cast<int8_t>(a[static_cast<size_t>(r - 1)]);
    board[12] = -kNumCheckers;
    const Position pos = Position::from_mover_board(board, Side::White);
    const bool all_on = on_board == kNumCheckers;

    sum_finish.assign(1, 0.0);
    sum_first.assign(1, 0.0);
    double e_finish = 0, e_first = 0;
    for (const WeightedRoll& wr : kDistinctRolls) {
      generate_moves(pos, wr.dice, rules, moves);
      uint32_t best_f = 0, best_o = 0;
      double best_fm = std::numeric_limits<double>::infinity(), best_om = best_fm;
      for (const MoveResult& m : moves) {
        Arrangement c{};
        for (int r = 1; r <= points; ++r)
          c[static_cast<size_t>(r - 1)] = static_cast<uint8_t>(m.position.count(Side::White, r));
        const uint32_t ci = index.rank(c);
        if (mean_finish[ci] < best_fm) best_fm = mean_finish[ci], best_f = ci;
        if (all_on && mean_first[ci] < best_om) best_om = mean_first[ci], best_o = ci;
      }
      const double w = wr.weight36 / 36.0;
      const Record& cf = records[best_f];
      add_child(sum_finish, cf.offset, cf.finish_first, cf.finish_len, w);
      e_finish += w * (1.0 + best_fm);
      if (all_on) {
        const Record& co = records[best_o];
        add_child(sum_first, co.offset + co.finish_len, co.first_off_first, co.first_off_len, w);
        e_first += w * (1.0 + best_om);
      }
    }
    if (!all_on) sum_first.assign(1, 1.0);  // a checker is already off
    mean_finish[idx] = e_finish;
    mean_first[idx] = e_first;
    store(sum_finish, rec.finish_first, rec.finish_len);
    store(sum_first, rec.first_off_first, rec.first_off_len);
  }
  if (progress) progress(1.0);
  table.records_ = std::move(records);
  table.data_.assign(data.begin(), data.end());
  return table;
}

std::vector<uint8_t> BearoffTable::body_bytes() const {
  std::vector<uint8_t> out;
  out.reserve(records_.size() * kRecordBytes + data_.size() * sizeof(float));
  for (const Record& r : records_) {
    put<uint32_t>(out, r.offset);
    put<uint8_t>(out, r.finish_first);
    put<uint8_t>(out, r.finish_len);
    put<uint8_t>(out, r.first_off_first);
    put<uint8_t>(out, r.first_off_len);
  }
  const auto* f = reinterpret_cast<const uint8_t*>(data_.data());
  out.insert(out.end(), f, f + data_.size() * sizeof(float));
  return out;
}

uint32_t BearoffTable::checksum() const {
  return crc_of(body_bytes());
}

void BearoffTable::save(const std::string& path) const {
  const std::vector<uint8_t> body = body_bytes();
  std::vector<uint8_t> head;
  head.insert(head.end(), kMagic, kMagic + 8);
  put<uint32_t>(head, kFormatVersion);
  put<uint32_t>(head, static_cast<uint32_t>(points()));
  put<uint32_t>(head, size());
  put<uint32_t>(head, static_cast<uint32_t>(data_.size()));
  put<uint32_t>(head, crc_of(body));
  put<uint32_t>(head, 0);
  AtomicFileWriter out("bear-off table", path);
  out.write({reinterpret_cast<const char*>(head.data()), head.size()});
  out.write({reinterpret_cast<const char*>(body.data()), body.size()});
  out.commit();
}

BearoffTable BearoffTable::load(const std::string& path) {
  require_not_directory("bear-off table: cannot read", path);
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) throw Error("bear-off table '" + path + "': cannot open the file");
  auto bad = [&](const std::string& what) {
    return Error("bear-off table '" + path + "': " + what);
  };
  // Read in three pieces straight into place (a 12-point table is 1.7 GB: no copy of the data).
  const auto file_size = static_cast<size_t>(std::max<std::streamoff>(0, in.tellg()));
  in.seekg(0);
  auto read_into = [&](void* to, size_t n) {
    in.read(static_cast<char*>(to), static_cast<std::streamsize>(n));
    if (!in) throw bad("cannot read the file");
  };
  if (file_size < kHeaderBytes) throw bad("truncated header (not a table file?)");
  uint8_t head[kHeaderBytes];
  read_into(head, kHeaderBytes);
  if (std::memcmp(head, kMagic, 8) != 0) throw bad("bad magic (not a table file)");
  const uint32_t version = get<uint32_t>(&head[8]);
  if (version != kFormatVersion)
    throw bad("format version " + std::to_string(version) + ", this build reads version " +
              std::to_string(kFormatVersion));
  const uint32_t points = get<uint32_t>(&head[12]);
  if (points < 1 || points > static_cast<uint32_t>(kMaxBearoffPoints))
    throw bad("points " + std::to_string(points) + " outside 1.." +
              std::to_string(kMaxBearoffPoints));
  BearoffTable table(static_cast<int>(points));
  const uint32_t positions = get<uint32_t>(&head[16]);
  if (positions != table.size())
    throw bad(std::to_string(positions) + " positions for " + std::to_string(points) +
              " points, expected " + std::to_string(table.size()));
  const uint32_t floats = get<uint32_t>(&head[20]);
  const uint32_t crc = get<uint32_t>(&head[24]);
  const size_t record_bytes = static_cast<size_t>(positions) * kRecordBytes;
  const size_t float_bytes = size_t{floats} * sizeof(float);
  const size_t expected = kHeaderBytes + record_bytes + float_bytes;
  if (file_size != expected)
    throw bad("size " + std::to_string(file_size) + " bytes, expected " + std::to_string(expected) +
              " (truncated or damaged)");
  std::vector<uint8_t> records(record_bytes);
  read_into(records.data(), record_bytes);
  table.data_.resize(floats);
  read_into(table.data_.data(), float_bytes);
  const uint32_t body_crc = crc_of(reinterpret_cast<const uint8_t*>(table.data_.data()),
                                   float_bytes, crc_of(records.data(), record_bytes));
  if (body_crc != crc) throw bad("checksum mismatch (damaged file)");
  table.records_.resize(positions);
  const uint8_t* p = records.data();
  for (uint32_t i = 0; i < positions; ++i, p += kRecordBytes) {
    Record& r = table.records_[i];
    r.offset = get<uint32_t>(p);
    r.finish_first = p[4], r.finish_len = p[5], r.first_off_first = p[6], r.first_off_len = p[7];
    if (size_t{r.offset} + r.finish_len + r.first_off_len > floats || r.finish_len == 0 ||
        r.first_off_len == 0)
      throw bad("record " + std::to_string(i) + " out of range");
  }
  // A checksum proves the bytes are the writer's, not that the writer's values were sane.
  for (size_t i = 0; i < table.data_.size(); ++i)
    if (!std::isfinite(table.data_[i]))
      throw bad("entry " + std::to_string(i) + " is not a finite number");
  return table;
}

std::string default_bearoff_path() {
  if (const char* env = std::getenv("NARDY_BEAROFF")) return env;
  return NARDY_DEFAULT_BEAROFF_FILE;
}

const BearoffTable* default_bearoff_table() {
  return load_once<BearoffTable>("NARDY_BEAROFF", NARDY_DEFAULT_BEAROFF_FILE);
}

}  // namespace nardy
