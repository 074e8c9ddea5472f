// selfplay/search/shipped_models.h — the models that ship with nardy (models/ in the repository).
//
// A shipped model is a checkpoint models/NAME.pt, described by its model card in
// models/README.md. Agent specs name one as `model:NAME[:OPTION=VALUE...]` (the options of
// net:, selfplay/search/net_agent.h), and `default[:OPTION=VALUE...]` is the model named by
// kDefaultModel: the strongest one, what `nardy analyze`, `nardy engine`, `nardy play` and
// Python's nardy.load_model() use when no agent is given.
//
// Where models are looked for, in this order (the first folder holding NAME.pt wins):
//   1. $NARDY_MODEL_DIR, when set;
//   2. models/ beside the binary holding this code (the nardy-full executable, or the Python
//      extension: the build copies models/*.pt to build/python/nardy/models, and
//      `pip install .` installs them with the package);
//   3. models/ one folder up from that binary (build/nardy-full -> the repository's models/).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace nardy {

class RaceNet;

// The model `default` stands for.
inline constexpr std::string_view kDefaultModel = "nardy-fit-8";
// The model trained for the rules whose last roll can draw (last_roll_draw=true).
inline constexpr std::string_view kDrawModel = "nardy-draw-2";

// The folders searched, in order (existing or not).
std::vector<std::string> model_search_dirs();

// The checkpoint of model NAME (letters, digits, '.', '_', '-'). Throws Error naming NAME,
// the folders searched and the models that were found when it is missing.
std::string find_model(std::string_view name);

// The names of every model found in the search folders, sorted, without duplicates.
std::vector<std::string> list_models();

// The file name of the shipped race net (selfplay/tables/race_net.h), looked for like a model.
inline constexpr std::string_view kRaceNetFile = "race-net.nrn";
// The first kRaceNetFile in model_search_dirs(), or "" when there is none.
std::string find_race_net_file();
// The race net net agents use: NARDY_RACE_NET's file ("off": none), else find_race_net_file()'s,
// else none; loaded once per process (race_net.h default_race_net). A damaged file is an Error
// naming it.
const RaceNet* default_shipped_race_net();

}  // namespace nardy
