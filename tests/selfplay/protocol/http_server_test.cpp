// `nardy serve`'s HTTP server on a real localhost socket: answers, JSON errors for requests the
// HTTP library rejects, a bounded burst of malformed requests that it survives, Range headers,
// slow clients that neither block others nor stay forever, and concurrent clients.
#include "selfplay/protocol/http_server.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "core/error.h"

namespace nardy {
namespace {

// Sends `request` on a fresh connection and returns the response: once its headers and
// Content-Length bytes of body have arrived, or whatever came before the server closed. With
// `hang_up` the client closes its sending side after the request (a client that goes away).
std::string round_trip(int port, const std::string& request, bool hang_up = false) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  EXPECT_GE(fd, 0);
  timeval tv{10, 0};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  std::string out;
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0) {
    size_t sent = 0;
    while (sent < request.size()) {
      const ssize_t n = ::send(fd, request.data() + sent, request.size() - sent, MSG_NOSIGNAL);
      if (n <= 0) break;
      sent += static_cast<size_t>(n);
    }
    if (hang_up) ::shutdown(fd, SHUT_WR);
    char buf[4096];
    for (ssize_t n; (n = ::recv(fd, buf, sizeof buf, 0)) > 0;) {
      out.append(buf, static_cast<size_t>(n));
      const size_t head = out.find("\r\n\r\n");
      if (head == std::string::npos) continue;
      const size_t cl = out.find("Content-Length: ");
      const size_t length = cl < head ? std::stoul(out.substr(cl + 16)) : 0;
      if (out.size() >= head + 4 + length) break;
    }
  }
  ::close(fd);
  return out;
}

std::string get(int port, const std::string& target) {
  return round_trip(port,
                    "GET " + target + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
}

class HttpServerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    server = std::make_unique<HttpServer>(api, HttpServerOptions{"127.0.0.1", 0});
    thread = std::thread([this] { server->run(); });
  }
  void TearDown() override {
    server->stop();
    thread.join();
  }
  HttpApi api{HttpApiOptions{}};
  std::unique_ptr<HttpServer> server;
  std::thread thread;
};

const std::string kLegalStart =
    "/api/legal?pos=0,0,0,0,0,0,0,0,0,0,0,-15,0,0,0,0,0,0,0,0,0,0,0,15+w&dice=6,5";

TEST_F(HttpServerTest, AnswersJsonAndDecodesTheQuery) {
  const std::string r = get(server->port(), kLegalStart);
  EXPECT_EQ(r.rfind("HTTP/1.1 200", 0), 0u) << r;
  EXPECT_NE(r.find("\"notation\":\"24/13\""), std::string::npos) << r;
  // %20 for the space works as well as '+'.
  const std::string pct = get(
      server->port(), "/api/position?pos=0,0,0,0,0,0,0,0,0,0,0,-15,0,0,0,0,0,0,0,0,0,0,0,15%20w");
  EXPECT_NE(pct.find("\"id\":\"-_PAAAw__BAAAA\""), std::string::npos) << pct;
  const std::string page = get(server->port(), "/");
  EXPECT_NE(page.find("Content-Type: text/html"), std::string::npos);
}

TEST_F(HttpServerTest, ErrorsAreJson) {
  const std::string bad = get(server->port(), "/api/legal?pos=x&dice=6,5");
  EXPECT_EQ(bad.rfind("HTTP/1.1 400", 0), 0u) << bad;
  EXPECT_NE(bad.find("{\"error\":\"pos: "), std::string::npos) << bad;
  const std::string post = round_trip(
      server->port(),
      "POST /api/legal HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nConnection: close\r\n\r\nab");
  EXPECT_EQ(post.rfind("HTTP/1.1 405", 0), 0u) << post;
  EXPECT_NE(post.find("not allowed"), std::string::npos) << post;
  const std::string junk = round_trip(server->port(), "GARBAGE\r\n\r\n");
  EXPECT_EQ(junk.rfind("HTTP/1.1 400", 0), 0u) << junk;
  EXPECT_NE(junk.find("{\"error\":"), std::string::npos) << junk;
}

TEST_F(HttpServerTest, SurvivesABurstOfMalformedRequests) {
  const std::vector<std::string> junk = {
      "GARBAGE\r\n\r\n",
      std::string("\x00\x01\x02\xff\r\n\r\n", 8),
      "GET\r\n\r\n",
      "GET / HTTP/9.9\r\n\r\n",
      "GET /api/legal?pos=%zz%&dice=%%% HTTP/1.1\r\nHost: x\r\n\r\n",
      "GET /" + std::string(20000, 'a') + " HTTP/1.1\r\nHost: x\r\n\r\n",
      "GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + std::string(70000, 'b') + "\r\n\r\n",
      "GET /api/legal HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n",
      "GET /api/steps?pos=-_PAAAw__BAAAA&dice=6,5&played=" + std::string(5000, '/') +
          " HTTP/1.1\r\nHost: x\r\n\r\n",
  };
  // Clients that hang up in the middle of a request.
  const std::vector<std::string> cut = {"GET /api/legal?pos=", "GET / HTTP/1.1\r\nHost:", "G"};
  int answered = 0, sent = 0;
  for (int round = 0; round < 10; ++round) {
    for (const std::string& j : junk) {
      const std::string r = round_trip(server->port(), j);
      ++sent;
      if (r.rfind("HTTP/1.1 4", 0) == 0) ++answered;
    }
    for (const std::string& c : cut) round_trip(server->port(), c, true);
  }
  EXPECT_EQ(answered, sent);  // every complete malformed request gets a 4xx
  // A body over the limit: 413 (after the read timeout of 5 s, so once).
  const std::string big = round_trip(
      server->port(), "POST /api/legal HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999\r\n\r\nabc");
  EXPECT_EQ(big.rfind("HTTP/1.1 413", 0), 0u) << big;
  const std::string after = get(server->port(), kLegalStart);
  EXPECT_EQ(after.rfind("HTTP/1.1 200", 0), 0u) << after;
  EXPECT_NE(after.find("24/13"), std::string::npos);
}

TEST_F(HttpServerTest, RangeHeadersAreIgnoredOrAnsweredAsJson) {
  for (const char* range : {"bytes=100000-", "bytes=0-4", "bytes=-1", "bytes=0-1,9-"}) {
    const std::string r =
        round_trip(server->port(),
                   "GET " + kLegalStart +
                       " HTTP/1.1\r\nHost: x\r\nConnection: close\r\nRange: " + range + "\r\n\r\n");
    EXPECT_EQ(r.rfind("HTTP/1.1 200", 0), 0u) << range << ": " << r;
    EXPECT_NE(r.find("\"notation\":\"24/13\""), std::string::npos) << range << ": " << r;
  }
  // A Range header cpp-httplib cannot parse is refused before the API sees it: JSON as well.
  for (const char* range : {"bytes=zz", "bytes=5-2"}) {
    const std::string bad = round_trip(server->port(),
                                       "GET /api/legal HTTP/1.1\r\nHost: x\r\nConnection: "
                                       "close\r\nRange: " +
                                           std::string(range) + "\r\n\r\n");
    EXPECT_EQ(bad.rfind("HTTP/1.1 416", 0), 0u) << bad;
    EXPECT_NE(bad.find("{\"error\":\"malformed Range header"), std::string::npos) << bad;
  }
}

// A client that sends `request` one byte every `gap`, from its own thread; closed() tells when
// the server has closed the connection.
class SlowClient {
 public:
  SlowClient(int port, std::string request, std::chrono::milliseconds gap) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<uint16_t>(port));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    connected_ = ::connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
    thread_ = std::thread([this, request, gap] {
      for (char c : request) {
        if (stop_ || ::send(fd_, &c, 1, MSG_NOSIGNAL) != 1) break;
        std::this_thread::sleep_for(gap);
      }
      // Wait for the server's verdict (an answer or a close).
      char buf[512];
      timeval tv{0, 100000};
      ::setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
      while (!stop_) {
        const ssize_t n = ::recv(fd_, buf, sizeof buf, 0);
        if (n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK)) break;
      }
      closed_ = true;
    });
  }
  ~SlowClient() {
    stop_ = true;
    thread_.join();
    ::close(fd_);
  }
  bool connected() const { return connected_; }
  bool closed() const { return closed_; }

 private:
  int fd_ = -1;
  bool connected_ = false;
  std::atomic<bool> stop_{false}, closed_{false};
  std::thread thread_;
};

TEST(HttpServer, SlowClientsNeitherStarveOthersNorStayForever) {
  HttpApi api{HttpApiOptions{}};
  HttpServerOptions o{"127.0.0.1", 0};
  o.request_deadline = std::chrono::milliseconds(1500);
  HttpServer server(api, o);
  std::thread run([&] { server.run(); });
  {
    // Twelve clients trickling their headers (more than cpp-httplib's 8 default workers).
    std::vector<std::unique_ptr<SlowClient>> slow;
    for (int i = 0; i < 12; ++i)
      slow.push_back(std::make_unique<SlowClient>(
          server.port(), "GET / HTTP/1.1\r\nHost: localhost\r\nX-Slow: yes\r\n\r\n",
          std::chrono::milliseconds(200)));
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    for (int i = 0; i < 5; ++i) {  // others are served meanwhile
      const std::string r = get(server.port(), kLegalStart);
      EXPECT_EQ(r.rfind("HTTP/1.1 200", 0), 0u) << r;
    }
    int open = 0;
    for (const auto& c : slow) open += c->connected() && !c->closed();
    EXPECT_EQ(open, 12) << "the slow clients should still be sending";
    // The request deadline cuts them off long before their 45 bytes would have arrived (9 s).
    const auto start = std::chrono::steady_clock::now();
    for (const auto& c : slow)
      while (!c->closed() && std::chrono::steady_clock::now() - start < std::chrono::seconds(6))
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    for (const auto& c : slow) EXPECT_TRUE(c->closed());
  }
  server.stop();
  run.join();
}

TEST_F(HttpServerTest, ConcurrentClientsAreAllAnswered) {
  std::atomic<int> ok{0};
  std::vector<std::thread> clients;
  for (int t = 0; t < 16; ++t)
    clients.emplace_back([&] {
      for (int i = 0; i < 25; ++i)
        ok += get(server->port(), kLegalStart).rfind("HTTP/1.1 200", 0) == 0;
    });
  for (auto& c : clients) c.join();
  EXPECT_EQ(ok.load(), 16 * 25);
}

TEST(HttpServer, ABusyPortIsAnError) {
  HttpApi api{HttpApiOptions{}};
  HttpServer first(api, {"127.0.0.1", 0});
  EXPECT_THROW(HttpServer(api, {"127.0.0.1", first.port()}), Error);
}

}  // namespace
}  // namespace nardy
