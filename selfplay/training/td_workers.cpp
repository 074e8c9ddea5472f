#include "selfplay/training/td_workers.h"

#include <algorithm>
#include <barrier>
#include <exception>
#include <string>
#include <thread>

#include "core/error.h"
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
                     int merge_every)
    : net_(net), threads_(threads), merge_every_(merge_every) {
  if (threads < 1) throw Error("TD workers: threads must be >= 1, got " + std::to_string(threads));
  if (merge_every < 1)
    throw Error("TD workers: merge_every must be >= 1, got " + std::to_string(merge_every));
  if (threads == 1) {
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

TdPlayStats TdWorkers::play(int64_t begin, int64_t end,
                            const std::function<TdGameSetup(int64_t)>& setup,
                            const std::atomic<bool>* stop, std::atomic<int64_t>* finished) {
  if (begin >= end) return {};
  if (threads_ == 1) return play_serial(begin, end, setup, stop, finished);

  const int64_t round_games = static_cast<int64_t>(threads_) * merge_every_;
  // Round state: written only by the barrier's completion step, which runs while every worker
  // waits, and read by the workers between barriers.
  int64_t round_begin = begin;
  int64_t round_end = std::min(end, begin + round_games);
  bool done = false;
  std::atomic<bool> failed{false};
  std::vector<std::exception_ptr> errors(threads_);
  std::vector<TdPlayStats> stats(threads_);

  auto end_round = [&]() noexcept {
    if (!failed.load()) {
      try {
        merge_deltas(net_, copies_);
      } catch (...) {
        errors[0] = std::current_exception();
        failed = true;
      }
    }
    round_begin = round_end;
    round_end = std::min(end, round_begin + round_games);
    done = failed.load() || round_begin >= end || (stop && stop->load(std::memory_order_relaxed));
  };
  std::barrier sync(threads_, end_round);

  auto worker = [&](int t) {
    while (true) {
      if (!failed.load(std::memory_order_relaxed)) {
        try {
          copies_[t].copy_parameters_from(net_);
          for (int64_t g = round_begin + t; g < round_end; g += threads_) {
            TdGameSetup game = setup(g);
            stats[t].add(players_[t]->play_game(game.rng, game.params));
            if (finished) finished->fetch_add(1, std::memory_order_relaxed);
          }
        } catch (...) {
          errors[t] = std::current_exception();
          failed = true;
        }
      }
      sync.arrive_and_wait();
      if (done) return;
    }
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < threads_; ++t) pool.emplace_back(worker, t);
  worker(0);
  for (auto& th : pool) th.join();
  for (auto& e : errors)
    if (e) std::rethrow_exception(e);
  TdPlayStats total;
  for (const auto& s : stats) total.add(s);
  return total;
}

}  // namespace nardy
