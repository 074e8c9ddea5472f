// selfplay/training/labeler.h — labelled positions from self-play (`nardy label`).
//
// Game g (g = 0, 1, ...) is a game of the one agent of `players` against itself from the start,
// or, when `players` holds several, of two agents drawn from them uniformly per
// game and side (positions from games of diverse agents, as the position benchmark samples its
// decisions; a one-spec file's records do not depend on this draw), with its own random streams
// derived from (seed, g): dice, exploration (with probability `explore` a turn plays a
// uniformly random legal result instead of the agent's choice), the agent's own draws, and
// sampling (each position reached before a roll, the start included, is kept with probability
// `sample`), and with probability `candidates` a turn also keeps one of its roll's legal results
// drawn uniformly (the positions a 0-ply player has to rank, mostly moves it would not play),
// or with `top` = K > 0 the roll's K best results by the labeler net's 0-ply values instead
// (the near-equal choices a 0-ply player gets wrong; header key `top`, written only then; the
// group's records after its first are siblings, label_file.h kind 2, which `nardy fit
// --sibling-weight` compares with each other). Every kept position then gets a target for its
// side to move (win, win_mars, lose_mars, draw), from
//   * the `labeler` net spec's value at its ply (`default:ply=1`: 1-ply search of the default
//     model; selfplay/search/search.h), or
//   * with rollouts > 0, a rollout of that many trials by the `labeler` agent (stratified and
//     luck-adjusted, selfplay/evaluation/rollout.h), seeded from (seed, g, position); luck is
//     measured by `luck_head` when set (header key `luck`, written only then), else exactly.
//   * a race position that the race table covers (selfplay/tables/bearoff_table.h
//     default_bearoff_table(); header key `tables`) gets the table's exact odds instead, with
//     source LabelSource::RaceTable.
// Records go to the file (selfplay/training/label_file.h) game by game, in game order, after each
// block of games, so the file is the same bytes for any thread count, and a rerun with the same
// options appends the games still missing up to `games` (the header must match: a different
// option is an error naming it).
//
// Ranks (`world`, selfplay/distributed/world.h): every block of games is split into one
// contiguous share per rank (block_of), each rank labels its share on its own `threads` threads
// (so `threads` is per rank; a block holds 16 × threads × ranks games, against 4 × threads on
// one process: a static split waits for the slowest share, which longer shares even out), the
// ranks gather the records and rank 0 alone appends them in game order: the file is the same
// bytes as one process's. Only rank 0 reads or writes the file (the others need no shared file
// system); it tells the others how many games the file already holds. A failure on any rank —
// a bad agent, a header that differs, a write that fails on rank 0 — is an Error on every rank
// at the next exchange (at most one block later), never a hang.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/rules.h"
#include "selfplay/distributed/world.h"
#include "selfplay/search/agent_kinds.h"
#include "selfplay/training/label_file.h"

namespace nardy {

class LuckHead;  // selfplay/evaluation/luck_head.h

struct LabelOptions {
  // The agents playing the games: one, or several to draw White and Black from per game. The
  // edges parse them (parse_agent_specs; `nardy label --player` is "default").
  std::vector<AgentSpec> players;
  double explore = 0.1;   // probability of a random move per turn, [0, 1]
  double sample = 0.1;    // probability of keeping a position, (0, 1]
  double candidates = 0;  // probability of keeping a random legal result, [0, 1]
  int top = 0;  // > 0: keep the turn's `top` best results (labeler's 0-ply) instead of one random
  AgentSpec
      labeler;  // the net giving targets at its ply, or the rollout agent (CLI: default:ply=1)
  int64_t rollouts = 0;                       // > 0: rollout trials per position instead of search
  std::shared_ptr<const LuckHead> luck_head;  // the rollouts' luck measure (null: exact)
  int64_t games = 100;                        // total games the file should hold
  int threads = 1;                            // per rank
  uint64_t seed = 1;
  Rules rules;
  World* world = nullptr;  // ranks sharing the games (see above); null: this process alone
};

struct LabelProgress {
  int64_t games_done = 0, games_total = 0;
  int64_t positions = 0;      // records in the file
  int64_t new_games = 0;      // played by this call (on every rank)
  int64_t new_positions = 0;  // labelled by this call (on every rank)
  double seconds = 0;         // this call's elapsed time
};

// The header a file of these options has (the options that determine its records).
LabelHeader label_header(const LabelOptions& options);

// Creates or continues the label file at `path` until it holds options.games games; calls
// `progress` after every block of games (may be empty; on every rank, with the counts of all
// ranks). Throws Error for bad options (naming them), an agent spec that cannot be made, a file
// that is not a label file or whose header differs from these options. With a world, a
// collective: every rank calls it with the same options and path.
LabelProgress label_positions(const std::string& path, const LabelOptions& options,
                              const std::function<void(const LabelProgress&)>& progress = {});

// "label: 120/1000 games (12.0%), 1,234 positions, 3.2 games/s, 12.5 positions/s, ETA 4m30s"
std::string format_label_progress(const LabelProgress& p);

}  // namespace nardy
