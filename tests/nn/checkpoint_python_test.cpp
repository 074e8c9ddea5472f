// Python opens a C++ checkpoint: torch.jit.load with the nardy.json extra file, and forward()
// gives the C++ numbers. Skipped (not failed) only when /usr/bin/python3 has no torch.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <fstream>
#include <iomanip>

#include "nn/value_net.h"
#include "tests/nn/test_nets.h"
#include "tests/support/temp_dir.h"

namespace nardy {
namespace {

constexpr const char* kPython = "/usr/bin/python3";

// Reads the checkpoint and the expected numbers, checks metadata and forward(); exit 0 if all
// agree, 1 otherwise (printing why).
constexpr const char* kScript = R"PY(
import json, sys, torch
path, data = sys.argv[1], sys.argv[2]
extra = {"nardy.json": ""}
m = torch.jit.load(path, _extra_files=extra)
meta = json.loads(extra["nardy.json"])
want = {"format_version": 1, "encoder": "extended-v1", "num_inputs": 215, "hidden": [24],
        "activation": "tanh", "num_outputs": 4, "games": 42, "rules": "last_roll_draw=true"}
for k, v in want.items():
    if meta.get(k) != v:
        print("metadata", k, meta.get(k), "!=", v); sys.exit(1)
if meta["extra"].get("note") != "from C++":
    print("extra", meta["extra"]); sys.exit(1)
rows = [list(map(float, l.split())) for l in open(data)]
n = int(rows[0][0])
x = torch.tensor(rows[1:1 + n], dtype=torch.float32)
expected = torch.tensor(rows[1 + n:1 + 2 * n], dtype=torch.float32)
with torch.no_grad():
    y = m(x)
    z = m.logits(x)
if tuple(y.shape) != (n, 5) or tuple(z.shape) != (n, 4):
    print("shapes", y.shape, z.shape); sys.exit(1)
err = (y - expected).abs().max().item()
if err > 1e-5:
    print("max error", err); sys.exit(1)
print("ok", n, "rows, max error", err)
)PY";

int run(const std::string& command) {
  const int status = std::system(command.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST(CheckpointPython, TorchJitLoadGivesTheSameForward) {
  if (run(std::string(kPython) + " -c 'import torch' > /dev/null 2>&1") != 0)
    GTEST_SKIP() << kPython << " has no torch module";
  testing::TempDir dir;
  const std::string path = dir.file("net.pt"), data = dir.file("data.txt"),
                    script = dir.file("check.py");
  ValueNet net = testing::spread_net(testing::shape_of("extended-v1", 24, Activation::Tanh, 4), 6);
  CheckpointInfo info;
  info.rules = "last_roll_draw=true";
  info.games = 42;
  info.extra = {{"note", "from C++"}};
  net.save(path, info);

  const auto positions = testing::sample_positions(3, 1);
  const auto x = testing::encode_all(net.encoder(), positions);
  const int n = static_cast<int>(positions.size());
  std::vector<Evaluation> e(n);
  net.evaluate_batch(x, n, e);
  {
    std::ofstream f(data);
    f << std::setprecision(9) << n << "\n";
    for (int i = 0; i < n; ++i) {
      for (int k = 0; k < net.num_inputs(); ++k) f << x[i * net.num_inputs() + k] << ' ';
      f << "\n";
    }
    for (int i = 0; i < n; ++i)
      f << e[i].win << ' ' << e[i].win_mars << ' ' << e[i].lose_mars << ' ' << e[i].draw << ' '
        << e[i].equity() << "\n";
    std::ofstream(script) << kScript;
  }
  EXPECT_EQ(run(std::string(kPython) + " " + script + " " + path + " " + data), 0);
}

}  // namespace
}  // namespace nardy
