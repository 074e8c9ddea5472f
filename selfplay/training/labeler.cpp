#include "selfplay/training/labeler.h"

#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <optional>
#include <utility>

#include "core/error.h"
#include "core/file_io.h"
#include "core/game.h"
#include "core/movegen.h"
#include "core/parallel_for.h"
#include "core/random.h"
#include "selfplay/evaluation/luck_head.h"
#include "selfplay/evaluation/rollout.h"
#include "selfplay/search/agent_kinds.h"
#include "selfplay/search/search.h"
#include "selfplay/search/shipped_models.h"
#include "selfplay/tables/bearoff_table.h"
#include "selfplay/training/progress.h"

namespace nardy {
namespace {

constexpr uint64_t kLabelSalt = 0x6c6162656c73ULL;  // "labels"
constexpr int kMaxTurns = 10000;

// The shortest text that reads back as v.
std::string number_text(double v) {
  char buf[64];
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof buf, "%.*g", precision, v);
    if (std::strtod(buf, nullptr) == v) break;
  }
  return buf;
}

void check_options(const LabelOptions& o) {
  auto fail = [](const std::string& m) { throw Error("label: " + m); };
  if (!(o.explore >= 0 && o.explore <= 1))
    fail("explore must be in [0, 1], got " + number_text(o.explore));
  if (!(o.candidates >= 0 && o.candidates <= 1))
    fail("candidates must be in [0, 1], got " + number_text(o.candidates));
  if (!(o.sample > 0 && o.sample <= 1))
    fail("sample must be in (0, 1], got " + number_text(o.sample));
  if (o.rollouts < 0) fail("rollouts must be >= 0, got " + std::to_string(o.rollouts));
  if (o.games < 0 || o.games > (int64_t{1} << 32))
    fail("games must be in [0, 2^32], got " + std::to_string(o.games));
  if (o.threads < 1) fail("threads must be at least 1, got " + std::to_string(o.threads));
  if (o.top < 0) fail("top must be >= 0, got " + std::to_string(o.top));
  if (o.top > 0 && o.rollouts > 0)
    fail(
        "top ranks a turn's results with the labeler net's 0-ply values: it needs search "
        "targets (no --rollouts)");
  if (o.top > 0 && !(o.candidates > 0))
    fail("top keeps the best results on the turns drawn with probability candidates, which is 0");
  if (o.players.empty()) fail("no player agents");
  if (o.rollouts == 0 && !o.labeler.is_net())
    fail("labeler '" + o.labeler.text +
         "' is not a net spec (net:PATH, model:NAME or default, with :ply=N); other agents label "
         "with --rollouts N");
}

// One thread's agents.
struct Workers {
  std::vector<std::unique_ptr<Agent>> players;  // one per spec of o.players
  std::unique_ptr<Agent> labeler;               // a NetAgent unless rollouts
  std::vector<ScoredMove> scored;               // scratch of the top-results ranking
};

// The records of game g (its positions and its end record).
std::string label_game(uint32_t g, const LabelOptions& o, Workers& w) {
  Rng game_rng(mix_seed(mix_seed(o.seed ^ kLabelSalt) + g));
  Rng dice_rng = game_rng.split(1), explore_rng = game_rng.split(2), agent_rng = game_rng.split(3),
      sample_rng = game_rng.split(4);
  const uint64_t rollout_seed = game_rng.split(5).next();
  Rng candidate_rng = game_rng.split(6);
  // White's and Black's agents: with several specs, drawn uniformly per game from their own
  // stream (so the other streams, and a one-spec file's records, do not depend on the list).
  std::array<Agent*, 2> side{w.players[0].get(), w.players[0].get()};
  if (w.players.size() > 1) {
    Rng side_rng = game_rng.split(7);
    for (auto& a : side)
      a = w.players[side_rng.below(static_cast<uint32_t>(w.players.size()))].get();
  }
  std::vector<Position> kept;
  std::vector<bool> sibling;  // kept[i] is a result of the same roll as kept[i - 1]
  Position pos = Position::start();
  MoveList moves;
  for (int turn = 0; !game_outcome(pos, o.rules); ++turn) {
    if (turn >= kMaxTurns)
      throw Error("label: game " + std::to_string(g) + " did not end in " +
                  std::to_string(kMaxTurns) + " turns (agent '" + agent_specs_text(o.players) +
                  "')");
    if (sample_rng.uniform() < o.sample) {
      kept.push_back(pos);
      sibling.push_back(false);
    }
    const Dice dice = roll_turn(dice_rng, o.rules, turn == 0);
    generate_moves(pos, dice, o.rules, moves);
    if (o.candidates > 0 && candidate_rng.uniform() < o.candidates) {
      if (o.top > 0) {
        // The roll's o.top best results by the labeler net's 0-ply values (a fresh cache
        // generation: the ranking depends only on the position and roll).
        Search& search = static_cast<NetAgent&>(*w.labeler).search();
        search.cache().new_generation();
        search.score_moves(pos, moves, 0, w.scored);
        const size_t n = std::min(w.scored.size(), static_cast<size_t>(o.top));
        bool first = true;  // the rest of the group are its siblings (label_file.h kind 2)
        for (size_t k = 0; k < n; ++k) {
          const Position& c = moves[w.scored[k].index].position;
          if (game_outcome(c, o.rules)) continue;
          kept.push_back(c);
          sibling.push_back(!first);
          first = false;
        }
      } else {
        const Position& c =
            moves[candidate_rng.below(static_cast<uint32_t>(moves.size()))].position;
        if (!game_outcome(c, o.rules)) {
          kept.push_back(c);
          sibling.push_back(false);
        }
      }
    }
    size_t chosen = 0;
    if (moves.size() > 1 && o.explore > 0 && explore_rng.uniform() < o.explore)
      chosen = explore_rng.below(static_cast<uint32_t>(moves.size()));
    else
      chosen = side[pos.side_to_move() == Side::White ? 0 : 1]->choose(pos, dice, moves, agent_rng);
    pos = moves[chosen].position;
  }
  std::string out;
  LabelRecord r;
  r.game = g;
  for (size_t i = 0; i < kept.size(); ++i) {
    r.position = kept[i];
    r.sibling = sibling[i];
    if (auto exact = table_evaluation(default_bearoff_table(), kept[i], o.rules)) {
      r.target = *exact;
      r.source = static_cast<uint8_t>(LabelSource::RaceTable);
    } else if (o.rollouts > 0) {
      RolloutOptions ro;
      ro.trials = o.rollouts;
      ro.luck_head = o.luck_head;
      ro.seed = mix_seed(rollout_seed + i);
      ro.rules = o.rules;
      // The rollout's own luck search values races as the labeller's spec says (race_net=0).
      if (o.labeler.is_net()) ro.race_net = o.labeler.options.race_net;
      const Rules rules = o.rules;
      const RolloutResult res = rollout(
          kept[i], [spec = o.labeler, rules] { return build_agent(spec, rules); }, {}, ro);
      const auto& a = res.adjusted;
      // Luck adjustment can push a mean slightly outside [0, 1]: clamp into a consistent target.
      auto clamp01 = [](double x) { return static_cast<float>(std::min(1.0, std::max(0.0, x))); };
      Evaluation t;
      t.draw = clamp01(a[kRoDraw].mean);
      t.win = std::min(clamp01(a[kRoWin].mean), 1.0f - t.draw);
      t.win_mars = std::min(clamp01(a[kRoWinMars].mean), t.win);
      t.lose_mars = std::min(clamp01(a[kRoLoseMars].mean), t.lose());
      r.target = t;
      r.source = static_cast<uint8_t>(LabelSource::Rollout);
    } else {
      auto& agent = static_cast<NetAgent&>(*w.labeler);
      r.target = agent.evaluate(kept[i]);
      r.source = search_source(agent.options().ply);
    }
    append_label_record(out, r);
  }
  append_label_record(out, r, /*end_of_game=*/true);
  return out;
}

}  // namespace

LabelHeader label_header(const LabelOptions& o) {
  LabelHeader h;
  h.fields = {{"player", agent_specs_text(o.players)},
              {"explore", number_text(o.explore)},
              {"sample", number_text(o.sample)},
              {"candidates", number_text(o.candidates)},
              {"labeler", o.labeler.text},
              {"rollouts", std::to_string(o.rollouts)},
              {"seed", std::to_string(o.seed)},
              {"tables", default_bearoff_table() ? default_bearoff_path() : "none"},
              {"rules", o.rules.to_string()}};
  if (o.top > 0) h.fields.push_back({"top", std::to_string(o.top)});
  // Only when there is one, so files labelled before the race net keep their header.
  if (default_shipped_race_net()) h.fields.push_back({"race_net", "on"});
  if (o.rollouts > 0 && o.luck_head) h.fields.push_back({"luck", o.luck_head->describe()});
  return h;
}

std::string format_label_progress(const LabelProgress& p) {
  const double s = p.seconds > 0 ? p.seconds : 1e-9;
  const double gps = p.new_games / s;
  const double eta = gps > 0 ? (p.games_total - p.games_done) / gps : -1;
  char buf[256];
  std::snprintf(buf, sizeof buf,
                "label: %lld/%lld games (%.1f%%), %lld positions, %.2f games/s, %.1f positions/s, "
                "elapsed %s, ETA %s",
                static_cast<long long>(p.games_done), static_cast<long long>(p.games_total),
                p.games_total > 0 ? 100.0 * p.games_done / p.games_total : 100.0,
                static_cast<long long>(p.positions), gps, p.new_positions / s,
                format_duration(p.seconds).c_str(), format_duration(eta).c_str());
  return buf;
}

namespace {

// Rank 0's side of the file: checks or writes its header, truncates a partial game, and returns
// the games and records it holds.
std::pair<int64_t, int64_t> open_label_file(const std::string& path, const LabelHeader& header) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) {
    write_file_atomic(path, header.to_text(), "label file");
    return {0, 0};
  }
  const LabelFile f = read_label_file(path);
  for (const auto& [key, value] : header.fields) {
    const std::string have = f.header.get(key);
    if (have != value)
      throw Error("label file '" + path + "': written with " + key + " '" + have +
                  "', now asked for '" + value +
                  "' (use the same options to continue it, or another file)");
  }
  if (f.header.fields.size() != header.fields.size())
    throw Error("label file '" + path + "': its header has other keys than this build writes");
  std::filesystem::resize_file(path, f.complete_bytes, ec);
  if (ec) throw Error("label file '" + path + "': cannot truncate a partial game: " + ec.message());
  return {f.games, static_cast<int64_t>(f.records.size())};
}

std::string int64_bytes(std::initializer_list<int64_t> values) {
  std::string s;
  for (int64_t v : values) s.append(reinterpret_cast<const char*>(&v), sizeof v);
  return s;
}

}  // namespace

LabelProgress label_positions(const std::string& path, const LabelOptions& o,
                              const std::function<void(const LabelProgress&)>& progress) {
  check_options(o);
  World& world = o.world ? *o.world : single_process_world();
  const bool root = world.is_root();
  LabelProgress p;
  p.games_total = o.games;
  // Set-up on every rank (the agents; on rank 0 also the file), then one exchange: a failure on
  // any rank stops every rank, and the others learn how far the file is.
  std::vector<AgentMaker> make_players;
  AgentMaker make_labeler;
  std::optional<AppendFileWriter> out;
  std::exception_ptr error;  // this rank's failure, sent at the next exchange
  std::string counts;
  try {
    for (const AgentSpec& spec : o.players)
      make_players.push_back(checked_agent_maker(spec, o.rules));
    make_labeler = checked_agent_maker(o.labeler, o.rules);
    if (root) {
      const auto [games, positions] = open_label_file(path, label_header(o));
      counts = int64_bytes({games, positions});
      out.emplace("label file", path);
    }
  } catch (...) {
    error = std::current_exception();
  }
  {
    const std::vector<std::string> all = gather_results(world, counts, error, "label");
    if (all[0].size() != 2 * sizeof(int64_t)) throw Error("label: rank 0 sent no file counts");
    std::memcpy(&p.games_done, all[0].data(), sizeof(int64_t));
    std::memcpy(&p.positions, all[0].data() + sizeof(int64_t), sizeof(int64_t));
  }
  const auto t0 = std::chrono::steady_clock::now();
  // Games per thread of a block: ranks split a block statically, so they take longer blocks
  // (the slowest share sets the pace of each).
  const int64_t per_thread = world.size() == 1 ? 4 : 16;
  const int64_t block = per_thread * o.threads * world.size();
  while (p.games_done < o.games) {
    const int64_t n = std::min(block, o.games - p.games_done);
    const IndexRange mine = block_of(n, world.rank(), world.size());
    const int64_t first = p.games_done + mine.begin;
    std::string bytes;
    if (!error) {
      try {
        std::vector<std::string> games(static_cast<size_t>(mine.size()));
        parallel_for(
            mine.size(), o.threads,
            [&](int) {
              Workers w;
              for (const auto& make : make_players) w.players.push_back(make());
              w.labeler = make_labeler();
              return w;
            },
            [&](Workers& w, int64_t i) {
              games[static_cast<size_t>(i)] = label_game(static_cast<uint32_t>(first + i), o, w);
            });
        for (const auto& g : games) bytes += g;
      } catch (...) {
        error = std::current_exception();
      }
    }
    // Every rank's games in rank order: the block's games in game order.
    const std::vector<std::string> all = gather_results(world, bytes, error, "label");
    int64_t positions = 0;
    for (const std::string& rank_bytes : all) {
      if (root && !error) {
        try {
          out->write(rank_bytes);
        } catch (...) {
          error = std::current_exception();
        }
      }
      positions += static_cast<int64_t>(rank_bytes.size() / kLabelRecordBytes);
    }
    positions -= n;  // each game's end record
    if (error && world.size() == 1) std::rethrow_exception(error);
    p.positions += positions;
    p.new_positions += positions;
    p.games_done += n;
    p.new_games += n;
    p.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (progress && !error) progress(p);
  }
  if (root && !error) {
    try {
      out->close();
    } catch (...) {
      error = std::current_exception();
    }
  }
  // Rank 0's last write reaches the others.
  gather_results(world, "", error, "label");
  p.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return p;
}

}  // namespace nardy
