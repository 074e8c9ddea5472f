// core/file_io.h — whole-file reads, and file writes that fail clearly and lose nothing.
//
// Every file nardy writes goes through the writers below. Each write, close and rename is
// checked. A failure throws Error "cannot write WHAT 'PATH': REASON", where REASON is the
// system's own ("No space left on device"). Writes go through the test seam of
// core/write_fault.h, so tests can make any of them fail.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace nardy {

// A file written whole or not at all. Bytes go to PATH.tmp, and commit() renames it onto PATH.
// On any failure, and when destroyed without commit(), the writer removes PATH.tmp: PATH keeps
// what it held before.
class AtomicFileWriter {
 public:
  // `what` names the kind of file in errors ("checkpoint", "record file").
  AtomicFileWriter(std::string what, std::string path);
  ~AtomicFileWriter();
  AtomicFileWriter(const AtomicFileWriter&) = delete;
  AtomicFileWriter& operator=(const AtomicFileWriter&) = delete;

  void write(std::string_view bytes);
  void commit();
  const std::string& path() const { return path_; }

 private:
  [[noreturn]] void fail(int error);
  std::string what_, path_, tmp_;
  int fd_ = -1;
};

// Appends to PATH, created when missing. Each write() is appended whole or not at all: a failed
// write throws as above and cuts the file back to its size before it. (A process killed
// mid-write can still leave part of one; label files and benchmark sets cut such a tail when
// they are resumed.)
class AppendFileWriter {
 public:
  AppendFileWriter(std::string what, std::string path);
  ~AppendFileWriter();
  AppendFileWriter(const AppendFileWriter&) = delete;
  AppendFileWriter& operator=(const AppendFileWriter&) = delete;

  void write(std::string_view bytes);
  // Closes the file, checking the close. The destructor closes it too, without a check.
  void close();

 private:
  std::string what_, path_;
  int fd_ = -1;
  int64_t size_ = 0;  // the file's size after the last whole write
};

// Writes `content` to `path` whole or not at all (an AtomicFileWriter). `what` names the kind of
// file in errors.
void write_file_atomic(const std::string& path, std::string_view content,
                       std::string_view what = "file");
// Throws file_error(what, path, "it is a directory, not a file") when `path` is a directory
// (an ifstream opens one, and reading it then throws an unnamed ios_base::failure).
void require_not_directory(std::string_view what, const std::string& path);
// Whole file as a string. Throws Error naming the path (a directory included).
std::string read_file(const std::string& path);

}  // namespace nardy
