// tests/core/file_error_test.cpp — core/file_error.h: file-system failures as nardy::Error naming
// what the file was for, the path (printable, shortened) and the system's reason.
#include "core/file_error.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "tests/support/error_of.h"
#include "tests/support/temp_dir.h"

namespace nardy {
namespace {

using testing::error_of;

// A path whose last component is longer than any file name allowed (NAME_MAX is 255 on Linux).
const std::string kLongName = "/tmp/" + std::string(300, 'a') + ".pt";
// A path longer than PATH_MAX (4096), of short components.
std::string long_path() {
  std::string p = "/tmp";
  while (p.size() < 5000) p += "/" + std::string(100, 'b');
  return p + "/state.json";
}

TEST(FileError, NamesWhatThePathAndTheReason) {
  const std::string msg =
      file_error("cannot create run directory", "runs/x\n", "Permission denied").what();
  EXPECT_EQ(msg, "cannot create run directory 'runs/x\\n': Permission denied");
  EXPECT_EQ(std::string(file_error("config", "c.yaml", "").what()), "config 'c.yaml'");
}

TEST(FileError, FromAFilesystemErrorKeepsOnlyItsPathAndReason) {
  try {
    (void)std::filesystem::status(kLongName);
    FAIL() << "status() of an over-long name should throw";
  } catch (const std::filesystem::filesystem_error& e) {
    const std::string msg = file_error("run directory", e).what();
    EXPECT_EQ(msg.rfind("run directory '/tmp/aaa", 0), 0u) << msg;
    EXPECT_NE(msg.find("aaa.pt': File name too long"), std::string::npos) << msg;
    EXPECT_EQ(msg.find("filesystem error"), std::string::npos) << msg;
    EXPECT_LT(msg.size(), 250u) << msg;
  }
}

TEST(FileError, ChecksSayFalseForMissingAndThrowForRefusedPaths) {
  testing::TempDir dir;
  const std::string file = dir.file("f.pt");
  std::ofstream(file) << "x";
  EXPECT_FALSE(path_exists("checkpoint", dir.file("missing.pt")));
  EXPECT_FALSE(is_directory_path("run directory", file + "/below-a-file"));
  EXPECT_TRUE(is_directory_path("run directory", dir.file("")));
  EXPECT_TRUE(is_regular_file_path("checkpoint", file));
  EXPECT_FALSE(is_regular_file_path("checkpoint", dir.file("")));
  const std::string too_long = error_of([] { path_exists("checkpoint", kLongName); });
  EXPECT_EQ(too_long.rfind("checkpoint '/tmp/aaa", 0), 0u) << too_long;
  EXPECT_NE(too_long.find("': File name too long"), std::string::npos) << too_long;
  const std::string path = long_path();
  const std::string msg = error_of([&] { is_directory_path("run directory", path); });
  EXPECT_EQ(msg.rfind("run directory '/tmp/bbb", 0), 0u) << msg;
  EXPECT_NE(msg.find("/state.json': File name too long"), std::string::npos) << msg;
  EXPECT_LT(msg.size(), 250u) << msg;
}

}  // namespace
}  // namespace nardy
