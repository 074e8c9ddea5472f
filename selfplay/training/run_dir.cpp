#include "selfplay/training/run_dir.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/error.h"
#include "core/file_error.h"
#include "core/printable.h"
#include "selfplay/distributed/world_env.h"

namespace nardy {

namespace fs = std::filesystem;
using nlohmann::json;

// ---- RunState ----

std::string RunState::to_json() const {
  json j;
  j["format"] = "nardy-run-state-1";
  j["games_done"] = games_done;
  j["positions"] = positions;
  j["elapsed_s"] = elapsed_s;
  j["checkpoint"] = checkpoint;
  j["best_score"] = best_games >= 0 ? json(best_score) : json(nullptr);
  j["best_games"] = best_games;
  j["latest_eval"] = latest_eval_json.empty() ? json(nullptr) : json::parse(latest_eval_json);
  j["latest_eval_games"] = latest_eval_games;
  j["world_size"] = world_size;
  j["rng"] = "per-game streams from (run.seed, game index); nothing to save";
  return j.dump(2) + "\n";
}

RunState RunState::from_json(std::string_view text, const std::string& source) {
  RunState s;
  try {
    json j = json::parse(text);
    if (j.value("format", "") != "nardy-run-state-1")
      throw Error(source + ": not a nardy run state (format " + quote(j.value("format", "")) + ")");
    // Integers must be JSON integers: nlohmann would convert 1e30 to an unspecified int64.
    auto integer = [&](const char* key, int64_t lo, int64_t hi) -> int64_t {
      const json& v = j.at(key);
      if (!v.is_number_integer())
        throw Error(source + ": damaged run state: " + key + " is " + v.dump() +
                    ", not an integer");
      const int64_t x = v.get<int64_t>();
      if (x < lo || x > hi)
        throw Error(source + ": damaged run state: " + key + " is " + std::to_string(x) +
                    ", outside " + std::to_string(lo) + " .. " + std::to_string(hi));
      return x;
    };
    auto number = [&](const char* key) -> double {
      const json& v = j.at(key);
      if (!v.is_number() || !std::isfinite(v.get<double>()))
        throw Error(source + ": damaged run state: " + key + " is " + v.dump() +
                    ", not a finite number");
      return v.get<double>();
    };
    constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
    s.games_done = integer("games_done", 0, kMax);
    s.positions = integer("positions", 0, kMax);
    s.elapsed_s = number("elapsed_s");
    if (s.elapsed_s < 0)
      throw Error(source + ": damaged run state: elapsed_s is " + j["elapsed_s"].dump() +
                  ", not a number of seconds");
    s.checkpoint = j.at("checkpoint").get<std::string>();
    s.best_games = integer("best_games", -1, s.games_done);
    if (s.best_games >= 0) s.best_score = number("best_score");
    if (j.contains("latest_eval") && !j["latest_eval"].is_null())
      s.latest_eval_json = j["latest_eval"].dump();
    s.latest_eval_games =
        j.contains("latest_eval_games") ? integer("latest_eval_games", -1, s.games_done) : -1;
    s.world_size =
        j.contains("world_size") ? static_cast<int>(integer("world_size", 1, kMaxWorldSize)) : 1;
  } catch (const json::exception& e) {
    throw Error(source + ": damaged run state: " + library_error_text(e.what()));
  }
  // The checkpoint is a file of the run directory, by the name the trainer gives it.
  if (s.checkpoint != RunDir::checkpoint_name(s.games_done))
    throw Error(source + ": damaged run state: checkpoint is " + quote(s.checkpoint) +
                ", expected " + quote(RunDir::checkpoint_name(s.games_done)) +
                " (the checkpoint of games_done)");
  return s;
}

// ---- RunDir ----

void RunDir::require_new(const std::string& path) {
  RunDir d(path);
  const std::string shown = printable_path(path);
  if (path_exists("run directory", d.state_path()))
    throw Error("run directory '" + shown +
                "' already holds a run: continue it with `nardy train --resume " + shown +
                "`, or choose another name (--set run.name=NAME) or delete it");
  if (!d.checkpoint_games().empty())
    throw Error("run directory '" + shown +
                "' holds checkpoints of a run that was stopped before "
                "its state.json was written: continue it with `nardy train --resume " +
                shown +
                "` (it resumes from the newest complete checkpoint), or choose another name "
                "(--set run.name=NAME) or delete it");
}

RunDir RunDir::create(const std::string& path) {
  require_new(path);
  RunDir d(path);
  std::error_code ec;
  fs::create_directories(path, ec);
  if (ec) throw file_error("cannot create run directory", path, ec);
  // Leftovers of an attempt killed before its first checkpoint.
  for (const char* name : {"metrics.jsonl", "latest.pt", "best.pt"}) fs::remove(d.file(name), ec);
  d.remove_stale_temporaries();
  return d;
}

RunDir RunDir::open(const std::string& path) {
  std::string p = path;
  while (p.size() > 1 && p.back() == '/') p.pop_back();
  RunDir d(p);
  if (!is_directory_path("run directory", p))
    throw Error("run directory " + quote_path(p) + " does not exist");
  if (!path_exists("run directory", d.config_path()))
    throw Error("run directory " + quote_path(p) +
                " has no config.yaml (not a nardy run directory)");
  if (!path_exists("run directory", d.state_path()) && d.checkpoint_games().empty())
    throw Error("run directory " + quote_path(p) +
                " has no state.json and no ckpt-*.pt (no checkpoint was completed; start it "
                "afresh)");
  return d;
}

bool RunDir::holds_run(const std::string& path) {
  RunDir d(path);
  return path_exists("run directory", d.state_path()) || !d.checkpoint_games().empty();
}

RunDir RunDir::open_for_resume(const std::string& path) {
  std::string p = path;
  while (p.size() > 1 && p.back() == '/') p.pop_back();
  if (is_directory_path("run directory", p))
    RunDir(p).remove_stale_temporaries();  // also when open() refuses
  return open(p);
}

void RunDir::remove_stale_temporaries() const {
  std::error_code ec;
  std::vector<fs::path> stale;
  for (const auto& entry : fs::directory_iterator(path_, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.size() > 4 && name.compare(name.size() - 4, 4, ".tmp") == 0 &&
        entry.is_regular_file(ec))
      stale.push_back(entry.path());
  }
  for (const auto& f : stale) fs::remove(f, ec);
}

void RunDir::remove_checkpoints_after(int64_t games) const {
  std::error_code ec;
  for (int64_t g : checkpoint_games())
    if (g > games) fs::remove(file(checkpoint_name(g)), ec);
}

std::string RunDir::checkpoint_name(int64_t games) {
  return "ckpt-" + std::to_string(games) + ".pt";
}

RunState RunDir::read_state() const {
  return RunState::from_json(read_file(state_path()), state_path());
}

void RunDir::write_state(const RunState& state) const {
  write_file_atomic(state_path(), state.to_json());
}

std::vector<std::string> RunDir::metrics_lines() const {
  std::vector<std::string> lines;
  std::ifstream in(metrics_path());
  std::string line;
  while (std::getline(in, line))
    if (!line.empty()) lines.push_back(line);
  return lines;
}

void RunDir::append_metrics(const std::string& json_line) const {
  std::string content;
  if (path_exists("metrics file", metrics_path())) content = read_file(metrics_path());
  if (!content.empty() && content.back() != '\n') content += '\n';
  content += json_line;
  content += '\n';
  write_file_atomic(metrics_path(), content);
}

void RunDir::truncate_metrics_after(int64_t games) const {
  if (!path_exists("metrics file", metrics_path())) return;
  std::string kept;
  for (const auto& line : metrics_lines()) {
    try {
      json j = json::parse(line);
      if (j.at("games").get<int64_t>() <= games) kept += line + "\n";
    } catch (const json::exception&) {
    }
  }
  write_file_atomic(metrics_path(), kept);
}

std::vector<int64_t> RunDir::checkpoint_games() const {
  std::vector<int64_t> games;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(path_, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.size() < 9 || name.rfind("ckpt-", 0) != 0 || name.substr(name.size() - 3) != ".pt")
      continue;
    const std::string digits = name.substr(5, name.size() - 8);
    if (digits.empty() || !std::all_of(digits.begin(), digits.end(), ::isdigit)) continue;
    games.push_back(std::stoll(digits));
  }
  std::sort(games.begin(), games.end());
  return games;
}

void RunDir::rotate_checkpoints(int keep_last, int64_t keep) const {
  std::vector<int64_t> games = checkpoint_games();
  if (static_cast<int>(games.size()) <= keep_last) return;
  for (size_t i = 0; i + keep_last < games.size(); ++i) {
    if (games[i] == keep) continue;
    std::error_code ec;
    fs::remove(file(checkpoint_name(games[i])), ec);
  }
}

}  // namespace nardy
