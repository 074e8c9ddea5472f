// core/file_io.h under the write-fault seam of core/write_fault.h: a failed write, close or
// rename throws an Error naming the file and the system's reason, leaves the previous file as it
// was and no temporary file behind; an append is cut back to its size before the failed write.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/file_io.h"
#include "core/write_fault.h"
#include "tests/support/error_of.h"

namespace nardy {
namespace {

using testing::error_of;

namespace fs = std::filesystem;

class FileIo : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("nardy_file_io_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    set_write_fault(std::nullopt);
  }
  void TearDown() override {
    set_write_fault(std::nullopt);
    fs::remove_all(dir_);
  }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  // The names in the folder, sorted.
  std::vector<std::string> names() const {
    std::vector<std::string> v;
    for (const auto& e : fs::directory_iterator(dir_)) v.push_back(e.path().filename().string());
    std::sort(v.begin(), v.end());
    return v;
  }
  fs::path dir_;
};

TEST_F(FileIo, AtomicWriteReplacesTheFile) {
  write_file_atomic(path("f"), "first");
  write_file_atomic(path("f"), "second");
  EXPECT_EQ(read_file(path("f")), "second");
  EXPECT_EQ(names(), std::vector<std::string>{"f"});
}

TEST_F(FileIo, EveryFailedStepKeepsThePreviousFileAndNamesTheReason) {
  const std::string big(100000, 'x');
  struct Case {
    WriteFault fault;
    const char* reason;
  };
  const Case cases[] = {
      {{WriteOp::write, 1, ENOSPC}, "No space left on device"},
      {{WriteOp::write, 2, EIO}, "Input/output error"},
      {{WriteOp::close, 1, ENOSPC}, "No space left on device"},
      {{WriteOp::rename, 1, EDQUOT}, "Disk quota exceeded"},
  };
  for (const Case& c : cases) {
    write_file_atomic(path("state.json"), "good");
    set_write_fault(c.fault);
    const std::string msg = error_of([&] {
      AtomicFileWriter out("run state", path("state.json"));
      out.write(big);
      out.write(big);
      out.commit();
    });
    set_write_fault(std::nullopt);
    EXPECT_EQ(msg, "cannot write run state '" + path("state.json") + "': " + c.reason);
    EXPECT_EQ(read_file(path("state.json")), "good");
    EXPECT_EQ(names(), std::vector<std::string>{"state.json"});
  }
}

TEST_F(FileIo, AWriterDestroyedWithoutCommitLeavesNothing) {
  {
    AtomicFileWriter out("record file", path("games.txt"));
    out.write("half a game");
  }
  EXPECT_TRUE(names().empty());
}

TEST_F(FileIo, TheFaultCountsCallsFromWhenItIsSet) {
  set_write_fault(WriteFault{WriteOp::write, 3, ENOSPC});
  write_file_atomic(path("a"), "1");
  write_file_atomic(path("b"), "2");
  EXPECT_EQ(write_calls(WriteOp::write), 2);
  EXPECT_NE(error_of([&] { write_file_atomic(path("c"), "3"); }), "");
  EXPECT_NO_THROW(write_file_atomic(path("d"), "4"));  // it fires once
  EXPECT_EQ(names(), (std::vector<std::string>{"a", "b", "d"}));
}

TEST_F(FileIo, AFailedAppendIsCutBack) {
  write_file_atomic(path("labels"), "header\n");
  AppendFileWriter out("label file", path("labels"));
  out.write("game 1\n");
  set_write_fault(WriteFault{WriteOp::write, 1, ENOSPC});
  EXPECT_EQ(error_of([&] { out.write(std::string(5000, 'g')); }),
            "cannot write label file '" + path("labels") + "': No space left on device");
  EXPECT_EQ(read_file(path("labels")), "header\ngame 1\n");
  out.write("game 2\n");
  out.close();
  EXPECT_EQ(read_file(path("labels")), "header\ngame 1\ngame 2\n");
}

TEST_F(FileIo, AFailedCloseOfAnAppendIsAnError) {
  AppendFileWriter out("benchmark set", path("set"));
  out.write("#header\n");
  set_write_fault(WriteFault{WriteOp::close, 1, EIO});
  EXPECT_EQ(error_of([&] { out.close(); }),
            "cannot write benchmark set '" + path("set") + "': Input/output error");
}

TEST_F(FileIo, RealFailuresNameTheSystemsReason) {
  EXPECT_EQ(error_of([&] { write_file_atomic(path("missing/f"), "x", "checkpoint"); }),
            "cannot write checkpoint '" + path("missing/f") + "': No such file or directory");
  fs::create_directories(path("a_dir"));
  EXPECT_EQ(error_of([&] { write_file_atomic(path("a_dir"), "x"); }),
            "cannot write file '" + path("a_dir") + "': it is a directory, not a file");
}

TEST_F(FileIo, TheEnvironmentVariableIsParsed) {
  WriteFault f = parse_write_fault("close:4:EIO");
  EXPECT_EQ(f.op, WriteOp::close);
  EXPECT_EQ(f.nth, 4);
  EXPECT_EQ(f.error, EIO);
  f = parse_write_fault("rename:1");
  EXPECT_EQ(f.op, WriteOp::rename);
  EXPECT_EQ(f.error, 0);
  for (const char* bad : {"", "write", "write:0", "write:x", "seek:1", "write:1:EPERM"}) {
    const std::string msg = error_of([&] { parse_write_fault(bad); });
    EXPECT_NE(msg.find("NARDY_WRITE_FAULT"), std::string::npos) << bad;
  }
}

}  // namespace
}  // namespace nardy
