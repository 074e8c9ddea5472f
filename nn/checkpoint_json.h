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
//     "extra": {"key": "value"}       free-form strings
//   }
//
// Readers must reject a format_version they do not know; writers of a new layout bump it.
#pragma once

#include <string>
#include <string_view>

#include "nn/value_net.h"

namespace nardy {

constexpr int kCheckpointFormatVersion = 1;
constexpr const char* kCheckpointMetadataFile = "nardy.json";

// Validates `shape` (known encoder, 0..16 hidden layers of 1..65536 units, 3 or 4 outputs) and
// returns it with the encoder given by its full id. Throws Error naming `context` otherwise.
NetShape checked_shape(const NetShape& shape, const std::string& context);

std::string checkpoint_json(const NetShape& shape, const CheckpointInfo& info);

// Parses and validates the metadata of the checkpoint at `path` (named in every message).
void parse_checkpoint_json(std::string_view text, const std::string& path, NetShape& shape,
                           CheckpointInfo& info);

}  // namespace nardy
