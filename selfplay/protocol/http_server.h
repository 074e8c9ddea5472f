// selfplay/protocol/http_server.h — serving an HttpApi over HTTP (`nardy serve`).
//
// A cpp-httplib server (Debian's libcpp-httplib-dev) that hands every GET to HttpApi::handle
// with the decoded query parameters. Other methods get 405, requests the library cannot parse
// 400, bodies over 64 KiB 413, all with a JSON {"error": ...} body; slow clients time out after
// 5 s. Bind to 127.0.0.1 (the default of `nardy serve`) unless the board should be reachable
// from other machines: the API has no authentication.
#pragma once

#include <memory>
#include <string>

#include "selfplay/protocol/http_api.h"

namespace httplib {
class Server;
}

namespace nardy {

struct HttpServerOptions {
  std::string host = "127.0.0.1";
  int port = 8080;  // 0: any free port (see port())
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
