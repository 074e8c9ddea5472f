// The c10d Gloo World (selfplay/distributed/world.h, world_env.h): the one file that includes
// LibTorch's distributed headers.
#include <torch/csrc/distributed/c10d/PrefixStore.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#include <torch/csrc/distributed/c10d/TCPStore.hpp>
#include <torch/torch.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <sstream>

#include "core/error.h"
#include "selfplay/distributed/store_probe.h"
#include "selfplay/distributed/world_env.h"

namespace nardy {

namespace {

std::string message_of(const std::exception& e) {
  if (auto* c = dynamic_cast<const c10::Error*>(&e)) return c->what_without_backtrace();
  return e.what();
}

// "5", "0.25": a timeout as NARDY_DIST_TIMEOUT gives it.
std::string seconds_text(std::chrono::milliseconds t) {
  std::ostringstream out;
  out << static_cast<double>(t.count()) / 1000;
  return out.str();
}

bool is_loopback(const std::string& host) {
  return host == "localhost" || host.rfind("127.", 0) == 0 || host == "::1";
}

class GlooWorld final : public World {
 public:
  explicit GlooWorld(const WorldEnv& env)
      : rank_(env.rank),
        size_(env.size),
        timeout_(std::chrono::milliseconds(static_cast<int64_t>(env.timeout_s * 1000))),
        where_(env.master_addr + ":" + std::to_string(env.master_port)) {
    guard("rendezvous at " + where_, [&] {
      // A client first checks that a store answers there (junk would crash c10d's client).
      if (env.agent_store || rank_ != 0)
        probe_store(env.master_addr, env.master_port, rank_, timeout_);
      c10d::TCPStoreOptions so;
      so.port = static_cast<uint16_t>(env.master_port);
      so.isServer = !env.agent_store && rank_ == 0;
      so.numWorkers = size_;
      so.waitWorkers = false;
      so.timeout = timeout_;
      so.multiTenant = true;
      c10::intrusive_ptr<c10d::Store> store =
          c10::make_intrusive<c10d::TCPStore>(env.master_addr, so);
      const std::string prefix = env.store_prefix.empty() ? "nardy" : env.store_prefix + "/nardy";
      store = c10::make_intrusive<c10d::PrefixStore>(prefix, store);
      wait_for_all_ranks(*store);
      auto options = c10d::ProcessGroupGloo::Options::create(timeout_);
      if (!env.socket_ifname.empty())
        options->devices.push_back(
            c10d::ProcessGroupGloo::createDeviceForInterface(env.socket_ifname));
      else if (is_loopback(env.master_addr))
        options->devices.push_back(c10d::ProcessGroupGloo::createDeviceForHostname("127.0.0.1"));
      else
        options->devices.push_back(c10d::ProcessGroupGloo::createDefaultDevice());
      options->threads = 1;
      group_ = c10::make_intrusive<c10d::ProcessGroupGloo>(store, rank_, size_, options);
    });
  }

  // Every rank counts itself in and waits (at most the timeout) until all have: only then is
  // the Gloo group made. Gloo's own wait would also end at the timeout, but unwinding its
  // half-built mesh takes ~10 ms per rank (each pair waits for its event loop's tick): 11 s
  // past the timeout at 1024 ranks.
  void wait_for_all_ranks(c10d::Store& store) {
    if (store.add("joined", 1) == size_) store.set("all-joined", std::vector<uint8_t>{1});
    try {
      store.wait({"all-joined"}, timeout_);
    } catch (const std::exception& e) {
      int64_t arrived = -1;
      try {
        arrived = store.add("joined", 0);
      } catch (const std::exception&) {
      }
      throw Error(
          "distributed: " + description() + ": " +
          (arrived >= 0 ? "only " + std::to_string(arrived) : std::string("not all")) + " of " +
          std::to_string(size_) + " ranks reached the rendezvous at " + where_ +
          " within the timeout (" + seconds_text(timeout_) +
          " s, NARDY_DIST_TIMEOUT): start every rank of WORLD_SIZE=" + std::to_string(size_) +
          " with the same MASTER_ADDR and MASTER_PORT (" + message_of(e) + ")");
    }
  }

  int rank() const override { return rank_; }
  int size() const override { return size_; }
  std::string description() const override {
    return "rank " + std::to_string(rank_) + " of " + std::to_string(size_) + " (c10d Gloo via " +
           where_ + ")";
  }

  void all_gather(std::span<const float> mine, std::span<float> all) override {
    const size_t n = mine.size();
    if (all.size() != n * static_cast<size_t>(size_))
      throw Error("all_gather: output holds " + std::to_string(all.size()) + " floats, expected " +
                  std::to_string(n * static_cast<size_t>(size_)));
    guard("all-gather of " + std::to_string(n) + " floats", [&] {
      const auto opts = torch::TensorOptions().dtype(torch::kFloat32);
      std::vector<at::Tensor> in{
          torch::from_blob(const_cast<float*>(mine.data()), {static_cast<int64_t>(n)}, opts)};
      std::vector<std::vector<at::Tensor>> out(1);
      for (int r = 0; r < size_; ++r)
        out[0].push_back(torch::from_blob(all.data() + static_cast<size_t>(r) * n,
                                          {static_cast<int64_t>(n)}, opts));
      run(group_->allgather(out, in));
    });
  }

  std::vector<std::string> all_gather_bytes(std::string_view mine) override {
    std::vector<std::string> result;
    guard("all-gather of " + std::to_string(mine.size()) + " bytes", [&] {
      const auto i64 = torch::TensorOptions().dtype(torch::kInt64);
      const auto u8 = torch::TensorOptions().dtype(torch::kUInt8);
      // Lengths first, then every rank's bytes padded to the longest.
      std::vector<at::Tensor> len_in{torch::full({1}, static_cast<int64_t>(mine.size()), i64)};
      std::vector<std::vector<at::Tensor>> len_out(1);
      for (int r = 0; r < size_; ++r) len_out[0].push_back(torch::empty({1}, i64));
      run(group_->allgather(len_out, len_in));
      int64_t longest = 1;
      for (auto& t : len_out[0]) longest = std::max(longest, t.item<int64_t>());
      std::vector<at::Tensor> in{torch::zeros({longest}, u8)};
      std::memcpy(in[0].data_ptr(), mine.data(), mine.size());
      std::vector<std::vector<at::Tensor>> out(1);
      for (int r = 0; r < size_; ++r) out[0].push_back(torch::empty({longest}, u8));
      run(group_->allgather(out, in));
      for (int r = 0; r < size_; ++r)
        result.emplace_back(static_cast<const char*>(out[0][r].data_ptr()),
                            static_cast<size_t>(len_out[0][r].item<int64_t>()));
    });
    return result;
  }

  void broadcast(std::string& data, int root) override {
    if (root < 0 || root >= size_)
      throw Error("broadcast: root " + std::to_string(root) + " is not a rank of " +
                  std::to_string(size_));
    guard("broadcast from rank " + std::to_string(root), [&] {
      const auto i64 = torch::TensorOptions().dtype(torch::kInt64);
      const auto u8 = torch::TensorOptions().dtype(torch::kUInt8);
      c10d::BroadcastOptions o;
      o.rootRank = root;
      std::vector<at::Tensor> len{torch::full({1}, static_cast<int64_t>(data.size()), i64)};
      run(group_->broadcast(len, o));
      const int64_t n = len[0].item<int64_t>();
      std::vector<at::Tensor> bytes{torch::zeros({std::max<int64_t>(n, 1)}, u8)};
      if (rank_ == root) std::memcpy(bytes[0].data_ptr(), data.data(), data.size());
      run(group_->broadcast(bytes, o));
      data.assign(static_cast<const char*>(bytes[0].data_ptr()), static_cast<size_t>(n));
    });
  }

  void barrier() override {
    guard("barrier", [&] { run(group_->barrier()); });
  }

 private:
  void run(const c10::intrusive_ptr<c10d::Work>& work) { work->wait(timeout_); }

  template <class F>
  void guard(const std::string& what, F&& f) {
    if (broken_)
      throw Error("distributed: " + description() + ": " + what +
                  " after an earlier collective failed");
    try {
      f();
    } catch (const Error&) {
      broken_ = true;
      throw;
    } catch (const std::exception& e) {
      broken_ = true;
      throw Error("distributed: " + description() + ": " + what + " failed: " + message_of(e) +
                  " — another rank has probably died, or hung for longer than the timeout (" +
                  seconds_text(timeout_) + " s, NARDY_DIST_TIMEOUT)");
    }
  }

  int rank_, size_;
  std::chrono::milliseconds timeout_;
  std::string where_;
  bool broken_ = false;
  c10::intrusive_ptr<c10d::ProcessGroupGloo> group_;
};

}  // namespace

std::unique_ptr<World> make_world(const WorldEnv& env) {
  if (env.size == 1) return std::make_unique<SingleProcessWorld>();
  return std::make_unique<GlooWorld>(env);
}

}  // namespace nardy
