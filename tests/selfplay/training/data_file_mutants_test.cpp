// Data-file mutants (issue 28): every reader of a file nardy writes is fed deterministic damaged
// copies of a small valid file made by the project's own writer — truncated at many lengths (0,
// the empty file, included), one byte changed at sampled offsets, junk appended, the file twice —
// and a directory and a missing file in its place. Each mutant either loads or is refused with a
// nardy::Error whose message names the file; another exception type or a crash fails the test.
// Formats with a checksum (race tables, luck heads, checkpoints) refuse every change to the bytes
// it covers, and whatever they load from a mutant is what was written; they also refuse a NaN or
// infinite value under a valid checksum (the file patched and re-sealed as the writer seals it).
// Last, `nardy benchmark stats`: phases without decisions are skipped and figures a set cannot
// give print "-", never "nan".
#include <gtest/gtest.h>
#include <zlib.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <optional>
#include <set>
#include <string>
#include <typeinfo>
#include <vector>

#include "core/error.h"
#include "core/file_io.h"
#include "core/game.h"
#include "core/match.h"
#include "core/movegen.h"
#include "core/notation.h"
#include "core/position_id.h"
#include "core/random.h"
#include "core/record.h"
#include "nn/encoder.h"
#include "nn/luck_fit.h"
#include "nn/value_net.h"
#include "selfplay/evaluation/luck_head.h"
#include "selfplay/evaluation/position_benchmark.h"
#include "selfplay/search/agent_kinds.h"
#include "selfplay/tables/bearoff_table.h"
#include "selfplay/training/config.h"
#include "selfplay/training/label_file.h"
#include "selfplay/training/run_dir.h"
#include "tests/support/temp_dir.h"

namespace nardy {
namespace {

namespace fs = std::filesystem;
using testing::TempDir;

void write_bytes(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  ASSERT_TRUE(out) << "cannot write " << path;
}

bool contains(const std::string& text, const std::string& needle) {
  return text.find(needle) != std::string::npos;
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// ---- Mutants ----

struct Mutant {
  std::string name;
  std::string bytes;
  size_t first_change = 0;  // offset of the first byte that differs (the size: only appended)
  enum Kind { Truncated, Changed, Appended } kind = Truncated;
};

struct Plan {
  int truncations = 100;  // sampled lengths besides 0..3 and the last three (all if the file is
                          // no longer)
  int changes = 200;      // sampled offsets besides the first and the last byte (likewise)
  uint64_t seed = 28;
};

std::vector<Mutant> mutants_of(const std::string& valid, const Plan& plan) {
  Rng rng(plan.seed);
  const size_t n = valid.size();
  auto sample = [&](int count, std::set<size_t> picked) {
    if (static_cast<size_t>(count) >= n) {
      for (size_t i = 0; i < n; ++i) picked.insert(i);
    } else {
      for (int i = 0; i < count; ++i) picked.insert(rng.below(static_cast<uint32_t>(n)));
    }
    return picked;
  };
  std::vector<Mutant> out;
  for (size_t len : sample(plan.truncations, {0, 1, 2, 3, n - 1, n - 2, n - 3}))
    if (len < n)
      out.push_back({len == 0 ? "empty (truncated to 0 bytes)"
                              : "truncated to " + std::to_string(len) + " bytes",
                     valid.substr(0, len), len, Mutant::Truncated});
  for (size_t at : sample(plan.changes, {0, n - 1})) {
    const auto mask = static_cast<unsigned char>(1 + rng.below(255));
    std::string b = valid;
    b[at] = static_cast<char>(static_cast<unsigned char>(b[at]) ^ mask);
    char name[64];
    std::snprintf(name, sizeof name, "byte %zu xor 0x%02x", at, mask);
    out.push_back({name, std::move(b), at, Mutant::Changed});
  }
  std::string junk;
  for (int i = 0; i < 64; ++i) junk.push_back(static_cast<char>(rng.below(256)));
  out.push_back({"a newline appended", valid + "\n", n, Mutant::Appended});
  out.push_back({"a zero byte appended", valid + std::string(1, '\0'), n, Mutant::Appended});
  out.push_back({"64 random bytes appended", valid + junk, n, Mutant::Appended});
  out.push_back({"the file twice", valid + valid, n, Mutant::Appended});
  return out;
}

// ---- Running a reader on them ----

// What a reader did with one input: the value it loaded, or the message of the nardy::Error it
// threw. Any other exception fails the test (and counts as refused).
template <class T>
struct Outcome {
  std::optional<T> value;
  std::string error;
};

template <class T>
Outcome<T> attempt(const std::function<T()>& load, const std::string& label) {
  Outcome<T> r;
  try {
    r.value.emplace(load());
  } catch (const Error& e) {
    r.error = e.what();
    if (r.error.empty()) ADD_FAILURE() << label << ": a nardy::Error with an empty message";
  } catch (const std::exception& e) {
    ADD_FAILURE() << label << ": " << typeid(e).name()
                  << " instead of a nardy::Error: " << e.what();
    r.error = "(not a nardy::Error)";
  } catch (...) {
    ADD_FAILURE() << label << ": an exception that is not a std::exception";
    r.error = "(not a nardy::Error)";
  }
  return r;
}

template <class T>
struct Reader {
  Reader(std::string what, std::function<T(const std::string&)> load)
      : what(std::move(what)), load(std::move(load)) {}
  std::string what;                           // "label file", for messages
  std::function<T(const std::string&)> load;  // reads the file at a path
  // Whether a refusal's message names the input (default: it holds the path).
  std::function<bool(const std::string& message, const std::string& path)> names_input =
      [](const std::string& message, const std::string& path) { return contains(message, path); };
  // Formats with a checksum: whether the mutant changes bytes it covers (it must be refused).
  std::function<bool(const Mutant&)> must_refuse;
  // Checks what a mutant loaded (e.g. that a checksummed format loaded what was written).
  std::function<void(const Mutant&, const T&)> check_loaded;
};

struct Tally {
  int mutants = 0, loaded = 0, refused = 0;
  std::string directory_error;  // the message for a directory in the file's place
};

// Feeds `reader` every mutant of `valid` (written at `name` in `tmp`), then a directory and a
// missing file at that path.
template <class T>
Tally run_mutants(const TempDir& tmp, const std::string& name, const std::string& valid,
                  const Reader<T>& reader, const Plan& plan) {
  const std::string path = tmp.file(name);
  std::function<T()> load = [&] { return reader.load(path); };
  write_bytes(path, valid);
  {
    const Outcome<T> r = attempt(load, reader.what + ", the valid file");
    EXPECT_TRUE(r.value.has_value()) << reader.what << ": the valid file is refused: " << r.error;
    if (r.value && reader.check_loaded)
      reader.check_loaded(Mutant{"the valid file", valid}, *r.value);
  }
  Tally t;
  for (const Mutant& m : mutants_of(valid, plan)) {
    write_bytes(path, m.bytes);
    const std::string label = reader.what + ", " + m.name;
    const Outcome<T> r = attempt(load, label);
    ++t.mutants;
    if (r.value) {
      ++t.loaded;
      if (reader.must_refuse && reader.must_refuse(m))
        ADD_FAILURE() << label << ": loaded, though the checksum covers the change";
      if (reader.check_loaded) reader.check_loaded(m, *r.value);
    } else {
      ++t.refused;
      EXPECT_TRUE(reader.names_input(r.error, path))
          << label << ": the message does not name the file: " << r.error;
    }
  }
  // A directory in its place, then nothing.
  fs::remove(path);
  fs::create_directory(path);
  const Outcome<T> dir = attempt(load, reader.what + ", a directory");
  EXPECT_FALSE(dir.value.has_value()) << reader.what << ": a directory was loaded";
  EXPECT_TRUE(contains(dir.error, path)) << reader.what << ", a directory: " << dir.error;
  t.directory_error = dir.error;
  fs::remove(path);
  const Outcome<T> missing = attempt(load, reader.what + ", a missing file");
  EXPECT_FALSE(missing.value.has_value()) << reader.what << ": a missing file was loaded";
  EXPECT_TRUE(contains(missing.error, path))
      << reader.what << ", a missing file: " << missing.error;
  // The checks above ran on real damage: some mutants were refused (each test says how many).
  EXPECT_GT(t.refused, 0) << reader.what << ": every one of " << t.mutants << " mutants loaded";
  return t;
}

bool every_mutant(const Mutant&) {
  return true;
}

// The CRC-32 (zlib) the writers of race tables and luck heads use.
uint32_t crc32_of(std::string_view bytes) {
  uLong crc = crc32(0L, Z_NULL, 0);
  crc = crc32(crc, reinterpret_cast<const Bytef*>(bytes.data()), static_cast<uInt>(bytes.size()));
  return static_cast<uint32_t>(crc);
}

void put_u32(std::string& bytes, size_t at, uint32_t v) {
  for (int i = 0; i < 4; ++i) bytes[at + i] = static_cast<char>((v >> (8 * i)) & 0xFF);
}

void put_f32(std::string& bytes, size_t at, float f) {
  uint32_t v;
  std::memcpy(&v, &f, 4);
  put_u32(bytes, at, v);
}

// A game of uniformly random legal moves to its end.
Game random_game(uint64_t seed, const Rules& rules = {}) {
  Rng rng(seed);
  Game g(rules);
  while (!g.is_over()) {
    const Dice d = g.roll(rng);
    const MoveList moves = g.legal(d);
    g.play(d, moves[rng.below(static_cast<uint32_t>(moves.size()))]);
  }
  return g;
}

// ---- Label files (selfplay/training/label_file.h) ----

bool same_record(const LabelRecord& a, const LabelRecord& b) {
  return a.position == b.position && a.game == b.game && a.source == b.source &&
         a.sibling == b.sibling && a.target.as_array() == b.target.as_array();
}

TEST(DataFileMutants, LabelFile) {
  TempDir tmp;
  LabelHeader h;
  h.fields = {{"player", "heuristic"}, {"labeler", "heuristic"}, {"rules", Rules{}.to_string()}};
  std::string bytes = h.to_text();
  for (uint32_t g = 0; g < 3; ++g) {
    const Game game = random_game(100 + g);
    for (int i = 0; i < 3; ++i) {
      LabelRecord r;
      r.position = game.history()[static_cast<size_t>(5 * i + 1)].before;
      r.game = g;
      r.source = i == 2 ? static_cast<uint8_t>(LabelSource::Rollout) : search_source(i);
      r.target = Evaluation{0.6f - 0.1f * static_cast<float>(i), 0.1f, 0.05f * g, 0.0f};
      r.sibling = i == 1;
      append_label_record(bytes, r);
    }
    LabelRecord end;
    end.game = g;
    append_label_record(bytes, end, /*end_of_game=*/true);
  }
  const std::string path = tmp.file("labels.lbl");
  write_bytes(path, bytes);
  const LabelFile original = read_label_file(path);
  ASSERT_EQ(original.games, 3);
  ASSERT_EQ(original.records.size(), 9u);

  Reader<LabelFile> reader{"label file", read_label_file};
  // No checksum, so a changed byte may load other values; but a cut file only loses whole games
  // at its end (the partial game is ignored), and appended bytes never change what came before.
  reader.check_loaded = [&](const Mutant& m, const LabelFile& f) {
    if (m.kind == Mutant::Changed) return;
    EXPECT_EQ(f.header.fields, original.header.fields) << m.name;
    const LabelFile& shorter = m.kind == Mutant::Truncated ? f : original;
    const LabelFile& longer = m.kind == Mutant::Truncated ? original : f;
    ASSERT_LE(shorter.records.size(), longer.records.size()) << m.name;
    for (size_t i = 0; i < shorter.records.size(); ++i)
      EXPECT_TRUE(same_record(shorter.records[i], longer.records[i])) << m.name << ", record " << i;
  };
  const Tally t = run_mutants(tmp, "labels.lbl", bytes, reader, Plan{300, 300, 28});
  // Cuts inside the header, changed ids, kinds and game numbers are refused; cuts after it and
  // changed targets may load.
  EXPECT_GT(t.refused, t.mutants / 4) << t.loaded << " of " << t.mutants << " loaded";
  EXPECT_GT(t.loaded, 0);
}

TEST(DataFileMutants, LabelFileWithANonFiniteTargetIsRefused) {
  TempDir tmp;
  const std::string path = tmp.file("nan.lbl");
  for (float bad : {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity(),
                    -std::numeric_limits<float>::infinity()}) {
    for (int field = 0; field < 4; ++field) {
      LabelRecord r;
      r.position = Position::start();
      r.target = Evaluation{0.5f, 0.1f, 0.1f, 0.0f};
      float* f[4] = {&r.target.win, &r.target.win_mars, &r.target.lose_mars, &r.target.draw};
      *f[field] = bad;
      std::string bytes = LabelHeader{}.to_text();
      append_label_record(bytes, r);
      append_label_record(bytes, r, /*end_of_game=*/true);
      write_bytes(path, bytes);
      try {
        read_label_file(path);
        ADD_FAILURE() << "a target with " << bad << " in field " << field << " was read";
      } catch (const Error& e) {
        EXPECT_TRUE(contains(e.what(), path) && contains(e.what(), "not finite")) << e.what();
      }
    }
  }
}

// ---- Race tables (selfplay/tables/bearoff_table.h) ----

constexpr size_t kTableHeaderBytes = 32;

struct SmallTable {
  BearoffTable table = BearoffTable::build(2);
};
const BearoffTable& small_table() {
  static SmallTable t;
  return t.table;
}

void expect_same_table(const BearoffTable& a, const BearoffTable& b, const std::string& label) {
  ASSERT_EQ(a.points(), b.points()) << label;
  ASSERT_EQ(a.size(), b.size()) << label;
  EXPECT_EQ(a.checksum(), b.checksum()) << label;
  for (uint32_t i = 0; i < a.size(); ++i)
    for (bool finish : {true, false}) {
      const TurnDistribution x = finish ? a.finish(i) : a.first_off(i);
      const TurnDistribution y = finish ? b.finish(i) : b.first_off(i);
      ASSERT_EQ(x.first, y.first) << label << ", position " << i;
      ASSERT_TRUE(std::equal(x.p.begin(), x.p.end(), y.p.begin(), y.p.end()))
          << label << ", position " << i;
    }
}

TEST(DataFileMutants, RaceTable) {
  TempDir tmp;
  const std::string path = tmp.file("table.nbt");
  small_table().save(path);
  const std::string valid = read_file(path);
  Reader<BearoffTable> reader{"race table", BearoffTable::load};
  // The header is checked field by field and the CRC covers the rest; only the reserved word
  // (bytes 28..31) is not read.
  reader.must_refuse = [](const Mutant& m) {
    return m.kind != Mutant::Changed || m.first_change < 28 || m.first_change >= 32;
  };
  reader.check_loaded = [](const Mutant& m, const BearoffTable& t) {
    expect_same_table(t, small_table(), m.name);
  };
  run_mutants(tmp, "table.nbt", valid, reader, Plan{150, 300, 28});
}

// The table file with one probability replaced by `value` and the CRC recomputed as save() does.
std::string resealed_table(const std::string& valid, size_t float_index, float value) {
  std::string bytes = valid;
  uint32_t positions;
  std::memcpy(&positions, bytes.data() + 16, 4);
  const size_t data_at = kTableHeaderBytes + size_t{positions} * 8;
  put_f32(bytes, data_at + 4 * float_index, value);
  put_u32(bytes, 24, crc32_of(std::string_view(bytes).substr(kTableHeaderBytes)));
  return bytes;
}

TEST(DataFileMutants, RaceTableWithANonFiniteEntryIsRefusedUnderAValidChecksum) {
  TempDir tmp;
  const std::string path = tmp.file("table.nbt");
  const BearoffTable& table = small_table();
  table.save(path);
  const std::string valid = read_file(path);
  const uint32_t last = table.size() - 1;
  // The entry patched: the first of the last position's finish distribution.
  uint32_t offset;
  std::memcpy(&offset, valid.data() + kTableHeaderBytes + size_t{last} * 8, 4);
  // Resealed with a finite value, the file loads and holds it: the CRC is recomputed right.
  write_bytes(path, resealed_table(valid, offset, 0.25f));
  const BearoffTable changed = BearoffTable::load(path);
  EXPECT_EQ(changed.finish(last).p[0], 0.25f);
  EXPECT_NE(changed.checksum(), table.checksum());
  for (float bad : {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity(),
                    -std::numeric_limits<float>::infinity()}) {
    write_bytes(path, resealed_table(valid, offset, bad));
    try {
      BearoffTable::load(path);
      ADD_FAILURE() << "a table with " << bad << " under a valid checksum was loaded";
    } catch (const Error& e) {
      const std::string msg = e.what();
      EXPECT_TRUE(contains(msg, path)) << msg;
      EXPECT_TRUE(contains(msg, "entry " + std::to_string(offset) + " is not a finite number"))
          << msg;
    }
  }
}

// ---- Luck heads (selfplay/evaluation/luck_head.h) ----

LuckHead small_head() {
  const Encoder& encoder = encoder_by_name("raw-v1");
  LuckMlp mlp;
  mlp.num_inputs = encoder.num_inputs();
  mlp.hidden = {3};
  Rng rng(7);
  const int sizes[] = {mlp.num_inputs, 3, kLuckTargets};
  for (int l = 0; l < 2; ++l) {
    std::vector<float> w(static_cast<size_t>(sizes[l]) * sizes[l + 1]), b(sizes[l + 1]);
    for (float& x : w) x = static_cast<float>(rng.uniform() - 0.5);
    for (float& x : b) x = static_cast<float>(rng.uniform() - 0.5);
    mlp.weight.push_back(std::move(w));
    mlp.bias.push_back(std::move(b));
  }
  return LuckHead(encoder.id(), std::move(mlp), "crc32:01234567", Rules{}, "data-file mutants");
}

TEST(DataFileMutants, LuckHead) {
  TempDir tmp;
  const std::string path = tmp.file("head.luck");
  small_head().save(path);
  const std::string valid = read_file(path);
  // The CRC covers every byte before the end line, and the end line must be exactly its own.
  Reader<LuckHead> reader{"luck head", LuckHead::load};
  reader.must_refuse = every_mutant;
  const Tally t = run_mutants(tmp, "head.luck", valid, reader, Plan{150, 300, 28});
  EXPECT_EQ(t.loaded, 0);
}

TEST(DataFileMutants, LuckHeadWithANonFiniteWeightIsRefusedUnderAValidChecksum) {
  TempDir tmp;
  const std::string path = tmp.file("head.luck");
  const LuckHead head = small_head();
  head.save(path);
  const std::string valid = read_file(path);
  // Parameters follow the JSON line; the end line "\nend crc32:XXXXXXXX\n" closes the file.
  const size_t params = valid.find('\n', valid.find('\n') + 1) + 1;
  const size_t end_at = valid.size() - std::strlen("\nend crc32:00000000\n");
  ASSERT_EQ(valid.compare(end_at, 11, "\nend crc32:"), 0);
  auto resealed = [&](size_t float_index, float value) {
    std::string bytes = valid;
    put_f32(bytes, params + 4 * float_index, value);
    char crc[16];
    std::snprintf(crc, sizeof crc, "%08x", crc32_of(std::string_view(bytes).substr(0, end_at)));
    bytes.replace(end_at + 11, 8, crc);
    return bytes;
  };
  const Encoder& encoder = encoder_by_name("raw-v1");
  const Position pos = random_game(5).history()[10].before;
  for (size_t index : {size_t{0}, size_t{1}, static_cast<size_t>(encoder.num_inputs()) * 3 + 2}) {
    // A finite value resealed loads (the CRC is recomputed right)...
    write_bytes(path, resealed(index, 0.125f));
    EXPECT_NO_THROW(LuckHead::load(path)) << index;
    // ...and NaN or infinity does not, whatever the checksum says.
    for (float bad :
         {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity()}) {
      write_bytes(path, resealed(index, bad));
      try {
        const LuckHead loaded = LuckHead::load(path);
        LuckHead::Scratch s = loaded.make_scratch();
        ADD_FAILURE() << "a head with " << bad << " at float " << index
                      << " was loaded; its luck of 6-5: " << loaded.luck(pos, Dice{6, 5}, s)[5];
      } catch (const Error& e) {
        const std::string msg = e.what();
        EXPECT_TRUE(contains(msg, path) && contains(msg, "non-finite")) << msg;
      }
    }
  }
}

// ---- Benchmark sets (selfplay/evaluation/position_benchmark.h) ----

// A small set as a build writes it: its header, then decisions sampled from games with
// candidates in the writer's format (equities made up, best first, with halves).
std::string small_benchmark_text() {
  BenchmarkBuildOptions o;
  o.decisions = 6;
  o.seed = 11;
  o.game_agents = {"random"};
  std::string text;
  for (const std::string& h : benchmark_header(o)) text += "#" + h + "\n";
  for (BenchmarkDecision d : sample_decisions(o, make_agent)) {
    MoveList legal = legal_moves(d.pos, d.dice, o.rules);
    sort_by_position(legal);
    const size_t n = std::min<size_t>(legal.size(), 3);
    for (size_t i = 0; i < n; ++i) {
      BenchmarkCandidate c;
      c.result = legal[i].position;
      c.notation = format_move(legal[i].move);
      c.equity = 0.5 - 0.125 * static_cast<double>(i);
      c.se = 0.01;
      c.halves = std::array<double, 2>{c.equity + 0.02, c.equity - 0.02};
      d.candidates.push_back(c);
    }
    text += format_decision(d);
  }
  return text;
}

TEST(DataFileMutants, BenchmarkSet) {
  TempDir tmp;
  const std::string text = small_benchmark_text();
  Reader<BenchmarkSet> reader{"benchmark set",
                              [](const std::string& p) { return read_benchmark(p); }};
  const Tally t = run_mutants(tmp, "set.txt", text, reader, Plan{150, 300, 28});
  EXPECT_GT(t.loaded, 0);  // changes in the '#' header lines
  // Not "no decisions": an ifstream opens a directory and reads no line from it.
  EXPECT_TRUE(contains(t.directory_error, "directory")) << t.directory_error;
}

// Also numbers with junk after them ("0x1p9999": `>>` read 0 and left the rest as the notation).
TEST(DataFileMutants, BenchmarkSetWithANonFiniteFigureIsRefused) {
  TempDir tmp;
  const std::string path = tmp.file("set.txt");
  const std::string text = small_benchmark_text();
  // The first candidate line's numbers: "POSID EQUITY SE HALF1 HALF2 NOTATION".
  const size_t line = text.find('\n', text.find("\ndecision ") + 1) + 1;
  size_t field_at[5];
  field_at[0] = line;
  for (int f = 1; f < 5; ++f) field_at[f] = text.find(' ', field_at[f - 1]) + 1;
  write_bytes(path, text);
  ASSERT_NO_THROW(read_benchmark(path));
  for (int f = 1; f < 5; ++f)
    for (const char* bad :
         {"nan", "NaN", "inf", "-inf", "1e999", "-1e999", "0x1p9999", "0.5junk"}) {
      std::string b = text;
      const size_t end = b.find(' ', field_at[f]);
      b.replace(field_at[f], end - field_at[f], bad);
      write_bytes(path, b);
      try {
        const BenchmarkSet set = read_benchmark(path);
        ADD_FAILURE() << "field " << f << " = " << bad << " was read: equity "
                      << set.decisions[0].candidates[0].equity << ", se "
                      << set.decisions[0].candidates[0].se;
      } catch (const Error& e) {
        EXPECT_TRUE(contains(e.what(), path)) << e.what();
      }
    }
}

// ---- Game and match records (core/record.h, core/match.h) ----
//
// These readers take the text (their callers read the file): a refusal names the record and the
// line ("record 2: record line 7: ..."), or the file when it cannot be read.

TEST(DataFileMutants, GameRecords) {
  TempDir tmp;
  const std::string text = write_record(random_game(21)) + write_record(random_game(22));
  Reader<std::vector<Game>> reader{"game records",
                                   [](const std::string& p) { return read_records(read_file(p)); }};
  reader.names_input = [](const std::string& message, const std::string& path) {
    return message.starts_with("record") || contains(message, path);
  };
  const Tally t = run_mutants(tmp, "games.txt", text, reader, Plan{150, 300, 28});
  EXPECT_GT(t.loaded, 0);  // a cut at the end of a line, an appended newline
}

TEST(DataFileMutants, MatchRecord) {
  TempDir tmp;
  Rng rng(31);
  Match m(3);
  for (;;) {
    Game& g = m.current_game();
    while (!g.is_over()) {
      const Dice d = g.roll(rng);
      const MoveList moves = g.legal(d);
      g.play(d, moves[rng.below(static_cast<uint32_t>(moves.size()))]);
    }
    if (m.is_over()) break;
    m.start_next_game();
  }
  m.names = {"alice", "net:models/best.pt"};
  ASSERT_GE(m.games().size(), 2u);
  const std::string text = write_match_record(m);
  Reader<Match> reader{"match record",
                       [](const std::string& p) { return read_match_record(read_file(p)); }};
  reader.names_input = [](const std::string& message, const std::string& path) {
    // A game's own errors are the game record's, numbered by the match file's lines.
    return message.starts_with("match record") || message.starts_with("record line ") ||
           contains(message, path);
  };
  run_mutants(tmp, "match.txt", text, reader, Plan{150, 300, 28});
}

// ---- Run state (selfplay/training/run_dir.h) ----

TEST(DataFileMutants, RunState) {
  TempDir tmp;
  const RunDir run = RunDir::create(tmp.file("run"));
  RunState s;
  s.games_done = 1200;
  s.positions = 98765;
  s.elapsed_s = 321.5;
  s.checkpoint = RunDir::checkpoint_name(1200);
  s.best_games = 800;
  s.best_score = 0.375;
  s.latest_eval_json = R"({"random":{"games":100,"points_per_game":1.25}})";
  s.latest_eval_games = 1200;
  run.write_state(s);
  const std::string valid = read_file(run.state_path());
  Reader<RunState> reader{"run state", [&](const std::string&) { return run.read_state(); }};
  run_mutants(tmp, "run/state.json", valid, reader, Plan{150, 300, 28});
}

// ---- Training configs (selfplay/training/config.h) ----

TEST(DataFileMutants, TrainingConfig) {
  TempDir tmp;
  TrainConfig c = parse_config("", "defaults");
  c.run.name = "mutants";
  c.net.hidden = {64, 32};
  c.eval.opponents = {"random", "heuristic"};
  const std::string yaml = to_yaml(c);
  Reader<TrainConfig> reader{"training config",
                             [](const std::string& p) { return load_config(p); }};
  // An empty file is the default config, by design (config.h); anything else loads or names it.
  const Tally t = run_mutants(tmp, "config.yaml", yaml, reader, Plan{150, 300, 28});
  EXPECT_GT(t.loaded, 0);
  // A directory read as an empty file was the default config.
  EXPECT_TRUE(contains(t.directory_error, "directory")) << t.directory_error;
}

TEST(DataFileMutants, TrainingConfigWithANonFiniteNumberIsRefused) {
  TempDir tmp;
  const std::string path = tmp.file("config.yaml");
  int keys = 0;
  for (const ConfigKey& k : config_keys()) {
    if (k.type != "number") continue;
    ++keys;
    const size_t dot = k.path.find('.');
    for (const char* bad : {".nan", ".NaN", ".inf", "-.inf", "1e999"}) {
      write_bytes(path,
                  k.path.substr(0, dot) + ":\n  " + k.path.substr(dot + 1) + ": " + bad + "\n");
      try {
        load_config(path);
        ADD_FAILURE() << k.path << ": " << bad << " was accepted";
      } catch (const Error& e) {
        EXPECT_TRUE(contains(e.what(), path) && contains(e.what(), k.path)) << e.what();
      }
    }
  }
  EXPECT_GE(keys, 5);
}

// ---- Checkpoints (nn/value_net.h) ----

ValueNet small_net() {
  NetShape shape;
  shape.hidden = {2};
  return ValueNet::create(shape, 9);
}

CheckpointInfo small_info() {
  CheckpointInfo info;
  info.rules = Rules{}.to_string();
  info.games = 40;
  info.positions = 4000;
  info.extra = {{"run", "mutants"}};
  return info;
}

bool same_parameters(const ValueNet& a, const ValueNet& b) {
  const auto la = a.layers(), lb = b.layers();
  if (la.size() != lb.size()) return false;
  for (size_t i = 0; i < la.size(); ++i) {
    if (la[i].in != lb[i].in || la[i].out != lb[i].out) return false;
    const size_t w = static_cast<size_t>(la[i].in) * la[i].out;
    if (std::memcmp(la[i].weight, lb[i].weight, w * sizeof(float)) != 0 ||
        std::memcmp(la[i].bias, lb[i].bias, static_cast<size_t>(la[i].out) * sizeof(float)) != 0)
      return false;
  }
  return true;
}

TEST(DataFileMutants, Checkpoint) {
  TempDir tmp;
  const std::string path = tmp.file("net.pt");
  const ValueNet net = small_net();
  net.save(path, small_info());
  const std::string valid = read_file(path);
  Reader<ValueNet> reader{"checkpoint", ValueNet::load};
  // A zip has bytes no reader looks at (timestamps, padding); a change there may load, but only
  // to the very net written: the archive, metadata and parameter checksums cover the rest.
  reader.check_loaded = [&](const Mutant& m, const ValueNet& loaded) {
    EXPECT_TRUE(same_parameters(loaded, net)) << m.name;
    EXPECT_EQ(loaded.shape(), net.shape()) << m.name;
    EXPECT_EQ(loaded.info().games, 40) << m.name;
    EXPECT_EQ(loaded.info().positions, 4000) << m.name;
    EXPECT_EQ(loaded.info().rules, Rules{}.to_string()) << m.name;
    EXPECT_EQ(loaded.info().extra, small_info().extra) << m.name;
  };
  // Each load costs LibTorch time: a few mutants only.
  run_mutants(tmp, "net.pt", valid, reader, Plan{8, 16, 28});
}

TEST(DataFileMutants, CheckpointWithANonFiniteWeightIsRefusedUnderAValidChecksum) {
  TempDir tmp;
  const std::string path = tmp.file("net.pt");
  for (const bool bias : {false, true})
    for (float bad :
         {std::numeric_limits<float>::quiet_NaN(), -std::numeric_limits<float>::infinity()}) {
      ValueNet net = small_net();
      auto layers = net.layers();
      (bias ? layers[1].bias : layers[0].weight)[1] = bad;
      net.save(path, small_info());  // save() computes valid checksums
      try {
        ValueNet::load(path);
        ADD_FAILURE() << "a net with " << bad << " in " << (bias ? "b1" : "w0") << " was loaded";
      } catch (const Error& e) {
        const std::string msg = e.what();
        EXPECT_TRUE(contains(msg, path)) << msg;
        EXPECT_TRUE(contains(msg, bias ? "parameter b1" : "parameter w0")) << msg;
        EXPECT_TRUE(contains(msg, "non-finite")) << msg;
      }
    }
  // The same net with a finite value in that place loads: the refusal is the value's.
  ValueNet net = small_net();
  net.layers()[0].weight[1] = 0.5f;
  net.save(path, small_info());
  EXPECT_EQ(ValueNet::load(path).layers()[0].weight[1], 0.5f);
}

// ---- `nardy benchmark stats` (position_benchmark.h benchmark_statistics) ----

BenchmarkDecision decision_with(const Position& pos, Dice dice, Phase phase,
                                const std::vector<std::optional<std::array<double, 2>>>& halves) {
  BenchmarkDecision d{pos, dice, phase, {}};
  MoveList legal = legal_moves(pos, dice, Rules{});
  sort_by_position(legal);
  for (size_t i = 0; i < halves.size(); ++i) {
    BenchmarkCandidate c;
    c.result = legal.at(i).position;
    c.notation = format_move(legal[i].move);
    c.equity = 0.25 - 0.1 * static_cast<double>(i);
    c.se = 0.02;
    c.halves = halves[i];
    d.candidates.push_back(c);
  }
  return d;
}

// `text` right-aligned in `width` columns, as the table prints a figure.
std::string column(const std::string& text, size_t width) {
  return std::string(width - text.size(), ' ') + text;
}

// The table's row of `phase` ("" if absent).
std::string row_of(const std::string& text, const std::string& phase) {
  size_t at = 0;
  while ((at = text.find('\n', at)) != std::string::npos) {
    ++at;
    if (text.compare(at, phase.size() + 1, phase + " ") == 0)
      return text.substr(at, text.find('\n', at) - at);
  }
  return "";
}

TEST(BenchmarkStats, EmptyPhasesAreSkippedAndMissingFiguresPrintADash) {
  const Position mid = random_game(41).history()[6].before;
  const Dice dice{4, 2};
  ASSERT_GE(legal_moves(mid, dice, Rules{}).size(), 3u);
  const Phase phase = phase_of(mid);
  const std::string name = phase_name(phase);

  // No decisions at all: no row, not a row of NaN.
  const BenchmarkStatistics none = benchmark_statistics(BenchmarkSet{});
  EXPECT_TRUE(none.phases.empty());
  EXPECT_FALSE(contains(lower(none.to_text()), "nan")) << none.to_text();

  // A format-1 set (no halves), all of one phase: overall and that phase only; its noise
  // figures and their ratio cannot be given and print as "-".
  BenchmarkSet old;
  old.format = 1;
  old.decisions = {decision_with(mid, dice, phase, {std::nullopt, std::nullopt, std::nullopt})};
  const BenchmarkStatistics s1 = benchmark_statistics(old);
  ASSERT_EQ(s1.phases.size(), 2u);
  EXPECT_EQ(s1.phases[0].phase, "overall");
  EXPECT_EQ(s1.phases[1].phase, name);
  EXPECT_TRUE(std::isnan(s1.phases[1].equity_noise));
  const std::string t1 = s1.to_text();
  EXPECT_FALSE(contains(lower(t1), "nan")) << t1;
  EXPECT_FALSE(contains(lower(t1), "inf")) << t1;
  for (Phase p : kAllPhases)
    if (p != phase) {
      EXPECT_EQ(row_of(t1, phase_name(p)), "") << t1;
    }
  for (const std::string& row : {row_of(t1, "overall"), row_of(t1, name)}) {
    ASSERT_FALSE(row.empty()) << t1;
    EXPECT_TRUE(contains(row, "3.00")) << row;    // candidates
    EXPECT_TRUE(contains(row, "0.0200")) << row;  // mean SE
    // equity noise, difference noise, ratio
    EXPECT_TRUE(row.ends_with(" " + column("-", 14) + " " + column("-", 18) + " " + column("-", 7)))
        << '"' << row << '"';
  }

  // Halves equal to each other: both noises are 0, their ratio 0/0 prints as "-".
  BenchmarkSet flat;
  flat.decisions = {
      decision_with(mid, dice, phase,
                    {std::array<double, 2>{0.25, 0.25}, std::array<double, 2>{0.15, 0.15},
                     std::array<double, 2>{0.05, 0.05}})};
  const std::string t2 = benchmark_statistics(flat).to_text();
  EXPECT_FALSE(contains(lower(t2), "nan")) << t2;
  const std::string row = row_of(t2, name);
  EXPECT_TRUE(
      row.ends_with(" " + column("0.0000", 14) + " " + column("0.0000", 18) + " " + column("-", 7)))
      << '"' << row << '"';
}

}  // namespace
}  // namespace nardy
