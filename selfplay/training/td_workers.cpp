#include "selfplay/training/td_workers.h"

#include <algorithm>
#include <barrier>
#include <chrono>
#include <cstring>
#include <type_traits>
#include <exception>
#include <string>

#include "core/error.h"
#include "core/parallel_for.h"
#include "nn/delta_merge.h"

namespace nardy {

void TdPlayStats::add(const TdGameStats& s) {
  ++games;
  if (!s.finished) ++unfinished;
  turns += s.turns;
  updates += s.updates;
  abs_td_error += s.abs_td_error;
}

void TdPlayStats::add(const TdPlayStats& s) {
  games += s.games;
  unfinished += s.unfinished;
  turns += s.turns;
  updates += s.updates;
  abs_td_error += s.abs_td_error;
}

TdWorkers::TdWorkers(ValueNet& net, const Rules& rules, std::string_view backend, int threads,
                     int merge_every, World* world)
    : net_(net),
      threads_(threads),
      merge_every_(merge_every),
      world_(world ? world : &single_process_world()) {
  if (threads < 1) throw Error("TD workers: threads must be >= 1, got " + std::to_string(threads));
  if (merge_every < 1)
    throw Error("TD workers: merge_every must be >= 1, got " + std::to_string(merge_every));
  if (threads == 1 && world_->size() == 1) {
    players_.push_back(std::make_unique<TdSelfPlayer>(net_, rules, backend));
    return;
  }
  copies_.reserve(threads);  // the players keep references into copies_
  for (int t = 0; t < threads; ++t) {
    copies_.push_back(net_.clone());
    players_.push_back(
        std::make_unique<TdSelfPlayer>(copies_.back(), rules, backend, default_bearoff_table()));
  }
}

const char* TdWorkers::backend_name() const {
  return players_.front()->backend_name();
}

TdPlayStats TdWorkers::play_serial(int64_t begin, int64_t end,
                                   const std::function<TdGameSetup(int64_t)>& setup,
                                   const std::atomic<bool>* stop, std::atomic<int64_t>* finished) {
  TdPlayStats stats;
  for (int64_t g = begin; g < end; ++g) {
    if (stop && stop->load(std::memory_order_relaxed)) break;
    TdGameSetup game = setup(g);
    stats.add(players_.front()->play_game(game.rng, game.params));
    if (finished) finished->fetch_add(1, std::memory_order_relaxed);
  }
  return stats;
}

bool TdWorkers::merge_round(bool failed_here, bool stop_here) {
  if (world_->size() == 1) {
    if (!failed_here) merge_deltas(net_, copies_);
    return stop_here;
  }
  // Flags first, so that every rank agrees on whether the deltas follow.
  const int ranks = world_->size();
  const float flags[2] = {failed_here ? 1.0f : 0.0f, stop_here ? 1.0f : 0.0f};
  std::vector<float> all_flags(2 * static_cast<size_t>(ranks));
  world_->all_gather(flags, all_flags);
  bool stop = false;
  for (int r = 0; r < ranks; ++r) {
    if (all_flags[2 * static_cast<size_t>(r)] != 0 && r != world_->rank())
      throw Error("TD workers: rank " + std::to_string(r) + " of " + std::to_string(ranks) +
                  " failed during a round (its own output says why)");
    stop = stop || all_flags[2 * static_cast<size_t>(r) + 1] != 0;
  }
  if (failed_here) return true;
  const size_t n = parameter_count(net_), local = copies_.size() * n;
  deltas_.resize(local * static_cast<size_t>(ranks + 1));
  std::span<float> mine(deltas_.data(), local), all(deltas_.data() + local, local * ranks);
  for (size_t t = 0; t < copies_.size(); ++t) write_delta(net_, copies_[t], mine.subspan(t * n, n));
  world_->all_gather(mine, all);
  merge_cost_.floats_sent_per_round = static_cast<int64_t>(local) + 2;
  add_deltas(net_, all);  // workers r·T + t in order: the same sum as one process's
  return stop;
}

TdPlayStats TdWorkers::total_over_ranks(const std::vector<TdPlayStats>& local) const {
  TdPlayStats total;
  if (world_->size() == 1) {
    for (const auto& s : local) total.add(s);
    return total;
  }
  static_assert(std::is_trivially_copyable_v<TdPlayStats>);
  const std::string bytes(reinterpret_cast<const char*>(local.data()),
                          local.size() * sizeof(TdPlayStats));
  for (const std::string& rank_bytes : world_->all_gather_bytes(bytes)) {
    if (rank_bytes.size() != bytes.size())
      throw Error("TD workers: the ranks run different thread counts (" +
                  std::to_string(rank_bytes.size() / sizeof(TdPlayStats)) + " vs " +
                  std::to_string(local.size()) + "); every rank needs the same run.threads");
    for (size_t t = 0; t < local.size(); ++t) {
      TdPlayStats s;
      std::memcpy(&s, rank_bytes.data() + t * sizeof(TdPlayStats), sizeof s);
      total.add(s);  // in global worker order, as one process of R·T threads sums them
    }
  }
  return total;
}

TdPlayStats TdWorkers::play(int64_t begin, int64_t end,
                            const std::function<TdGameSetup(int64_t)>& setup,
                            const std::atomic<bool>* stop, std::atomic<int64_t>* finished) {
  if (begin >= end) return {};
  if (copies_.empty()) return play_serial(begin, end, setup, stop, finished);

  const int64_t workers = static_cast<int64_t>(threads_) * world_->size();
  const int64_t first_worker = static_cast<int64_t>(threads_) * world_->rank();
  const int64_t round_games = workers * merge_every_;
  // Round state: written only by the barrier's completion step, which runs while every worker
  // waits, and read by the workers between barriers.
  int64_t round_begin = begin;
  int64_t round_end = std::min(end, begin + round_games);
  bool done = false;
  std::atomic<bool> failed{false};
  std::exception_ptr merge_error;  // the merge's, or another rank's failure
  std::vector<TdPlayStats> stats(threads_);

  auto end_round = [&]() noexcept {
    bool stop_all = true;
    try {
      const bool failed_here = failed.load();
      const auto t0 = std::chrono::steady_clock::now();
      stop_all = merge_round(failed_here, stop && stop->load(std::memory_order_relaxed));
      merge_cost_.seconds +=
          std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      ++merge_cost_.rounds;
    } catch (...) {
      merge_error = std::current_exception();
      failed = true;
    }
    round_begin = round_end;
    round_end = std::min(end, round_begin + round_games);
    done = failed.load() || round_begin >= end || stop_all;
  };
  std::barrier sync(threads_, end_round);

  // A worker that fails keeps arriving at the barrier (so the others are not left waiting) and
  // rethrows its exception when the rounds end; run_threads passes it on.
  run_threads(threads_, [&](int t) {
    std::exception_ptr error;
    while (true) {
      if (!failed.load(std::memory_order_relaxed)) {
        try {
          copies_[t].copy_parameters_from(net_);
          for (int64_t g = round_begin + first_worker + t; g < round_end; g += workers) {
            TdGameSetup game = setup(g);
            stats[t].add(players_[t]->play_game(game.rng, game.params));
            if (finished) finished->fetch_add(1, std::memory_order_relaxed);
          }
        } catch (...) {
          error = std::current_exception();
          failed = true;
        }
      }
      sync.arrive_and_wait();
      if (done) break;
    }
    if (error) std::rethrow_exception(error);
  });
  if (merge_error) std::rethrow_exception(merge_error);
  return total_over_ranks(stats);
}

}  // namespace nardy
