#include "selfplay/search/net_agent.h"

#include <charconv>
#include <filesystem>
#include <map>
#include <mutex>

#include "core/error.h"
#include "core/file_error.h"
#include "nn/fast_net.h"
#include "selfplay/search/shipped_models.h"

namespace nardy {

// ---- NetEvaluator ----

NetEvaluator::NetEvaluator(const ValueNet& net, std::string_view backend)
    : net_(net), encoder_(&net.encoder()), num_inputs_(net.num_inputs()) {
  if (backend == "auto") {
    // LibTorch for shapes the fast kernels do not cover; any other error (e.g. a bad NARDY_SIMD,
    // nn/fast_kernels.h) is reported rather than hidden behind the slow path.
    backend_ = make_td_backend(fast_net_supports(net_.shape()) ? "fast" : "libtorch", net_, 0.0f);
  } else if (backend == "fast" || backend == "libtorch") {
    backend_ = make_td_backend(backend, net_, 0.0f);
  } else {
    throw Error("net evaluator: unknown backend " + quote(backend) +
                " (expected auto, fast or libtorch)");
  }
  base_.resize(static_cast<size_t>(num_inputs_));
}

void NetEvaluator::evaluate(const Position& base, std::span<const Position> positions,
                            std::span<Evaluation> out) {
  const size_t n = positions.size();
  const size_t k = static_cast<size_t>(num_inputs_);
  encoder_->fill(base, base_);
  if (backend_->evaluates_differences()) {
    // Each position only as its few inputs that differ from the base's (nn/encoder.h
    // fill_difference), evaluated from the base's hidden sums: the same bits as the full
    // encodings below, without forming them.
    if (offsets_.size() < n + 1) offsets_.resize(n + 1);
    if (scratch_.size() < k) scratch_.resize(k);
    offsets_[0] = 0;
    for (size_t i = 0; i < n; ++i) {
      const size_t at = static_cast<size_t>(offsets_[i]);
      if (rows_.size() < at + k) {
        rows_.resize(2 * (at + k));
        coefs_.resize(rows_.size());
      }
      offsets_[i + 1] =
          offsets_[i] + encoder_->fill_difference(base, base_, positions[i], rows_.data() + at,
                                                  coefs_.data() + at, scratch_);
    }
    backend_->evaluate_differences(base_, rows_.data(), coefs_.data(), offsets_.data(),
                                   static_cast<int>(n), out.first(n));
    return;
  }
  if (inputs_.size() < n * k) inputs_.resize(n * k);
  for (size_t i = 0; i < n; ++i)
    encoder_->fill(positions[i], std::span<float>(inputs_.data() + i * k, k));
  backend_->evaluate(base_, std::span<const float>(inputs_.data(), n * k), static_cast<int>(n),
                     out.first(n));
}

// ---- NetAgent ----

namespace {

void check_options(const NetAgentOptions& o, const std::string& spec) {
  auto fail = [&](const std::string& what) { throw Error("agent " + quote(spec) + ": " + what); };
  if (o.ply < 0 || o.ply > 4) fail("ply must be 0..4 (got " + std::to_string(o.ply) + ")");
  if (!(o.noise >= 0)) fail("noise must be >= 0 (got " + std::to_string(o.noise) + ")");
  if (const std::string problem = search_options_problem(o.search); !problem.empty()) fail(problem);
  if (o.backend != "auto" && o.backend != "fast" && o.backend != "libtorch")
    fail("backend must be auto, fast or libtorch (got " + quote(o.backend) + ")");
}

}  // namespace

SearchOptions net_search_options(const NetAgentOptions& o) {
  SearchOptions s = o.search;
  s.tables = o.tables ? default_bearoff_table() : nullptr;
  s.race_net = o.tables && o.race_net ? default_shipped_race_net() : nullptr;
  return s;
}

size_t choose_scored_by_values(const std::vector<ScoredMove>& scored, const OutcomeValues& values,
                               double noise, Rng& rng) {
  size_t best = scored[0].index;
  double best_value = -1e300;
  for (const auto& s : scored) {
    if (s.ply != scored[0].ply) break;
    const Evaluation& e = s.eval;
    double v = values.value(e.win, e.win_mars, e.lose_mars, e.draw);
    if (noise > 0) v += noise * gaussian(rng);
    if (v > best_value) best_value = v, best = s.index;
  }
  return best;
}

size_t choose_scored(const std::vector<ScoredMove>& scored, double noise, Rng& rng) {
  if (noise <= 0) return scored[0].index;
  // Noise among the candidates valued at the deepest ply (the others were filtered out).
  size_t best = scored[0].index;
  double best_value = -1e300;
  for (const auto& s : scored) {
    if (s.ply != scored[0].ply) break;
    const double v = s.equity() + noise * gaussian(rng);
    if (v > best_value) best_value = v, best = s.index;
  }
  return best;
}

NetAgent::NetAgent(const ValueNet& net, const NetAgentOptions& options, const Rules& rules,
                   std::string spec)
    : options_((check_options(options, spec), options)),
      spec_(std::move(spec)),
      evaluator_(net, options.backend),
      search_(evaluator_, rules, net_search_options(options)) {}

void NetAgent::rank(const Position& pos, const MoveList& moves, std::vector<ScoredMove>& out) {
  search_.cache().new_generation();
  search_.score_moves(pos, moves, options_.ply, out);
}

Evaluation NetAgent::evaluate(const Position& pos) {
  search_.cache().new_generation();
  return search_.evaluate(pos, options_.ply);
}

size_t NetAgent::choose(const Position& pos, Dice, const MoveList& moves, Rng& rng) {
  if (moves.size() == 1) return 0;
  search_.cache().new_generation();
  return choose_scored_now(pos, moves, rng);
}

size_t NetAgent::choose_continuing(const Position& pos, const MoveList& moves, Rng& rng) {
  if (options_.ply != 0)
    throw Error("agent " + quote(spec_) + ": choose_continuing is for ply 0 only");
  if (moves.size() == 1) return 0;
  return choose_scored_now(pos, moves, rng);
}

size_t NetAgent::choose_scored_now(const Position& pos, const MoveList& moves, Rng& rng) {
  if (options_.ply == 0 && options_.noise <= 0 && !active_stakes())
    return search_.best_scored(pos, moves).index;  // the first of score_moves, unsorted
  search_.score_moves(pos, moves, options_.ply, scored_);
  if (const auto& stakes = active_stakes())
    return choose_scored_by_values(scored_, stakes->for_side(pos.side_to_move()), options_.noise,
                                   rng);
  return choose_scored(scored_, options_.noise, rng);
}

std::unique_ptr<Agent> make_net_agent(const ValueNet& net, const NetAgentOptions& options,
                                      const Rules& rules, const std::string& spec) {
  return std::make_unique<NetAgent>(net, options, rules, spec);
}

// ---- Specs ----

namespace {

template <typename T>
T parse_number(std::string_view text, const std::string& spec, const std::string& key) {
  T v{};
  const char* end = text.data() + text.size();
  auto [p, ec] = std::from_chars(text.data(), end, v);
  if (text.empty() || ec != std::errc() || p != end)
    throw Error("agent " + quote(spec) + ": option " + key + "=" + quote(text) +
                " is not a valid " + (std::is_integral_v<T> ? "integer" : "number"));
  return v;
}

}  // namespace

NetAgentSpec parse_net_agent_spec(std::string_view args, std::string_view whole_spec) {
  const std::string spec =
      whole_spec.empty() ? "net:" + std::string(args) : std::string(whole_spec);
  NetAgentSpec out;
  std::vector<std::string_view> parts;
  size_t start = 0;
  for (;;) {
    size_t colon = args.find(':', start);
    parts.push_back(args.substr(
        start, colon == std::string_view::npos ? std::string_view::npos : colon - start));
    if (colon == std::string_view::npos) break;
    start = colon + 1;
  }
  if (parts[0].empty())
    throw Error("agent " + quote(spec) +
                ": missing checkpoint path (expected net:PATH[:ply=N]...)");
  out.path = std::string(parts[0]);
  for (size_t i = 1; i < parts.size(); ++i) {
    std::string_view opt = parts[i];
    if (opt == "match") opt = "match=on";
    const size_t eq = opt.find('=');
    const std::string key(opt.substr(0, eq));
    if (eq == std::string_view::npos)
      throw Error("agent " + quote(spec) + ": option " + quote(key) + " needs a value (KEY=VALUE)");
    const std::string_view value = opt.substr(eq + 1);
    if (key == "ply") {
      out.options.ply = parse_number<int>(value, spec, key);
    } else if (key == "noise") {
      out.options.noise = parse_number<double>(value, spec, key);
    } else if (key == "filter" || key == "inner") {
      const size_t comma = value.find(',');
      if (comma == std::string_view::npos)
        throw Error("agent " + quote(spec) + ": option " + key + "=" + quote(value) +
                    " must be K,D (e.g. " + key + "=8,0.16)");
      const int k = parse_number<int>(value.substr(0, comma), spec, key + " K");
      const double d = parse_number<double>(value.substr(comma + 1), spec, key + " D");
      SearchOptions& s = out.options.search;
      (key == "filter" ? s.filter_keep : s.inner_keep) = k;
      (key == "filter" ? s.filter_delta : s.inner_delta) = d;
    } else if (key == "blend") {
      out.options.search.blend = parse_number<double>(value, spec, key);
    } else if (key == "cache") {
      out.options.search.cache_bits = parse_number<int>(value, spec, key);
    } else if (key == "backend") {
      out.options.backend = std::string(value);
    } else if (key == "match") {
      if (value != "on" && value != "off")
        throw Error("agent " + quote(spec) + ": option match=" + quote(value) +
                    " must be on or off");
      out.options.match = value == "on";
    } else if (key == "tables" || key == "race_net") {
      if (value != "0" && value != "1")
        throw Error("agent " + quote(spec) + ": option " + key + "=" + quote(value) +
                    " must be 0 or 1");
      (key == "tables" ? out.options.tables : out.options.race_net) = value == "1";
    } else {
      throw Error("agent " + quote(spec) + ": unknown option " + quote(key) +
                  " (expected ply, noise, filter, inner, blend, cache, backend, match, tables or "
                  "race_net)");
    }
  }
  check_options(out.options, spec);
  return out;
}

ValueNet load_shared_net(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!is_regular_file_path("checkpoint", path))
    throw Error("checkpoint " + quote_path(path) + " does not exist or is not a file");
  const auto mtime = fs::last_write_time(path, ec);
  const auto size = fs::file_size(path, ec);
  struct Entry {
    fs::file_time_type mtime;
    uintmax_t size;
    std::shared_ptr<ValueNet> net;
  };
  static std::mutex mutex;
  static std::map<std::string, Entry> nets;
  const std::string key = fs::absolute(path, ec).lexically_normal().string();
  {
    std::lock_guard lock(mutex);
    auto it = nets.find(key);
    if (it != nets.end() && it->second.mtime == mtime && it->second.size == size)
      return *it->second.net;
  }
  // Loaded without the lock: a load may warn (core/warning.h), and the Python module's warning
  // handler takes the GIL, which a thread waiting for this lock may hold. Two threads loading
  // the same file at once both load it; the second entry replaces the first.
  auto net = std::make_shared<ValueNet>(ValueNet::load(path));
  std::lock_guard lock(mutex);
  nets[key] = Entry{mtime, size, net};
  return *net;
}

}  // namespace nardy
