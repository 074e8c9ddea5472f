#include "selfplay/distributed/world.h"

#include <algorithm>

#include "core/error.h"

namespace nardy {

void SingleProcessWorld::all_gather(std::span<const float> mine, std::span<float> all) {
  if (all.size() != mine.size())
    throw Error("all_gather: output holds " + std::to_string(all.size()) + " floats, expected " +
                std::to_string(mine.size()));
  std::copy(mine.begin(), mine.end(), all.begin());
}

std::vector<std::string> SingleProcessWorld::all_gather_bytes(std::string_view mine) {
  return {std::string(mine)};
}

void SingleProcessWorld::broadcast(std::string&, int root) {
  if (root != 0) throw Error("broadcast: root " + std::to_string(root) + " is not a rank of 1");
}

std::vector<std::string> gather_results(World& world, std::string_view mine,
                                        std::exception_ptr error, const std::string& job) {
  std::string sent;
  if (error) {
    try {
      std::rethrow_exception(error);
    } catch (const std::exception& e) {
      sent = std::string("E") + e.what();
    } catch (...) {
      sent = "Eunknown error";
    }
  } else {
    sent = "R" + std::string(mine);
  }
  std::vector<std::string> all = world.all_gather_bytes(sent);
  if (error) std::rethrow_exception(error);
  for (size_t r = 0; r < all.size(); ++r) {
    if (all[r].empty() || all[r][0] != 'R')
      throw Error(job + ": rank " + std::to_string(r) +
                  " failed: " + (all[r].empty() ? std::string("(no message)") : all[r].substr(1)));
    all[r].erase(0, 1);
  }
  return all;
}

namespace {

std::string joined(const std::vector<std::string>& args) {
  std::string s;
  for (const std::string& a : args) s += (s.empty() ? "" : " ") + a;
  return s;
}

std::vector<std::string> split_nul(const std::string& s) {
  std::vector<std::string> out;
  size_t start = 0;
  for (size_t i = 0; i < s.size(); ++i)
    if (s[i] == '\0') {
      out.push_back(s.substr(start, i - start));
      start = i + 1;
    }
  return out;
}

}  // namespace

void require_same_command(World& world, const std::vector<std::string>& args) {
  std::string mine;
  for (const std::string& a : args) mine += a + '\0';
  const std::vector<std::string> all = world.all_gather_bytes(mine);
  for (size_t r = 1; r < all.size(); ++r) {
    if (all[r] == all[0]) continue;
    const std::vector<std::string> a = split_nul(all[0]), b = split_nul(all[r]);
    size_t i = 0;
    while (i < a.size() && i < b.size() && a[i] == b[i]) ++i;
    auto arg = [&](const std::vector<std::string>& v) {
      return i < v.size() ? "'" + v[i] + "'" : std::string("nothing");
    };
    throw Error("distributed: rank " + std::to_string(r) +
                " runs another command than rank 0: argument " + std::to_string(i + 1) + " is " +
                arg(b) + " there and " + arg(a) + " on rank 0 (rank 0: `" + joined(a) + "`; rank " +
                std::to_string(r) + ": `" + joined(b) +
                "`); every rank must be started with the same arguments");
  }
}

World& single_process_world() {
  static SingleProcessWorld world;
  return world;
}

IndexRange block_of(int64_t count, int rank, int size) {
  if (size < 1 || rank < 0 || rank >= size || count < 0)
    throw Error("block_of: bad split of " + std::to_string(count) + " items, rank " +
                std::to_string(rank) + " of " + std::to_string(size));
  const int64_t base = count / size, extra = count % size;
  const int64_t begin = rank * base + std::min<int64_t>(rank, extra);
  return IndexRange{begin, begin + base + (rank < extra ? 1 : 0)};
}

}  // namespace nardy
