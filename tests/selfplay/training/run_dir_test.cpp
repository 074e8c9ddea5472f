// RunDir: atomic writes, state round trip, checkpoint rotation, metrics truncation.
#include "selfplay/training/run_dir.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <vector>

#include "core/error.h"
#include "tests/support/error_of.h"
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
  std::ofstream(d.config_path()) << "run: {name: run}\n";
  // A directory without state.json or any checkpoint cannot be resumed...
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
  // Given a directory with a config and metrics but no checkpoint and no state.json,
  RunDir d = RunDir::create((root_ / "run").string());
  std::ofstream(d.config_path()) << "run: {name: run}\n";
  d.append_metrics("{\"games\":100}");
  std::ofstream(d.file("latest.pt.tmp")) << "x";
  // when a new run is created there, then the leftovers are gone.
  RunDir again = RunDir::create(d.path());
  EXPECT_TRUE(again.metrics_lines().empty());
  EXPECT_FALSE(fs::exists(d.file("latest.pt.tmp")));
}

TEST_F(RunDirTest, CheckpointsWithoutStateAreResumableNotOverwritten) {
  // Killed after writing ckpt-100.pt but before its first state.json: the checkpoint is kept
  // and create() points at the resume; open() accepts the directory.
  RunDir d = RunDir::create((root_ / "run").string());
  std::ofstream(d.config_path()) << "run: {name: run}\n";
  std::ofstream(d.file("ckpt-100.pt")) << "x";
  try {
    RunDir::create(d.path());
    FAIL() << "create over a checkpoint";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("resumes from the newest complete checkpoint"),
              std::string::npos)
        << e.what();
  }
  EXPECT_EQ(d.checkpoint_games(), std::vector<int64_t>{100});
  EXPECT_EQ(RunDir::open(d.path()).path(), d.path());
}

TEST_F(RunDirTest, OpenForResumeRemovesStaleTemporariesEvenWhenItRefuses) {
  RunDir d = RunDir::create((root_ / "run").string());
  for (const char* f : {"latest.pt.tmp", "state.json.tmp", "ckpt-200.pt.tmp"})
    std::ofstream(d.file(f)) << "partial";
  EXPECT_THROW(RunDir::open(d.path()), Error);       // no config.yaml, no state, no checkpoint
  EXPECT_TRUE(fs::exists(d.file("latest.pt.tmp")));  // open() only reads
  EXPECT_THROW(RunDir::open_for_resume(d.path()), Error);
  for (const char* f : {"latest.pt.tmp", "state.json.tmp", "ckpt-200.pt.tmp"})
    EXPECT_FALSE(fs::exists(d.file(f))) << f;
  EXPECT_TRUE(fs::is_directory(d.path()));
}

TEST_F(RunDirTest, RemoveCheckpointsAfterAGameCount) {
  RunDir d = RunDir::create((root_ / "run").string());
  for (int g : {100, 200, 300}) std::ofstream(d.file(RunDir::checkpoint_name(g))) << g;
  d.remove_checkpoints_after(200);
  EXPECT_EQ(d.checkpoint_games(), (std::vector<int64_t>{100, 200}));
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

namespace nardy {
namespace {

// Issue 14: run directories with paths longer than PATH_MAX or names longer than NAME_MAX gave
// the raw "filesystem error: status: File name too long [PATH]".
using testing::error_of;

TEST(RunDirPaths, OverlongPathsGiveAnErrorNamingTheRunDirectory) {
  std::string deep = "/tmp";
  while (deep.size() < 5000) deep += "/" + std::string(200, 'd');
  const std::string long_name = "/tmp/" + std::string(300, 'n');
  for (const std::string& path : {deep, long_name}) {
    for (const auto& call : std::vector<std::function<void()>>{
             [&] { RunDir::create(path); }, [&] { RunDir::open(path); },
             [&] { RunDir::open_for_resume(path); }, [&] { RunDir::holds_run(path); }}) {
      const std::string msg = error_of(call);
      EXPECT_EQ(msg.rfind("run directory '/tmp/", 0), 0u) << msg;
      EXPECT_NE(msg.find("File name too long"), std::string::npos) << msg;
      EXPECT_EQ(msg.find("filesystem error"), std::string::npos) << msg;
      EXPECT_LT(msg.size(), 300u) << msg;
    }
  }
}

TEST(RunDirPaths, DamagedStateJsonIsNamedPrintably) {
  const std::string msg =
      error_of([] { RunState::from_json("{\"format\": \"x\xff\"}", "runs/r/state.json"); });
  EXPECT_EQ(msg.rfind("runs/r/state.json: damaged run state: ", 0), 0u) << msg;
  EXPECT_NE(msg.find("ill-formed UTF-8"), std::string::npos) << msg;
  EXPECT_EQ(printable_message(msg), msg);
  const std::string cut = error_of([] { RunState::from_json("{\"format\": \"nardy-run", "s"); });
  EXPECT_NE(
      cut.find("s: damaged run state: at line 1, column 22: syntax error while parsing value - "
               "invalid string: missing closing quote"),
      std::string::npos)
      << cut;
}

TEST(RunDirPaths, OutOfRangeStateValuesAreRefusedNamingTheKey) {
  RunState good;
  good.games_done = 500;
  good.positions = 7000;
  good.elapsed_s = 3;
  good.checkpoint = RunDir::checkpoint_name(500);
  good.best_games = 400;
  good.best_score = 0.5;
  EXPECT_EQ(RunState::from_json(good.to_json(), "s").best_games, 400);
  // Each mutant of the good state, and the key its error must name.
  const std::vector<std::pair<std::string, std::string>> mutants = {
      {R"("positions": 7000)", R"("positions": -1)"},
      {R"("best_games": 400)", R"("best_games": 1e30)"},
      {R"("best_games": 400)", R"("best_games": 501)"},
      {R"("games_done": 500)", R"("games_done": 5.5)"},
      {R"("elapsed_s": 3.0)", R"("elapsed_s": -2.0)"},
      {R"("best_score": 0.5)", R"("best_score": null)"},
      {R"("world_size": 1)", R"("world_size": 0)"},
      {R"("checkpoint": "ckpt-500.pt")", R"("checkpoint": "../../etc/passwd")"},
  };
  const std::string text = good.to_json();
  for (const auto& [from, to] : mutants) {
    std::string bad = text;
    const size_t at = bad.find(from);
    ASSERT_NE(at, std::string::npos) << from << " in " << text;
    bad.replace(at, from.size(), to);
    const std::string key = from.substr(1, from.find('"', 1) - 1);
    const std::string msg = error_of([&] { RunState::from_json(bad, "runs/r/state.json"); });
    EXPECT_EQ(msg.rfind("runs/r/state.json: damaged run state", 0), 0u) << to << ": " << msg;
    EXPECT_NE(msg.find(key), std::string::npos) << to << ": " << msg;
  }
}

}  // namespace
}  // namespace nardy
