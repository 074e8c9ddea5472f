// selfplay/training/label_file.h — labelled positions on disk: what `nardy label` writes and
// `nardy fit` reads.
//
// Format version 1. A text header, then fixed-size binary records (little-endian):
//
//   nardy-labels 1                   magic and version
//   KEY VALUE                        one line per labelling option (LabelHeader::fields:
//   ...                              player, explore, sample, candidates, labeler, rollouts,
//                                    seed, tables, rules; selfplay/training/labeler.h)
//   end                              end of the header
//   RECORD RECORD ...                36 bytes each:
//     char     id[14]      the position (core/position_id.h), side to move about to roll
//     uint8    kind        0 = a labelled position, 1 = the end of game `game` (no position),
//                          2 = a labelled position that is another result of the same roll as
//                          the record before it (a sibling: `nardy label --top`)
//     uint8    source      how the target was made (LabelSource)
//     uint32   game        index of the self-play game it comes from
//     float32  win, win_mars, lose_mars, draw   the target, for the side to move
//
// A file grows one game at a time: a game's positions, then its end record, appended in game
// order. An interrupted writer leaves at most a partial game after the last end record;
// readers ignore it and the labeller truncates it before continuing (resume). Readers check the
// magic, the version, every id, every target (finite, 0 <= win_mars <= win, 0 <= lose_mars <=
// lose, draw in [0, 1]) and the game order, and name the file, the record and the problem.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/position.h"
#include "nn/evaluation.h"

namespace nardy {

inline constexpr int kLabelFormatVersion = 1;
inline constexpr size_t kLabelRecordBytes = 36;

// The source byte of a record.
enum class LabelSource : uint8_t {
  Search0 = 0,  // n-ply search of a net: 0x00 + n (n = 0..4)
  Rollout = 0x10,
  RaceTable = 0x20,  // exact race odds (selfplay/tables/race_odds.h)
};
// "1-ply", "rollout", "race table" or "source 0xNN" for an unknown byte.
std::string label_source_name(uint8_t source);
inline uint8_t search_source(int ply) {
  return static_cast<uint8_t>(static_cast<int>(LabelSource::Search0) + ply);
}

struct LabelRecord {
  Position position;
  uint8_t source = 0;
  uint32_t game = 0;
  Evaluation target;
  bool sibling = false;  // kind 2: a result of the same roll as the record before it
};

// The header's KEY VALUE lines, in order (keys: letters and '_'; values: one line of text).
struct LabelHeader {
  std::vector<std::pair<std::string, std::string>> fields;
  std::string get(const std::string& key) const;  // "" when absent
  std::string to_text() const;                    // the header as written, "end\n" included
};

struct LabelFile {
  LabelHeader header;
  std::vector<LabelRecord> records;  // positions of complete games, in file order
  int64_t games = 0;                 // complete games (end records)
  int64_t partial_records = 0;       // positions after the last end record (ignored)
  size_t complete_bytes = 0;         // file offset just after the last end record
};

// Reads a whole file. Throws Error naming `path` for a missing or unreadable file, a bad
// header, a record that is not a whole 36 bytes, a bad position id or target, or games out of
// order.
LabelFile read_label_file(const std::string& path);

// Encodes one record (kLabelRecordBytes bytes appended to `out`); `end_of_game` writes the
// game's end record (position and target ignored).
void append_label_record(std::string& out, const LabelRecord& r, bool end_of_game = false);

// Checks a target as the reader does; "" when fine, else the problem.
std::string check_label_target(const Evaluation& t);

}  // namespace nardy
