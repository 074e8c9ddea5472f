// ValueNet: creation, checkpoints (round trip, metadata, every load error), copies.
#include "nn/value_net.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "core/error.h"
#include "nn/checkpoint_json.h"
#include "tests/nn/test_nets.h"
#include "tests/support/error_of.h"
#include "tests/support/temp_dir.h"

namespace nardy {
namespace {

namespace fs = std::filesystem;
using testing::encode_all;
using testing::error_of;
using testing::sample_positions;
using testing::shape_of;
using testing::spread_net;
using testing::TempDir;

std::vector<Evaluation> evaluate_all(const ValueNet& net, const std::vector<float>& x, int n) {
  std::vector<Evaluation> out(n);
  net.evaluate_batch(x, n, out);
  return out;
}

TEST(ValueNet, CreateIsSeededAndShaped) {
  const NetShape s = shape_of("raw", 32, Activation::Sigmoid, 3);
  ValueNet a = ValueNet::create(s, 7), b = ValueNet::create(s, 7), c = ValueNet::create(s, 8);
  EXPECT_EQ(a.shape().encoder, "raw-v1");  // names resolve to ids
  EXPECT_EQ(a.num_inputs(), a.encoder().num_inputs());
  const auto la = a.layers(), lb = b.layers(), lc = c.layers();
  ASSERT_EQ(la.size(), 2u);
  EXPECT_EQ(la[0].in, a.num_inputs());
  EXPECT_EQ(la[0].out, 32);
  EXPECT_EQ(la[1].in, 32);
  EXPECT_EQ(la[1].out, 3);
  int same_seed_equal = 0, other_seed_equal = 0;
  const float bound = 1.0f / std::sqrt(static_cast<float>(la[0].in));
  for (int i = 0; i < la[0].in * la[0].out; ++i) {
    same_seed_equal += la[0].weight[i] == lb[0].weight[i];
    other_seed_equal += la[0].weight[i] == lc[0].weight[i];
    EXPECT_LE(std::abs(la[0].weight[i]), bound);
  }
  EXPECT_EQ(same_seed_equal, la[0].in * la[0].out);
  EXPECT_LT(other_seed_equal, 5);
}

TEST(ValueNet, CreateRejectsBadShapes) {
  NetShape s = shape_of("raw-v1", 0, Activation::Sigmoid, 3);
  EXPECT_NE(error_of([&] { ValueNet::create(s, 1); }).find("hidden layer of 0 units"),
            std::string::npos);
  s = shape_of("raw-v1", 8, Activation::Sigmoid, 5);
  EXPECT_NE(error_of([&] { ValueNet::create(s, 1); }).find("5 outputs"), std::string::npos);
  s = shape_of("nope-v3", 8, Activation::Sigmoid, 3);
  EXPECT_NE(error_of([&] { ValueNet::create(s, 1); }).find("unknown encoder 'nope-v3'"),
            std::string::npos);
}

TEST(ValueNet, EvaluationsAreConsistentProbabilities) {
  for (int outputs : {3, 4}) {
    ValueNet net = spread_net(shape_of("extended-v1", 24, Activation::Tanh, outputs), 5);
    const auto positions = sample_positions(1, 1);
    const auto x = encode_all(net.encoder(), positions);
    for (const Evaluation& e : evaluate_all(net, x, static_cast<int>(positions.size()))) {
      EXPECT_GE(e.win, 0.0f);
      EXPECT_LE(e.win_mars, e.win + 1e-6f);
      EXPECT_GE(e.lose_mars, 0.0f);
      EXPECT_LE(e.lose_mars, e.lose() + 1e-6f);
      EXPECT_GE(e.lose(), -1e-6f);
      if (outputs == 3) {
        EXPECT_EQ(e.draw, 0.0f);
      }
      EXPECT_NEAR(e.equity(), e.win + e.win_mars - e.lose() - e.lose_mars, 1e-6f);
    }
  }
  ValueNet net = ValueNet::create(NetShape{}, 1);
  const Evaluation e = net.evaluate(Position::start());
  std::vector<float> x(net.num_inputs());
  net.encoder().fill(Position::start(), x);
  EXPECT_EQ(evaluate_all(net, x, 1)[0].win, e.win);
}

TEST(ValueNet, CheckpointRoundTripKeepsOutputsAndMetadata) {
  TempDir dir;
  const std::string path = dir.file("net.pt");
  ValueNet net = spread_net(shape_of("extended-v1", 20, Activation::Relu, 4), 3);
  CheckpointInfo info;
  info.rules = "opening=no_doubles head_exception=standard last_roll_draw=true";
  info.games = 12345;
  info.positions = 987654321012;
  info.config_yaml = "net:\n  hidden: [20]\n";
  info.extra = {{"run", "test"}, {"elo", "12.5"}};
  net.save(path, info);
  EXPECT_FALSE(fs::exists(path + ".tmp"));
  ValueNet loaded = ValueNet::load(path);
  EXPECT_EQ(loaded.shape(), net.shape());
  EXPECT_EQ(loaded.info().rules, info.rules);
  EXPECT_EQ(loaded.info().games, info.games);
  EXPECT_EQ(loaded.info().positions, info.positions);
  EXPECT_EQ(loaded.info().config_yaml, info.config_yaml);
  EXPECT_EQ(loaded.info().extra, info.extra);
  const auto positions = sample_positions(4, 1);
  const auto x = encode_all(net.encoder(), positions);
  const int n = static_cast<int>(positions.size());
  const auto before = evaluate_all(net, x, n), after = evaluate_all(loaded, x, n);
  for (int i = 0; i < n; ++i) {
    EXPECT_EQ(before[i].win, after[i].win);
    EXPECT_EQ(before[i].lose_mars, after[i].lose_mars);
    EXPECT_EQ(before[i].draw, after[i].draw);
  }
  // Saving over an existing checkpoint replaces it.
  ValueNet other = ValueNet::create(net.shape(), 99);
  other.save(path, {});
  EXPECT_EQ(ValueNet::load(path).info().games, 0);
  EXPECT_EQ(ValueNet::load(path).layers()[0].weight[0], other.layers()[0].weight[0]);
}

TEST(ValueNet, CloneIsDeepAndCopyParametersIsInPlace) {
  ValueNet net = ValueNet::create(NetShape{}, 1);
  ValueNet copy = net.clone();
  float* w = copy.layers()[0].weight;
  EXPECT_EQ(w[5], net.layers()[0].weight[5]);
  net.layers()[0].weight[5] += 1.0f;
  EXPECT_NE(w[5], net.layers()[0].weight[5]);
  copy.copy_parameters_from(net);
  EXPECT_EQ(copy.layers()[0].weight, w);  // same storage
  EXPECT_EQ(w[5], net.layers()[0].weight[5]);
  ValueNet other = ValueNet::create(shape_of("raw-v1", 64, Activation::Sigmoid, 3), 1);
  EXPECT_NE(error_of([&] { copy.copy_parameters_from(other); }).find("shapes differ"),
            std::string::npos);
}

TEST(ValueNet, SaveIntoAMissingDirectoryFails) {
  TempDir dir;
  const std::string path = dir.file("no/such/dir/net.pt");
  const std::string msg = error_of([&] { ValueNet::create(NetShape{}, 1).save(path, {}); });
  EXPECT_NE(msg.find("cannot write checkpoint '" + path + "'"), std::string::npos) << msg;
  EXPECT_FALSE(fs::exists(path + ".tmp"));
}

// ---- load errors: each names the path and the reason ----

TEST(ValueNetLoad, MissingFile) {
  TempDir dir;
  const std::string path = dir.file("absent.pt");
  const std::string msg = error_of([&] { ValueNet::load(path); });
  EXPECT_NE(msg.find(path), std::string::npos) << msg;
  EXPECT_NE(msg.find("no such file"), std::string::npos) << msg;
  EXPECT_NE(error_of([&] { ValueNet::load(dir.file("")); }).find("not a regular file"),
            std::string::npos);
}

TEST(ValueNetLoad, TruncatedFile) {
  TempDir dir;
  const std::string path = dir.file("net.pt");
  ValueNet::create(NetShape{}, 1).save(path, {});
  const auto size = fs::file_size(path);
  fs::resize_file(path, size / 2);
  const std::string msg = error_of([&] { ValueNet::load(path); });
  EXPECT_NE(msg.find(path), std::string::npos) << msg;
  EXPECT_NE(msg.find("not a readable TorchScript file"), std::string::npos) << msg;
}

TEST(ValueNetLoad, RandomBytes) {
  TempDir dir;
  const std::string path = dir.file("noise.pt");
  {
    std::ofstream f(path, std::ios::binary);
    Rng rng(3);
    for (int i = 0; i < 4096; ++i) f.put(static_cast<char>(rng.below(256)));
  }
  const std::string msg = error_of([&] { ValueNet::load(path); });
  EXPECT_NE(msg.find(path), std::string::npos) << msg;
  EXPECT_NE(msg.find("not a readable TorchScript file"), std::string::npos) << msg;
}

}  // namespace
}  // namespace nardy
