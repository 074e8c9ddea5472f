// nn/checkpoint_json.h — "nardy.json", the metadata file inside every checkpoint.
//
// A checkpoint is a TorchScript zip (nn/value_net.h) with the extra file "nardy.json":
//
//   {
//     "format": "nardy-value-net",
//     "format_version": 1,
//     "encoder": "raw-v1",            encoder id (nn/encoder.h)
//     "num_inputs": 197,              the encoder's input count
//     "hidden": [128],                hidden layer sizes, input side first
//     "activation": "sigmoid",        sigmoid | tanh | relu
//     "num_outputs": 3,               logits: 3, or 4 with draws (last_roll_draw)
//     "forward_columns": ["win", "win_mars", "lose_mars", "draw", "equity"],
//     "rules": "opening=no_doubles ...",   Rules::to_string() of the training rules
//     "games": 0, "positions": 0,     training counters
//     "config_yaml": "...",           the resolved training config
//     "extra": {"key": "value"},      free-form strings
//     "written_by": "nardy 0.2.0 (commit 1a2b3c4)",   the build that wrote it (from 0.2.0 on)
//     "checksums": {                  integrity, verified on every load
//       "archive": "crc32:...",           CRC-32 (zlib) over every other member of the zip in
//                                         name order: name, NUL, size (8 bytes LE), bytes
//       "parameters": "crc32:1a2b3c4d",   CRC-32 of the parameters' float32 bytes in order
//                                         w0, b0, w1, b1, ... (little-endian)
//       "metadata": "crc32:..."           CRC-32 of this object without "checksums", dumped as
//     }                                   compact JSON with sorted keys (nlohmann's dump())
//   }
//
// Readers check, in this order, and name the failed check in the Error: valid JSON object;
// "format" is "nardy-value-net"; "format_version" is one this build reads; the metadata
// checksum; the required keys (format_version, encoder, num_inputs, hidden, activation,
// num_outputs) and their types and values; then (nn/value_net_torch.cpp) every parameter's
// presence, shape, dtype and stored size, and the parameters' checksum. Checkpoints written
// before checksums existed (no "checksums" key) still load after a warning on stderr; a
// "checksums" object that is present but incomplete is an error. Writers of a new layout bump
// format_version.
#pragma once

#include <string>
#include <string_view>

#include "nn/value_net.h"

namespace nardy {

constexpr int kCheckpointFormatVersion = 1;
constexpr const char* kCheckpointMetadataFile = "nardy.json";

// Validates `shape` (known encoder, 1..kMaxHiddenLayers hidden layers of 1..kMaxHiddenUnits
// units (nn/value_net.h), 3 or 4 outputs) and
// returns it with the encoder given by its full id. Throws Error naming `context` otherwise.
NetShape checked_shape(const NetShape& shape, const std::string& context);

// The archive checksum, fed one zip member at a time in name order (see "checksums" above).
class ArchiveChecksum {
 public:
  ArchiveChecksum();
  void add(std::string_view name, const void* data, size_t size);
  std::string text() const;  // "crc32:xxxxxxxx"

 private:
  unsigned long crc_;
};

// "crc32:xxxxxxxx" of the parameters (see "checksums" above).
std::string parameters_checksum(const std::vector<ValueNet::LayerView>& layers);

// "crc32:xxxxxxxx" of the metadata object `json_text` without its "checksums" key. Throws
// Error if `json_text` is not a JSON object. (Tools that edit nardy.json on purpose re-seal it
// with this.)
std::string metadata_checksum(std::string_view json_text);

// The metadata of a net with these parameters inside an archive whose other members have
// `archive_checksum`, checksums included.
std::string checkpoint_json(const NetShape& shape, const CheckpointInfo& info,
                            const std::vector<ValueNet::LayerView>& layers,
                            const std::string& archive_checksum);

struct CheckpointMetadata {
  NetShape shape;
  CheckpointInfo info;
  // Both empty: written before checksums existed (loaded with a warning).
  std::string archive_checksum;
  std::string parameters_checksum;
};

// Parses and validates the metadata of the checkpoint at `path` (named in every message, with
// the check that failed).
CheckpointMetadata parse_checkpoint_json(std::string_view text, const std::string& path);

}  // namespace nardy
