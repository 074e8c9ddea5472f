#include "selfplay/evaluation/position_benchmark.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <sstream>
#include <thread>
#include <unordered_set>

#include "core/error.h"
#include "core/file_error.h"
#include "core/file_io.h"
#include "core/game.h"
#include "core/movegen.h"
#include "core/notation.h"
#include "selfplay/evaluation/luck_head.h"
#include "core/position_id.h"
#include "selfplay/agents/heuristic_agent.h"
#include "selfplay/evaluation/rollout.h"
#include "selfplay/search/agent_kinds.h"
#include "selfplay/search/net_agent.h"
#include "selfplay/search/shipped_models.h"
#include "selfplay/tables/race.h"
#include "selfplay/tables/race_net.h"

namespace nardy {

const char* phase_name(Phase p) {
  switch (p) {
    case Phase::Opening:
      return "opening";
    case Phase::Contact:
      return "contact";
    case Phase::Race:
      return "race";
    case Phase::Bearoff:
      return "bearoff";
  }
  return "?";
}

Phase parse_phase(std::string_view name) {
  for (Phase p : kAllPhases)
    if (name == phase_name(p)) return p;
  throw Error("unknown phase '" + std::string(name) +
              "' (expected opening, contact, race or bearoff)");
}

Phase phase_of(const Position& pos) {
  if (is_race(pos))
    return highest_route(pos, pos.side_to_move()) <= kHomeSize ? Phase::Bearoff : Phase::Race;
  if (pos.on_head(Side::White) >= 11 && pos.on_head(Side::Black) >= 11) return Phase::Opening;
  return Phase::Contact;
}

namespace {

// The decisions of a set by phase: "overall" (all of them) first, then each phase present, with
// the indices of its decisions in set order. Every per-phase report is made from these.
std::vector<std::pair<std::string, std::vector<size_t>>> phase_groups(const BenchmarkSet& set) {
  std::vector<std::pair<std::string, std::vector<size_t>>> groups(1, {"overall", {}});
  for (size_t i = 0; i < set.decisions.size(); ++i) groups[0].second.push_back(i);
  for (Phase p : kAllPhases) {
    std::vector<size_t> in;
    for (size_t i = 0; i < set.decisions.size(); ++i)
      if (set.decisions[i].phase == p) in.push_back(i);
    if (!in.empty()) groups.emplace_back(phase_name(p), std::move(in));
  }
  return groups;
}

}  // namespace

// ---- Text format ----

namespace {
// The largest |equity| a set may list: twice the most a game can score, room for luck-adjusted
// estimates that overshoot ±2.
constexpr double kMaxListedEquity = 4.0;

// One candidate line (without its newline).
std::string format_candidate(const BenchmarkCandidate& c) {
  char buf[96];
  if (c.halves)
    std::snprintf(buf, sizeof buf, " %+.5f %.5f %+.5f %+.5f ", c.equity, c.se, (*c.halves)[0],
                  (*c.halves)[1]);
  else
    std::snprintf(buf, sizeof buf, " %+.5f %.5f ", c.equity, c.se);
  return position_id(c.result) + buf + c.notation;
}
}  // namespace

std::string format_decision(const BenchmarkDecision& d) {
  std::string s = "decision " + position_id(d.pos) + " " + std::to_string(d.dice.d1) +
                  std::to_string(d.dice.d2) + " " + phase_name(d.phase) + " " +
                  std::to_string(d.candidates.size()) + "\n";
  for (const auto& c : d.candidates) s += format_candidate(c) + "\n";
  return s;
}

namespace {

// read_benchmark(), which refuses a set without decisions unless `allow_empty` (a build resumed
// after its header was written).
BenchmarkSet read_benchmark_file(const std::string& path, const Rules& rules, bool allow_empty) {
  // An ifstream opens a directory and reads no line from it ("no decisions").
  require_not_directory("benchmark set: cannot read", path);
  std::ifstream in(path);
  if (!in) throw Error("benchmark set '" + path + "': cannot open the file");
  BenchmarkSet set;
  std::string line;
  int lineno = 0;
  auto fail = [&](const std::string& what) {
    return Error("benchmark set '" + path + "' line " + std::to_string(lineno) + ": " + what);
  };
  int pending = 0;  // candidate lines still expected
  MoveList legal;
  std::set<std::string> seen;
  auto finish = [&] {
    if (pending > 0) throw fail("decision ends after too few candidate lines");
  };
  set.format = 1;  // unless the header's first line says otherwise
  while (std::getline(in, line)) {
    ++lineno;
    if (line.empty()) continue;
    if (line[0] == '#') {
      if (set.decisions.empty() && pending == 0) {
        if (set.header.empty() && line.find("position benchmark, format 2") != std::string::npos)
          set.format = 2;
        set.header.push_back(line.substr(1));
      }
      continue;
    }
    std::istringstream ls(line);
    if (line.rfind("decision ", 0) == 0) {
      finish();
      std::string word, id, dice, phase;
      int n = 0;
      if (!(ls >> word >> id >> dice >> phase >> n) || n < 2)
        throw fail("expected 'decision POSID D1D2 PHASE N' with N >= 2");
      BenchmarkDecision d;
      try {
        d.pos = parse_position_id(id);
        if (dice.size() != 2) throw Error("dice '" + dice + "' must be two digits");
        d.dice = make_dice(dice[0] - '0', dice[1] - '0');
        d.phase = parse_phase(phase);
      } catch (const Error& e) {
        throw fail(e.what());
      }
      legal = legal_moves(d.pos, d.dice, rules);
      if (static_cast<int>(legal.size()) < n)
        throw fail(std::to_string(n) + " candidates but only " + std::to_string(legal.size()) +
                   " legal results");
      set.decisions.push_back(std::move(d));
      pending = n;
      seen.clear();
      continue;
    }
    if (pending == 0) throw fail("a candidate line outside a decision");
    std::string id, notation;
    double eq = 0, se = 0;
    std::array<double, 2> halves{};
    // Points per game lie in [-2, 2]; a luck-adjusted estimate may overshoot them a little
    // (its adjustment is unbounded), so only what no rollout can give is refused.
    auto plausible = [](double e) { return std::abs(e) <= kMaxListedEquity; };
    // Each number is a whole token: `>>` alone would read "0x1p9999" as 0 and leave the rest
    // for the notation.
    auto number = [&ls](double& x) {
      std::string token;
      if (!(ls >> token)) return false;
      char* end = nullptr;
      x = std::strtod(token.c_str(), &end);
      return end == token.c_str() + token.size() && std::isfinite(x);
    };
    if (set.format == 1) {
      if (!(ls >> id) || !number(eq) || !number(se) || se < 0 || !plausible(eq))
        throw fail("expected 'POSID EQUITY SE NOTATION' (equity in [-4, 4], se >= 0)");
    } else if (!(ls >> id) || !number(eq) || !number(se) || !number(halves[0]) ||
               !number(halves[1]) || se < 0 || !plausible(eq) || !plausible(halves[0]) ||
               !plausible(halves[1])) {
      throw fail(
          "expected 'POSID EQUITY SE HALF1 HALF2 NOTATION' (format 2; equities in [-4, 4], se "
          ">= 0)");
    }
    std::getline(ls >> std::ws, notation);
    BenchmarkCandidate c;
    if (set.format == 2) c.halves = halves;
    try {
      c.result = parse_position_id(id);
    } catch (const Error& e) {
      throw fail(e.what());
    }
    if (std::none_of(legal.begin(), legal.end(),
                     [&](const MoveResult& m) { return m.position == c.result; }))
      throw fail("candidate " + id + " is not a legal result of the decision");
    if (!seen.insert(id).second) throw fail("candidate " + id + " is listed twice");
    c.notation = notation;
    c.equity = eq;
    c.se = se;
    auto& cands = set.decisions.back().candidates;
    if (!cands.empty() && eq > cands.back().equity + 1e-9)
      throw fail("candidates must be listed best first");
    cands.push_back(std::move(c));
    --pending;
  }
  finish();
  if (set.decisions.empty() && !allow_empty)
    throw Error("benchmark set '" + path + "': no decisions");
  return set;
}

// Cuts a decision that a killed build left half written off the end of the set at `path`: the
// file then ends after its last whole decision (or its header).
void cut_partial_decision(const std::string& path) {
  const std::string text = read_file(path);
  size_t whole = 0;  // bytes up to the end of the last whole decision (or header line)
  int pending = 0;   // candidate lines the current decision still expects
  size_t pos = 0;
  while (pos < text.size()) {
    const size_t end = text.find('\n', pos);
    if (end == std::string::npos) break;  // a line without its newline is not whole
    const std::string_view line(text.data() + pos, end - pos);
    pos = end + 1;
    if (pending > 0) {
      if (--pending == 0) whole = pos;
    } else if (line.rfind("decision ", 0) == 0) {
      const size_t last = line.rfind(' ');
      pending = std::atoi(std::string(line.substr(last + 1)).c_str());
      if (pending <= 0) return;  // not a decision line read_benchmark accepts: let it say so
    } else {
      whole = pos;  // header, comment and blank lines
    }
  }
  if (whole == text.size()) return;
  std::error_code ec;
  std::filesystem::resize_file(path, whole, ec);
  if (ec) throw file_error("benchmark set: cannot cut a partial decision off", path, ec);
}

}  // namespace

BenchmarkSet read_benchmark(const std::string& path, const Rules& rules) {
  return read_benchmark_file(path, rules, false);
}

// ---- Building ----

std::vector<BenchmarkDecision> sample_decisions(const BenchmarkBuildOptions& o,
                                                const AgentBySpec& make_agent) {
  if (o.decisions < 1) throw Error("benchmark: decisions must be at least 1");
  if (o.game_agents.empty()) throw Error("benchmark: no game agents");
  std::vector<std::unique_ptr<Agent>> agents;
  for (const auto& spec : o.game_agents) agents.push_back(make_agent(spec, o.rules));
  double total_share = 0;
  for (double s : o.phase_shares) total_share += s;
  std::array<int, 4> quota{};
  int assigned = 0;
  for (int p = 0; p < 4; ++p) {
    quota[static_cast<size_t>(p)] = static_cast<int>(
        std::floor(o.decisions * o.phase_shares[static_cast<size_t>(p)] / total_share));
    assigned += quota[static_cast<size_t>(p)];
  }
  quota[1] += o.decisions - assigned;  // rounding goes to contact
  std::array<std::vector<BenchmarkDecision>, 4> found;
  std::unordered_set<uint64_t> seen;
  Rng rng(o.seed);
  MoveList moves;
  auto full = [&] {
    for (int p = 0; p < 4; ++p)
      if (static_cast<int>(found[static_cast<size_t>(p)].size()) < quota[static_cast<size_t>(p)])
        return false;
    return true;
  };
  for (int64_t game = 0; !full(); ++game) {
    if (game > 1000000) throw Error("benchmark: could not fill the phase quotas");
    Rng g = rng.split(static_cast<uint64_t>(game));
    Agent& white = *agents[g.below(static_cast<uint32_t>(agents.size()))];
    Agent& black = *agents[g.below(static_cast<uint32_t>(agents.size()))];
    Game play(o.rules);
    while (!play.is_over() && play.history().size() < 10000) {
      const Dice dice = play.roll(g);
      const Position pos = play.position();
      moves = play.legal(dice);
      if (moves.size() >= 2 && g.below(8) == 0) {
        const Phase ph = phase_of(pos);
        auto& bucket = found[static_cast<size_t>(ph)];
        const uint64_t key = pos.hash() * 131 + dice.high() * 7 + dice.low();
        if (static_cast<int>(bucket.size()) < quota[static_cast<size_t>(ph)] &&
            seen.insert(key).second)
          bucket.push_back(BenchmarkDecision{
              pos,
              Dice{static_cast<uint8_t>(dice.high()), static_cast<uint8_t>(dice.low())},
              ph,
              {}});
      }
      Agent& a = pos.side_to_move() == Side::White ? white : black;
      play.play(dice, moves[a.choose(pos, dice, moves, g)]);
    }
  }
  // Interleave the phases so that a partly built set covers all of them.
  std::vector<BenchmarkDecision> out;
  for (size_t i = 0; out.size() < static_cast<size_t>(o.decisions); ++i)
    for (auto& bucket : found)
      if (i < bucket.size()) out.push_back(bucket[i]);
  return out;
}

namespace {

constexpr std::string_view kRaceNetLine = " race net: ";

// Whether a build with these header lines used the race net (BenchmarkBuildOptions::race_net).
bool built_with_race_net(const std::vector<std::string>& header) {
  return std::any_of(header.begin(), header.end(),
                     [](const std::string& h) { return h.starts_with(kRaceNetLine); });
}

}  // namespace

std::vector<std::string> benchmark_header(const BenchmarkBuildOptions& o) {
  std::string agents;
  for (const auto& a : o.game_agents) agents += (agents.empty() ? "" : ",") + a;
  char shares[128];
  std::snprintf(shares, sizeof shares, "%g,%g,%g,%g", o.phase_shares[0], o.phase_shares[1],
                o.phase_shares[2], o.phase_shares[3]);
  std::vector<std::string> lines = {
      " nardy position benchmark, format 2 (selfplay/evaluation/position_benchmark.h)",
      " decisions: " + std::to_string(o.decisions),
      " seed: " + std::to_string(o.seed),
      " game agents: " + agents,
      " phase shares (opening,contact,race,bearoff): " + std::string(shares),
      " rollout agent: " + o.rollout_agent,
      " rank agent: " + (o.rank_agent.empty() ? std::string("none") : o.rank_agent),
      " max candidates: " + std::to_string(o.max_candidates),
      " trials per candidate: " + std::to_string(o.trials),
      " luck-adjusted turns per trial: " +
          (!o.luck_adjust     ? std::string("none")
           : o.luck_turns > 0 ? std::to_string(o.luck_turns)
                              : std::string("all")) +
          (o.luck_adjust && o.luck_head ? ", by the " + o.luck_head->describe() : ""),
      " race table: " + (default_bearoff_table()
                             ? std::to_string(default_bearoff_table()->points()) + " points"
                             : std::string("none")),
      " rules: " + o.rules.to_string()};
  // Only when used: a set built before the race net (or without it) keeps its header.
  if (const RaceNet* net = o.race_net ? default_shipped_race_net() : nullptr)
    lines.push_back(std::string(kRaceNetLine) + std::to_string(net->points()) + " points");
  return lines;
}

namespace {

// One candidate of decision `index` (position `pos`) of a set built with `o`: `result` with its
// rollout equity (mover's view), its standard error and the two halves of its trials, [0, n1)
// and [n1, trials), whose means give the equity and, apart, the cross-fitted loss
// (position_benchmark.h). Every
// candidate of a decision is rolled out on the same dice streams (common random numbers), so a
// candidate added later (add_choices_to_benchmark) is what the build would have listed.
BenchmarkCandidate rollout_candidate(const Position& pos, size_t index, const Position& result,
                                     const std::string& notation, const BenchmarkBuildOptions& o,
                                     const AgentBySpec& make_agent) {
  BenchmarkCandidate c;
  c.result = result;
  c.notation = notation;
  if (auto end = game_outcome(c.result, o.rules)) {
    c.equity = end->points_for(pos.side_to_move());
    c.se = 0;
    c.halves = std::array<double, 2>{c.equity, c.equity};
    return c;
  }
  const int64_t n1 = o.trials / 2, n2 = o.trials - n1;
  RolloutOptions ro;
  ro.luck_turns = o.luck_turns;
  ro.luck_adjust = o.luck_adjust;
  ro.luck_head = o.luck_head;
  ro.threads = o.threads;
  ro.seed = Rng(o.seed).split(1000003 + index).next();  // shared by the candidates
  ro.rules = o.rules;
  const std::string spec = o.rollout_agent;
  const Rules rules = o.rules;
  const AgentMaker maker = [&make_agent, spec, rules] { return make_agent(spec, rules); };
  ro.first_trial = 0;
  ro.trials = n1;
  const RolloutStat a = rollout(c.result, maker, {}, ro).flipped().equity();
  ro.first_trial = n1;
  ro.trials = n2;
  const RolloutStat b = rollout(c.result, maker, {}, ro).flipped().equity();
  c.halves = std::array<double, 2>{a.mean, b.mean};
  // All trials' mean and standard error from the halves' running sums (a half's sample variance
  // is se² n).
  double sum = 0, sum_sq = 0;
  for (const auto& [half, count] : {std::pair{a, n1}, std::pair{b, n2}}) {
    const double k = static_cast<double>(count);
    sum += k * half.mean;
    sum_sq += (k - 1) * half.se * half.se * k + k * half.mean * half.mean;
  }
  const MeanEstimate whole = estimate_mean(o.trials, sum, sum_sq);
  c.equity = whole.mean;
  c.se = whole.se;
  return c;
}

// The candidates of one decision, best first, with rollout equities (mover's view).
std::vector<BenchmarkCandidate> label_decision(const BenchmarkDecision& d, size_t index,
                                               const BenchmarkBuildOptions& o,
                                               const AgentBySpec& make_agent, Agent* ranker) {
  MoveList moves = legal_moves(d.pos, d.dice, o.rules);
  sort_by_position(moves);
  std::vector<size_t> keep;
  if (static_cast<int>(moves.size()) <= o.max_candidates) {
    for (size_t i = 0; i < moves.size(); ++i) keep.push_back(i);
  } else if (!ranker) {  // the hand-written evaluation's best (selfplay/agents/heuristic_agent.h)
    std::vector<std::pair<double, size_t>> scored;
    for (size_t i = 0; i < moves.size(); ++i)
      scored.push_back({-heuristic_score(moves[i].position, d.pos.side_to_move()), i});
    std::stable_sort(scored.begin(), scored.end());
    for (int k = 0; k < o.max_candidates; ++k)
      keep.push_back(scored[static_cast<size_t>(k)].second);
  } else {
    auto* net = dynamic_cast<NetAgent*>(ranker);
    if (!net) throw Error("benchmark: the rank agent '" + ranker->spec() + "' has no net");
    std::vector<ScoredMove> scored;
    net->rank(d.pos, moves, scored);
    for (int k = 0; k < o.max_candidates; ++k) keep.push_back(scored[static_cast<size_t>(k)].index);
  }
  std::vector<BenchmarkCandidate> out;
  for (size_t i : keep)
    out.push_back(rollout_candidate(d.pos, index, moves[i].position, format_move(moves[i].move), o,
                                    make_agent));
  std::stable_sort(out.begin(), out.end(),
                   [](const auto& a, const auto& b) { return a.equity > b.equity; });
  return out;
}

constexpr std::string_view kAddedChoices = " added choices of: ";

// A set's header without the lines add_choices_to_benchmark appended: what its build wrote.
std::vector<std::string> build_header_of(const BenchmarkSet& set) {
  std::vector<std::string> out;
  for (const std::string& h : set.header)
    if (!h.starts_with(kAddedChoices)) out.push_back(h);
  return out;
}

// The agent's choice on decision `i` of a set as scoring sees it: the legal results sorted by
// position, the agent's generator Rng(seed).split(i). `moves` is scratch space.
const MoveResult& benchmark_choice(Agent& agent, const BenchmarkDecision& d, size_t i,
                                   uint64_t seed, const Rules& rules, MoveList& moves) {
  moves = legal_moves(d.pos, d.dice, rules);
  sort_by_position(moves);
  Rng rng = Rng(seed).split(i);
  return moves[agent.choose(d.pos, d.dice, moves, rng)];
}

// The agents a build makes itself (game, rank and rollout agents): net agents without the race
// net unless the build uses it (BenchmarkBuildOptions::race_net).
AgentBySpec build_agents(const AgentBySpec& make_agent, bool race_net) {
  if (race_net) return make_agent;
  return [make_agent](std::string_view spec, const Rules& rules) {
    return make_agent(without_race_net(spec), rules);
  };
}

}  // namespace

void build_benchmark(const BenchmarkBuildOptions& o, const std::string& path,
                     const AgentBySpec& make_agent_of_spec,
                     const std::function<void(int, int)>& progress) {
  const AgentBySpec make_agent = build_agents(make_agent_of_spec, o.race_net);
  if (o.max_candidates < 5) throw Error("benchmark: max candidates must be at least 5");
  if (o.trials < 2)
    throw Error(
        "benchmark: trials must be at least 2 (each candidate is rolled out in two halves)");
  if (o.luck_turns < 0) throw Error("benchmark: luck-adjusted turns must be >= 0 (0 = all)");
  World& world = o.world ? *o.world : single_process_world();
  const bool root = world.is_root();
  // Set-up on every rank (the decisions, the rank agent; on rank 0 also the file), then one
  // exchange: a failure on any rank stops every rank, and the others learn how far the file is.
  std::vector<BenchmarkDecision> todo;
  std::unique_ptr<Agent> ranker;
  std::optional<AppendFileWriter> out;
  std::exception_ptr error;  // this rank's failure, sent at the next exchange
  std::string done_text;
  try {
    const std::vector<std::string> header = benchmark_header(o);
    todo = sample_decisions(o, make_agent);
    ranker = o.rank_agent.empty() ? nullptr : make_agent(o.rank_agent, o.rules);
    if (root) {
      size_t done = 0;
      if (std::ifstream(path)) {
        cut_partial_decision(path);
        const BenchmarkSet old = read_benchmark_file(path, o.rules, true);
        if (build_header_of(old) != header) {
          const bool old_race_net = built_with_race_net(old.header);
          const bool new_race_net = built_with_race_net(header);
          throw Error("benchmark set '" + path +
                      "' was built with other options (its header differs" +
                      (old_race_net == new_race_net ? std::string()
                       : old_race_net ? std::string(": it was built with the race net")
                                      : std::string(": it was built without the race net, "
                                                    "--race-net off")) +
                      "); remove it or build with the same options to resume");
        }
        done = old.decisions.size();
      }
      if (done > todo.size())
        throw Error("benchmark set '" + path + "' has more decisions than the build makes");
      if (done == 0) {
        std::string head;
        for (const auto& h : header) head += "#" + h + "\n";
        write_file_atomic(path, head, "benchmark set");
      }
      out.emplace("benchmark set", path);
      done_text = std::to_string(done);
    }
  } catch (...) {
    error = std::current_exception();
  }
  size_t done = std::stoul(gather_results(world, done_text, error, "benchmark build")[0]);
  if (progress) progress(static_cast<int>(done), static_cast<int>(todo.size()));
  // Blocks of decisions, one contiguous share per rank; one process labels and appends one
  // decision at a time.
  const size_t block = world.size() == 1 ? 1 : 4 * static_cast<size_t>(world.size());
  while (done < todo.size()) {
    const size_t n = std::min(block, todo.size() - done);
    const IndexRange mine = block_of(static_cast<int64_t>(n), world.rank(), world.size());
    std::string text;
    if (!error) {
      try {
        for (int64_t k = mine.begin; k < mine.end; ++k) {
          const size_t i = done + static_cast<size_t>(k);
          BenchmarkDecision d = todo[i];
          d.candidates = label_decision(d, i, o, make_agent, ranker.get());
          text += format_decision(d);
        }
      } catch (...) {
        error = std::current_exception();
      }
    }
    // Every rank's decisions in rank order: the block's in set order.
    const std::vector<std::string> all = gather_results(world, text, error, "benchmark build");
    if (root) {
      try {
        std::string block_text;
        for (const std::string& t : all) block_text += t;
        out->write(block_text);
      } catch (...) {
        error = std::current_exception();
      }
    }
    if (error && world.size() == 1) std::rethrow_exception(error);
    done += n;
    if (progress && !error) progress(static_cast<int>(done), static_cast<int>(todo.size()));
  }
  if (root && !error) {
    try {
      out->close();
    } catch (...) {
      error = std::current_exception();
    }
  }
  // Rank 0's last write reaches the others.
  gather_results(world, "", error, "benchmark build");
}

void add_choices_to_benchmark(const BenchmarkBuildOptions& o, const std::string& path,
                              const std::vector<std::string>& agents, uint64_t seed,
                              const AgentBySpec& make_agent,
                              const std::function<void(const std::string&, int, int)>& progress) {
  World& world = o.world ? *o.world : single_process_world();
  const bool root = world.is_root();
  const std::string job = "benchmark build --add-choices";
  // Rank 0's work list starts with this line, then "1" or "0" and a newline: whether the set's
  // build used the race net (its rollouts are made the same way); an empty list means the agent
  // was added before.
  constexpr std::string_view kTodo = "todo ";
  for (const std::string& spec : agents) {
    const std::string record =
        std::string(kAddedChoices) + spec + " (seed " + std::to_string(seed) + "): ";
    // Rank 0 reads the set and lists the work, one line per result to add: the decision's index
    // and position ID, the result's position ID and notation (the set's text format's fields).
    BenchmarkSet set;
    std::string work;
    std::exception_ptr error;
    if (root) {
      try {
        set = read_benchmark(path, o.rules);
        BenchmarkBuildOptions as_built = o;
        as_built.race_net = built_with_race_net(set.header);
        if (build_header_of(set) != benchmark_header(as_built))
          throw Error("benchmark set '" + path +
                      "' was built with other options (its header differs): --add-choices needs "
                      "the options of its build");
        if (set.decisions.size() != static_cast<size_t>(o.decisions))
          throw Error("benchmark set '" + path + "' is not complete (" +
                      std::to_string(set.decisions.size()) + " of " + std::to_string(o.decisions) +
                      " decisions)");
        const bool done = std::any_of(set.header.begin(), set.header.end(),
                                      [&](const auto& h) { return h.starts_with(record); });
        if (!done) {
          std::unique_ptr<Agent> agent = make_agent(spec, o.rules);
          MoveList moves;
          for (size_t i = 0; i < set.decisions.size(); ++i) {
            const BenchmarkDecision& d = set.decisions[i];
            const MoveResult& m = benchmark_choice(*agent, d, i, seed, o.rules, moves);
            if (std::none_of(d.candidates.begin(), d.candidates.end(),
                             [&](const auto& c) { return c.result == m.position; }))
              work += std::to_string(i) + " " + position_id(d.pos) + " " + position_id(m.position) +
                      " " + format_move(m.move) + "\n";
          }
          work = std::string(kTodo) + (as_built.race_net ? "1\n" : "0\n") + work;
        }
      } catch (...) {
        error = std::current_exception();
      }
    }
    work = gather_results(world, work, error, job)[0];
    if (work.empty()) continue;  // recorded in the header: added before
    struct Item {
      size_t index;
      Position pos, result;
      std::string notation;
    };
    std::vector<Item> items;
    std::istringstream in(work.substr(kTodo.size()));
    std::string race_net_used;
    std::getline(in, race_net_used);
    const AgentBySpec make_build_agent = build_agents(make_agent, race_net_used == "1");
    for (std::string line; std::getline(in, line);) {
      std::istringstream f(line);
      Item it;
      std::string pos, result;
      f >> it.index >> pos >> result;
      std::getline(f >> std::ws, it.notation);
      it.pos = parse_position_id(pos);
      it.result = parse_position_id(result);
      items.push_back(std::move(it));
    }
    // Blocks of results, one contiguous share per rank; the candidate lines gathered in order.
    std::vector<std::string> lines;
    const size_t block = 4 * static_cast<size_t>(world.size());
    if (progress && root) progress(spec, 0, static_cast<int>(items.size()));
    for (size_t done = 0; done < items.size();) {
      const size_t n = std::min(block, items.size() - done);
      const IndexRange mine = block_of(static_cast<int64_t>(n), world.rank(), world.size());
      std::string text;
      try {
        for (int64_t k = mine.begin; k < mine.end; ++k) {
          const Item& it = items[done + static_cast<size_t>(k)];
          text += format_candidate(rollout_candidate(it.pos, it.index, it.result, it.notation, o,
                                                     make_build_agent)) +
                  "\n";
        }
      } catch (...) {
        error = std::current_exception();
      }
      for (const std::string& t : gather_results(world, text, error, job)) {
        std::istringstream part(t);
        for (std::string line; std::getline(part, line);) lines.push_back(line);
      }
      done += n;
      if (progress && root) progress(spec, static_cast<int>(done), static_cast<int>(items.size()));
    }
    if (root) {
      try {
        for (size_t k = 0; k < items.size(); ++k) {
          std::istringstream f(lines.at(k));
          std::string id;
          BenchmarkCandidate c;
          double h1 = 0, h2 = 0;
          f >> id >> c.equity >> c.se >> h1 >> h2;
          c.halves = std::array<double, 2>{h1, h2};
          std::getline(f >> std::ws, c.notation);
          c.result = parse_position_id(id);
          auto& cands = set.decisions[items[k].index].candidates;
          cands.push_back(std::move(c));
          std::stable_sort(cands.begin(), cands.end(),
                           [](const auto& a, const auto& b) { return a.equity > b.equity; });
        }
        set.header.push_back(record + std::to_string(items.size()) + " results added");
        std::string out;
        for (const std::string& h : set.header) out += "#" + h + "\n";
        for (const BenchmarkDecision& d : set.decisions) out += format_decision(d);
        write_file_atomic(path, out, "benchmark set");
      } catch (...) {
        error = std::current_exception();
      }
    }
    gather_results(world, "", error, job);  // rank 0's write (or failure) reaches the others
  }
}

// ---- Scoring ----

namespace {

PhaseScore phase_score(const std::string& name, const std::vector<double>& losses,
                       const std::vector<double>& cross, int64_t outside) {
  PhaseScore s;
  s.phase = name;
  std::vector<double> mp;
  int64_t over = 0;
  for (double l : losses) {
    mp.push_back(1000.0 * l);
    over += l > 0.1;
  }
  s.loss = estimate_mean(mp);
  if (!cross.empty()) {
    mp.clear();
    for (double l : cross) mp.push_back(1000.0 * l);
    s.cross = estimate_mean(mp);
  }
  s.share_over_0_1 = losses.empty() ? 0 : static_cast<double>(over) / losses.size();
  s.outside = outside;
  return s;
}

// The cross-fitted loss of choosing candidate `chosen` (position_benchmark.h; -1: outside the
// list, charged the largest listed loss of each half).
double cross_fitted_loss(const BenchmarkDecision& d, int chosen) {
  double sum = 0;
  for (int pick = 0; pick < 2; ++pick) {
    const int measure = 1 - pick;
    auto half = [&](const BenchmarkCandidate& c) {
      return (*c.halves)[static_cast<size_t>(measure)];
    };
    size_t best = 0;
    double low = half(d.candidates[0]);
    for (size_t j = 1; j < d.candidates.size(); ++j) {
      if ((*d.candidates[j].halves)[static_cast<size_t>(pick)] >
          (*d.candidates[best].halves)[static_cast<size_t>(pick)])
        best = j;
      low = std::min(low, half(d.candidates[j]));
    }
    const double value = chosen >= 0 ? half(d.candidates[static_cast<size_t>(chosen)]) : low;
    sum += half(d.candidates[best]) - value;
  }
  return sum / 2;
}

}  // namespace

BenchmarkScore score_benchmark(const BenchmarkSet& set, const AgentMaker& make, const Rules& rules,
                               int threads, uint64_t seed) {
  if (threads < 1) throw Error("benchmark: threads must be at least 1");
  const size_t n = set.decisions.size();
  const bool halves = set.format == 2;
  std::vector<double> loss(n, 0.0), cross(halves ? n : 0, 0.0);
  std::vector<char> outside(n, 0);
  std::string spec;
  std::mutex mutex;
  std::exception_ptr failure;
  auto worker = [&](int t) {
    try {
      std::unique_ptr<Agent> agent = make();
      if (!agent) throw Error("benchmark: the agent factory returned no agent");
      if (t == 0) spec = agent->spec();
      MoveList moves;
      for (size_t i = static_cast<size_t>(t); i < n; i += static_cast<size_t>(threads)) {
        const BenchmarkDecision& d = set.decisions[i];
        const Position chosen = benchmark_choice(*agent, d, i, seed, rules, moves).position;
        const double best = d.candidates.front().equity;
        auto it = std::find_if(d.candidates.begin(), d.candidates.end(),
                               [&](const BenchmarkCandidate& c) { return c.result == chosen; });
        if (it == d.candidates.end()) {
          loss[i] = best - d.candidates.back().equity;
          outside[i] = 1;
        } else {
          loss[i] = best - it->equity;
        }
        if (halves)
          cross[i] = cross_fitted_loss(
              d, it == d.candidates.end() ? -1 : static_cast<int>(it - d.candidates.begin()));
      }
    } catch (...) {
      std::lock_guard lock(mutex);
      if (!failure) failure = std::current_exception();
    }
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(worker, t);
  worker(0);
  for (auto& th : pool) th.join();
  if (failure) std::rethrow_exception(failure);

  BenchmarkScore score;
  score.agent = spec;
  score.losses = loss;
  for (const auto& [name, in] : phase_groups(set)) {
    std::vector<double> xs, xc;
    int64_t out = 0;
    for (size_t i : in) {
      xs.push_back(loss[i]), out += outside[i];
      if (halves) xc.push_back(cross[i]);
    }
    if (name == "overall")
      score.overall = phase_score(name, xs, xc, out);
    else
      score.phases.push_back(phase_score(name, xs, xc, out));
  }
  return score;
}

std::string BenchmarkScore::to_text() const {
  std::string s = "agent " + agent + ": equity lost per decision vs the best rollout result\n";
  char buf[256];
  const bool cross = overall.cross.has_value();
  std::snprintf(buf, sizeof buf, "%-9s %9s %10s %22s %10s %8s%s\n", "phase", "decisions",
                "mean (mp)", "95% CI (mp)", "> 0.1 pt", "outside",
                cross ? "   cross-fitted (mp)    95% CI (mp)" : "");
  s += buf;
  auto row = [&](const PhaseScore& p) {
    std::snprintf(buf, sizeof buf, "%-9s %9lld %10.1f   [%8.1f, %8.1f] %9.1f%% %8lld",
                  p.phase.c_str(), static_cast<long long>(p.loss.n), p.loss.mean, p.loss.ci95_low,
                  p.loss.ci95_high, 100.0 * p.share_over_0_1, static_cast<long long>(p.outside));
    s += buf;
    if (p.cross) {
      std::snprintf(buf, sizeof buf, " %19.1f   [%6.1f, %6.1f]", p.cross->mean, p.cross->ci95_low,
                    p.cross->ci95_high);
      s += buf;
    }
    s += "\n";
  };
  row(overall);
  for (const auto& p : phases) row(p);
  s += "(mp = millipoints; outside = choices not among the listed candidates, charged the "
       "largest listed loss)\n";
  if (cross)
    s += "(cross-fitted: the best picked on one half of the trials and the loss measured on the "
         "other;\n the mean is biased up by rollout noise, the cross-fitted loss down: the exact "
         "loss lies between on average)\n";
  return s;
}

std::string BenchmarkScore::to_json() const {
  auto one = [](const PhaseScore& p) {
    nlohmann::json j{{"phase", p.phase},
                     {"decisions", p.loss.n},
                     {"mean_millipoints", p.loss.mean},
                     {"se_millipoints", p.loss.se},
                     {"ci95_low", p.loss.ci95_low},
                     {"ci95_high", p.loss.ci95_high},
                     {"share_over_0_1", p.share_over_0_1},
                     {"outside", p.outside}};
    if (p.cross)
      j["cross_fitted"] = {{"mean_millipoints", p.cross->mean},
                           {"se_millipoints", p.cross->se},
                           {"ci95_low", p.cross->ci95_low},
                           {"ci95_high", p.cross->ci95_high}};
    return j;
  };
  nlohmann::json j;
  j["agent"] = agent;
  j["overall"] = one(overall);
  j["phases"] = nlohmann::json::array();
  for (const auto& p : phases) j["phases"].push_back(one(p));
  return j.dump(2);
}

BenchmarkComparison compare_benchmark(const BenchmarkSet& set, const BenchmarkScore& a,
                                      const BenchmarkScore& b) {
  const size_t n = set.decisions.size();
  if (a.losses.size() != n || b.losses.size() != n)
    throw Error("benchmark: the scores to compare are not of this set (" +
                std::to_string(a.losses.size()) + " and " + std::to_string(b.losses.size()) +
                " decisions, the set has " + std::to_string(n) + ")");
  BenchmarkComparison c;
  c.a = a.agent;
  c.b = b.agent;
  for (const auto& [name, in] : phase_groups(set)) {
    std::vector<double> mp;
    for (size_t i : in) mp.push_back(1000.0 * (a.losses[i] - b.losses[i]));
    c.phases.emplace_back(name, estimate_mean(mp));
  }
  return c;
}

std::string BenchmarkComparison::to_text() const {
  std::string s = "paired by decision: " + a + " minus " + b + ", equity lost per decision\n";
  char buf[160];
  std::snprintf(buf, sizeof buf, "%-9s %9s %12s %22s\n", "phase", "decisions", "a - b (mp)",
                "95% CI (mp)");
  s += buf;
  for (const auto& [phase, e] : phases) {
    std::snprintf(buf, sizeof buf, "%-9s %9lld %12.2f   [%8.2f, %8.2f]\n", phase.c_str(),
                  static_cast<long long>(e.n), e.mean, e.ci95_low, e.ci95_high);
    s += buf;
  }
  return s;
}

std::string BenchmarkComparison::to_json() const {
  nlohmann::json j;
  j["a"] = a;
  j["b"] = b;
  j["phases"] = nlohmann::json::array();
  for (const auto& [phase, e] : phases)
    j["phases"].push_back({{"phase", phase},
                           {"decisions", e.n},
                           {"mean_millipoints", e.mean},
                           {"se_millipoints", e.se},
                           {"ci95_low", e.ci95_low},
                           {"ci95_high", e.ci95_high}});
  return j.dump(2);
}

BenchmarkStatistics benchmark_statistics(const BenchmarkSet& set) {
  const bool halves = set.format == 2;  // every candidate has its halves
  const double nan = std::numeric_limits<double>::quiet_NaN();
  auto gap = [](const BenchmarkCandidate& c) { return (*c.halves)[0] - (*c.halves)[1]; };
  BenchmarkStatistics out;
  for (const auto& [name, in] : phase_groups(set)) {
    if (in.empty()) continue;  // a phase the set has no decisions of: nothing to measure
    int64_t candidates = 0, others = 0;
    double se = 0, equity_sq = 0, difference_sq = 0;
    for (size_t i : in) {
      const auto& cands = set.decisions[i].candidates;
      for (const auto& c : cands) {
        ++candidates;
        se += c.se;
        if (!halves) continue;
        equity_sq += gap(c) * gap(c);
        if (&c == &cands.front()) continue;
        const double diff = gap(c) - gap(cands.front());
        difference_sq += diff * diff, ++others;
      }
    }
    BenchmarkNoise n;
    n.phase = name;
    n.decisions = static_cast<int64_t>(in.size());
    n.candidates = static_cast<double>(candidates) / static_cast<double>(in.size());
    n.mean_se = se / static_cast<double>(candidates);
    n.equity_noise = halves ? std::sqrt(equity_sq / static_cast<double>(candidates)) / 2 : nan;
    n.difference_noise =
        halves && others > 0 ? std::sqrt(difference_sq / static_cast<double>(others)) / 2 : nan;
    out.phases.push_back(n);
  }
  return out;
}

std::string BenchmarkStatistics::to_text() const {
  std::string s =
      "noise of the listed equities (points; from the two halves of the trials: upper "
      "estimates)\n";
  char buf[200];
  std::snprintf(buf, sizeof buf, "%-9s %9s %11s %10s %14s %18s %7s\n", "phase", "decisions",
                "candidates", "mean SE", "equity noise", "difference noise", "ratio");
  s += buf;
  // A figure the set cannot give (a format-1 set has no halves) prints as "-", not "nan".
  auto figure = [](double x, int width, int decimals) {
    char b[40];
    if (std::isfinite(x))
      std::snprintf(b, sizeof b, "%*.*f", width, decimals, x);
    else
      std::snprintf(b, sizeof b, "%*s", width, "-");
    return std::string(b);
  };
  for (const auto& n : phases) {
    std::snprintf(buf, sizeof buf, "%-9s %9lld %11.2f %10.4f ", n.phase.c_str(),
                  static_cast<long long>(n.decisions), n.candidates, n.mean_se);
    s += buf + figure(n.equity_noise, 14, 4) + " " + figure(n.difference_noise, 18, 4) + " " +
         figure(n.difference_noise / n.equity_noise, 7, 2) + "\n";
  }
  s += "(difference noise: of a candidate's equity minus the decision's best; ratio √2 = "
       "independent\n candidates, lower = the common dice correlate them)\n";
  return s;
}

}  // namespace nardy
