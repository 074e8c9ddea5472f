// probe_store (selfplay/distributed/store_probe.h): what answers at MASTER_PORT must be a c10d
// TCPStore. Junk listeners on 127.0.0.1 (zeros, random bytes, silence, a closed connection, a
// short answer, nothing listening) end in an Error within the timeout; a real store (a rank 0
// hosting it) passes, and so does a rank joining it after the probe; a rank 1 facing junk fails
// at make_world with the probe's error instead of crashing in c10d's client.
#include "selfplay/distributed/store_probe.h"

#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "core/error.h"
#include "tests/selfplay/distributed/local_ranks.h"
#include "tests/support/error_of.h"

namespace nardy {
namespace {

using std::chrono::milliseconds;
using testing::error_of;
using Clock = std::chrono::steady_clock;

// A listener on 127.0.0.1 that treats every connection with `serve(fd)` (then closes it), on a
// thread of its own, until destroyed.
class JunkListener {
 public:
  explicit JunkListener(std::function<void(int)> serve) : serve_(std::move(serve)) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    int yes = 1;
    ::setsockopt(fd_, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof addr;
    if (::bind(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
        ::listen(fd_, 16) != 0 || ::getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &len) != 0)
      throw std::runtime_error("JunkListener: cannot listen");
    port_ = ntohs(addr.sin_port);
    thread_ = std::thread([this] {
      for (;;) {
        const int c = ::accept(fd_, nullptr, nullptr);
        if (c < 0 || stop_) {
          if (c >= 0) ::close(c);
          return;
        }
        serve_(c);
        ::close(c);
      }
    });
  }
  ~JunkListener() {
    stop_ = true;
    ::shutdown(fd_, SHUT_RDWR);
    ::close(fd_);
    thread_.join();
  }
  int port() const { return port_; }

 private:
  std::function<void(int)> serve_;
  int fd_ = -1, port_ = 0;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

void send_bytes(int fd, const std::vector<uint8_t>& bytes) {
  (void)::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
}

// Reads what the probe sends (so that the answer comes after the query).
void read_some(int fd) {
  char buf[256];
  (void)::recv(fd, buf, sizeof buf, 0);
}

void wait_while_open(int fd, milliseconds at_most) {
  timeval tv{static_cast<time_t>(at_most.count() / 1000),
             static_cast<suseconds_t>(at_most.count() % 1000 * 1000)};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  char buf[256];
  while (::recv(fd, buf, sizeof buf, 0) > 0) {
  }
}

// The probe's error against `serve`, and how long it took.
std::pair<std::string, double> probe_error(const std::function<void(int)>& serve,
                                           milliseconds timeout) {
  JunkListener junk(serve);
  const auto start = Clock::now();
  const std::string msg = error_of([&] { probe_store("127.0.0.1", junk.port(), 1, timeout); });
  return {msg, std::chrono::duration<double>(Clock::now() - start).count()};
}

TEST(StoreProbe, JunkAnswersAreRefusedNamingTheAddress) {
  std::mt19937 rng(20261202);
  std::vector<uint8_t> random_bytes(64);
  for (auto& b : random_bytes) b = static_cast<uint8_t>(rng());
  const std::vector<std::pair<std::string, std::function<void(int)>>> cases = {
      {"64 zero bytes",
       [](int fd) {
         send_bytes(fd, std::vector<uint8_t>(64, 0));
         wait_while_open(fd, milliseconds(2000));
       }},
      {"64 zero bytes after the query",
       [](int fd) {
         read_some(fd);
         send_bytes(fd, std::vector<uint8_t>(64, 0));
         wait_while_open(fd, milliseconds(2000));
       }},
      {"random bytes",
       [&](int fd) {
         read_some(fd);
         send_bytes(fd, random_bytes);
         wait_while_open(fd, milliseconds(2000));
       }},
      {"an HTTP answer",
       [](int fd) {
         read_some(fd);
         const std::string http = "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n";
         send_bytes(fd, std::vector<uint8_t>(http.begin(), http.end()));
       }},
      {"a short answer then close",
       [](int fd) {
         read_some(fd);
         send_bytes(fd, {1, 2, 3});
       }},
      {"a closed connection", [](int) {}},
  };
  for (const auto& [what, serve] : cases) {
    const auto [msg, seconds] = probe_error(serve, milliseconds(3000));
    EXPECT_NE(msg.find("the rendezvous store at 127.0.0.1:"), std::string::npos)
        << what << ": " << msg;
    EXPECT_NE(msg.find("MASTER_PORT"), std::string::npos) << what << ": " << msg;
    EXPECT_LT(seconds, 2.5) << what << ": an answer should be judged at once";
  }
}

TEST(StoreProbe, SilenceAndNoListenerEndAtTheTimeout) {
  const auto [silent, seconds] =
      probe_error([](int fd) { wait_while_open(fd, milliseconds(3000)); }, milliseconds(400));
  EXPECT_NE(silent.find("sent no answer within the timeout"), std::string::npos) << silent;
  EXPECT_GE(seconds, 0.35);
  EXPECT_LT(seconds, 2.0);

  const int port = testing::free_port();  // nothing listens there
  const auto start = Clock::now();
  const std::string refused =
      error_of([&] { probe_store("127.0.0.1", port, 1, milliseconds(400)); });
  EXPECT_NE(refused.find("did not accept a connection within the timeout"), std::string::npos)
      << refused;
  EXPECT_LT(std::chrono::duration<double>(Clock::now() - start).count(), 2.0);
  EXPECT_NE(error_of([] {
              probe_store("no-such-host.invalid", 1, 1, milliseconds(400));
            }).find("cannot be resolved"),
            std::string::npos);
}

TEST(StoreProbe, AStoreThatAnswersAMultipleOfTheDeltaPasses) {
  // What a TCPStore answers to ADD: the key's new value.
  for (int64_t times : {1, 3}) {
    JunkListener store([times](int fd) {
      read_some(fd);
      const int64_t value = times * kProbeDelta;
      std::vector<uint8_t> bytes(sizeof value);
      std::memcpy(bytes.data(), &value, sizeof value);
      send_bytes(fd, bytes);
    });
    EXPECT_NO_THROW(probe_store("127.0.0.1", store.port(), 2, milliseconds(2000)));
  }
}

TEST(StoreProbe, ARealStorePassesAndItsWorldWorks) {
  // Two ranks of a real Gloo world: rank 1 probes rank 0's TCPStore before joining it (the
  // probe key does not disturb the world's own keys).
  const std::vector<int> sizes = testing::on_local_ranks<int>(
      2,
      [](World& world) {
        auto got = world.all_gather_bytes(std::string(1, static_cast<char>('a' + world.rank())));
        return static_cast<int>(got.size() == 2 && got[0] == "a" && got[1] == "b");
      },
      30);
  EXPECT_EQ(sizes, (std::vector<int>{1, 1}));
}

TEST(StoreProbe, ARankFacingJunkOnMasterPortFailsWithinTheTimeout) {
  JunkListener junk([](int fd) {
    send_bytes(fd, std::vector<uint8_t>(64, 0));
    wait_while_open(fd, milliseconds(5000));
  });
  const auto start = Clock::now();
  const std::string msg = error_of([&] { make_world(testing::local_env(1, 2, junk.port(), 3)); });
  EXPECT_NE(msg.find("not a c10d TCPStore"), std::string::npos) << msg;
  EXPECT_LT(std::chrono::duration<double>(Clock::now() - start).count(), 3.5);
}

}  // namespace
}  // namespace nardy
