#include "selfplay/protocol/http_server.h"

#include <arpa/inet.h>
#include <httplib.h>
#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>

#include "core/error.h"

namespace nardy {

namespace {

using Clock = std::chrono::steady_clock;

void send(const httplib::Request& req, httplib::Response& res, const HttpReply& reply) {
  // Range requests are ignored (RFC 9110 §14.2 allows it): every answer is a whole, small
  // document, and cpp-httplib would otherwise answer a range past its end with 416 and no body.
  const_cast<httplib::Request&>(req).ranges.clear();
  res.status = reply.status;
  res.set_content(reply.body, reply.content_type);
}

// A connection's stream with deadlines: each read waits at most the read timeout, and all the
// reads of one request (its head and body) end at the request's deadline, so a client that
// trickles bytes (one a second keeps every per-read timeout happy) is cut off; each write waits
// at most the write timeout. Buffered like cpp-httplib's own socket stream (its line reader
// reads one byte at a time).
class DeadlineStream final : public httplib::Stream {
 public:
  DeadlineStream(socket_t sock, std::chrono::milliseconds read_timeout,
                 std::chrono::milliseconds write_timeout)
      : sock_(sock), read_timeout_(read_timeout), write_timeout_(write_timeout) {}

  void start_request(std::chrono::milliseconds budget) { deadline_ = Clock::now() + budget; }
  bool has_buffered() const { return begin_ < end_; }

  bool is_readable() const override {
    return has_buffered() || wait(POLLIN, std::min(Clock::now() + read_timeout_, deadline_));
  }
  bool is_writable() const override { return wait(POLLOUT, Clock::now() + write_timeout_); }

  ssize_t read(char* ptr, size_t size) override {
    if (!has_buffered()) {
      if (!is_readable()) return -1;
      ssize_t n;
      do n = ::recv(sock_, buffer_, sizeof buffer_, 0);
      while (n < 0 && errno == EINTR);
      if (n <= 0) return n;
      begin_ = 0;
      end_ = static_cast<size_t>(n);
    }
    const size_t n = std::min(size, end_ - begin_);
    std::copy(buffer_ + begin_, buffer_ + begin_ + n, ptr);
    begin_ += n;
    return static_cast<ssize_t>(n);
  }

  using httplib::Stream::write;
  ssize_t write(const char* ptr, size_t size) override {
    if (!is_writable()) return -1;
    ssize_t n;
    do n = ::send(sock_, ptr, size, MSG_NOSIGNAL);
    while (n < 0 && errno == EINTR);
    return n;
  }

  void get_remote_ip_and_port(std::string& ip, int& port) const override {
    address(::getpeername, ip, port);
  }
  void get_local_ip_and_port(std::string& ip, int& port) const override {
    address(::getsockname, ip, port);
  }
  socket_t socket() const override { return sock_; }

 private:
  bool wait(short events, Clock::time_point until) const {
    for (;;) {
      const auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(until - Clock::now()).count();
      if (left <= 0) return false;
      pollfd p{sock_, events, 0};
      const int n = ::poll(&p, 1, static_cast<int>(left));
      if (n > 0) return (p.revents & (events | POLLHUP | POLLERR)) != 0;
      if (n == 0 || errno != EINTR) return false;
    }
  }

  template <class Query>
  void address(Query query, std::string& ip, int& port) const {
    sockaddr_storage addr{};
    socklen_t len = sizeof addr;
    char host[NI_MAXHOST] = "";
    char serv[NI_MAXSERV] = "";
    if (query(sock_, reinterpret_cast<sockaddr*>(&addr), &len) == 0 &&
        ::getnameinfo(reinterpret_cast<sockaddr*>(&addr), len, host, sizeof host, serv, sizeof serv,
                      NI_NUMERICHOST | NI_NUMERICSERV) == 0) {
      ip = host;
      port = std::atoi(serv);
    }
  }

  socket_t sock_;
  std::chrono::milliseconds read_timeout_, write_timeout_;
  Clock::time_point deadline_ = Clock::time_point::max();
  char buffer_[4096];
  size_t begin_ = 0, end_ = 0;
};

}  // namespace

// cpp-httplib's server with its connection loop replaced by one over DeadlineStream (the loop
// is cpp-httplib's keep-alive loop: up to keep_alive_max_count requests per connection, each
// awaited for at most the keep-alive timeout). Overriding the private virtual
// process_and_close_socket is the library's own extension point (its SSL server does it).
class DeadlineHttpServer final : public httplib::Server {
 public:
  explicit DeadlineHttpServer(const HttpServerOptions& o) : options_(o) {
    const size_t workers = static_cast<size_t>(o.workers);
    new_task_queue = [workers] { return new httplib::ThreadPool(workers); };
  }

 private:
  bool process_and_close_socket(socket_t sock) override {
    DeadlineStream stream(sock, options_.read_timeout, options_.write_timeout);
    bool ok = false;
    for (size_t count = keep_alive_max_count_; count > 0 && svr_sock_ != INVALID_SOCKET; --count) {
      // An idle connection waits for its next request at most the keep-alive timeout.
      if (!stream.has_buffered()) {
        pollfd p{sock, POLLIN, 0};
        if (::poll(&p, 1, static_cast<int>(keep_alive_timeout_sec_ * 1000)) <= 0) break;
      }
      stream.start_request(options_.request_deadline);
      bool closed = false;
      ok = process_request(stream, count == 1, closed, nullptr);
      if (!ok || closed) break;
    }
    ::shutdown(sock, SHUT_RDWR);
    ::close(sock);
    return ok;
  }

  HttpServerOptions options_;
};

HttpServer::HttpServer(HttpApi& api, const HttpServerOptions& options)
    : server_(std::make_unique<DeadlineHttpServer>(options)) {
  if (options.workers < 1 || options.workers > 4096)
    throw Error("serve: workers must be 1 .. 4096, got " + std::to_string(options.workers));
  httplib::Server& server = *server_;
  // SO_REUSEADDR only: cpp-httplib's default adds SO_REUSEPORT, which would let a second
  // server bind a port that is in use and silently share its connections.
  server.set_socket_options([](socket_t sock) {
    int yes = 1;
    ::setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  });
  server.set_payload_max_length(64 * 1024);
  server.Get(".*", [&api](const httplib::Request& req, httplib::Response& res) {
    send(req, res, api.handle(req.path, req.params));
  });
  server.Post(".*", [&api](const httplib::Request& req, httplib::Response& res) {
    send(req, res, api.handle("POST", req.path, req.params, req.body));
  });
  auto not_allowed = [](const httplib::Request& req, httplib::Response& res) {
    send(req, res,
         HttpApi::error_reply(405, "method " + req.method + " not allowed (use GET or POST)"));
  };
  server.Put(".*", not_allowed);
  server.Delete(".*", not_allowed);
  server.Patch(".*", not_allowed);
  // Requests the library rejects itself (malformed request line or headers, sizes) get the
  // same JSON shape as the API's errors.
  server.set_error_handler([](const httplib::Request& req, httplib::Response& res) {
    if (!res.body.empty()) return;
    std::string what = "bad request (HTTP status " + std::to_string(res.status) + ")";
    if (res.status == 413) what = "request body over 64 KiB (HTTP status 413)";
    if (res.status == 414) what = "request target too long (HTTP status 414)";
    if (res.status == 416)
      what = "malformed Range header (HTTP status 416; ranges are not served: omit it)";
    send(req, res, HttpApi::error_reply(res.status, what));
  });
  if (options.port == 0) {
    port_ = server.bind_to_any_port(options.host);
    if (port_ < 0) throw Error("serve: cannot bind to " + options.host + " on any port");
  } else if (server.bind_to_port(options.host, options.port)) {
    port_ = options.port;
  } else {
    throw Error("serve: cannot bind to " + options.host + ":" + std::to_string(options.port) +
                " (address in use or not local?)");
  }
}

HttpServer::~HttpServer() = default;

void HttpServer::run() {
  server_->listen_after_bind();
}

void HttpServer::stop() {
  server_->stop();
}

}  // namespace nardy
