// Checkpoint load errors that need a forged file: written here with LibTorch directly (a
// TorchScript archive with missing or edited metadata, or parameters that do not fit it).
#include <gtest/gtest.h>
#include <torch/script.h>

#include <nlohmann/json.hpp>

#include "core/error.h"
#include "nn/value_net.h"
#include "tests/support/error_of.h"
#include "tests/support/temp_dir.h"

namespace nardy {
namespace {

using Json = nlohmann::json;
using testing::error_of;
using testing::TempDir;

// Saves a fresh default net at `path`, then rewrites the archive with `edit` applied to its
// nardy.json (or with no nardy.json at all when `drop` is set).
template <class F>
void forge(const std::string& path, F&& edit, bool drop = false) {
  ValueNet::create(NetShape{}, 1).save(path, {});
  torch::jit::ExtraFilesMap extra{{"nardy.json", ""}};
  torch::jit::Module m = torch::jit::load(path, torch::kCPU, extra);
  Json j = Json::parse(extra["nardy.json"]);
  edit(j);
  if (drop)
    m.save(path);
  else
    m.save(path, {{"nardy.json", j.dump()}});
}

void expect_load_error(const std::string& path, const std::string& reason) {
  const std::string msg = error_of([&] { ValueNet::load(path); });
  EXPECT_NE(msg.find("checkpoint '" + path + "'"), std::string::npos) << msg;
  EXPECT_NE(msg.find(reason), std::string::npos) << msg;
}

TEST(CheckpointLoad, ForgedFileLoadsWhenUnchanged) {
  TempDir dir;
  const std::string path = dir.file("same.pt");
  forge(path, [](Json&) {});
  EXPECT_EQ(ValueNet::load(path).shape(), NetShape{});
}

TEST(CheckpointLoad, MissingMetadata) {
  TempDir dir;
  const std::string path = dir.file("bare.pt");
  forge(
      path, [](Json&) {}, /*drop=*/true);
  expect_load_error(path, "no nardy.json metadata");
}

TEST(CheckpointLoad, UnknownFormatVersion) {
  TempDir dir;
  const std::string path = dir.file("v2.pt");
  forge(path, [](Json& j) { j["format_version"] = 2; });
  expect_load_error(path, "unknown format_version 2 (this build reads 1)");
}

TEST(CheckpointLoad, UnknownEncoder) {
  TempDir dir;
  const std::string path = dir.file("enc.pt");
  forge(path, [](Json& j) { j["encoder"] = "fancy-v9"; });
  expect_load_error(path, "unknown encoder 'fancy-v9' (known: raw-v1, extended-v1)");
}

TEST(CheckpointLoad, ParameterShapeDoesNotMatchMetadata) {
  TempDir dir;
  const std::string path = dir.file("shape.pt");
  forge(path, [](Json& j) { j["hidden"] = {64}; });
  expect_load_error(path, "parameter w0 has shape [197, 128] but the metadata");
  forge(path, [](Json& j) { j["num_outputs"] = 4; });
  expect_load_error(path, "parameter w1 has shape [128, 3]");
  forge(path, [](Json& j) { j["hidden"] = {128, 128}; });
  expect_load_error(path, "parameter w1 has shape [128, 3] but the metadata");
}

TEST(CheckpointLoad, InconsistentOrMalformedMetadata) {
  TempDir dir;
  const std::string path = dir.file("meta.pt");
  forge(path, [](Json& j) { j["num_inputs"] = 215; });
  expect_load_error(path, "num_inputs 215 does not match encoder raw-v1 (197 inputs)");
  forge(path, [](Json& j) { j["activation"] = "gelu"; });
  expect_load_error(path, "unknown activation 'gelu'");
  forge(path, [](Json& j) { j.erase("hidden"); });
  expect_load_error(path, "nardy.json lacks \"hidden\"");
  forge(path, [](Json& j) { j["hidden"] = "wide"; });
  expect_load_error(path, "bad nardy.json field");
}

TEST(CheckpointLoad, MissingParameter) {
  TempDir dir;
  const std::string path = dir.file("partial.pt");
  torch::jit::Module m(c10::QualifiedName("__torch__.Partial"));
  m.register_parameter("w0", torch::zeros({197, 128}), false);
  m.register_parameter("b0", torch::zeros({128}), false);
  ValueNet net = ValueNet::create(NetShape{}, 1);
  torch::jit::ExtraFilesMap extra{{"nardy.json", ""}};
  net.save(path, {});
  torch::jit::load(path, torch::kCPU, extra);
  m.save(path, extra);
  expect_load_error(path, "parameter w1 is missing");
}

}  // namespace
}  // namespace nardy
