// selfplay/search/shipped_models.h and the model:/default agent specs (agent_kinds.h), on the
// models/ folder of the source tree.
#include "selfplay/search/shipped_models.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "core/movegen.h"
#include "selfplay/search/agent_kinds.h"
#include "selfplay/tables/race_net.h"
#include "tests/support/error_of.h"
#include "tests/support/temp_dir.h"

namespace nardy {
namespace {

using testing::error_of;

class ShippedModels : public ::testing::Test {
 protected:
  void SetUp() override { setenv("NARDY_MODEL_DIR", NARDY_SOURCE_DIR "/models", 1); }
  void TearDown() override { unsetenv("NARDY_MODEL_DIR"); }
};

TEST_F(ShippedModels, TheRaceNetIsShippedAndCoversEveryRace) {
  const std::string path = find_race_net_file();
  EXPECT_EQ(path, NARDY_SOURCE_DIR "/models/" + std::string(kRaceNetFile));
  const RaceNet net = RaceNet::load(path);
  EXPECT_EQ(net.points(), kMaxBearoffPoints);    // every race (race.h)
  setenv("NARDY_MODEL_DIR", "/nonexistent", 1);  // and no models/ beside the test binary
  EXPECT_EQ(find_race_net_file(), "");
}

TEST_F(ShippedModels, TheDefaultModelIsShippedAndPlays) {
  const std::string path = find_model(kDefaultModel);
  EXPECT_TRUE(std::filesystem::is_regular_file(path)) << path;
  const auto names = list_models();
  EXPECT_NE(std::find(names.begin(), names.end(), std::string(kDefaultModel)), names.end());
  // `default` and `model:NAME` are net agents on that file, with the net: options.
  auto spec = net_agent_spec("default:ply=1");
  ASSERT_TRUE(spec.has_value());
  EXPECT_EQ(spec->path, path);
  EXPECT_EQ(spec->options.ply, 1);
  EXPECT_EQ(net_agent_spec("model:" + std::string(kDefaultModel))->path, path);
  EXPECT_FALSE(net_agent_spec("heuristic").has_value());
  auto agent = make_agent("default", Rules{});
  EXPECT_EQ(agent->spec(), "default");
  MoveList moves;
  generate_moves(Position::start(), Dice{6, 5}, Rules{}, moves);
  Rng rng(1);
  EXPECT_EQ(moves[agent->choose(Position::start(), Dice{6, 5}, moves, rng)].position,
            moves[0].position);  // 24/13 is the only move
}

TEST_F(ShippedModels, MissingAndDamagedModelsAreClearErrors) {
  const std::string missing = error_of([] { make_agent("model:no-such-model", Rules{}); });
  EXPECT_NE(missing.find("agent 'model:no-such-model'"), std::string::npos) << missing;
  EXPECT_NE(missing.find("no file no-such-model.pt"), std::string::npos) << missing;
  EXPECT_NE(missing.find(NARDY_SOURCE_DIR "/models"), std::string::npos) << missing;
  EXPECT_NE(error_of([] { find_model("../etc/passwd"); }).find("not a model name"),
            std::string::npos);
  // A damaged file in the folder: the checkpoint loader's error, naming the file.
  testing::TempDir dir;
  std::ofstream(dir.file("broken.pt")) << "not a checkpoint";
  const std::string folder = std::filesystem::path(dir.file("broken.pt")).parent_path().string();
  setenv("NARDY_MODEL_DIR", folder.c_str(), 1);
  const std::string damaged = error_of([] { make_agent("model:broken", Rules{}); });
  EXPECT_NE(damaged.find("broken.pt"), std::string::npos) << damaged;
  // Without the default model in the folder, `default` says where it looked.
  const std::string no_default = error_of([] { make_agent("default", Rules{}); });
  EXPECT_NE(no_default.find(std::string(kDefaultModel) + ".pt"), std::string::npos) << no_default;
}

}  // namespace
}  // namespace nardy
