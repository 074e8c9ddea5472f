// RunDir: atomic writes, state round trip, checkpoint rotation, metrics truncation.
#include "selfplay/training/run_dir.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "core/error.h"
#include "tests/support/temp_dir.h"

namespace nardy {
namespace {

namespace fs = std::filesystem;

class RunDirTest : public ::testing::Test {
 protected:
  testing::TempDir tmp_;
  const fs::path root_ = tmp_.file("root");
};

TEST_F(RunDirTest, AtomicWriteReplacesContentAndLeavesNoTemporary) {
  fs::create_directories(root_);
  const std::string path = (root_ / "f.txt").string();
  write_file_atomic(path, "first");
  write_file_atomic(path, "second");
  EXPECT_EQ(read_file(path), "second");
  EXPECT_FALSE(fs::exists(path + ".tmp"));
  EXPECT_THROW(write_file_atomic((root_ / "missing" / "f").string(), "x"), Error);
}

TEST_F(RunDirTest, CreateRefusesAnExistingRunAndOpenNeedsState) {
  RunDir d = RunDir::create((root_ / "run").string());
  EXPECT_TRUE(fs::is_directory(d.path()));
  // A directory without state.json cannot be resumed...
  EXPECT_NE(std::string([&] {
              try {
                RunDir::open(d.path());
              } catch (const Error& e) {
                return std::string(e.what());
              }
              return std::string();
            }())
                .find("no state.json"),
            std::string::npos);
  // ...and once it has one, it cannot be created again.
  RunState s;
  s.games_done = 10;
  s.checkpoint = "ckpt-10.pt";
  d.write_state(s);
  try {
    RunDir::create(d.path());
    FAIL() << "create over an existing run";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("--resume " + d.path()), std::string::npos) << e.what();
  }
  EXPECT_EQ(RunDir::open(d.path() + "/").path(), d.path());
}

TEST_F(RunDirTest, CreateReusesAnAttemptKilledBeforeItsFirstCheckpoint) {
  // Given a directory with a config, metrics and a stray checkpoint but no state.json,
  RunDir d = RunDir::create((root_ / "run").string());
  std::ofstream(d.config_path()) << "run: {name: run}\n";
  d.append_metrics("{\"games\":100}");
  std::ofstream(d.file("ckpt-100.pt")) << "x";
  // when a new run is created there, then the leftovers are gone.
  RunDir again = RunDir::create(d.path());
  EXPECT_TRUE(again.metrics_lines().empty());
  EXPECT_TRUE(again.checkpoint_games().empty());
}

TEST_F(RunDirTest, StateRoundTripsWithAndWithoutBest) {
  RunDir d = RunDir::create((root_ / "run").string());
  RunState s;
  s.games_done = 1234;
  s.positions = 99999;
  s.elapsed_s = 12.5;
  s.checkpoint = "ckpt-1234.pt";
  d.write_state(s);
  EXPECT_THROW(RunDir::create((root_ / "other").string()).read_state(), Error);  // no state.json
  RunState r = d.read_state();
  EXPECT_EQ(r.games_done, 1234);
  EXPECT_EQ(r.positions, 99999);
  EXPECT_DOUBLE_EQ(r.elapsed_s, 12.5);
  EXPECT_EQ(r.checkpoint, "ckpt-1234.pt");
  EXPECT_EQ(r.best_games, -1);
  EXPECT_TRUE(r.latest_eval_json.empty());
  s.best_games = 1000;
  s.best_score = 0.75;
  s.latest_eval_json = R"({"random":{"games":10}})";
  s.latest_eval_games = 1000;
  d.write_state(s);
  r = d.read_state();
  EXPECT_EQ(r.best_games, 1000);
  EXPECT_DOUBLE_EQ(r.best_score, 0.75);
  EXPECT_EQ(r.latest_eval_json, s.latest_eval_json);
  EXPECT_EQ(r.latest_eval_games, 1000);
  std::ofstream(d.state_path()) << "{\"format\": \"something else\"}";
  EXPECT_THROW(d.read_state(), Error);
}

TEST_F(RunDirTest, RotationKeepsTheNewestAndTheProtectedCheckpoint) {
  RunDir d = RunDir::create((root_ / "run").string());
  for (int64_t g : {100, 200, 300, 400, 1000})
    std::ofstream(d.file(RunDir::checkpoint_name(g))) << g;
  std::ofstream(d.file("ckpt-x.pt")) << "not a checkpoint name";
  EXPECT_EQ(d.checkpoint_games(), (std::vector<int64_t>{100, 200, 300, 400, 1000}));
  d.rotate_checkpoints(2, 200);
  EXPECT_EQ(d.checkpoint_games(), (std::vector<int64_t>{200, 400, 1000}));
  d.rotate_checkpoints(1, 1000);
  EXPECT_EQ(d.checkpoint_games(), (std::vector<int64_t>{1000}));
  EXPECT_TRUE(fs::exists(d.file("ckpt-x.pt")));
}

TEST_F(RunDirTest, MetricsAppendAndTruncateAfterACheckpoint) {
  RunDir d = RunDir::create((root_ / "run").string());
  EXPECT_TRUE(d.metrics_lines().empty());
  for (int g : {100, 200, 300}) d.append_metrics("{\"games\":" + std::to_string(g) + "}");
  EXPECT_EQ(d.metrics_lines().size(), 3u);
  d.truncate_metrics_after(200);
  EXPECT_EQ(d.metrics_lines(), (std::vector<std::string>{"{\"games\":100}", "{\"games\":200}"}));
}

}  // namespace
}  // namespace nardy
