#include "selfplay/training/label_file.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/error.h"
#include "core/position_id.h"

namespace nardy {
namespace {

constexpr char kMagic[] = "nardy-labels";

void put_u32(std::string& out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
}
uint32_t get_u32(const unsigned char* p) {
  return uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 | uint32_t{p[3]} << 24;
}
void put_f32(std::string& out, float f) {
  uint32_t v;
  std::memcpy(&v, &f, 4);
  put_u32(out, v);
}
float get_f32(const unsigned char* p) {
  const uint32_t v = get_u32(p);
  float f;
  std::memcpy(&f, &v, 4);
  return f;
}

}  // namespace

std::string label_source_name(uint8_t source) {
  if (source <= 4) return std::to_string(source) + "-ply";
  if (source == static_cast<uint8_t>(LabelSource::Rollout)) return "rollout";
  if (source == static_cast<uint8_t>(LabelSource::RaceTable)) return "race table";
  char buf[32];
  std::snprintf(buf, sizeof buf, "source 0x%02x", source);
  return buf;
}

std::string LabelHeader::get(const std::string& key) const {
  for (const auto& [k, v] : fields)
    if (k == key) return v;
  return "";
}

std::string LabelHeader::to_text() const {
  std::string s = std::string(kMagic) + " " + std::to_string(kLabelFormatVersion) + "\n";
  for (const auto& [k, v] : fields) s += k + " " + v + "\n";
  return s + "end\n";
}

std::string check_label_target(const Evaluation& t) {
  const float v[4] = {t.win, t.win_mars, t.lose_mars, t.draw};
  for (float x : v)
    if (!std::isfinite(x) || x < -1e-5f || x > 1 + 1e-5f)
      return "a probability outside [0, 1] or not finite";
  const float tol = 1e-4f;
  if (t.win + t.draw > 1 + tol) return "win + draw above 1";
  if (t.win_mars > t.win + tol) return "win_mars above win";
  if (t.lose_mars > t.lose() + tol) return "lose_mars above lose";
  return "";
}

void append_label_record(std::string& out, const LabelRecord& r, bool end_of_game) {
  const std::string id = end_of_game ? std::string(14, '\0') : position_id(r.position);
  if (id.size() != 14) throw Error("label record: position id of unexpected length");
  out += id;
  out.push_back(static_cast<char>(end_of_game ? 1 : r.sibling ? 2 : 0));
  out.push_back(static_cast<char>(end_of_game ? 0 : r.source));
  put_u32(out, r.game);
  const Evaluation t = end_of_game ? Evaluation{0, 0, 0, 0} : r.target;
  for (float f : {t.win, t.win_mars, t.lose_mars, t.draw}) put_f32(out, f);
}

LabelFile read_label_file(const std::string& path) {
  const std::string where = "label file '" + path + "'";
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) throw Error(where + ": cannot open it for reading");
  if (!std::filesystem::is_regular_file(path, ec)) throw Error(where + ": not a regular file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(where + ": cannot open it for reading");
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string data = ss.str();
  LabelFile f;
  // Header lines.
  size_t at = 0;
  auto next_line = [&](std::string& line) {
    const size_t nl = data.find('\n', at);
    if (nl == std::string::npos || nl - at > 4096) return false;
    line = data.substr(at, nl - at);
    at = nl + 1;
    return true;
  };
  std::string line;
  if (!next_line(line) || line.rfind(std::string(kMagic) + " ", 0) != 0)
    throw Error(where + ": not a label file (expected a first line 'nardy-labels " +
                std::to_string(kLabelFormatVersion) + "')");
  const std::string version = line.substr(std::strlen(kMagic) + 1);
  if (version != std::to_string(kLabelFormatVersion))
    throw Error(where + ": format version '" + version + "' is not supported (this build reads " +
                std::to_string(kLabelFormatVersion) + ")");
  for (int n = 0;; ++n) {
    if (n > 1000 || !next_line(line)) throw Error(where + ": the header has no 'end' line");
    if (line == "end") break;
    const size_t sp = line.find(' ');
    if (sp == 0 || sp == std::string::npos)
      throw Error(where + ": header line " + std::to_string(n + 2) + " '" + line +
                  "' is not 'KEY VALUE'");
    f.header.fields.emplace_back(line.substr(0, sp), line.substr(sp + 1));
  }
  // Records.
  const size_t body = data.size() - at;
  const size_t count = body / kLabelRecordBytes;
  if (body % kLabelRecordBytes != 0 && count == 0 && body > 0)
    throw Error(where + ": " + std::to_string(body) + " bytes after the header, less than one " +
                std::to_string(kLabelRecordBytes) + "-byte record");
  f.complete_bytes = at;
  std::vector<LabelRecord> pending;
  int64_t last_game = -1;
  for (size_t i = 0; i < count; ++i) {
    const auto* p =
        reinterpret_cast<const unsigned char*>(data.data() + at + i * kLabelRecordBytes);
    const std::string rec = "record " + std::to_string(i);
    const uint8_t kind = p[14];
    LabelRecord r;
    r.source = p[15];
    r.game = get_u32(p + 16);
    if (static_cast<int64_t>(r.game) <= last_game ||
        (!pending.empty() && pending.back().game != r.game))
      throw Error(where + ": " + rec + ": game " + std::to_string(r.game) + " after game " +
                  std::to_string(pending.empty() ? last_game : int64_t{pending.back().game}) +
                  " (expected each game's positions, then its end record, games in increasing "
                  "order)");
    if (kind == 1) {
      for (auto& q : pending) f.records.push_back(std::move(q));
      pending.clear();
      last_game = r.game;
      ++f.games;
      f.complete_bytes = at + (i + 1) * kLabelRecordBytes;
      continue;
    }
    if (kind != 0 && kind != 2)
      throw Error(where + ": " + rec + ": unknown kind " + std::to_string(kind));
    r.sibling = kind == 2;
    if (r.sibling && pending.empty())
      throw Error(where + ": " + rec +
                  ": a sibling record (kind 2) must follow a position of the same game");
    try {
      r.position = parse_position_id(std::string_view(reinterpret_cast<const char*>(p), 14));
    } catch (const Error& e) {
      throw Error(where + ": " + rec + ": " + e.what());
    }
    r.target = Evaluation{get_f32(p + 20), get_f32(p + 24), get_f32(p + 28), get_f32(p + 32)};
    if (const std::string bad = check_label_target(r.target); !bad.empty())
      throw Error(where + ": " + rec + ": bad target (" + bad + ")");
    pending.push_back(r);
  }
  f.partial_records = static_cast<int64_t>(pending.size());
  return f;
}

}  // namespace nardy
