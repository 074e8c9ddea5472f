#include "selfplay/protocol/http_server.h"

#include <httplib.h>

#include "core/error.h"

namespace nardy {

namespace {

void send(httplib::Response& res, const HttpReply& reply) {
  res.status = reply.status;
  res.set_content(reply.body, reply.content_type);
}

}  // namespace

void serve_http(HttpApi& api, const HttpServerOptions& options,
                const std::function<void(int port)>& on_listening) {
  httplib::Server server;
  server.set_payload_max_length(64 * 1024);
  server.set_read_timeout(5, 0);
  server.set_write_timeout(5, 0);
  server.Get(".*", [&api](const httplib::Request& req, httplib::Response& res) {
    send(res, api.handle(req.path, req.params));
  });
  auto not_allowed = [](const httplib::Request& req, httplib::Response& res) {
    send(res, HttpApi::error_reply(405, "method " + req.method + " not allowed (use GET)"));
  };
  server.Post(".*", not_allowed);
  server.Put(".*", not_allowed);
  server.Delete(".*", not_allowed);
  server.Patch(".*", not_allowed);
  // Requests the library rejects itself (malformed request line, headers, sizes) get the same
  // JSON shape as the API's errors.
  server.set_error_handler([](const httplib::Request&, httplib::Response& res) {
    if (res.body.empty())
      send(res, HttpApi::error_reply(
                    res.status, "bad request (HTTP status " + std::to_string(res.status) + ")"));
  });
  int port = options.port;
  if (port == 0) {
    port = server.bind_to_any_port(options.host);
    if (port < 0) throw Error("serve: cannot bind to " + options.host + " on any port");
  } else if (!server.bind_to_port(options.host, port)) {
    throw Error("serve: cannot bind to " + options.host + ":" + std::to_string(port) +
                " (address in use or not local?)");
  }
  if (on_listening) on_listening(port);
  if (!server.listen_after_bind()) throw Error("serve: the server stopped with an error");
}

}  // namespace nardy
