// selfplay/protocol/web_assets.h — the web board's static files, embedded in the binary.
//
// The files of selfplay/protocol/web/ (plain HTML, JavaScript and CSS, no build step) are
// compiled in by embed_web_assets.cmake, so `nardy serve` needs nothing beside the binary.
#pragma once

#include <string_view>
#include <vector>

namespace nardy {

struct WebAsset {
  std::string_view path;          // "/index.html"
  std::string_view content_type;  // "text/html; charset=utf-8"
  std::string_view body;
};

// Every embedded file, sorted by path.
const std::vector<WebAsset>& web_assets();

}  // namespace nardy
