#include "core/file_io.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>

#include "core/error.h"
#include "core/file_error.h"
#include "core/write_fault.h"

namespace nardy {

namespace {

Error write_error(std::string_view what, std::string_view path, int error) {
  return file_error("cannot write " + std::string(what), path, std::strerror(error));
}

// Opens `file` for writing; an error names `path`, the file the user asked for.
int open_for_writing(std::string_view what, const std::string& path, const std::string& file,
                     int flags) {
  int fd;
  do fd = ::open(file.c_str(), flags | O_WRONLY | O_CREAT | O_CLOEXEC, 0666);
  while (fd < 0 && errno == EINTR);
  if (fd < 0) throw write_error(what, path, errno);
  return fd;
}

// Writes every byte of `bytes` to `fd`; returns 0, or the errno of the failure. An injected
// fault writes half the bytes first, as a disk that fills up mid-write does.
int write_all(int fd, std::string_view bytes) {
  if (const int injected = write_fault_for(WriteOp::write)) {
    [[maybe_unused]] const ssize_t n = ::write(fd, bytes.data(), bytes.size() / 2);
    return injected;
  }
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    if (n == 0) return ENOSPC;  // no progress: the device takes no more
    bytes.remove_prefix(static_cast<size_t>(n));
  }
  return 0;
}

// Closes `fd`; returns 0, or the errno of the failure (the descriptor is gone either way).
int close_checked(int fd) {
  const int injected = write_fault_for(WriteOp::close);
  const int rc = ::close(fd);
  if (injected) return injected;
  return rc != 0 && errno != EINTR ? errno : 0;
}

}  // namespace

AtomicFileWriter::AtomicFileWriter(std::string what, std::string path)
    : what_(std::move(what)), path_(std::move(path)), tmp_(path_ + ".tmp") {
  require_not_directory("cannot write " + what_, path_);
  fd_ = open_for_writing(what_, path_, tmp_, O_TRUNC);
}

AtomicFileWriter::~AtomicFileWriter() {
  if (fd_ >= 0) {
    ::close(fd_);
    std::remove(tmp_.c_str());
  }
}

void AtomicFileWriter::fail(int error) {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  std::remove(tmp_.c_str());
  throw write_error(what_, path_, error);
}

void AtomicFileWriter::write(std::string_view bytes) {
  if (fd_ < 0) throw Error("cannot write " + what_ + " " + quote_path(path_) + ": already closed");
  if (const int e = write_all(fd_, bytes)) fail(e);
}

void AtomicFileWriter::commit() {
  if (fd_ < 0) throw Error("cannot write " + what_ + " " + quote_path(path_) + ": already closed");
  const int fd = fd_;
  fd_ = -1;
  if (const int e = close_checked(fd)) {
    std::remove(tmp_.c_str());
    throw write_error(what_, path_, e);
  }
  int e = write_fault_for(WriteOp::rename);
  if (!e && std::rename(tmp_.c_str(), path_.c_str()) != 0) e = errno;
  if (e) {
    std::remove(tmp_.c_str());
    throw write_error(what_, path_, e);
  }
}

AppendFileWriter::AppendFileWriter(std::string what, std::string path)
    : what_(std::move(what)), path_(std::move(path)) {
  require_not_directory("cannot write " + what_, path_);
  fd_ = open_for_writing(what_, path_, path_, O_APPEND);
  struct stat st {};
  if (::fstat(fd_, &st) != 0) {
    const int e = errno;
    ::close(fd_);
    fd_ = -1;
    throw write_error(what_, path_, e);
  }
  size_ = st.st_size;
}

AppendFileWriter::~AppendFileWriter() {
  if (fd_ >= 0) ::close(fd_);
}

void AppendFileWriter::write(std::string_view bytes) {
  if (fd_ < 0) throw Error("cannot write " + what_ + " " + quote_path(path_) + ": already closed");
  if (const int e = write_all(fd_, bytes)) {
    [[maybe_unused]] const int rc =
        ::ftruncate(fd_, static_cast<off_t>(size_));  // the partial write cut back
    throw write_error(what_, path_, e);
  }
  size_ += static_cast<int64_t>(bytes.size());
}

void AppendFileWriter::close() {
  if (fd_ < 0) return;
  const int fd = fd_;
  fd_ = -1;
  if (const int e = close_checked(fd)) throw write_error(what_, path_, e);
}

void write_file_atomic(const std::string& path, std::string_view content, std::string_view what) {
  AtomicFileWriter out(std::string(what), path);
  out.write(content);
  out.commit();
}

void require_not_directory(std::string_view what, const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw file_error(what, path, "it is a directory, not a file");
}

std::string read_file(const std::string& path) {
  require_not_directory("cannot read", path);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw file_error("cannot read", path, open_failure_reason());
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace nardy
