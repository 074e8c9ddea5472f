#include "selfplay/protocol/http_server.h"

#include <httplib.h>
#include <sys/socket.h>

#include "core/error.h"

namespace nardy {

namespace {

void send(httplib::Response& res, const HttpReply& reply) {
  res.status = reply.status;
  res.set_content(reply.body, reply.content_type);
}

}  // namespace

HttpServer::HttpServer(HttpApi& api, const HttpServerOptions& options)
    : server_(std::make_unique<httplib::Server>()) {
  httplib::Server& server = *server_;
  // SO_REUSEADDR only: cpp-httplib's default adds SO_REUSEPORT, which would let a second
  // server bind a port that is in use and silently share its connections.
  server.set_socket_options([](socket_t sock) {
    int yes = 1;
    ::setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  });
  server.set_payload_max_length(64 * 1024);
  server.set_read_timeout(5, 0);
  server.set_write_timeout(5, 0);
  server.Get(".*", [&api](const httplib::Request& req, httplib::Response& res) {
    send(res, api.handle(req.path, req.params));
  });
  server.Post(".*", [&api](const httplib::Request& req, httplib::Response& res) {
    send(res, api.handle("POST", req.path, req.params, req.body));
  });
  auto not_allowed = [](const httplib::Request& req, httplib::Response& res) {
    send(res, HttpApi::error_reply(405, "method " + req.method + " not allowed (use GET or POST)"));
  };
  server.Put(".*", not_allowed);
  server.Delete(".*", not_allowed);
  server.Patch(".*", not_allowed);
  // Requests the library rejects itself (malformed request line or headers, sizes) get the
  // same JSON shape as the API's errors.
  server.set_error_handler([](const httplib::Request&, httplib::Response& res) {
    if (res.body.empty())
      send(res, HttpApi::error_reply(
                    res.status, "bad request (HTTP status " + std::to_string(res.status) + ")"));
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
