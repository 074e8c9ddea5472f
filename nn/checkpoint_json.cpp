#include "nn/checkpoint_json.h"

#include <nlohmann/json.hpp>

#include "core/error.h"

namespace nardy {
namespace {

using Json = nlohmann::json;

constexpr int kMaxHiddenLayers = 16;
constexpr int kMaxUnits = 65536;

}  // namespace

NetShape checked_shape(const NetShape& shape, const std::string& context) {
  NetShape s = shape;
  try {
    s.encoder = encoder_by_name(shape.encoder).id();
  } catch (const Error& e) {
    throw Error(context + ": " + e.what());
  }
  if (s.hidden.size() > static_cast<size_t>(kMaxHiddenLayers))
    throw Error(context + ": " + std::to_string(s.hidden.size()) + " hidden layers (at most " +
                std::to_string(kMaxHiddenLayers) + ")");
  for (int h : s.hidden)
    if (h < 1 || h > kMaxUnits)
      throw Error(context + ": hidden layer of " + std::to_string(h) + " units (expected 1.." +
                  std::to_string(kMaxUnits) + ")");
  if (s.num_outputs != 3 && s.num_outputs != 4)
    throw Error(context + ": " + std::to_string(s.num_outputs) +
                " outputs (expected 3, or 4 for rules with last_roll_draw)");
  return s;
}

std::string checkpoint_json(const NetShape& shape, const CheckpointInfo& info) {
  Json j;
  j["format"] = "nardy-value-net";
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
  return j.dump(2);
}

void parse_checkpoint_json(std::string_view text, const std::string& path, NetShape& shape,
                           CheckpointInfo& info) {
  const std::string where = "checkpoint '" + path + "'";
  Json j;
  try {
    j = Json::parse(text);
  } catch (const Json::exception& e) {
    throw Error(where + ": nardy.json is not valid JSON (" + e.what() + ")");
  }
  if (!j.is_object()) throw Error(where + ": nardy.json is not a JSON object");
  auto field = [&](const char* key) -> const Json& {
    if (!j.contains(key)) throw Error(where + ": nardy.json lacks \"" + key + "\"");
    return j.at(key);
  };
  try {
    const Json& version = field("format_version");
    if (!version.is_number_integer() || version.get<int>() != kCheckpointFormatVersion)
      throw Error(where + ": unknown format_version " + version.dump() + " (this build reads " +
                  std::to_string(kCheckpointFormatVersion) + ")");
    NetShape s;
    s.encoder = field("encoder").get<std::string>();
    s.hidden = field("hidden").get<std::vector<int>>();
    s.activation = parse_activation(field("activation").get<std::string>());
    s.num_outputs = field("num_outputs").get<int>();
    s = checked_shape(s, where);
    const int num_inputs = field("num_inputs").get<int>();
    if (num_inputs != encoder_by_name(s.encoder).num_inputs())
      throw Error(where + ": num_inputs " + std::to_string(num_inputs) +
                  " does not match encoder " + s.encoder + " (" +
                  std::to_string(encoder_by_name(s.encoder).num_inputs()) + " inputs)");
    CheckpointInfo ci;
    ci.rules = j.value("rules", "");
    ci.games = j.value("games", int64_t{0});
    ci.positions = j.value("positions", int64_t{0});
    ci.config_yaml = j.value("config_yaml", "");
    if (j.contains("extra")) ci.extra = j.at("extra").get<std::map<std::string, std::string>>();
    shape = s;
    info = ci;
  } catch (const Json::exception& e) {
    throw Error(where + ": bad nardy.json field (" + e.what() + ")");
  } catch (const Error& e) {
    const std::string msg = e.what();
    if (msg.rfind(where, 0) == 0) throw;
    throw Error(where + ": " + msg);
  }
}

}  // namespace nardy
