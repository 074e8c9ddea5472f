// selfplay/distributed/world.h — the processes ("ranks") one job runs on, and the few
// collective operations the long jobs need: all-gather, broadcast, barrier.
//
// A job (training, a match, a rollout) runs the same program on every rank; each rank does its
// share of the work and the ranks exchange results through a World. Two implementations:
//   * SingleProcessWorld (this header): one rank; every collective is a copy. What every job
//     runs on without a launcher, so the code paths are the same.
//   * the c10d Gloo world (selfplay/distributed/world_env.h, selfplay/distributed/world_gloo.cpp):
//     PyTorch's distributed engine over TCP, set up from the environment torchrun provides.
//     That .cpp is the only file that includes LibTorch's distributed headers.
//
// Contract of every collective: all ranks call the same collectives in the same order (a
// collective is a meeting point). Results arrive in rank order, so a job that combines them in
// that order gets the same bits on any number of ranks. A collective that cannot complete —
// another rank died, hung past the World's timeout, or called a different collective — throws
// Error naming this rank and the operation, never hangs; the World is unusable afterwards.
#pragma once

#include <cstdint>
#include <exception>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace nardy {

class World {
 public:
  virtual ~World() = default;

  virtual int rank() const = 0;  // 0 .. size() - 1
  virtual int size() const = 0;  // >= 1
  // E.g. "rank 1 of 3 (c10d Gloo via 127.0.0.1:29500)".
  virtual std::string description() const = 0;

  // Every rank passes `mine` of one common length n; `all` (size() * n floats) receives rank r's
  // floats at [r * n, (r + 1) * n). Throws Error if all.size() != size() * mine.size().
  virtual void all_gather(std::span<const float> mine, std::span<float> all) = 0;
  // Every rank passes bytes of any length; returns every rank's bytes, in rank order.
  virtual std::vector<std::string> all_gather_bytes(std::string_view mine) = 0;
  // Rank `root`'s `data` replaces `data` on every rank (any length).
  virtual void broadcast(std::string& data, int root) = 0;
  virtual void barrier() = 0;

  bool is_root() const { return rank() == 0; }
};

// One process: rank 0 of 1.
class SingleProcessWorld final : public World {
 public:
  int rank() const override { return 0; }
  int size() const override { return 1; }
  std::string description() const override { return "a single process"; }
  void all_gather(std::span<const float> mine, std::span<float> all) override;
  std::vector<std::string> all_gather_bytes(std::string_view mine) override;
  void broadcast(std::string&, int root) override;
  void barrier() override {}
};

// All-gather of a job's results that also carries failures: a rank whose `error` is set sends
// its message instead of `mine`. Every rank then rethrows its own error, or throws
// Error("JOB: rank R failed: MESSAGE") for the lowest failed rank; otherwise returns every rank's
// bytes in rank order.
std::vector<std::string> gather_results(World& world, std::string_view mine,
                                        std::exception_ptr error, const std::string& job);

// Every rank of a job must run the same command: a rank started with other options (another
// --games, agent or --seed) would meet the others' collectives with different work and print
// mixed results. Gathers every rank's arguments (the command line without the program's path)
// and throws Error on every rank, naming the first rank whose arguments differ from rank 0's
// and the first argument that differs; returns when all agree. A collective like the others.
void require_same_command(World& world, const std::vector<std::string>& args);

// The shared SingleProcessWorld (what a job runs on when given no World).
World& single_process_world();

// Rank `rank`'s share of `count` items split into size() contiguous blocks in rank order:
// [begin, end), the first count % size ranks one item longer. Concatenating the blocks in rank
// order gives 0 .. count - 1.
struct IndexRange {
  int64_t begin = 0, end = 0;
  int64_t size() const { return end - begin; }
};
IndexRange block_of(int64_t count, int rank, int size);

}  // namespace nardy
