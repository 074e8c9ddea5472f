// Luck heads: zero mean over the rolls by construction, a fit that predicts the exact luck,
// reproducible files that refuse damage and other nets, and rollouts that stay unbiased while
// their variance drops.
#include "selfplay/evaluation/luck_head.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "core/error.h"
#include "core/file_io.h"
#include "core/game.h"
#include "core/movegen.h"
#include "core/random.h"
#include "selfplay/evaluation/rollout.h"
#include "selfplay/search/agent_kinds.h"
#include "selfplay/search/net_agent.h"
#include "selfplay/tables/bearoff_table.h"

namespace nardy {
namespace {

std::string search_net_path() {
  return std::string(NARDY_SOURCE_DIR) + "/tests/data/search_net.pt";
}

std::string temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() / ("nardy_luck_head_test_" + name)).string();
}

// A small fit (a few seconds).
LuckHeadFitOptions small_fit() {
  LuckHeadFitOptions o;
  o.games = 120;
  o.seed = 5;
  o.train.hidden = {32};
  o.train.max_epochs = 12;
  return o;
}

const ValueNet& test_net() {
  static const ValueNet net = ValueNet::load(search_net_path());
  return net;
}

// Layers of uniform weights in +-0.2: the structure of a head (centring over the rolls, the
// outputs' relations, the file format) holds whatever its weights, so the tests of it need no
// fit (a fit takes ~20 s under ASan, and the suite runs in several processes).
LuckMlp random_mlp(int num_inputs, const std::vector<int>& hidden) {
  LuckMlp mlp;
  mlp.num_inputs = num_inputs;
  mlp.hidden = hidden;
  Rng rng(7);
  std::vector<int> sizes{mlp.num_inputs};
  sizes.insert(sizes.end(), hidden.begin(), hidden.end());
  sizes.push_back(kLuckTargets);
  for (size_t l = 0; l + 1 < sizes.size(); ++l) {
    mlp.weight.emplace_back(static_cast<size_t>(sizes[l]) * sizes[l + 1]);
    mlp.bias.emplace_back(static_cast<size_t>(sizes[l + 1]));
    for (float& w : mlp.weight.back()) w = static_cast<float>(rng.uniform() - 0.5) * 0.4f;
    for (float& b : mlp.bias.back()) b = static_cast<float>(rng.uniform() - 0.5) * 0.4f;
  }
  return mlp;
}

LuckHead random_head(const std::vector<int>& hidden = {32}) {
  const Encoder& e = test_net().encoder();
  return LuckHead(e.id(), random_mlp(e.num_inputs(), hidden), "crc32:00000000", Rules{}, "test");
}

// Positions of a few games of the 0-ply net (not the fit's).
std::vector<Position> sample_positions(const ValueNet& net, int games) {
  std::vector<Position> out;
  auto agent = make_net_agent(net, {}, Rules{});
  MoveList moves;
  for (int g = 0; g < games; ++g) {
    Rng rng(1000 + g);
    Position p = Position::start();
    for (int turn = 0; !game_outcome(p, Rules{}); ++turn) {
      if (turn % 7 == 3) out.push_back(p);
      const Dice d = roll_turn(rng, Rules{}, opening_excludes_doubles(p, Rules{}));
      generate_moves(p, d, Rules{}, moves);
      p = moves[agent->choose(p, d, moves, rng)].position;
    }
  }
  return out;
}

TEST(LuckHead, DistinctRollIndexNamesTheSameRoll) {
  for (int a = 1; a <= 6; ++a)
    for (int b = 1; b <= 6; ++b) {
      const Dice d{static_cast<uint8_t>(a), static_cast<uint8_t>(b)};
      const Dice k = kDistinctRolls[distinct_roll_index(d)].dice;
      EXPECT_EQ(k.high(), d.high());
      EXPECT_EQ(k.low(), d.low());
    }
}

TEST(LuckHead, MeanOverTheRollsIsZeroAtEveryPosition) {
  const LuckHead head = random_head();
  LuckHead::Scratch s = head.make_scratch();
  const std::vector<Position> positions = sample_positions(test_net(), 3);
  ASSERT_GT(positions.size(), 20u);
  for (const Position& p : positions) {
    LuckTerms mean{};
    double spread = 0;
    for (const WeightedRoll& r : kDistinctRolls) {
      const LuckTerms l = head.luck(p, r.dice, s);
      for (size_t o = 0; o < l.size(); ++o) mean[o] += r.weight36 / 36.0 * l[o];
      spread = std::max(spread, std::abs(l[5]));
    }
    for (double m : mean) EXPECT_NEAR(m, 0.0, 1e-6);
    EXPECT_GT(spread, 1e-3);  // not the trivial zero head
  }
  // The opening under no_doubles: zero mean over the 15 non-doubles.
  LuckTerms mean{};
  for (const WeightedRoll& r : kDistinctRolls) {
    if (r.dice.is_double()) continue;
    const LuckTerms l = head.luck(Position::start(), r.dice, s, true);
    for (size_t o = 0; o < l.size(); ++o) mean[o] += 2.0 / 30.0 * l[o];
  }
  for (double m : mean) EXPECT_NEAR(m, 0.0, 1e-6);
}

// The fast kernels' forward against a plain double-precision forward of the trained layers
// (ReLU hidden layers, linear outputs, centred over the rolls), for one and two hidden layers.
TEST(LuckHead, KernelsMatchAPlainForwardOfTheNetwork) {
  const ValueNet& net = test_net();
  for (const std::vector<int>& hidden : {std::vector<int>{32}, std::vector<int>{24, 13}}) {
    const LuckMlp mlp = random_mlp(net.encoder().num_inputs(), hidden);
    std::vector<int> sizes{mlp.num_inputs};
    sizes.insert(sizes.end(), hidden.begin(), hidden.end());
    sizes.push_back(kLuckTargets);
    const LuckHead head(net.encoder().id(), mlp, "crc32:00000000", Rules{}, "test");
    LuckHead::Scratch s = head.make_scratch();
    std::vector<float> x(static_cast<size_t>(mlp.num_inputs));
    for (const Position& p : sample_positions(net, 1)) {
      net.encoder().fill(p, x);
      std::vector<double> a(x.begin(), x.end());
      for (size_t l = 0; l < mlp.weight.size(); ++l) {
        std::vector<double> out(static_cast<size_t>(sizes[l + 1]));
        for (int j = 0; j < sizes[l + 1]; ++j) {
          double z = mlp.bias[l][static_cast<size_t>(j)];
          for (int i = 0; i < sizes[l]; ++i)
            z += a[static_cast<size_t>(i)] *
                 mlp.weight[l][static_cast<size_t>(i) * sizes[l + 1] + j];
          out[static_cast<size_t>(j)] = l + 1 < mlp.weight.size() ? std::max(0.0, z) : z;
        }
        a = std::move(out);
      }
      for (int nd = 0; nd < 2; ++nd) {
        std::array<double, kLuckOutputs> mean{};
        double total = 0;
        for (int r = 0; r < kLuckRolls; ++r) {
          const double w =
              nd && kDistinctRolls[r].dice.is_double() ? 0 : kDistinctRolls[r].weight36;
          total += w;
          for (int o = 0; o < kLuckOutputs; ++o) mean[o] += w * a[static_cast<size_t>(r * 4 + o)];
        }
        for (int r = 0; r < kLuckRolls; ++r) {
          if (nd && kDistinctRolls[r].dice.is_double()) continue;
          const LuckTerms l = head.luck(p, kDistinctRolls[r].dice, s, nd == 1);
          const double want[4] = {a[r * 4] - mean[0] / total, a[r * 4 + 1] - mean[1] / total,
                                  a[r * 4 + 2] - mean[2] / total, a[r * 4 + 3] - mean[3] / total};
          EXPECT_NEAR(l[0], want[0], 2e-5);  // win
          EXPECT_NEAR(l[1], want[1], 2e-5);  // win_mars
          EXPECT_NEAR(l[3], want[2], 2e-5);  // lose_mars
          EXPECT_NEAR(l[4], want[3], 2e-5);  // draw
        }
      }
    }
  }
}

TEST(LuckHead, OutputsAreConsistent) {
  const LuckHead head = random_head({24, 13});
  LuckHead::Scratch s = head.make_scratch();
  for (const Position& p : sample_positions(test_net(), 1))
    for (const WeightedRoll& r : kDistinctRolls) {
      const LuckTerms l = head.luck(p, r.dice, s);
      // win + lose + draw = 1 whatever the roll: their luck sums to zero; equity as defined.
      EXPECT_NEAR(l[0] + l[2] + l[4], 0.0, 1e-9);
      EXPECT_NEAR(l[5], l[0] + l[1] - l[2] - l[3], 1e-9);
    }
}

TEST(LuckHead, AFitLearnsTheLuck) {
  LuckHeadFitReport report;
  const LuckHead head = fit_luck_head(test_net(), small_fit(), &report);
  EXPECT_EQ(head.hidden(), std::vector<int>{32});
  EXPECT_GT(report.positions, 1000);
  EXPECT_GT(report.held_out_positions, 50);
  EXPECT_GT(report.luck_rms, 0.01);
  // This small fit explains a share of the held-out luck's variance (0.30 in a Release build);
  // the full fits explain 76-81% (the shipped heads, next test).
  EXPECT_GT(report.explained, 0.1);
  EXPECT_LT(report.explained, 1.0);
  ASSERT_FALSE(report.epochs.empty());
  EXPECT_TRUE(std::any_of(report.epochs.begin(), report.epochs.end(),
                          [](const LuckEpoch& e) { return e.best; }));
}

// The shipped head of the test net predicts the exact luck on positions of new games: its error
// is well below the luck itself (it explains ~80% of it).
TEST(LuckHead, TheShippedHeadPredictsTheExactLuckOnNewPositions) {
  const ValueNet net = ValueNet::load(search_net_path());
  const LuckHead head = LuckHead::load(luck_head_path_for(search_net_path()));
  auto agent = make_net_agent(net, {}, Rules{});
  NetAgent& net_agent = dynamic_cast<NetAgent&>(*agent);
  LuckHead::Scratch s = head.make_scratch();
  MoveList moves;
  double luck2 = 0, err2 = 0;
  for (const Position& p : sample_positions(net, 2)) {
    if (opening_excludes_doubles(p, Rules{})) continue;
    if (table_evaluation(default_bearoff_table(), p, Rules{})) continue;  // rollouts end there
    net_agent.search().cache().new_generation();
    const double expected = net_agent.search().evaluate(p, 1).equity();
    for (const WeightedRoll& r : kDistinctRolls) {
      generate_moves(p, r.dice, Rules{}, moves);
      const double exact = net_agent.search().best_static(p, moves).second.equity() - expected;
      const double predicted = head.luck(p, r.dice, s)[5];
      luck2 += r.weight36 * exact * exact;
      err2 += r.weight36 * (exact - predicted) * (exact - predicted);
    }
  }
  ASSERT_GT(luck2, 0);
  EXPECT_LT(err2, 0.4 * luck2) << "explained " << 1 - err2 / luck2;
}

TEST(LuckHead, FitDoesNotDependOnTheThreadCount) {
  const ValueNet& net = test_net();
  LuckHeadFitOptions o = small_fit();
  o.games = 70;  // three blocks of games (luck_head.cpp: 32 per block), one per thread
  o.threads = 3;
  o.train.max_epochs = 2;
  // The positions and targets do not depend on the threads; the training does on LibTorch's
  // thread count, so both fits train on one LibTorch thread here.
  const std::string a = temp_path("t1.luck"), b = temp_path("t3.luck");
  LuckHeadFitReport r1, r3;
  o.threads = 1;
  fit_luck_head(net, o, &r1).save(a);
  o.threads = 3;
  o.train_threads = 1;
  fit_luck_head(net, o, &r3).save(b);
  EXPECT_EQ(r1.positions, r3.positions);
  EXPECT_EQ(r1.luck_rms, r3.luck_rms);
  EXPECT_EQ(read_file(a), read_file(b));
  o.seed = 6;
  fit_luck_head(net, o).save(b);
  EXPECT_NE(read_file(a), read_file(b));
  std::filesystem::remove(a);
  std::filesystem::remove(b);
}

TEST(LuckHead, FileRoundTripAndItsErrors) {
  const LuckHead head = random_head();
  const std::string path = temp_path("rt.luck");
  head.save(path);
  const LuckHead back = LuckHead::load(path);
  EXPECT_EQ(back.teacher(), head.teacher());
  EXPECT_EQ(back.hidden(), head.hidden());
  EXPECT_EQ(back.fit_note(), head.fit_note());
  // A copy outlives the head it was copied from (its own views of its own buffers).
  const LuckHead copy = [&] {
    const LuckHead loaded = LuckHead::load(path);
    return LuckHead(loaded);
  }();
  LuckHead::Scratch s1 = head.make_scratch(), s2 = back.make_scratch(), s3 = copy.make_scratch();
  for (const Position& p : sample_positions(test_net(), 1))
    for (const WeightedRoll& r : kDistinctRolls) {
      EXPECT_EQ(head.luck(p, r.dice, s1), back.luck(p, r.dice, s2));
      EXPECT_EQ(head.luck(p, r.dice, s1), copy.luck(p, r.dice, s3));
    }

  auto expect_error = [&](const std::string& text, const std::string& what) {
    {
      std::ofstream out(path, std::ios::binary | std::ios::trunc);
      out << text;
    }
    try {
      LuckHead::load(path);
      ADD_FAILURE() << "loaded a bad file: " << what;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
    }
  };
  head.save(path);
  const std::string good = read_file(path);
  std::string damaged = good;
  damaged[good.size() / 2] ^= 1;  // one bit of a parameter
  expect_error(damaged, "checksum mismatch");
  expect_error(good.substr(0, good.size() / 2), "no 'end' line");
  expect_error("", "not a luck head file");
  expect_error("nardy-luck-head 7\n{}\n", "format version");
  // A header that promises another shape than the parameters that follow (checksum resealed).
  std::string other = good;
  const size_t h = other.find("\"hidden\":[32]");
  ASSERT_NE(h, std::string::npos);
  other.replace(h, 13, "\"hidden\":[33]");
  const size_t end_at = other.rfind("\nend crc32:");
  other = other.substr(0, end_at);
  {
    const std::string body = other;
    char buf[32];
    std::snprintf(buf, sizeof buf, "crc32:%08x",
                  static_cast<unsigned>(crc32(crc32(0L, Z_NULL, 0),
                                              reinterpret_cast<const Bytef*>(body.data()),
                                              static_cast<uInt>(body.size()))));
    other += std::string("\nend ") + buf + "\n";
  }
  expect_error(other, "parameters than the header says");
  EXPECT_THROW(LuckHead::load(temp_path("missing.luck")), Error);
  std::filesystem::remove(path);
}

TEST(LuckHead, SidecarPath) {
  EXPECT_EQ(luck_head_path_for("models/nardy-fit-3.pt"), "models/nardy-fit-3.luck");
  EXPECT_EQ(luck_head_path_for("net.bin"), "net.bin.luck");
}

TEST(LuckHead, FitRefusesBadOptions) {
  const ValueNet& net = test_net();
  LuckHeadFitOptions o;
  o.games = 5;
  EXPECT_THROW(fit_luck_head(net, o), Error);
  o.games = 20;
  o.threads = 0;
  EXPECT_THROW(fit_luck_head(net, o), Error);
  o.threads = 1;
  o.noise = -1;
  EXPECT_THROW(fit_luck_head(net, o), Error);
}

// A rollout adjusted by the head: the same estimate as a plain one within their errors, a
// smaller standard error than its own unadjusted figures, and the same bits on any thread count.
TEST(LuckHead, RolloutWithTheHeadIsUnbiasedAndReducesVariance) {
  // The shipped head of the test net (a real fit: a random head would add variance).
  const ValueNet net = test_net();
  const auto shipped =
      std::make_shared<LuckHead>(LuckHead::load(luck_head_path_for(search_net_path())));
  const AgentMaker agent = [net] { return make_net_agent(net, {}, Rules{}); };
  const Position pos = sample_positions(net, 1).at(4);
  RolloutOptions o;
  o.trials = 720;
  o.seed = 11;
  o.luck_head = shipped;
  const RolloutResult head = rollout(pos, agent, {}, o);
  EXPECT_TRUE(head.luck_adjusted);
  EXPECT_EQ(head.luck_method, "head");
  EXPECT_LT(head.equity().se, 0.95 * head.raw[kRoEquity].se);
  o.threads = 2;
  EXPECT_EQ(rollout(pos, agent, {}, o).to_json(), head.to_json());
  o.threads = 1;
  o.luck_head = nullptr;
  o.luck_adjust = false;
  o.seed = 12;
  o.trials = 2160;
  const RolloutResult plain = rollout(pos, agent, {}, o);
  EXPECT_EQ(plain.luck_method, "");
  const double diff = head.equity().mean - plain.equity().mean;
  const double se = std::hypot(head.equity().se, plain.equity().se);
  EXPECT_LT(std::abs(diff), 4 * se) << head.to_text() << plain.to_text();
  // Any agent may use it: the heuristic too, still unbiased.
  o.luck_head = shipped;
  o.luck_adjust = true;
  o.trials = 720;
  o.seed = 13;
  const AgentMaker heuristic = [] { return make_agent("heuristic", Rules{}); };
  const RolloutResult h = rollout(pos, heuristic, {}, o);
  EXPECT_EQ(h.luck_method, "head");
  EXPECT_LT(h.equity().se, h.raw[kRoEquity].se);
}

// The head's terms do not sum to zero over win, lose and draw by themselves: the adjusted
// probabilities must still be a distribution, with no draw where the rules have none, and the
// text leaves the draw out.
TEST(LuckHead, RolloutProbabilitiesStayADistribution) {
  const ValueNet net = test_net();
  const auto shipped =
      std::make_shared<LuckHead>(LuckHead::load(luck_head_path_for(search_net_path())));
  const AgentMaker agent = [net] { return make_net_agent(net, {}, Rules{}); };
  const std::vector<Position> positions = sample_positions(net, 1);
  for (size_t i : {size_t{1}, size_t{4}, size_t{7}}) {
    RolloutOptions o;
    o.trials = 180;
    o.seed = 21;
    o.luck_head = shipped;
    const RolloutResult r = rollout(positions.at(i), agent, {}, o);
    const auto& a = r.adjusted;
    EXPECT_EQ(a[kRoDraw].mean, 0.0);
    EXPECT_EQ(a[kRoDraw].se, 0.0);
    EXPECT_NEAR(a[kRoWin].mean + a[kRoLose].mean, 1.0, 1e-7) << r.to_text();  // float tables
    for (int k : {kRoWin, kRoWinMars, kRoLose, kRoLoseMars}) {
      EXPECT_GE(a[static_cast<size_t>(k)].mean, 0.0) << r.to_text();
      EXPECT_LE(a[static_cast<size_t>(k)].mean, 1.0) << r.to_text();
    }
    EXPECT_LE(a[kRoWinMars].mean, a[kRoWin].mean);
    EXPECT_LE(a[kRoLoseMars].mean, a[kRoLose].mean);
    EXPECT_EQ(r.to_text().find("\ndraw"), std::string::npos) << r.to_text();
    EXPECT_NE(r.to_text().find("\nlose "), std::string::npos) << r.to_text();
  }
}

}  // namespace
}  // namespace nardy
