// selfplay/protocol/http_server.h — serving an HttpApi over HTTP (`nardy serve`).
//
// A cpp-httplib server (Debian's libcpp-httplib-dev) that hands every GET to HttpApi::handle
// with the decoded query parameters. Other methods get 405, requests the library cannot parse
// 400, bodies over 64 KiB 413, all with a JSON {"error": ...} body; Range headers are ignored.
// Bind to 127.0.0.1 (the default of `nardy serve`) unless the board should be reachable from
// other machines: the API has no authentication.
//
// Slow and idle clients: every connection is served by one of `workers` threads. A request must
// arrive whole (head and body) within `request_deadline` of its first byte, each read waits at
// most `read_timeout`, and an idle keep-alive connection is closed after 5 s; so a client that
// sends one byte a second holds a worker for at most request_deadline, and it takes more than
// `workers` such clients at once to make others wait.
#pragma once

#include <chrono>
#include <memory>
#include <string>

#include "selfplay/protocol/http_api.h"

namespace httplib {
class Server;
}

namespace nardy {

struct HttpServerOptions {
  std::string host = "127.0.0.1";
  int port = 8080;   // 0: any free port (see port())
  int workers = 64;  // connections served at once (1 .. 4096)
  std::chrono::milliseconds read_timeout{5000};
  std::chrono::milliseconds write_timeout{5000};
  std::chrono::milliseconds request_deadline{10000};
};

class HttpServer {
 public:
  // Binds the socket; throws Error if the address cannot be bound. `api` must outlive the
  // server.
  HttpServer(HttpApi& api, const HttpServerOptions& options);
  ~HttpServer();
  int port() const { return port_; }
  // Serves until stop() is called (from another thread).
  void run();
  void stop();

 private:
  std::unique_ptr<httplib::Server> server_;
  int port_ = 0;
};

}  // namespace nardy
