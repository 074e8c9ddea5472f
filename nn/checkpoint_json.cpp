// nn/checkpoint_json.cpp — see checkpoint_json.h.
#include "nn/checkpoint_json.h"

#include <zlib.h>

#include <cstdio>
#include <nlohmann/json.hpp>

#include "core/error.h"
#include "core/version.h"
#include "core/printable.h"

namespace nardy {
namespace {

using Json = nlohmann::json;

constexpr const char* kFormat = "nardy-value-net";

std::string crc_text(uLong crc) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%08lx", crc & 0xffffffffUL);
  return std::string("crc32:") + buf;
}

uLong crc_bytes(uLong crc, const void* data, size_t n) {
  const auto* p = static_cast<const Bytef*>(data);
  while (n > 0) {  // zlib's length is a uInt
    const uInt chunk = n > (1u << 30) ? (1u << 30) : static_cast<uInt>(n);
    crc = crc32(crc, p, chunk);
    p += chunk;
    n -= chunk;
  }
  return crc;
}

std::string metadata_checksum_of(Json j) {
  j.erase("checksums");
  const std::string text = j.dump();
  return crc_text(crc_bytes(crc32(0L, Z_NULL, 0), text.data(), text.size()));
}

}  // namespace

NetShape checked_shape(const NetShape& shape, const std::string& context) {
  NetShape s = shape;
  try {
    s.encoder = encoder_by_name(shape.encoder).id();
  } catch (const Error& e) {
    throw Error(context + ": " + e.what());
  }
  if (s.hidden.empty() || s.hidden.size() > static_cast<size_t>(kMaxHiddenLayers))
    throw Error(context + ": " + std::to_string(s.hidden.size()) + " hidden layers (expected 1.." +
                std::to_string(kMaxHiddenLayers) + ")");
  for (int h : s.hidden)
    if (h < 1 || h > kMaxHiddenUnits)
      throw Error(context + ": hidden layer of " + std::to_string(h) + " units (expected 1.." +
                  std::to_string(kMaxHiddenUnits) + ")");
  if (s.num_outputs != 3 && s.num_outputs != 4)
    throw Error(context + ": " + std::to_string(s.num_outputs) +
                " outputs (expected 3, or 4 for rules with last_roll_draw)");
  return s;
}

ArchiveChecksum::ArchiveChecksum() : crc_(crc32(0L, Z_NULL, 0)) {}

void ArchiveChecksum::add(std::string_view name, const void* data, size_t size) {
  crc_ = crc_bytes(crc_, name.data(), name.size());
  const unsigned char sep = 0;
  crc_ = crc_bytes(crc_, &sep, 1);
  unsigned char le[8];
  for (int i = 0; i < 8; ++i)
    le[i] = static_cast<unsigned char>(static_cast<uint64_t>(size) >> (8 * i));
  crc_ = crc_bytes(crc_, le, 8);
  crc_ = crc_bytes(crc_, data, size);
}

std::string ArchiveChecksum::text() const {
  return crc_text(crc_);
}

std::string parameters_checksum(const std::vector<ValueNet::LayerView>& layers) {
  static_assert(sizeof(float) == 4);
  uLong crc = crc32(0L, Z_NULL, 0);
  for (const auto& l : layers) {
    crc = crc_bytes(crc, l.weight, static_cast<size_t>(l.in) * l.out * sizeof(float));
    crc = crc_bytes(crc, l.bias, static_cast<size_t>(l.out) * sizeof(float));
  }
  return crc_text(crc);
}

std::string metadata_checksum(std::string_view json_text) {
  Json j = Json::parse(json_text, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object()) throw Error("metadata checksum: not a JSON object");
  return metadata_checksum_of(std::move(j));
}

std::string checkpoint_json(const NetShape& shape, const CheckpointInfo& info,
                            const std::vector<ValueNet::LayerView>& layers,
                            const std::string& archive_checksum) {
  Json j;
  j["format"] = kFormat;
  j["format_version"] = kCheckpointFormatVersion;
  j["encoder"] = shape.encoder;
  j["num_inputs"] = encoder_by_name(shape.encoder).num_inputs();
  j["hidden"] = shape.hidden;
  j["activation"] = activation_name(shape.activation);
  j["num_outputs"] = shape.num_outputs;
  j["forward_columns"] = {"win", "win_mars", "lose_mars", "draw", "equity"};
  j["rules"] = info.rules;
  j["games"] = info.games;
  j["positions"] = info.positions;
  j["config_yaml"] = info.config_yaml;
  j["extra"] = info.extra;
  j["written_by"] =
      std::string("nardy ") + nardy_version() + " (commit " + nardy_git_commit() + ")";
  j["checksums"] = {{"archive", archive_checksum},
                    {"parameters", parameters_checksum(layers)},
                    {"metadata", metadata_checksum_of(j)}};
  return j.dump(2);
}

CheckpointMetadata parse_checkpoint_json(std::string_view text, const std::string& path) {
  const std::string where = "checkpoint " + quote_path(path);
  Json j;
  try {
    j = Json::parse(text);
  } catch (const Json::exception& e) {
    throw Error(where + ": nardy.json is not valid JSON (" + library_error_text(e.what()) + ")");
  }
  if (!j.is_object()) throw Error(where + ": nardy.json is not a JSON object");
  auto field = [&](const char* key) -> const Json& {
    if (!j.contains(key))
      throw Error(where + ": nardy.json lacks the required key \"" + key + "\"");
    return j.at(key);
  };
  // The value of a required key as T; a wrong type names the key and what it holds.
  auto get = [&]<class T>(const char* key, const char* expected, T*) -> T {
    const Json& v = field(key);
    try {
      return v.get<T>();
    } catch (const Json::exception&) {
      throw Error(where + ": nardy.json key \"" + key + "\" is " + printable(v.dump(), 60) +
                  ", expected " + expected);
    }
  };
  CheckpointMetadata meta;
  try {
    const Json& format = field("format");
    if (!format.is_string() || format.get<std::string>() != kFormat)
      throw Error(where + ": nardy.json format check failed: \"format\" is " +
                  printable(format.dump()) + ", expected \"" + kFormat + "\"");
    const Json& version = field("format_version");
    if (!version.is_number_integer() || version.get<int64_t>() != kCheckpointFormatVersion)
      throw Error(where + ": unknown format_version " + printable(version.dump()) +
                  " (this build reads " + std::to_string(kCheckpointFormatVersion) + ")");
    if (j.contains("checksums")) {
      const Json& sums = j.at("checksums");
      bool complete = sums.is_object();
      for (const char* key : {"archive", "parameters", "metadata"})
        complete = complete && sums.contains(key) && sums.at(key).is_string() &&
                   !sums.at(key).get<std::string>().empty();
      if (!complete)
        throw Error(where +
                    ": nardy.json \"checksums\" must hold \"archive\", \"parameters\" "
                    "and \"metadata\" strings, got " +
                    printable(sums.dump(), 200));
      const std::string stored = sums.at("metadata").get<std::string>();
      const std::string actual = metadata_checksum_of(j);
      if (stored != actual)
        throw Error(where +
                    ": metadata checksum check failed (nardy.json was changed or damaged: "
                    "stored " +
                    printable(stored) + ", computed " + actual + ")");
      meta.archive_checksum = sums.at("archive").get<std::string>();
      meta.parameters_checksum = sums.at("parameters").get<std::string>();
    }
    NetShape s;
    s.encoder = get("encoder", "a string", static_cast<std::string*>(nullptr));
    s.hidden = get("hidden", "a list of integers", static_cast<std::vector<int>*>(nullptr));
    s.activation =
        parse_activation(get("activation", "a string", static_cast<std::string*>(nullptr)));
    s.num_outputs = get("num_outputs", "an integer", static_cast<int*>(nullptr));
    s = checked_shape(s, where);
    const int num_inputs = get("num_inputs", "an integer", static_cast<int*>(nullptr));
    if (num_inputs != encoder_by_name(s.encoder).num_inputs())
      throw Error(where + ": num_inputs " + std::to_string(num_inputs) +
                  " does not match encoder " + s.encoder + " (" +
                  std::to_string(encoder_by_name(s.encoder).num_inputs()) + " inputs)");
    CheckpointInfo ci;
    ci.rules = j.value("rules", "");
    ci.games = j.value("games", int64_t{0});
    ci.positions = j.value("positions", int64_t{0});
    ci.config_yaml = j.value("config_yaml", "");
    ci.written_by = j.value("written_by", "");
    if (j.contains("extra")) ci.extra = j.at("extra").get<std::map<std::string, std::string>>();
    meta.shape = s;
    meta.info = ci;
  } catch (const Json::exception& e) {
    throw Error(where + ": bad nardy.json field (" + library_error_text(e.what()) + ")");
  } catch (const Error& e) {
    const std::string msg = e.what();
    if (msg.rfind(where, 0) == 0) throw;
    throw Error(where + ": " + printable(msg, 300));
  }
  return meta;
}

}  // namespace nardy
