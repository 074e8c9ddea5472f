#include "selfplay/training/fit.h"

#include <charconv>
#include <cstdio>
#include <set>

#include "core/error.h"
#include "core/printable.h"
#include "core/random.h"
#include "core/rules.h"
#include "nn/net_widening.h"
#include "selfplay/training/label_file.h"

namespace nardy {
namespace {

constexpr uint64_t kSplitSalt = 0x73706c6974ULL;  // "split"

bool held_out(uint64_t seed, uint64_t game, double fraction) {
  const uint64_t h = mix_seed(mix_seed(seed ^ kSplitSalt) + game);
  return static_cast<double>(h >> 11) * 0x1.0p-53 < fraction;
}

// What the split hashes for the games of each file (FitRunOptions::split_seed): the file's
// place in the list, or with a split seed its labelling seed, mixed.
std::vector<uint64_t> split_keys(const FitRunOptions& o, const std::vector<LabelFile>& files) {
  std::vector<uint64_t> keys(files.size());
  for (size_t f = 0; f < files.size(); ++f) {
    if (o.split_seed == 0) {
      keys[f] = static_cast<uint64_t>(f) << 32;
      continue;
    }
    const std::string seed = files[f].header.get("seed");
    const std::string here = "fit: label file '" + o.data[f] + "'";
    if (seed.empty())
      throw Error(here + " has no 'seed' in its header, which a split by the files' seeds " +
                  "(--split-seed, fit.holdout_stable) needs");
    uint64_t value = 0;
    const char* end = seed.data() + seed.size();
    const auto [ptr, ec] = std::from_chars(seed.data(), end, value);
    if (ec != std::errc() || ptr != end)
      throw Error(here + ": header 'seed' is '" + seed + "', not an unsigned integer");
    keys[f] = mix_seed(value);
  }
  return keys;
}

}  // namespace

namespace {

FitRunResult fit_here(const FitRunOptions& options,
                      const std::function<void(const FitEpoch&)>& on_epoch,
                      const std::function<void()>& ready) {
  const FitRunOptions& o = options;
  if (!(o.holdout > 0 && o.holdout < 1))
    throw Error("fit: holdout must be in (0, 1), got " + std::to_string(o.holdout));
  if (o.out.empty()) throw Error("fit: no output checkpoint given");
  if (o.data.empty()) throw Error("fit: no label file given");
  if (!o.widen.empty() && o.init.empty())
    throw Error("fit: widening (--widen) needs a net to start from (--init)");
  std::vector<LabelFile> files;
  Rules rules;
  std::string where;  // the files, for messages
  for (const std::string& path : o.data) {
    files.push_back(read_label_file(path));
    const std::string here = "label file '" + path + "'";
    Rules r;
    try {
      r = Rules::parse(files.back().header.get("rules"));
    } catch (const Error& e) {
      throw Error(here + ": header 'rules': " + e.what());
    }
    if (files.size() == 1) {
      rules = r;
      where = here;
    } else {
      if (r.to_string() != rules.to_string())
        throw Error("fit: " + here + " is labelled under rules '" + r.to_string() + "', but '" +
                    o.data.front() + "' under '" + rules.to_string() + "'");
      where = "label files '" + o.data.front() + "' ... '" + path + "'";
    }
  }
  size_t num_records = 0;
  int64_t num_games = 0;
  for (const LabelFile& f : files) {
    num_records += f.records.size();
    num_games += f.games;
  }
  if (num_records == 0) throw Error(where + ": no labelled positions in complete games");
  std::string widened;  // "256 -> 512" when the init was widened
  std::string encoded;  // "extended-v1 -> mobility-v1" when the init was re-encoded
  ValueNet net = [&] {
    if (!o.init.empty()) {
      ValueNet init = ValueNet::load(o.init);
      if (!o.widen.empty() && o.widen != init.shape().hidden) {
        widened = hidden_name(init.shape().hidden) + " -> " + hidden_name(o.widen);
        init = widen_net(init, o.widen, o.net_seed);
      }
      if (!o.encoder.empty()) {
        const std::string from = init.shape().encoder;
        try {
          init = with_encoder(init, o.encoder);
        } catch (const Error& e) {
          throw Error("fit: --init " + quote(o.init) + ": " + e.what());
        }
        if (init.shape().encoder != from) encoded = from + " -> " + init.shape().encoder;
      }
      return init;
    }
    NetShape shape = o.shape;
    shape.num_outputs = value_outputs(rules);
    return ValueNet::create(shape, o.net_seed);
  }();
  if (rules.last_roll_draw && net.shape().num_outputs < 4)
    throw Error("fit: " + where + " is labelled under last_roll_draw=true (draws), but the net '" +
                o.init + "' has no draw output");

  FitRunResult r;
  FitData train, heldout;
  std::set<uint64_t> train_games, heldout_games;
  const int ni = net.num_inputs();
  const std::vector<uint64_t> keys = split_keys(o, files);
  const uint64_t split_seed = o.split_seed ? o.split_seed : o.fit.seed;
  for (size_t f = 0; f < files.size(); ++f) {
    for (const LabelRecord& rec : files[f].records) {
      const bool h = held_out(split_seed, keys[f] + rec.game, o.holdout);
      FitData& d = h ? heldout : train;
      // Counted per file: two files of one labelling seed are other games.
      (h ? heldout_games : train_games).insert(rec.game + (static_cast<uint64_t>(f) << 32));
      d.inputs.resize(d.inputs.size() + static_cast<size_t>(ni));
      net.encoder().fill(rec.position,
                         std::span<float>(d.inputs.data() + d.inputs.size() - ni, ni));
      const auto t = rec.target.as_array();
      d.targets.insert(d.targets.end(), t.begin(), t.end());
      // Sibling groups: a record that is not a sibling starts a new group (ids increase).
      const int64_t group = d.group.empty() ? 0 : d.group.back() + (rec.sibling ? 0 : 1);
      d.group.push_back(group);
    }
  }
  r.train_positions = train.rows();
  r.heldout_positions = heldout.rows();
  r.train_games = static_cast<int64_t>(train_games.size());
  r.heldout_games = static_cast<int64_t>(heldout_games.size());
  if (train.rows() == 0 || heldout.rows() == 0)
    throw Error("fit: " + where + ": " + std::to_string(num_games) + " games give " +
                std::to_string(train.rows()) + " training and " + std::to_string(heldout.rows()) +
                " held-out positions at holdout " + std::to_string(o.holdout) +
                "; label more games or change --holdout");
  FitOptions fit = o.fit;
  if (o.world && o.world->size() > 1) {
    fit.shards = o.world->size();
    fit.shard = o.world->rank();
    World* w = o.world;
    fit.gather = [w](std::span<const float> mine, std::span<float> all) {
      w->all_gather(mine, all);
    };
  }
  if (ready) ready();
  r.fit = fit_value_net(net, train, heldout, fit, on_epoch);

  CheckpointInfo info = net.info();
  info.rules = rules.to_string();
  // The trainer's evaluation of the init describes the init, not the fitted net.
  info.extra.erase("eval");
  info.extra.erase("eval_games");
  // So are the init's own fit's optional entries (the others are overwritten below).
  info.extra.erase("fit.widened");
  info.extra.erase("fit.encoded");
  info.extra.erase("fit.recipe");
  auto put = [&](const std::string& k, const std::string& v) { info.extra["fit." + k] = v; };
  char buf[64];
  std::string data, labelers, rollouts;
  for (size_t f = 0; f < files.size(); ++f) {
    const char* sep = f ? "; " : "";
    data += sep + o.data[f];
    labelers += sep + files[f].header.get("labeler");
    rollouts += sep + files[f].header.get("rollouts");
  }
  put("data", data);
  put("init", o.init.empty() ? "(fresh " + net.shape().encoder + ")" : o.init);
  if (!widened.empty()) put("widened", widened);
  if (!encoded.empty()) put("encoded", encoded);
  put("labeler", labelers);
  put("rollouts", rollouts);
  put("positions", std::to_string(r.train_positions) + " train, " +
                       std::to_string(r.heldout_positions) + " held out");
  put("optimizer", o.fit.optimizer);
  std::snprintf(buf, sizeof buf, "%g", o.fit.lr);
  put("lr", buf);
  if (o.fit.sibling_weight > 0) {
    std::snprintf(buf, sizeof buf, "%g", o.fit.sibling_weight);
    put("sibling_weight", buf);
  }
  if (r.fit.lr_drops > 0) {
    std::snprintf(buf, sizeof buf, "%d x %g", r.fit.lr_drops, o.fit.lr_drop);
    put("lr_drops", buf);
  }
  if (o.split_seed) put("split_seed", std::to_string(o.split_seed));
  put("best_epoch", std::to_string(r.fit.best_epoch));
  std::snprintf(buf, sizeof buf, "%.6f", r.fit.epochs.front().heldout_loss);
  put("heldout_loss_initial", buf);
  std::snprintf(buf, sizeof buf, "%.6f", r.fit.best_heldout());
  put("heldout_loss", buf);
  if (o.world && o.world->size() > 1) info.extra["fit.ranks"] = std::to_string(o.world->size());
  for (const auto& [k, v] : o.extra) info.extra[k] = v;
  if (!o.world || o.world->is_root()) net.save(o.out, info);
  return r;
}

}  // namespace

FitRunResult run_fit(const FitRunOptions& o, const std::function<void(const FitEpoch&)>& on_epoch) {
  if (!o.world || o.world->size() == 1) return fit_here(o, on_epoch, {});
  // Every rank reads and checks the data; they agree that all could (or stop with the first
  // failure) before the first gradient exchange.
  bool agreed = false;
  auto agree = [&](std::exception_ptr error) {
    agreed = true;
    gather_results(*o.world, "", error, "fit");
  };
  try {
    return fit_here(o, on_epoch, [&] { agree(nullptr); });
  } catch (...) {
    if (!agreed) agree(std::current_exception());
    throw;
  }
}

}  // namespace nardy
