// The race net: its forward pass against a direct double-precision computation of the documented
// net, the file checks, and RaceValuer's choice of the table or the net for each side.
#include "selfplay/tables/race_net.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "core/error.h"
#include "core/random.h"
#include "selfplay/tables/race.h"
#include "tests/selfplay/race_position.h"

namespace nardy {
namespace {

using testing::race_position;

// A net of the documented shape with seeded random weights, kept as numbers for the reference
// computation and written as a file in the documented format.
struct NetSpec {
  int points = 4, finish_bins = 7, first_off_bins = 4;
  std::vector<int> hidden{6, 5};
  std::vector<std::vector<double>> w, b;  // per layer: out x in, out

  std::vector<int> widths() const {
    std::vector<int> v{4 * points + 3};
    v.insert(v.end(), hidden.begin(), hidden.end());
    v.push_back(finish_bins + first_off_bins);
    return v;
  }
  void randomize(uint64_t seed) {
    Rng rng(seed);
    const auto wd = widths();
    w.clear(), b.clear();
    for (size_t k = 0; k + 1 < wd.size(); ++k) {
      w.emplace_back(), b.emplace_back();
      for (int i = 0; i < wd[k + 1] * wd[k]; ++i) w.back().push_back(rng.uniform() * 2 - 1);
      for (int i = 0; i < wd[k + 1]; ++i) b.back().push_back(rng.uniform() - 0.5);
    }
  }
  std::string bytes() const {
    std::string body;
    auto f32 = [](std::string& out, double v) {
      const float f = static_cast<float>(v);
      out.append(reinterpret_cast<const char*>(&f), 4);
    };
    for (size_t k = 0; k < w.size(); ++k) {
      for (double v : w[k]) f32(body, v);
      for (double v : b[k]) f32(body, v);
    }
    std::string out("NARDYRN1");
    auto u32 = [&](uint32_t v) { out.append(reinterpret_cast<const char*>(&v), 4); };
    const auto wd = widths();
    u32(1), u32(static_cast<uint32_t>(points)), u32(static_cast<uint32_t>(wd.size() - 1));
    u32(static_cast<uint32_t>(finish_bins)), u32(static_cast<uint32_t>(first_off_bins));
    u32(static_cast<uint32_t>(
        crc32(0, reinterpret_cast<const Bytef*>(body.data()), static_cast<uInt>(body.size()))));
    u32(0);
    for (size_t k = 0; k + 1 < wd.size(); ++k) u32(static_cast<uint32_t>(wd[k]));
    return out + body;
  }
  // The documented net computed directly in double precision.
  std::vector<double> reference(const Arrangement& a) const {
    std::vector<double> x;
    int pips = 0, on = 0;
    for (int r = 1; r <= points; ++r) {
      const int c = a[static_cast<size_t>(r - 1)];
      x.insert(x.end(), {c >= 1 ? 1.0 : 0.0, c >= 2 ? 1.0 : 0.0, c >= 3 ? 1.0 : 0.0,
                         c > 3 ? (c - 3) / 4.0 : 0.0});
      pips += r * c, on += c;
    }
    x.insert(x.end(), {pips / 100.0, on / 15.0, (15 - on) / 15.0});
    for (size_t k = 0; k < w.size(); ++k) {
      std::vector<double> y(b[k]);
      for (size_t o = 0; o < y.size(); ++o)
        for (size_t i = 0; i < x.size(); ++i) y[o] += w[k][o * x.size() + i] * x[i];
      if (k + 1 < w.size())
        for (double& v : y) v = std::max(v, 0.0);
      x = y;
    }
    auto soft = [](double* z, int n) {
      double hi = *std::max_element(z, z + n), s = 0;
      for (int i = 0; i < n; ++i) s += z[i] = std::exp(z[i] - hi);
      for (int i = 0; i < n; ++i) z[i] /= s;
    };
    soft(x.data(), finish_bins);
    soft(x.data() + finish_bins, first_off_bins);
    return x;
  }
};

std::string temp_file(const std::string& bytes) {
  static int n = 0;
  const std::string path =
      (std::filesystem::temp_directory_path() /
       ("nardy_race_net_" + std::to_string(getpid()) + "_" + std::to_string(n++) + ".nrn"))
          .string();
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

TEST(RaceNet, ForwardMatchesADirectComputationOfTheDocumentedNet) {
  NetSpec spec;
  spec.randomize(3);
  const std::string path = temp_file(spec.bytes());
  const RaceNet net = RaceNet::load(path);
  std::remove(path.c_str());
  ASSERT_EQ(net.points(), spec.points);
  ASSERT_EQ(net.finish_bins(), spec.finish_bins);
  const BearoffIndex index(spec.points);
  float finish[RaceNet::kMaxBins], first_off[RaceNet::kMaxBins];
  for (uint32_t i = 0; i < index.size(); i += 7) {
    const Arrangement a = index.unrank(i);
    net.estimate(a, finish, first_off);
    const std::vector<double> want = spec.reference(a);
    double sf = 0, so = 0;
    for (int t = 0; t < spec.finish_bins; ++t) {
      ASSERT_NEAR(finish[t], want[static_cast<size_t>(t)], 1e-5) << i << " finish " << t;
      sf += finish[t];
    }
    for (int t = 0; t < spec.first_off_bins; ++t) {
      ASSERT_NEAR(first_off[t], want[static_cast<size_t>(spec.finish_bins + t)], 1e-5) << i;
      so += first_off[t];
    }
    ASSERT_NEAR(sf, 1.0, 1e-5);
    ASSERT_NEAR(so, 1.0, 1e-5);
  }
}

TEST(RaceNet, LoadNamesTheFileAndTheProblem) {
  NetSpec spec;
  spec.randomize(4);
  const std::string good = spec.bytes();
  auto expect_error = [](const std::string& bytes, const std::string& what) {
    const std::string path = temp_file(bytes);
    try {
      RaceNet::load(path);
      ADD_FAILURE() << "no error for " << what;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
    }
    std::remove(path.c_str());
  };
  expect_error("NARDYRN", "truncated header");
  expect_error("NARDYBO1" + good.substr(8), "bad magic");
  std::string v2 = good;
  v2[8] = 2;
  expect_error(v2, "format version 2");
  expect_error(good.substr(0, good.size() - 4), "the header implies");
  std::string flipped = good;
  flipped[flipped.size() - 3] ^= 0x40;
  expect_error(flipped, "checksum mismatch");
  std::string pts = good;
  pts[12] = 5;  // 5 points need 23 inputs, the file has 19
  expect_error(pts, "23");
  std::string far = good;
  far[12] = 13;
  expect_error(far, "points 13 out of range");
  NetSpec nan = spec;
  nan.w[1][3] = std::nan("");
  expect_error(nan.bytes(), "not finite");
  EXPECT_THROW(RaceNet::load("/nonexistent/race.nrn"), Error);
  const std::string path = temp_file(good);
  const RaceNet net = RaceNet::load(path);
  std::remove(path.c_str());
  EXPECT_THROW(RaceValuer(nullptr, net, 21), Error);
}

TEST(RaceValuer, TakesTheTableForEachSideItCoversAndTheNetForTheOther) {
  NetSpec spec;
  spec.points = 6;
  spec.randomize(5);
  const std::string path = temp_file(spec.bytes());
  const RaceNet net = RaceNet::load(path);
  std::remove(path.c_str());
  const BearoffTable table = BearoffTable::build(3);
  RaceValuer both(&table, net), net_only(nullptr, net);
  const Rules rules;
  float nf[RaceNet::kMaxBins], no[RaceNet::kMaxBins];
  auto net_side = [&](const Position& p, Side s, TurnDistribution& f, TurnDistribution& o,
                      float* fb, float* ob) {
    Arrangement a{};
    for (int r = 1; r <= kMaxBearoffPoints; ++r)
      a[static_cast<size_t>(r - 1)] = static_cast<uint8_t>(p.count(s, r));
    net.estimate(a, fb, ob);
    f = {0, std::span<const float>(fb, static_cast<size_t>(net.finish_bins()))};
    o = {0, std::span<const float>(ob, static_cast<size_t>(net.first_off_bins()))};
  };
  // Both sides within the table: the table's odds exactly.
  const Position covered = race_position({4, 5, 6}, {2, 2, 9}, Side::Black);
  const RaceOdds exact = *race_odds(table, covered, rules);
  const RaceOdds got = *both.odds(covered, rules);
  EXPECT_DOUBLE_EQ(got.win, exact.win);
  EXPECT_DOUBLE_EQ(got.win_mars, exact.win_mars);
  EXPECT_DOUBLE_EQ(got.lose_mars, exact.lose_mars);
  // White (to move) beyond the table: its distributions from the net, Black's from the table.
  const Position mixed = race_position({1, 0, 3, 4, 2, 5}, {0, 7, 8}, Side::White);
  float f2[RaceNet::kMaxBins], o2[RaceNet::kMaxBins];
  TurnDistribution wf, wo, bf, bo;
  net_side(mixed, Side::White, wf, wo, nf, no);
  const uint32_t bi = *table.index_of(mixed, Side::Black);
  const RaceOdds want = race_odds(wf, wo, table.finish(bi), table.first_off(bi), true, false);
  const RaceOdds m = *both.odds(mixed, rules);
  EXPECT_DOUBLE_EQ(m.win, want.win);
  EXPECT_DOUBLE_EQ(m.lose_mars, want.lose_mars);
  // Without a table both sides come from the net.
  net_side(mixed, Side::Black, bf, bo, f2, o2);
  const RaceOdds want2 = race_odds(wf, wo, bf, bo, true, false);
  EXPECT_DOUBLE_EQ(net_only.odds(mixed, rules)->win, want2.win);
  // last_roll_draw selects its formulas.
  Rules draw_rules;
  draw_rules.last_roll_draw = true;
  EXPECT_DOUBLE_EQ(net_only.odds(mixed, draw_rules)->draw,
                   race_odds(wf, wo, bf, bo, true, true).draw);
  // Not a race, or a checker beyond the net's points: no value.
  EXPECT_FALSE(both.odds(Position::start(), rules));
  EXPECT_FALSE(both.odds(race_position({0, 0, 0, 0, 0, 0, 1, 14}, {15}), rules));
}

TEST(RaceValuer, CachedAnswersEqualFreshOnes) {
  // Thousands of random races through one valuer of 4096 slots (reused and clashing) and one of
  // a single slot (the two sides always clash) against a new valuer per position.
  NetSpec spec;
  spec.points = 12;
  spec.hidden = {8};
  spec.randomize(6);
  const std::string path = temp_file(spec.bytes());
  const RaceNet net = RaceNet::load(path);
  std::remove(path.c_str());
  RaceValuer shared(nullptr, net), one_slot(nullptr, net, 0);
  Rng rng(9);
  const Rules rules;
  for (int n = 0; n < 20000; ++n) {
    std::vector<int> w(12, 0), b(12, 0);
    const int nw = 1 + static_cast<int>(rng.below(15)), nb = 1 + static_cast<int>(rng.below(15));
    for (int c = 0; c < nw; ++c) ++w[rng.below(n % 2 ? 4 : 12)];
    for (int c = 0; c < nb; ++c) ++b[rng.below(n % 3 ? 4 : 12)];
    const Position p = race_position(w, b, n % 2 ? Side::White : Side::Black);
    RaceValuer fresh(nullptr, net);
    const RaceOdds f = *fresh.odds(p, rules);
    for (RaceValuer* v : {&shared, &one_slot}) {
      const RaceOdds a = *v->odds(p, rules);
      ASSERT_EQ(a.win, f.win) << n;
      ASSERT_EQ(a.win_mars, f.win_mars) << n;
      ASSERT_EQ(a.lose_mars, f.lose_mars) << n;
    }
  }
}

}  // namespace
}  // namespace nardy
