#include "selfplay/evaluation/luck_head.h"

#include <zlib.h>

#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <span>
#include <string_view>
#include <type_traits>
#include <nlohmann/json.hpp>

#include "core/error.h"
#include "core/file_error.h"
#include "core/file_io.h"
#include "core/game.h"
#include "core/movegen.h"
#include "core/parallel_for.h"
#include "core/printable.h"
#include "core/random.h"
#include "nn/checkpoint_json.h"
#include "selfplay/search/agent_kinds.h"
#include "selfplay/search/net_agent.h"
#include "selfplay/tables/bearoff_table.h"

namespace nardy {

namespace {

constexpr const char* kMagicLine = "nardy-luck-head 1\n";
constexpr uint64_t kDiceSalt = 0x452821E638D01377ull;
constexpr uint64_t kAgentSalt = 0xBE5466CF34E90C6Cull;
constexpr int64_t kBlockGames = 32;  // games per block of work (fixed: thread-independent data)
constexpr uint8_t kRelu = static_cast<uint8_t>(Activation::Relu);

// The weights of roll r under centring v: 0 = every roll (36ths), 1 = the non-doubles only.
double centring_weight(int v, int r) {
  const WeightedRoll& roll = kDistinctRolls[r];
  if (v == 0) return roll.weight36 / 36.0;
  return roll.dice.is_double() ? 0.0 : roll.weight36 / 30.0;
}

uint32_t crc_of(std::string_view bytes) {
  uLong crc = crc32(0L, Z_NULL, 0);
  crc = crc32(crc, reinterpret_cast<const Bytef*>(bytes.data()), static_cast<uInt>(bytes.size()));
  return static_cast<uint32_t>(crc);
}

std::string crc_text(uint32_t crc) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "crc32:%08x", crc);
  return buf;
}

// The layer sizes of an MLP: in, hidden..., kLuckTargets.
std::vector<int> layer_sizes(const LuckMlp& m) {
  std::vector<int> s{m.num_inputs};
  s.insert(s.end(), m.hidden.begin(), m.hidden.end());
  s.push_back(kLuckTargets);
  return s;
}

}  // namespace

int distinct_roll_index(Dice d) {
  const int hi = d.high(), lo = d.low();
  return hi * (hi - 1) / 2 + (lo - 1);
}

LuckHead::LuckHead(const std::string& encoder, LuckMlp mlp, std::string teacher, const Rules& rules,
                   std::string fit_note)
    : encoder_(&encoder_by_name(encoder)),
      mlp_(std::move(mlp)),
      teacher_(std::move(teacher)),
      fit_note_(std::move(fit_note)),
      rules_(rules),
      kernels_(&fast_kernels(active_simd_path())) {
  if (mlp_.num_inputs != encoder_->num_inputs())
    throw Error("luck head: the network has " + std::to_string(mlp_.num_inputs) +
                " inputs, encoder " + encoder_->id() + " " +
                std::to_string(encoder_->num_inputs()));
  if (mlp_.hidden.empty() || mlp_.hidden.size() > static_cast<size_t>(kMaxKernelUpperLayers))
    throw Error("luck head: 1 to " + std::to_string(kMaxKernelUpperLayers) +
                " hidden layers, got " + std::to_string(mlp_.hidden.size()));
  const std::vector<int> sizes = layer_sizes(mlp_);
  if (mlp_.weight.size() != sizes.size() - 1 || mlp_.bias.size() != sizes.size() - 1)
    throw Error("luck head: " + std::to_string(mlp_.weight.size()) + " layers of weights for " +
                std::to_string(sizes.size() - 1) + " layers");
  for (size_t l = 0; l + 1 < sizes.size(); ++l) {
    if (sizes[l + 1] < 1 || sizes[l + 1] > kMaxHiddenUnits + kLuckTargets)
      throw Error("luck head: a layer of " + std::to_string(sizes[l + 1]) + " units");
    if (mlp_.weight[l].size() != static_cast<size_t>(sizes[l]) * sizes[l + 1] ||
        mlp_.bias[l].size() != static_cast<size_t>(sizes[l + 1]))
      throw Error("luck head: layer " + std::to_string(l) + " has the wrong number of parameters");
    for (float v : mlp_.weight[l])
      if (!std::isfinite(v)) throw Error("luck head: a non-finite weight");
    for (float v : mlp_.bias[l])
      if (!std::isfinite(v)) throw Error("luck head: a non-finite bias");
  }
  for (int h : mlp_.hidden) activations_ += h;
  // Centred output layers, in double.
  const int last = mlp_.hidden.back();
  const std::vector<float>& w = mlp_.weight.back();
  const std::vector<float>& b = mlp_.bias.back();
  for (int v = 0; v < 2; ++v) {
    out_w_[v].assign(kLuckRolls, std::vector<float>(static_cast<size_t>(last) * kLuckOutputs));
    out_b_[v].assign(kLuckRolls, std::vector<float>(kLuckOutputs));
    for (int o = 0; o < kLuckOutputs; ++o) {
      for (int i = 0; i <= last; ++i) {  // i == last: the bias
        auto at = [&](int r) {
          return i < last
                     ? static_cast<double>(w[static_cast<size_t>(i) * kLuckTargets + r * 4 + o])
                     : static_cast<double>(b[static_cast<size_t>(r) * 4 + o]);
        };
        double mean = 0;
        for (int r = 0; r < kLuckRolls; ++r) mean += centring_weight(v, r) * at(r);
        for (int r = 0; r < kLuckRolls; ++r) {
          const float c = static_cast<float>(at(r) - mean);
          if (i < last)
            out_w_[v][static_cast<size_t>(r)][static_cast<size_t>(i) * kLuckOutputs + o] = c;
          else
            out_b_[v][static_cast<size_t>(r)][static_cast<size_t>(o)] = c;
        }
      }
    }
  }
  build_views();
}

LuckHead::LuckHead(const LuckHead& o)
    : encoder_(o.encoder_),
      mlp_(o.mlp_),
      teacher_(o.teacher_),
      fit_note_(o.fit_note_),
      rules_(o.rules_),
      kernels_(o.kernels_),
      activations_(o.activations_) {
  for (int v = 0; v < 2; ++v) {
    out_w_[v] = o.out_w_[v];
    out_b_[v] = o.out_b_[v];
  }
  build_views();
}

void LuckHead::build_views() {
  const int in = mlp_.num_inputs, h1 = mlp_.hidden[0];
  for (int v = 0; v < 2; ++v) {
    first_[v].clear();
    upper_layers_[v].assign(kLuckRolls, {});
    upper_[v].clear();
    for (int r = 0; r < kLuckRolls; ++r) {
      const float* ow = out_w_[v][static_cast<size_t>(r)].data();
      const float* ob = out_b_[v][static_cast<size_t>(r)].data();
      first_[v].push_back(KernelNet{mlp_.weight[0].data(), mlp_.bias[0].data(), ow, ob, in, h1,
                                    kLuckOutputs, kRelu});
      auto& layers = upper_layers_[v][static_cast<size_t>(r)];
      for (size_t l = 1; l < mlp_.hidden.size(); ++l)
        layers.push_back(KernelLayer{mlp_.weight[l].data(), mlp_.bias[l].data(), mlp_.hidden[l - 1],
                                     mlp_.hidden[l]});
      layers.push_back(KernelLayer{ow, ob, mlp_.hidden.back(), kLuckOutputs});
    }
    for (int r = 0; r < kLuckRolls; ++r) {
      const auto& layers = upper_layers_[v][static_cast<size_t>(r)];
      upper_[v].push_back(KernelUpper{layers.data(), static_cast<int>(layers.size()), kRelu});
    }
  }
}

LuckHead::Scratch LuckHead::make_scratch() const {
  Scratch s;
  s.x.assign(static_cast<size_t>(mlp_.num_inputs), 0.0f);
  s.sums.assign(static_cast<size_t>(mlp_.hidden[0]), 0.0f);
  s.hidden.assign(static_cast<size_t>(activations_), 0.0f);
  return s;
}

LuckTerms LuckHead::luck(const Position& pos, Dice d, Scratch& s, bool non_doubles_only) const {
  const int v = non_doubles_only ? 1 : 0;
  const int r = distinct_roll_index(d);
  encoder_->fill(pos, s.x);
  const KernelNet& first = first_[v][static_cast<size_t>(r)];
  kernels_->hidden_sums(first, s.x.data(), s.sums.data());
  float z[kLuckOutputs];
  if (mlp_.hidden.size() == 1)
    kernels_->logits_from_sums(first, s.sums.data(), s.hidden.data(), z);
  else
    kernels_->upper_forward(upper_[v][static_cast<size_t>(r)], s.sums.data(), s.hidden.data(), z);
  const double win = z[0], win_mars = z[1], lose_mars = z[2], draw = z[3];
  const double lose = -win - draw;
  return {win, win_mars, lose, lose_mars, draw, win + win_mars - lose - lose_mars};
}

std::string LuckHead::describe() const {
  std::string shape;
  for (int h : mlp_.hidden) shape += (shape.empty() ? "" : "-") + std::to_string(h);
  return "luck head " + shape + " (teacher " + teacher_ + ")";
}

std::string luck_head_path_for(const std::string& checkpoint_path) {
  const std::string ext = ".pt";
  if (checkpoint_path.size() > ext.size() &&
      checkpoint_path.compare(checkpoint_path.size() - ext.size(), ext.size(), ext) == 0)
    return checkpoint_path.substr(0, checkpoint_path.size() - ext.size()) + ".luck";
  return checkpoint_path + ".luck";
}

std::shared_ptr<const LuckHead> find_luck_head(const std::string& net_path, const Rules& rules) {
  const std::string path = luck_head_path_for(net_path);
  if (!is_regular_file_path("luck head", path)) return nullptr;
  auto head = std::make_shared<LuckHead>(LuckHead::load(path));
  if (!(head->rules() == rules)) return nullptr;
  return head;
}

std::shared_ptr<const LuckHead> default_luck_head(const std::string& agent_spec,
                                                  const std::string& luck_net, const Rules& rules) {
  const auto agent_net = net_agent_spec(agent_spec);
  const std::string net_path = !luck_net.empty() ? luck_net : agent_net ? agent_net->path : "";
  if (net_path.empty() || (agent_net && agent_net->options.ply >= 1)) return nullptr;
  return find_luck_head(net_path, rules);
}

void LuckHead::save(const std::string& path) const {
  nlohmann::json j;
  j["encoder"] = encoder_->id();
  j["hidden"] = mlp_.hidden;
  j["teacher"] = teacher_;
  j["rules"] = rules_.to_string();
  j["fit"] = fit_note_;
  std::string bytes = kMagicLine + j.dump() + "\n";
  for (size_t l = 0; l < mlp_.weight.size(); ++l) {
    bytes.append(reinterpret_cast<const char*>(mlp_.weight[l].data()),
                 mlp_.weight[l].size() * sizeof(float));
    bytes.append(reinterpret_cast<const char*>(mlp_.bias[l].data()),
                 mlp_.bias[l].size() * sizeof(float));
  }
  bytes += "\nend " + crc_text(crc_of(bytes)) + "\n";
  write_file_atomic(path, bytes, "luck head");
}

LuckHead LuckHead::load(const std::string& path) {
  static_assert(sizeof(float) == 4);
  const std::string bytes = read_file(path);
  auto bad = [&](const std::string& what) {
    return Error("luck head " + quote_path(path) + ": " + what);
  };
  const std::string magic = kMagicLine;
  if (bytes.compare(0, magic.size(), magic) != 0) {
    if (bytes.compare(0, 16, "nardy-luck-head ") == 0)
      throw bad("a format version this build does not read (it reads version " +
                std::to_string(kFormatVersion) + ")");
    throw bad("not a luck head file (no 'nardy-luck-head' first line)");
  }
  const std::string end_tag = "\nend crc32:";
  const size_t end_at = bytes.rfind(end_tag);
  if (end_at == std::string::npos || bytes.size() != end_at + end_tag.size() + 9 ||
      bytes.back() != '\n')
    throw bad("no 'end' line (truncated?)");
  if (bytes.substr(end_at + 5, 14) != crc_text(crc_of(std::string_view(bytes).substr(0, end_at))))
    throw bad("checksum mismatch (damaged file)");
  const size_t json_end = bytes.find('\n', magic.size());
  if (json_end == std::string::npos || json_end > end_at) throw bad("no header line");
  const nlohmann::json j =
      nlohmann::json::parse(bytes.begin() + static_cast<std::ptrdiff_t>(magic.size()),
                            bytes.begin() + static_cast<std::ptrdiff_t>(json_end), nullptr, false);
  if (!j.is_object()) throw bad("the header is not a JSON object");
  for (const char* key : {"encoder", "teacher", "rules", "fit"})
    if (!j.contains(key) || !j[key].is_string())
      throw bad(std::string("header lacks '") + key + "'");
  if (!j.contains("hidden") || !j["hidden"].is_array()) throw bad("header lacks 'hidden'");
  LuckMlp mlp;
  try {
    mlp.num_inputs = encoder_by_name(j["encoder"].get<std::string>()).num_inputs();
  } catch (const Error& e) {
    throw bad(e.what());
  }
  for (const auto& h : j["hidden"]) {
    if (!h.is_number_integer() || h.get<int>() < 1 || h.get<int>() > kMaxHiddenUnits)
      throw bad("bad hidden layer size in the header");
    mlp.hidden.push_back(h.get<int>());
  }
  if (mlp.hidden.empty() || mlp.hidden.size() > static_cast<size_t>(kMaxKernelUpperLayers))
    throw bad("bad number of hidden layers in the header");
  const std::vector<int> sizes = layer_sizes(mlp);
  size_t at = json_end + 1;
  auto take = [&](size_t n) {
    if (at + n * sizeof(float) > end_at) throw bad("fewer parameters than the header says");
    std::vector<float> v(n);
    std::memcpy(v.data(), bytes.data() + at, n * sizeof(float));
    at += n * sizeof(float);
    return v;
  };
  for (size_t l = 0; l + 1 < sizes.size(); ++l) {
    mlp.weight.push_back(take(static_cast<size_t>(sizes[l]) * sizes[l + 1]));
    mlp.bias.push_back(take(static_cast<size_t>(sizes[l + 1])));
  }
  if (at != end_at) throw bad("more parameters than the header says");
  try {
    return LuckHead(j["encoder"].get<std::string>(), std::move(mlp),
                    j["teacher"].get<std::string>(), Rules::parse(j["rules"].get<std::string>()),
                    j["fit"].get<std::string>());
  } catch (const Error& e) {
    throw bad(e.what());
  }
}

std::string LuckHeadFitReport::to_text() const {
  char buf[320];
  std::snprintf(buf, sizeof buf,
                "luck head: %lld games, %lld positions to train on, %lld held out; the head "
                "explains %.1f%% of the held-out exact equity luck's variance (its rms %.4f)\n",
                static_cast<long long>(games), static_cast<long long>(positions),
                static_cast<long long>(held_out_positions), 100 * explained, luck_rms);
  return buf;
}

namespace {

void check_fit_options(const LuckHeadFitOptions& options) {
  if (options.games < 10)
    throw Error("luck head fit: games must be at least 10 (got " + std::to_string(options.games) +
                ")");
  if (!(options.noise >= 0) || !std::isfinite(options.noise))
    throw Error("luck head fit: noise must be >= 0");
  if (options.threads < 1 || options.train_threads < 0)
    throw Error("luck head fit: threads must be at least 1 (got " +
                std::to_string(options.threads) + ")");
}

// Rows as sampled: the positions (encoded when the rows are joined) and their targets.
struct SampledRows {
  std::vector<Position> positions;
  std::vector<float> targets;  // kLuckTargets per position
  void append(const SampledRows& o) {
    positions.insert(positions.end(), o.positions.begin(), o.positions.end());
    targets.insert(targets.end(), o.targets.begin(), o.targets.end());
  }
};

static_assert(std::is_trivially_copyable_v<Position>);

template <class T>
void put(std::string& out, const std::vector<T>& v) {
  const uint64_t n = v.size();
  out.append(reinterpret_cast<const char*>(&n), sizeof n);
  out.append(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T));
}

template <class T>
void take(std::string_view& in, std::vector<T>& v) {
  uint64_t n = 0;
  if (in.size() < sizeof n) throw Error("luck head fit: a rank sent truncated rows");
  std::memcpy(&n, in.data(), sizeof n);
  in.remove_prefix(sizeof n);
  if (n > in.size() / sizeof(T)) throw Error("luck head fit: a rank sent truncated rows");
  const size_t at = v.size();
  v.resize(at + n);
  std::memcpy(v.data() + at, in.data(), n * sizeof(T));
  in.remove_prefix(n * sizeof(T));
}

LuckFitData encoded(const SampledRows& rows, const Encoder& encoder) {
  LuckFitData d;
  d.num_inputs = encoder.num_inputs();
  d.inputs.resize(rows.positions.size() * static_cast<size_t>(d.num_inputs));
  for (size_t i = 0; i < rows.positions.size(); ++i)
    encoder.fill(rows.positions[i],
                 std::span<float>(d.inputs).subspan(i * static_cast<size_t>(d.num_inputs),
                                                    static_cast<size_t>(d.num_inputs)));
  d.targets = rows.targets;
  return d;
}

}  // namespace

LuckFitSet sample_luck_positions(const ValueNet& teacher, const LuckHeadFitOptions& options) {
  check_fit_options(options);
  World& world = options.world ? *options.world : single_process_world();
  const Rules& rules = options.rules;
  const BearoffTable* tables = default_bearoff_table();
  const int64_t blocks = (options.games + kBlockGames - 1) / kBlockGames;
  // This rank's blocks: [first, first + mine.size()).
  const IndexRange mine = block_of(blocks, world.rank(), world.size());
  const int64_t games_here =
      std::min(options.games, mine.end * kBlockGames) - mine.begin * kBlockGames;

  // Each block's rows (training and held out), kept in game order.
  struct Block {
    SampledRows train, held;
  };
  std::vector<Block> data(static_cast<size_t>(mine.size()));
  std::atomic<int64_t> games_done{0};
  std::mutex progress_mutex;

  // The sampling agent's own search (the teacher's evaluator, the default race table) values the
  // 21 rolls, each position in a fresh cache generation.
  struct Worker {
    std::unique_ptr<Agent> agent;
    Search* search = nullptr;
    MoveList moves, roll_moves;
  };
  auto make_worker = [&](int) {
    Worker w;
    NetAgentOptions ao;
    ao.noise = options.noise;
    w.agent = make_net_agent(teacher, ao, rules, "net:<luck fit>");
    w.search = &static_cast<NetAgent&>(*w.agent).search();
    return w;
  };
  auto run_block = [&](Worker& w, int64_t k) {
    Block& out = data[static_cast<size_t>(k)];
    const int64_t b = mine.begin + k;
    const int64_t g_end = std::min(options.games, (b + 1) * kBlockGames);
    for (int64_t g = b * kBlockGames; g < g_end; ++g) {
      SampledRows& rows = g % 10 == 9 ? out.held : out.train;
      Rng dice_rng = Rng(options.seed ^ kDiceSalt).split(static_cast<uint64_t>(g));
      Rng agent_rng = Rng(options.seed ^ kAgentSalt).split(static_cast<uint64_t>(g));
      Position p = Position::start();
      for (int turn = 0;; ++turn) {
        if (game_outcome(p, rules) || table_evaluation(tables, p, rules)) break;
        if (turn >= 10000) throw Error("luck head fit: a game exceeded 10000 turns");
        const bool opening = opening_excludes_doubles(p, rules);
        if (!opening) {  // the opening turn of no_doubles rolls from another set: not sampled
          // The exact terms of all 21 rolls (mover's view), in a fresh cache generation.
          w.search->cache().new_generation();
          std::array<Evaluation, kLuckRolls> v;
          double mean[kLuckOutputs] = {0, 0, 0, 0};
          for (int r = 0; r < kLuckRolls; ++r) {
            generate_moves(p, kDistinctRolls[r].dice, rules, w.roll_moves);
            const Evaluation e = w.search->best_static(p, w.roll_moves).second;
            v[static_cast<size_t>(r)] = e;
            const std::array<float, 4> y = e.as_array();
            for (int o = 0; o < kLuckOutputs; ++o)
              mean[o] += centring_weight(0, r) * y[static_cast<size_t>(o)];
          }
          rows.positions.push_back(p);
          for (int r = 0; r < kLuckRolls; ++r) {
            const std::array<float, 4> y = v[static_cast<size_t>(r)].as_array();
            for (int o = 0; o < kLuckOutputs; ++o)
              rows.targets.push_back(static_cast<float>(y[static_cast<size_t>(o)] - mean[o]));
          }
        }
        const Dice d = roll_turn(dice_rng, rules, opening);
        generate_moves(p, d, rules, w.moves);
        const size_t i = w.agent->choose(p, d, w.moves, agent_rng);
        if (i >= w.moves.size()) throw Error("luck head fit: the agent chose an invalid result");
        p = w.moves[i].position;
      }
      const int64_t done = ++games_done;
      if (options.progress) {
        std::lock_guard lock(progress_mutex);
        options.progress(done, games_here);
      }
    }
  };
  // With several ranks a failure here travels to the others through the gather below.
  std::exception_ptr error;
  std::string sent;
  try {
    parallel_for(mine.size(), options.threads, make_worker, run_block);
    // This rank's blocks joined (training rows, held-out rows), then every rank's in rank order.
    SampledRows train, held;
    for (Block& b : data) {
      train.append(b.train);
      held.append(b.held);
      b = Block{};
    }
    if (world.size() > 1) {
      put(sent, train.positions);
      put(sent, train.targets);
      put(sent, held.positions);
      put(sent, held.targets);
    } else {
      return LuckFitSet{encoded(train, teacher.encoder()), encoded(held, teacher.encoder())};
    }
  } catch (...) {
    if (world.size() == 1) throw;
    error = std::current_exception();
  }
  std::vector<std::string> all = gather_results(world, sent, error, "luck fit");
  SampledRows train, held;
  for (std::string& rank_bytes : all) {
    std::string_view in = rank_bytes;
    take(in, train.positions);
    take(in, train.targets);
    take(in, held.positions);
    take(in, held.targets);
    rank_bytes = std::string();
  }
  return LuckFitSet{encoded(train, teacher.encoder()), encoded(held, teacher.encoder())};
}

LuckHead train_luck_head(const ValueNet& teacher, const LuckFitSet& set,
                         const LuckHeadFitOptions& options, LuckHeadFitReport* report) {
  check_fit_options(options);
  const LuckFitData& train = set.train;
  const LuckFitData& held = set.held;
  const Encoder& encoder = teacher.encoder();
  LuckHeadFitReport rep;
  rep.games = options.games;
  rep.positions = train.rows();
  rep.held_out_positions = held.rows();
  double sq = 0;
  for (int64_t i = 0; i < held.rows(); ++i)
    for (int r = 0; r < kLuckRolls; ++r) {
      const float* t = &held.targets[static_cast<size_t>(i * kLuckTargets + r * 4)];
      const double deq = 2.0 * t[0] + t[1] + t[3] - t[2];
      sq += centring_weight(0, r) * deq * deq;
    }
  rep.luck_rms = held.rows() > 0 ? std::sqrt(sq / static_cast<double>(held.rows())) : 0;

  // The threads of one process doing the whole fit (every rank's threads), unless told.
  const int ranks = options.world ? options.world->size() : 1;
  set_torch_threads(options.train_threads > 0 ? options.train_threads : options.threads * ranks);
  LuckTrainOptions to = options.train;
  to.seed = options.seed;
  LuckMlp mlp = train_luck_mlp(train, held, to, &rep.epochs, options.on_epoch);
  for (const LuckEpoch& e : rep.epochs)
    if (e.best) rep.explained = e.heldout_explained;
  if (report) *report = rep;
  char note[256];
  std::snprintf(note, sizeof note,
                "games=%lld positions=%lld seed=%llu noise=%g epochs=%zu held_out_explained=%.4f",
                static_cast<long long>(options.games), static_cast<long long>(rep.positions),
                static_cast<unsigned long long>(options.seed), options.noise, rep.epochs.size(),
                rep.explained);
  return LuckHead(encoder.id(), std::move(mlp), parameters_checksum(teacher.layers()),
                  options.rules, note);
}

LuckHead fit_luck_head(const ValueNet& teacher, const LuckHeadFitOptions& options,
                       LuckHeadFitReport* report) {
  return train_luck_head(teacher, sample_luck_positions(teacher, options), options, report);
}

}  // namespace nardy
