// selfplay/protocol/http_server.h — serving an HttpApi over HTTP (`nardy serve`).
//
// A cpp-httplib server (Debian's libcpp-httplib-dev) that hands every GET to HttpApi::handle
// with the decoded query parameters. Other methods get 405, requests the library cannot parse
// 400, bodies over 64 KiB 413, all with a JSON {"error": ...} body; slow clients time out after
// 5 s. Bind to 127.0.0.1 (the default of `nardy serve`) unless the board should be reachable
// from other machines: the API has no authentication.
#pragma once

#include <functional>
#include <string>

#include "selfplay/protocol/http_api.h"

namespace nardy {

struct HttpServerOptions {
  std::string host = "127.0.0.1";
  int port = 8080;  // 0: any free port (reported to on_listening)
};

// Serves until the process is stopped. Calls `on_listening(port)` once the socket is bound.
// Throws Error if the address cannot be bound.
void serve_http(HttpApi& api, const HttpServerOptions& options,
                const std::function<void(int port)>& on_listening);

}  // namespace nardy
