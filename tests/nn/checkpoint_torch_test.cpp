// Checkpoint load errors that need a forged file: written here with LibTorch directly (a
// TorchScript archive with missing or edited metadata, or parameters that do not fit it), and
// the checksums of nn/checkpoint_json.h: each failed check is named.
#include <caffe2/serialize/inline_container.h>
#include <gtest/gtest.h>
#include <torch/script.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/error.h"
#include "core/warning.h"
#include "nn/checkpoint_json.h"
#include "nn/value_net.h"
#include "tests/support/error_of.h"
#include "tests/support/temp_dir.h"

namespace nardy {
namespace {

using Json = nlohmann::json;
using testing::error_of;
using testing::TempDir;

// Saves `m` at `path` with metadata `j`, its archive and metadata checksums recomputed as
// ValueNet::save does (so that load() gets past them to the check a test is about).
void save_resealed(torch::jit::Module& m, Json j, const std::string& path) {
  std::stringstream draft;
  m.save(draft, {{"nardy.json", "{}"}});
  caffe2::serialize::PyTorchStreamReader reader(&draft);
  auto names = reader.getAllRecords();
  std::sort(names.begin(), names.end());
  ArchiveChecksum sum;
  for (const auto& name : names) {
    if (name == "extra/nardy.json") continue;
    auto [data, size] = reader.getRecord(name);
    sum.add(name, data.get(), size);
  }
  j["checksums"]["archive"] = sum.text();
  j["checksums"]["metadata"] = metadata_checksum(j.dump());
  m.save(path, {{"nardy.json", j.dump()}});
}

// Saves a fresh default net at `path`, then rewrites the archive with `edit` applied to its
// nardy.json (or with no nardy.json at all when `drop` is set). Unless `reseal` is false the
// metadata checksum is recomputed, so the edit itself is what load() judges.
template <class F>
void forge(const std::string& path, F&& edit, bool drop = false, bool reseal = true) {
  ValueNet::create(NetShape{}, 1).save(path, {});
  torch::jit::ExtraFilesMap extra{{"nardy.json", ""}};
  torch::jit::Module m = torch::jit::load(path, torch::kCPU, extra);
  Json j = Json::parse(extra["nardy.json"]);
  edit(j);
  if (drop)
    m.save(path);
  else if (reseal && j.contains("checksums"))
    save_resealed(m, j, path);
  else
    m.save(path, {{"nardy.json", j.dump()}});
}

void expect_load_error(const std::string& path, const std::string& reason) {
  const std::string msg = error_of([&] { ValueNet::load(path); });
  EXPECT_NE(msg.find("checkpoint '" + path + "'"), std::string::npos) << msg;
  EXPECT_NE(msg.find(reason), std::string::npos) << msg << "\n  expected: " << reason;
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
  expect_load_error(path,
                    "unknown encoder 'fancy-v9' (known: raw-v1, extended-v1, mobility-v1, "
                    "reach-v1, zones-v1)");
}

TEST(CheckpointLoad, ParameterShapeDoesNotMatchMetadata) {
  TempDir dir;
  const std::string path = dir.file("shape.pt");
  // Checked on the zip members' sizes, before LibTorch reads them.
  forge(path, [](Json& j) { j["hidden"] = {64}; });
  expect_load_error(path,
                    "parameter w0 (zip member data/0) holds 100864 bytes but the metadata "
                    "(encoder raw-v1, hidden, outputs) implies shape [197, 64], 50432 bytes");
  forge(path, [](Json& j) { j["num_outputs"] = 4; });
  expect_load_error(path, "parameter w1 (zip member data/2) holds 1536 bytes");
  forge(path, [](Json& j) { j["hidden"] = {128, 128}; });
  expect_load_error(path, "implies shape [128, 128], 65536 bytes");
}

TEST(CheckpointLoad, InconsistentOrMalformedMetadata) {
  TempDir dir;
  const std::string path = dir.file("meta.pt");
  forge(path, [](Json& j) { j["num_inputs"] = 215; });
  expect_load_error(path, "num_inputs 215 does not match encoder raw-v1 (197 inputs)");
  forge(path, [](Json& j) { j["activation"] = "gelu"; });
  expect_load_error(path, "unknown activation 'gelu'");
  forge(path, [](Json& j) { j.erase("hidden"); });
  expect_load_error(path, "nardy.json lacks the required key \"hidden\"");
  forge(path, [](Json& j) { j["hidden"] = "wide"; });
  expect_load_error(path, "nardy.json key \"hidden\" is \"wide\", expected a list of integers");
  forge(path, [](Json& j) { j["num_outputs"] = nullptr; });
  expect_load_error(path, "nardy.json key \"num_outputs\" is null, expected an integer");
}

TEST(CheckpointLoad, FormatFieldChecked) {
  TempDir dir;
  const std::string path = dir.file("format.pt");
  forge(path, [](Json& j) { j["format"] = "nardy-value-nex"; });
  expect_load_error(path, "format check failed: \"format\" is \"nardy-value-nex\"");
  forge(path, [](Json& j) { j.erase("format"); });
  expect_load_error(path, "nardy.json lacks the required key \"format\"");
  forge(path, [](Json& j) { j.erase("format_version"); });
  expect_load_error(path, "nardy.json lacks the required key \"format_version\"");
}

TEST(CheckpointLoad, MetadataChecksumCatchesEdits) {
  TempDir dir;
  const std::string path = dir.file("edited.pt");
  // A counter or the rules changed by hand: valid, but not what was saved.
  forge(
      path, [](Json& j) { j["games"] = 123456; }, false, /*reseal=*/false);
  expect_load_error(path, "metadata checksum check failed");
  forge(
      path, [](Json& j) { j["rules"] = "opening=any_roll"; }, false, /*reseal=*/false);
  expect_load_error(path, "metadata checksum check failed");
  forge(
      path, [](Json& j) { j["checksums"].erase("archive"); }, false, /*reseal=*/false);
  expect_load_error(path, "\"checksums\" must hold \"archive\", \"parameters\" and \"metadata\"");
}

TEST(CheckpointLoad, ParameterChecksumCatchesChangedWeights) {
  TempDir dir;
  const std::string path = dir.file("weights.pt");
  ValueNet net = ValueNet::create(NetShape{}, 1);
  net.save(path, {});
  const std::string saved_sum = [&] {
    torch::jit::ExtraFilesMap extra{{"nardy.json", ""}};
    torch::jit::load(path, torch::kCPU, extra);
    return Json::parse(extra["nardy.json"])["checksums"]["parameters"].get<std::string>();
  }();
  // The same metadata with every checksum but the parameters' resealed for other weights: only
  // the parameter check can tell.
  net.layers()[0].weight[5] += 0.25f;
  net.save(path, {});
  torch::jit::ExtraFilesMap extra{{"nardy.json", ""}};
  torch::jit::Module m = torch::jit::load(path, torch::kCPU, extra);
  Json j = Json::parse(extra["nardy.json"]);
  j["checksums"]["parameters"] = saved_sum;
  save_resealed(m, j, path);
  expect_load_error(path, "parameter checksum check failed");
}

TEST(CheckpointLoad, WithoutChecksumsLoadsWithAWarning) {
  TempDir dir;
  const std::string path = dir.file("old.pt");
  forge(path, [](Json& j) { j.erase("checksums"); });
  ::testing::internal::CaptureStderr();
  const ValueNet net = ValueNet::load(path);
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(net.shape(), NetShape{});
  EXPECT_NE(err.find("warning: checkpoint '" + path + "' carries no checksums"), std::string::npos)
      << err;
  // A checkpoint with checksums loads silently.
  ValueNet::create(NetShape{}, 1).save(path, {});
  ::testing::internal::CaptureStderr();
  ValueNet::load(path);
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "");
}

// Issue 14: a damaged nardy.json gave Python NardyError('') (the message carried its invalid
// UTF-8) or a message cut before the reason ("syntax error... (77 more bytes)").
TEST(CheckpointLoad, DamagedMetadataTextIsNamedWithTheReason) {
  TempDir dir;
  const std::string path = dir.file("meta.pt");
  ValueNet::create(NetShape{}, 1).save(path, {});
  torch::jit::ExtraFilesMap extra{{"nardy.json", ""}};
  torch::jit::Module m = torch::jit::load(path, torch::kCPU, extra);
  const std::string json = extra["nardy.json"];
  auto load_with = [&](const std::string& text) {
    m.save(path, {{"nardy.json", text}});
    const std::string msg = error_of([&] { ValueNet::load(path); });
    EXPECT_EQ(printable_message(msg), msg);
    return msg;
  };
  std::string bad_utf8 = json;
  bad_utf8.insert(bad_utf8.find("\"rules\": \"") + 10, "\xff\xfe");
  const std::string utf8 = load_with(bad_utf8);
  EXPECT_EQ(utf8.rfind("checkpoint '" + path + "': nardy.json is not valid JSON (at line ", 0), 0u)
      << utf8;
  const std::string reason =
      "syntax error while parsing value - invalid string: ill-formed UTF-8 byte; last read: "
      "'\"\\xff')";
  EXPECT_EQ(utf8.substr(utf8.size() - std::min(utf8.size(), reason.size())), reason) << utf8;
  const std::string cut = load_with(json.substr(0, json.size() / 2));
  EXPECT_NE(cut.find("nardy.json is not valid JSON (at line"), std::string::npos) << cut;
  EXPECT_NE(cut.find("syntax error while parsing"), std::string::npos) << cut;
  EXPECT_EQ(load_with(""),
            "checkpoint '" + path +
                "': nardy.json is not valid JSON (at line 1, column 1: syntax error while parsing "
                "value - unexpected end of input; expected '[', '{', or a literal)");
  const std::string nul = load_with(std::string("{\"format\": \"") + '\0' + "\x01\"}");
  EXPECT_NE(nul.find("control character U+0000 (NUL) must be escaped"), std::string::npos) << nul;
}

TEST(CheckpointLoad, WithoutChecksumsWarnsThroughTheWarningHandler) {
  TempDir dir;
  const std::string path = dir.file("old.pt");
  forge(path, [](Json& j) { j.erase("checksums"); });
  std::vector<std::string> warnings;
  WarningHandler previous = set_warning_handler([&](WarningKind kind, const std::string& m) {
    EXPECT_EQ(kind, WarningKind::Checkpoint);
    warnings.push_back(m);
  });
  ValueNet::load(path);
  set_warning_handler(previous);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0], "checkpoint '" + path +
                             "' carries no checksums (written before they were stored); loaded "
                             "without an integrity check");
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
  save_resealed(m, Json::parse(extra["nardy.json"]), path);
  expect_load_error(path, "parameter w1 is missing (no zip member data/2)");
}

}  // namespace
}  // namespace nardy
