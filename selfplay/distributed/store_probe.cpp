#include "selfplay/distributed/store_probe.h"

#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>
#include <sstream>
#include <thread>
#include <vector>

#include "core/error.h"

namespace nardy {

namespace {

using Clock = std::chrono::steady_clock;

constexpr uint8_t kAddQuery = 3;  // c10d::detail::QueryType::ADD in LibTorch 1.13

class Socket {
 public:
  explicit Socket(int fd) : fd_(fd) {}
  Socket(const Socket&) = delete;
  Socket& operator=(const Socket&) = delete;
  ~Socket() {
    if (fd_ >= 0) ::close(fd_);
  }
  int fd() const { return fd_; }

 private:
  int fd_;
};

int remaining_ms(Clock::time_point deadline) {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
  return left.count() <= 0 ? 0 : static_cast<int>(std::min<int64_t>(left.count(), 1 << 30));
}

// Waits until fd is ready for `events`; false at the deadline.
bool wait_for(int fd, short events, Clock::time_point deadline) {
  for (;;) {
    pollfd p{fd, events, 0};
    const int n = ::poll(&p, 1, remaining_ms(deadline));
    if (n > 0) return true;
    if (n == 0) return false;
    if (errno != EINTR) return false;
  }
}

// A connected non-blocking socket to one of host:port's addresses, or -1 with `why` set when the
// peer refused (retryable) or the deadline passed.
int connect_once(const addrinfo* ai, Clock::time_point deadline, std::string& why,
                 bool& retryable) {
  const int fd = ::socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
  if (fd < 0) {
    why = std::string("socket: ") + std::strerror(errno);
    return -1;
  }
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
  int err = 0;
  if (::connect(fd, ai->ai_addr, ai->ai_addrlen) < 0) {
    err = errno;
    if (err == EINPROGRESS) {
      if (!wait_for(fd, POLLOUT, deadline)) {
        ::close(fd);
        why = "no connection";
        retryable = false;
        return -1;
      }
      socklen_t len = sizeof err;
      ::getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len);
    }
  }
  if (err != 0) {
    ::close(fd);
    why = std::strerror(err);
    retryable = true;  // refused, unreachable for now: the store may not be up yet
    return -1;
  }
  return fd;
}

bool send_all(int fd, const std::vector<uint8_t>& bytes, Clock::time_point deadline) {
  size_t sent = 0;
  while (sent < bytes.size()) {
    if (!wait_for(fd, POLLOUT, deadline)) return false;
    const ssize_t n = ::send(fd, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
    if (n < 0 && (errno == EAGAIN || errno == EINTR)) continue;
    if (n <= 0) return false;
    sent += static_cast<size_t>(n);
  }
  return true;
}

template <class T>
void append(std::vector<uint8_t>& out, const T& value) {
  const auto* p = reinterpret_cast<const uint8_t*>(&value);
  out.insert(out.end(), p, p + sizeof value);
}

std::string hex(const uint8_t* bytes, size_t n) {
  static const char* digits = "0123456789abcdef";
  std::string s;
  for (size_t i = 0; i < n; ++i) {
    if (i) s += ' ';
    s += digits[bytes[i] >> 4];
    s += digits[bytes[i] & 15];
  }
  return s;
}

}  // namespace

void probe_store(const std::string& host, int port, int rank, std::chrono::milliseconds timeout) {
  const std::string where = host + ":" + std::to_string(port);
  auto fail = [&](const std::string& what) {
    throw Error("distributed: rank " + std::to_string(rank) + ": the rendezvous store at " + where +
                " (MASTER_ADDR:MASTER_PORT) " + what);
  };
  const Clock::time_point deadline = Clock::now() + timeout;
  std::ostringstream limit;
  limit << "the timeout (" << static_cast<double>(timeout.count()) / 1000
        << " s, NARDY_DIST_TIMEOUT)";

  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  if (const int rc = ::getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &found))
    fail(std::string("cannot be resolved: ") + ::gai_strerror(rc));
  std::unique_ptr<addrinfo, void (*)(addrinfo*)> addresses(found, ::freeaddrinfo);

  int fd = -1;
  std::string why = "no address";
  while (fd < 0) {
    bool retryable = false;
    for (const addrinfo* ai = addresses.get(); ai && fd < 0; ai = ai->ai_next)
      fd = connect_once(ai, deadline, why, retryable);
    if (fd >= 0) break;
    if (!retryable || remaining_ms(deadline) == 0)
      fail("did not accept a connection within " + limit.str() + ": " + why);
    std::this_thread::sleep_for(std::chrono::milliseconds(std::min(100, remaining_ms(deadline))));
  }
  Socket socket(fd);

  const std::string key = "nardy-probe/rank" + std::to_string(rank);
  std::vector<uint8_t> query;
  append(query, kAddQuery);
  append(query, static_cast<uint64_t>(key.size()));
  query.insert(query.end(), key.begin(), key.end());
  append(query, kProbeDelta);
  if (!send_all(fd, query, deadline)) fail("accepted the connection but not a query");

  uint8_t answer[sizeof(int64_t)];
  size_t got = 0;
  while (got < sizeof answer) {
    if (!wait_for(fd, POLLIN, deadline))
      fail("accepted the connection but sent no answer within " + limit.str() +
           ": is another program listening on MASTER_PORT?");
    const ssize_t n = ::recv(fd, answer + got, sizeof answer - got, 0);
    if (n < 0 && (errno == EAGAIN || errno == EINTR)) continue;
    if (n <= 0)
      fail("closed the connection after " + std::to_string(got) +
           " bytes of an answer: not a c10d TCPStore (is another program listening on "
           "MASTER_PORT?)");
    got += static_cast<size_t>(n);
  }
  int64_t value;
  std::memcpy(&value, answer, sizeof value);
  if (value <= 0 || value % kProbeDelta != 0)
    fail("answered with bytes that are not a c10d TCPStore's (" + hex(answer, sizeof answer) +
         "): is another program listening on MASTER_PORT?");
}

}  // namespace nardy
