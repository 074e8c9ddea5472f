// The generational trainer (selfplay/training/generations.h): a run writes every stage's files
// and one metrics line per generation, is a function of its config, continues a shorter run to
// the same nets, resumes after SIGKILL in any stage to the same nets, trains for the rules of
// its config (draw output included), and refuses bad keys and start nets with clear errors.
#include "selfplay/training/generations.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>

#include <nlohmann/json.hpp>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <thread>

#include "core/error.h"
#include "core/position.h"
#include "core/file_io.h"
#include "nn/value_net.h"
#include "selfplay/evaluation/arena.h"
#include "selfplay/search/agent_kinds.h"
#include "selfplay/training/config.h"
#include "selfplay/training/fit.h"
#include "selfplay/training/label_file.h"
#include "selfplay/training/labeler.h"
#include "tests/nn/test_nets.h"
#include "tests/support/cli_run.h"
#include "tests/support/error_of.h"
#include "tests/support/temp_dir.h"

namespace nardy {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using testing::error_of;
using testing::same_parameters;

std::string search_net() {
  return std::string(NARDY_SOURCE_DIR) + "/tests/data/search_net.pt";
}

// Two small generations from the test net: 1-ply labels of a few dozen games in two files (one
// of them diverse games with sibling groups), a short fit, a 40-game gate in two chunks.
TrainConfig small_config(const std::string& dir, const std::string& name) {
  TrainConfig c;
  c.run.dir = dir;
  c.run.name = name;
  c.run.threads = 2;
  c.run.seed = 5;
  c.net.encoder = "extended";
  c.generations.count = 2;
  c.generations.init = search_net();
  c.label.sets = {"games=24", "games=16 candidates=0.3 top=3 players=heuristic,current"};
  c.label.ply = 1;
  c.label.sample = 0.2;
  c.fit.epochs = 3;
  c.fit.patience = 2;
  c.fit.lr_drops = 0;
  c.fit.batch = 64;
  c.fit.lr = 1e-3;
  c.fit.threads = 1;
  c.gate.games = 40;
  c.gate.chunk = 20;
  c.gate.promote = "not_h0";
  c.log.progress = false;
  validate(c);
  return c;
}

std::vector<json> metrics_rows(const std::string& run) {
  std::vector<json> rows;
  std::ifstream in(run + "/metrics.jsonl");
  for (std::string line; std::getline(in, line);) rows.push_back(json::parse(line));
  return rows;
}

std::vector<int> gate_points(const std::string& run, int g) {
  const std::string path = run + "/gen-00" + std::to_string(g) + "/gate.json";
  return ArenaResult::from_json(read_file(path), path).game_points;
}

int64_t label_records(const std::string& path) {
  return static_cast<int64_t>(read_label_file(path).records.size());
}

// The nets and results two runs should share (paths inside the files differ by run name).
void expect_same_run(const std::string& a, const std::string& b) {
  for (int g = 1; g <= 2; ++g) {
    SCOPED_TRACE("generation " + std::to_string(g));
    const std::string ga = a + "/gen-00" + std::to_string(g),
                      gb = b + "/gen-00" + std::to_string(g);
    EXPECT_EQ(label_records(ga + "/labels-0.lbl"), label_records(gb + "/labels-0.lbl"));
    EXPECT_EQ(label_records(ga + "/labels-1.lbl"), label_records(gb + "/labels-1.lbl"));
    EXPECT_TRUE(same_parameters(ValueNet::load(ga + "/candidate.pt"),
                                ValueNet::load(gb + "/candidate.pt")));
    EXPECT_EQ(gate_points(a, g), gate_points(b, g));
  }
  EXPECT_TRUE(
      same_parameters(ValueNet::load(a + "/current.pt"), ValueNet::load(b + "/current.pt")));
  const auto ra = metrics_rows(a), rb = metrics_rows(b);
  ASSERT_EQ(ra.size(), 2u);
  ASSERT_EQ(rb.size(), 2u);
  for (size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(ra[i]["promoted"], rb[i]["promoted"]);
    EXPECT_EQ(ra[i]["labels"], rb[i]["labels"]);
    EXPECT_EQ(ra[i]["fit"]["heldout_loss"], rb[i]["fit"]["heldout_loss"]);
  }
}

// The fit a generation of `c` runs (fit seed 1, lr `lr`), by hand: `data` from `init` to `out`.
ValueNet fit_by_hand(const TrainConfig& c, const std::vector<std::string>& data,
                     const std::string& init, const std::string& out, double lr) {
  FitRunOptions f;
  f.data = data;
  f.init = init;
  f.out = out;
  f.fit.lr = lr;
  f.fit.batch = c.fit.batch;
  f.fit.max_epochs = c.fit.epochs;
  f.fit.patience = c.fit.patience;
  f.fit.lr_drops = c.fit.lr_drops;
  f.fit.lr_drop = c.fit.lr_drop;
  f.fit.sibling_weight = c.fit.sibling_weight;
  f.fit.seed = 1;
  run_fit(f);
  return ValueNet::load(out);
}

class GenerationsTest : public ::testing::Test {
 protected:
  testing::TempDir tmp_;
  std::string root_ = tmp_.file("runs");
  std::string run(const std::string& name) const { return root_ + "/" + name; }
  GenerationsResult train(const TrainConfig& c, std::vector<std::string>* lines = nullptr) {
    GenerationsCallbacks cb;
    cb.on_line = [lines](const std::string& text, bool final) {
      if (lines && final) lines->push_back(text);
    };
    return run_generations(c, c.run_path(), c.generations.init, cb);
  }
};

TEST_F(GenerationsTest, WritesEveryStageAndOneMetricsLinePerGeneration) {
  const TrainConfig c = small_config(root_, "a");
  std::vector<std::string> lines;
  const GenerationsResult r = train(c, &lines);
  EXPECT_EQ(r.generations_done, 2);
  const std::string dir = run("a");
  for (const char* f :
       {"generations.json", "start.pt", "current.pt", "metrics.jsonl", "gen-001/labels-0.lbl",
        "gen-001/labels-1.lbl", "gen-001/candidate.pt", "gen-001/fit.json", "gen-001/gate.json",
        "gen-001/result.json", "gen-002/result.json"})
    EXPECT_TRUE(fs::exists(dir + "/" + f)) << f;
  EXPECT_FALSE(fs::exists(dir + "/gen-001/gate-partial.json"));

  // The label files: the set's games, labelled by the start net's 1-ply search, seeded per
  // generation and set; the second holds sibling groups of diverse games.
  const LabelFile first = read_label_file(dir + "/gen-001/labels-0.lbl");
  EXPECT_EQ(first.games, 24);
  EXPECT_EQ(read_label_file(dir + "/gen-001/labels-1.lbl").games, 16);
  EXPECT_NE(first.header.get("labeler").find("start.pt:ply=1"), std::string::npos);
  const LabelFile second = read_label_file(dir + "/gen-001/labels-1.lbl");
  EXPECT_EQ(second.header.get("top"), "3");
  EXPECT_NE(second.header.get("player").find("heuristic,net:"), std::string::npos);
  EXPECT_NE(first.header.get("seed"), second.header.get("seed"));
  EXPECT_NE(first.header.get("seed"),
            read_label_file(dir + "/gen-002/labels-0.lbl").header.get("seed"));

  // One metrics line per generation, the same as its result.json; the gate's figures are the
  // gate file's; the state names the current net, which current.pt copies.
  const auto rows = metrics_rows(dir);
  ASSERT_EQ(rows.size(), 2u);
  const json state = json::parse(read_file(dir + "/generations.json"));
  EXPECT_EQ(state["done"], 2);
  int promoted = 0;
  for (int g = 1; g <= 2; ++g) {
    const json& row = rows[g - 1];
    EXPECT_EQ(row, json::parse(read_file(dir + "/gen-00" + std::to_string(g) + "/result.json")));
    EXPECT_EQ(row["generation"], g);
    EXPECT_EQ(row["labels"].get<int64_t>(),
              label_records(dir + "/gen-00" + std::to_string(g) + "/labels-0.lbl") +
                  label_records(dir + "/gen-00" + std::to_string(g) + "/labels-1.lbl"));
    EXPECT_LE(row["fit"]["heldout_loss"].get<double>(), row["fit"]["initial_loss"].get<double>());
    const std::vector<int> points = gate_points(dir, g);
    EXPECT_EQ(row["gate"]["games"].get<size_t>(), points.size());
    EXPECT_EQ(points.size() % 20, 0u);
    const std::string verdict = row["gate"]["sprt"]["verdict"];
    EXPECT_EQ(row["promoted"], verdict != "H0");
    promoted += verdict != "H0";
    for (const char* k : {"label", "fit", "gate", "benchmark"})
      EXPECT_TRUE(row["seconds"].contains(k));
  }
  EXPECT_EQ(state["promoted"], promoted);
  EXPECT_EQ(state["current"], rows[1]["current"]);
  EXPECT_TRUE(same_parameters(ValueNet::load(dir + "/current.pt"),
                              ValueNet::load(dir + "/" + state["current"].get<std::string>())));
  // Generation 2 fitted the net generation 1 left current.
  const ValueNet cand2 = ValueNet::load(dir + "/gen-002/candidate.pt");
  EXPECT_NE(cand2.info()
                .extra.at("fit.init")
                .find(rows[0]["promoted"] ? "gen-001/candidate.pt" : "start.pt"),
            std::string::npos);
  // Each candidate names its run and generation (not the recipe of the net it was fitted from).
  EXPECT_EQ(cand2.info().extra.at("run"), "a");
  EXPECT_EQ(cand2.info().extra.at("fit.recipe"),
            "generation 2 of run a (nardy train; its config.yaml)");
  EXPECT_EQ(lines.size(), 2u * 5u);  // label x2, fit, gate, done per generation
}

TEST_F(GenerationsTest, SameConfigSameNetsAndAShorterRunContinues) {
  const TrainConfig c = small_config(root_, "a");
  train(c);
  TrainConfig d = small_config(root_, "b");
  d.generations.count = 1;
  EXPECT_EQ(train(d).generations_done, 1);
  d.generations.count = 2;  // the run extended by one generation
  EXPECT_EQ(train(d).generations_done, 2);
  expect_same_run(run("a"), run("b"));
  // A finished run does nothing more.
  const std::string before = read_file(run("b") + "/metrics.jsonl");
  train(d);
  EXPECT_EQ(read_file(run("b") + "/metrics.jsonl"), before);
}

// A run continued from its small files (docs/training.md, "A run longer than a session"): with
// data_window 1 the earlier generations' labels are not needed and the nets are the same; with
// data_window 2 their absence is an error naming the file, before any new label is made.
TEST_F(GenerationsTest, GoesOnWithoutEarlierLabelsUnlessItsFitReadsThem) {
  const TrainConfig c = small_config(root_, "a");
  train(c);
  auto first_generation_without_labels = [&](const std::string& name, int window) {
    TrainConfig d = small_config(root_, name);
    d.generations.count = 1;
    d.generations.data_window = window;
    train(d);
    for (int s = 0; s < 2; ++s)
      fs::remove(run(name) + "/gen-001/labels-" + std::to_string(s) + ".lbl");
    d.generations.count = 2;
    return d;
  };
  train(first_generation_without_labels("b", 1));
  EXPECT_TRUE(same_parameters(ValueNet::load(run("a") + "/gen-002/candidate.pt"),
                              ValueNet::load(run("b") + "/gen-002/candidate.pt")));
  EXPECT_TRUE(same_parameters(ValueNet::load(run("a") + "/current.pt"),
                              ValueNet::load(run("b") + "/current.pt")));

  const TrainConfig w2 = first_generation_without_labels("c", 2);
  const std::string e = error_of([&] { train(w2); });
  EXPECT_NE(e.find("gen-001/labels-0.lbl"), std::string::npos) << e;
  EXPECT_NE(e.find("generation 2's fit"), std::string::npos) << e;
  EXPECT_NE(e.find("generations.data_window = 2"), std::string::npos) << e;
  EXPECT_FALSE(fs::exists(run("c") + "/gen-002/labels-0.lbl"));
}

// generations.prior_data: every fit reads those files first (say an earlier run's labels), then
// its own; fit.json names them as given and counts their positions. A missing one stops the run
// before it labels anything, naming the file and the key.
TEST_F(GenerationsTest, EveryFitReadsThePriorDataFirst) {
  TrainConfig c = small_config(root_, "earlier");
  c.generations.count = 1;
  train(c);
  const std::string prior = run("earlier") + "/gen-001/labels-1.lbl";
  c.run.name = "later";
  c.generations.prior_data = {prior};
  train(c);
  const json fit = json::parse(read_file(run("later") + "/gen-001/fit.json"));
  EXPECT_EQ(fit["data"], json({prior, "gen-001/labels-0.lbl", "gen-001/labels-1.lbl"}));
  int64_t records = label_records(prior);
  for (int s = 0; s < 2; ++s)
    records += label_records(run("later") + "/gen-001/labels-" + std::to_string(s) + ".lbl");
  EXPECT_EQ(fit["train_positions"].get<int64_t>() + fit["heldout_positions"].get<int64_t>(),
            records);
  EXPECT_FALSE(same_parameters(ValueNet::load(run("earlier") + "/gen-001/candidate.pt"),
                               ValueNet::load(run("later") + "/gen-001/candidate.pt")));

  c.run.name = "missing";
  c.generations.prior_data = {prior, tmp_.file("nowhere.lbl")};
  const std::string e = error_of([&] { train(c); });
  EXPECT_NE(e.find("nowhere.lbl"), std::string::npos) << e;
  EXPECT_NE(e.find("generations.prior_data[1]"), std::string::npos) << e;
  EXPECT_FALSE(fs::exists(run("missing") + "/gen-001/labels-0.lbl"));
}

// generations.pool_same_labeller: after a rejected candidate the next fit reads the labels of
// every generation since the current net's promotion (all made by it), and only those: a
// promotion starts the pool again. fit.json names the files, and its position counts are theirs.
TEST_F(GenerationsTest, PoolsTheLabelsOfTheCurrentNetSinceItsPromotion) {
  auto fit_of = [&](const std::string& dir, int g) {
    return json::parse(read_file(dir + "/gen-00" + std::to_string(g) + "/fit.json"));
  };
  auto fitted_positions = [&](const std::string& dir, int g) {
    const json fit = fit_of(dir, g);
    return fit["train_positions"].get<int64_t>() + fit["heldout_positions"].get<int64_t>();
  };
  auto records_of = [&](const std::string& dir, std::vector<int> gens) {
    int64_t n = 0;
    for (int g : gens)
      for (int s = 0; s < 2; ++s)
        n += label_records(dir + "/gen-00" + std::to_string(g) + "/labels-" + std::to_string(s) +
                           ".lbl");
    return n;
  };
  // Every candidate rejected (H0: not 900 Elo better), 3 generations, all labelled by the start.
  TrainConfig c = small_config(root_, "rejected");
  c.generations.count = 3;
  c.generations.pool_same_labeller = true;
  c.gate.elo0 = 900;
  c.gate.elo1 = 1000;
  c.gate.promote = "h1";
  train(c);
  const std::string rejected = run("rejected");
  ASSERT_EQ(json::parse(read_file(rejected + "/generations.json"))["promoted"], 0);
  EXPECT_EQ(fitted_positions(rejected, 1), records_of(rejected, {1}));
  EXPECT_EQ(fitted_positions(rejected, 2), records_of(rejected, {1, 2}));
  EXPECT_EQ(fitted_positions(rejected, 3), records_of(rejected, {1, 2, 3}));
  EXPECT_EQ(fit_of(rejected, 3)["data"],
            json({"gen-001/labels-0.lbl", "gen-001/labels-1.lbl", "gen-002/labels-0.lbl",
                  "gen-002/labels-1.lbl", "gen-003/labels-0.lbl", "gen-003/labels-1.lbl"}));
  // Without the key each fit reads its own generation's labels.
  c.run.name = "window";
  c.generations.count = 2;
  c.generations.pool_same_labeller = false;
  train(c);
  EXPECT_EQ(fitted_positions(run("window"), 2), records_of(run("window"), {2}));
  // Every candidate promoted: each generation has a new labeller, so a pool of its own.
  c.run.name = "promoted";
  c.generations.pool_same_labeller = true;
  c.gate.promote = "always";
  train(c);
  EXPECT_EQ(fitted_positions(run("promoted"), 2), records_of(run("promoted"), {2}));
  // A continued run without the pool's labels stops before labelling, naming the file.
  c.run.name = "rejected";
  c.gate.promote = "h1";  // its own config again, one generation more
  c.generations.count = 4;
  fs::remove(rejected + "/gen-002/labels-1.lbl");
  const std::string e = error_of([&] { train(c); });
  EXPECT_NE(e.find("gen-002/labels-1.lbl"), std::string::npos) << e;
  EXPECT_NE(e.find("generations.pool_same_labeller"), std::string::npos) << e;
  EXPECT_FALSE(fs::exists(rejected + "/gen-004/labels-0.lbl"));
}

// A data_window reaching back to the current net's own generation: the fit reads labels that
// net was fitted to (its held-out loss biased low there), and the run says so in a warning; the
// same run with data_window 1, after a rejected candidate, or with fit.holdout_stable (every fit
// holds out the same games of a file, named by the split seed in each candidate) does not.
TEST_F(GenerationsTest, WarnsWhenTheFitReadsLabelsTheCurrentNetWasFittedTo) {
  auto warnings = [&](const std::string& name, int window, const std::string& promote,
                      bool stable = false) {
    TrainConfig c = small_config(root_, name);
    c.generations.data_window = window;
    c.fit.holdout_stable = stable;
    c.gate.promote = promote;
    if (promote == "h1") c.gate.elo0 = 900, c.gate.elo1 = 1000;  // every candidate rejected
    std::vector<std::string> lines, found;
    train(c, &lines);
    for (const std::string& l : lines)
      if (l.starts_with("warning:")) found.push_back(l);
    return found;
  };
  const std::vector<std::string> w = warnings("w2", 2, "always");
  ASSERT_EQ(w.size(), 1u);
  EXPECT_NE(w[0].find("generation 2's fit reads the labels of gen-001"), std::string::npos) << w[0];
  EXPECT_NE(w[0].find("gen-001/candidate.pt"), std::string::npos) << w[0];
  EXPECT_NE(w[0].find("generations.pool_same_labeller"), std::string::npos) << w[0];
  EXPECT_TRUE(warnings("w1", 1, "always").empty());
  EXPECT_TRUE(warnings("rejected", 2, "h1").empty());
  EXPECT_TRUE(warnings("stable", 2, "always", true).empty());
  auto split_seed = [&](const std::string& name, int g) {
    const auto extra =
        ValueNet::load(run(name) + "/gen-00" + std::to_string(g) + "/candidate.pt").info().extra;
    const auto it = extra.find("fit.split_seed");
    return it == extra.end() ? std::string() : it->second;
  };
  EXPECT_FALSE(split_seed("stable", 1).empty());
  EXPECT_EQ(split_seed("stable", 2), split_seed("stable", 1));
  EXPECT_EQ(split_seed("w2", 1), "");
}

TEST_F(GenerationsTest, ResumesFromWhatEachStageLeftOnDisk) {
  const TrainConfig c = small_config(root_, "a");
  train(c);
  // Run b as a kill would leave it in generation 2: the second label file cut short, no fit,
  // and a gate with one chunk done (its partial file) and no result.
  TrainConfig d = small_config(root_, "b");
  train(d);
  const std::string b = run("b");
  fs::remove(b + "/gen-002/candidate.pt");
  fs::remove(b + "/gen-002/fit.json");
  const std::vector<int> points = gate_points(b, 2);
  fs::remove(b + "/gen-002/gate.json");
  write_file_atomic(
      b + "/gen-002/gate-partial.json",
      json{{"chunks", 1}, {"game_points", std::vector<int>(points.begin(), points.begin() + 20)}}
          .dump());
  fs::remove(b + "/gen-002/result.json");
  const std::string labels = b + "/gen-002/labels-1.lbl";
  const std::string bytes = read_file(labels);
  write_file_atomic(labels, bytes.substr(0, bytes.size() * 2 / 3));
  json state = json::parse(read_file(b + "/generations.json"));
  state["done"] = 1;
  state["current"] = metrics_rows(b)[0]["current"];
  state["promoted"] = metrics_rows(b)[0]["promoted"].get<bool>() ? 1 : 0;
  write_file_atomic(b + "/generations.json", state.dump());
  const std::string metrics = read_file(b + "/metrics.jsonl");
  write_file_atomic(b + "/metrics.jsonl", metrics.substr(0, metrics.find('\n') + 1));
  train(d);
  expect_same_run(run("a"), b);
}

#ifdef NARDY_CLI
// SIGKILL in the label, fit and gate stages (the CLI run killed as each stage's file appears,
// then resumed by the CLI), and the run ends with the nets of an uninterrupted one.
TEST_F(GenerationsTest, KilledInEveryStageTheResumedRunMatchesTheUninterruptedOne) {
  // The CLI finds the repository's race net (models/), this process does not: neither uses one.
  setenv("NARDY_RACE_NET", "off", 1);
  train(small_config(root_, "a"));
  TrainConfig c = small_config(root_, "killed");
  c.gate.games = 400;  // a longer gate, so the kill finds it running
  c.gate.chunk = 20;
  c.gate.promote = "always";
  TrainConfig ref = c;
  ref.run.name = "reference";
  train(ref);
  const std::string config_path = tmp_.file("killed.yaml");
  write_file_atomic(config_path, to_yaml(c));
  const std::string dir = run("killed");
  const std::string cli = NARDY_CLI;
  auto start = [&](bool resume) {
    const pid_t pid = resume ? testing::spawn_program(cli, {"train", "--resume", dir})
                             : testing::spawn_program(cli, {"train", "--config", config_path});
    EXPECT_GT(pid, 0);
    return pid;
  };
  auto kill_when = [&](pid_t pid, const std::string& file, int delay_ms) {
    const auto t0 = std::chrono::steady_clock::now();
    while (!fs::exists(dir + "/" + file) &&
           std::chrono::steady_clock::now() - t0 < std::chrono::seconds(120))
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
    kill(pid, SIGKILL);
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFSIGNALED(status);  // killed, not finished
  };
  EXPECT_TRUE(kill_when(start(false), "gen-001/labels-0.lbl", 30));      // labelling
  EXPECT_TRUE(kill_when(start(true), "gen-001/labels-1.lbl", 30));       // the second file
  EXPECT_TRUE(kill_when(start(true), "gen-001/gate-partial.json", 20));  // the gate
  EXPECT_TRUE(kill_when(start(true), "gen-002/labels-1.lbl", 150));      // labels or the fit
  const pid_t last = start(true);
  int status = 0;
  waitpid(last, &status, 0);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  for (int g = 1; g <= 2; ++g) {
    const std::string gen = "/gen-00" + std::to_string(g);
    EXPECT_TRUE(same_parameters(ValueNet::load(dir + gen + "/candidate.pt"),
                                ValueNet::load(run("reference") + gen + "/candidate.pt")));
    EXPECT_EQ(gate_points(dir, g), gate_points(run("reference"), g));
  }
  EXPECT_EQ(metrics_rows(dir).size(), 2u);
  EXPECT_TRUE(same_parameters(ValueNet::load(dir + "/current.pt"),
                              ValueNet::load(run("reference") + "/current.pt")));
  unsetenv("NARDY_RACE_NET");
}
// `nardy train --plan` says what each generation of a config would do, schedule applied, and
// runs nothing; a schedule entry that does not apply is the same error as for a run.
TEST_F(GenerationsTest, PlanShowsEachGenerationsSettingsAndRunsNothing) {
  const std::string cli = NARDY_CLI, dir = tmp_.file("plan");
  const std::string config = std::string(NARDY_SOURCE_DIR) + "/configs/nardy-fit-2.yaml";
  const auto r =
      testing::run_program(cli, {"train", "--config", config, "--plan", "--set", "run.dir=" + dir});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* expected :
       {"4 generations in ", "from model:nardy-fit-1; race net off",
        "gen 1: label 40000 games of current (seed 3), sample 0.1, explore 0.05, candidates 0.2\n"
        "             targets: the current net's 1-ply values\n",
        "lr 0.001, batch 512, 30 epochs at most, patience 3, no lr drops, sibling weight 0\n"
        "             seed 1, 1 LibTorch thread, 2 OpenBLAS threads\n",
        "gen 3: label nothing\n       fit:  the current net on the labels of generations 2-3\n"
        "             lr 0.0003,",
        "gen 4: label 20000 games of current (seed 5)", "the current net's 2-ply values",
        "gate: at most 20000 games at 0-ply, SPRT Elo 0 vs 5, promote always"})
    EXPECT_NE(r.out.find(expected), std::string::npos) << expected << "\n" << r.out;
  EXPECT_FALSE(fs::exists(dir));
  const auto bad = testing::run_program(
      cli, {"train", "--config", config, "--plan", "--set", "generations.schedule=[{fit.lr: 0}]"});
  EXPECT_NE(bad.exit_code, 0);
  EXPECT_NE(bad.err.find("generations.schedule[0] (generation 1): fit.lr: expected a number"),
            std::string::npos)
      << bad.err;
}

// configs/nardy-fit-3.yaml, shortened by label.games_scale, is the recipe its model card gives
// as commands (the hand-run script it replaced, run as before the race net): the same label
// records and the same weights in both rounds, including generation 2's refit of the start net
// (fit.from: start) to both generations' labels. The config runs with the repository's race net
// in reach and must not use it (run.race_net: false); the commands run without one.
TEST_F(GenerationsTest, NardyFit3ConfigIsItsHandRunCommands) {
  const std::string cli = NARDY_CLI, dir = tmp_.file("fit3");
  const std::string config = std::string(NARDY_SOURCE_DIR) + "/configs/nardy-fit-3.yaml";
  const auto train_run =
      testing::run_program(cli, {"train", "--config", config, "--set", "run.dir=" + dir, "--set",
                                 "label.games_scale=0.002", "--set", "gate.games=100", "--set",
                                 "generations.benchmark="});
  ASSERT_EQ(train_run.exit_code, 0) << train_run.err << train_run.out;
  const std::string run_dir = dir + "/nardy-fit-3";

  setenv("NARDY_RACE_NET", "off", 1);
  const std::string start = run_dir + "/start.pt", by_hand = tmp_.file("by_hand");
  fs::create_directories(by_hand);
  auto label = [&](const std::string& out, const std::string& net, int seed, int games) {
    const auto r = testing::run_program(
        cli, {"label", "--out", by_hand + "/" + out, "--games", std::to_string(games), "--threads",
              "2", "--sample", "0.1", "--candidates", "0.2", "--explore", "0.05", "--player",
              "net:" + net, "--labeler", "net:" + net + ":ply=2", "--seed", std::to_string(seed)});
    ASSERT_EQ(r.exit_code, 0) << r.err;
  };
  auto fit = [&](const std::string& out, const std::string& init,
                 const std::vector<std::string>& data) {
    std::vector<std::string> args = {"fit", "--data"};
    for (const std::string& d : data) args.push_back(by_hand + "/" + d);
    args.insert(args.end(),
                {"--init", init, "--out", by_hand + "/" + out, "--lr", "3e-4", "--epochs", "40",
                 "--patience", "4", "--batch", "512", "--seed", "1", "--blas-threads", "1"});
    const auto r = testing::run_program(cli, args);
    ASSERT_EQ(r.exit_code, 0) << r.err;
  };
  label("r5a.lbl", start, 6, 40);
  label("r5b.lbl", start, 7, 40);
  fit("fitF.pt", start, {"r5a.lbl", "r5b.lbl"});
  label("r6.lbl", by_hand + "/fitF.pt", 8, 48);
  fit("fitH.pt", start, {"r5a.lbl", "r5b.lbl", "r6.lbl"});
  unsetenv("NARDY_RACE_NET");

  auto records = [](const std::string& path) {
    std::string all;
    for (const LabelRecord& r : read_label_file(path).records) append_label_record(all, r);
    return all;
  };
  EXPECT_EQ(records(by_hand + "/r5a.lbl"), records(run_dir + "/gen-001/labels-0.lbl"));
  EXPECT_EQ(records(by_hand + "/r5b.lbl"), records(run_dir + "/gen-001/labels-1.lbl"));
  EXPECT_EQ(records(by_hand + "/r6.lbl"), records(run_dir + "/gen-002/labels-0.lbl"));
  EXPECT_EQ(read_label_file(by_hand + "/r6.lbl").games, 48);
  EXPECT_TRUE(same_parameters(ValueNet::load(by_hand + "/fitF.pt"),
                              ValueNet::load(run_dir + "/gen-001/candidate.pt")));
  EXPECT_TRUE(same_parameters(ValueNet::load(by_hand + "/fitH.pt"),
                              ValueNet::load(run_dir + "/gen-002/candidate.pt")));
}

#endif

TEST_F(GenerationsTest, TrainsForTheRulesOfItsConfig) {
  // last_roll_draw from a net without the draw output: start.pt is that net with one added
  // (its other outputs unchanged), the labels are of the draw rules, the candidate keeps the
  // output and its checkpoint names the rules.
  TrainConfig c = small_config(root_, "draw");
  c.rules.last_roll_draw = true;
  c.generations.count = 1;
  std::vector<std::string> lines;
  train(c, &lines);
  ASSERT_FALSE(lines.empty());
  EXPECT_NE(lines[0].find("has no draw output"), std::string::npos) << lines[0];
  const ValueNet original = ValueNet::load(search_net());
  const ValueNet start = ValueNet::load(run("draw") + "/start.pt");
  ASSERT_EQ(start.shape().num_outputs, 4);
  EXPECT_EQ(start.info().rules, c.rules.to_string());  // made for them: no rules warning
  const Position pos = Position::start();
  const Evaluation e0 = original.evaluate(pos), e1 = start.evaluate(pos);
  EXPECT_FLOAT_EQ(e1.win, e0.win);
  EXPECT_FLOAT_EQ(e1.win_mars, e0.win_mars);
  EXPECT_NEAR(e1.draw, (1 - e0.win) / (1 + std::exp(6.0)), 1e-6);
  const ValueNet cand = ValueNet::load(run("draw") + "/gen-001/candidate.pt");
  EXPECT_EQ(cand.shape().num_outputs, 4);
  EXPECT_EQ(Rules::parse(cand.info().rules), c.rules);
  EXPECT_EQ(read_label_file(run("draw") + "/gen-001/labels-0.lbl").header.get("rules"),
            c.rules.to_string());
  // A benchmark of other rules is refused before any work.
  c.run.name = "drawbench";
  c.generations.benchmark = std::string(NARDY_SOURCE_DIR) + "/bench/positions/positions.txt";
  const std::string bench_error = error_of([&] { train(c); });
  EXPECT_NE(bench_error.find("rolled out under other rules than the run's: last_roll_draw=true "
                             "instead of false"),
            std::string::npos)
      << bench_error;
  EXPECT_FALSE(fs::exists(run("drawbench") + "/generations.json"));
  c.generations.benchmark = "";
  // A draw-output net under rules without draws is refused, naming the net and the rules.
  c.rules.last_roll_draw = false;
  c.generations.init = run("draw") + "/start.pt";
  c.run.name = "nodraw";
  const std::string error = error_of([&] { train(c); });
  EXPECT_NE(error.find("has 4 outputs; the rules ("), std::string::npos) << error;
  EXPECT_NE(error.find("need 3 (no draw output)"), std::string::npos) << error;
  EXPECT_FALSE(fs::exists(run("nodraw") + "/generations.json"));
}

// With explicit seeds (label.sets seed=N, fit.seed) a generation is the hand-run `nardy label`
// and `nardy fit` commands of those options (how configs/nardy-fit-{4,5}.yaml reproduce the
// shipped models' recipes): the same records, and the fit of them the same weights.
TEST_F(GenerationsTest, ExplicitSeedsGiveTheHandRunLabelAndFitCommands) {
  TrainConfig c = small_config(root_, "seeded");
  c.generations.count = 1;
  c.label.sets = {"games=20 seed=9", "games=12 candidates=0.3 top=3 seed=11 players=heuristic"};
  c.fit.seed = 1;
  train(c);
  const std::string by_hand = tmp_.file("by_hand");
  fs::create_directories(by_hand);
  std::vector<std::string> files;
  for (int s = 0; s < 2; ++s) {
    LabelOptions o;
    o.players = parse_agent_specs(s == 0 ? "net:" + search_net() : "heuristic", "player");
    o.labeler = parse_agent_spec("net:" + search_net() + ":ply=1");
    o.sample = 0.2;
    o.explore = 0.05;
    o.candidates = s == 0 ? 0.2 : 0.3;
    o.top = s == 0 ? 0 : 3;
    o.games = s == 0 ? 20 : 12;
    o.seed = s == 0 ? 9 : 11;
    o.threads = 1;
    files.push_back(by_hand + "/" + std::to_string(s) + ".lbl");
    label_positions(files.back(), o);
    const auto mine = read_label_file(files.back()).records;
    const auto theirs =
        read_label_file(run("seeded") + "/gen-001/labels-" + std::to_string(s) + ".lbl").records;
    ASSERT_EQ(mine.size(), theirs.size());
    for (size_t i = 0; i < mine.size(); ++i) {
      std::string a, b;
      append_label_record(a, mine[i]);
      append_label_record(b, theirs[i]);
      ASSERT_EQ(a, b) << "set " << s << " record " << i;
    }
  }
  EXPECT_TRUE(same_parameters(fit_by_hand(c, files, search_net(), by_hand + "/fit.pt", c.fit.lr),
                              ValueNet::load(run("seeded") + "/gen-001/candidate.pt")));
}

// fit.encoder and fit.widen: the first fit gives the current net the mobility-v1 inputs and
// wider layers (nn/net_widening.h); a later fit from the promoted net keeps them; an encoder or
// widths that do not suit the current net stop the run before it labels anything.
TEST_F(GenerationsTest, FitGivesTheCurrentNetNewInputsAndWiderLayers) {
  const NetShape start = ValueNet::load(search_net()).shape();
  ASSERT_EQ(start.encoder, "extended-v1");
  std::vector<int> wider = start.hidden;
  wider.front() += 8;
  TrainConfig c = small_config(root_, "m");
  c.generations.count = 1;
  c.fit.encoder = "mobility";
  c.fit.widen = wider;
  c.gate.promote = "always";
  train(c);
  const ValueNet first = ValueNet::load(run("m") + "/gen-001/candidate.pt");
  EXPECT_EQ(first.shape().encoder, "mobility-v1");
  EXPECT_EQ(first.shape().hidden, wider);
  EXPECT_EQ(first.info().extra.at("fit.encoded"), "extended-v1 -> mobility-v1");
  EXPECT_EQ(first.info().extra.at("fit.widened"),
            hidden_name(start.hidden) + " -> " + hidden_name(wider));
  EXPECT_TRUE(same_parameters(ValueNet::load(run("m") + "/current.pt"), first));

  c.generations.count = 2;
  train(c);
  const ValueNet second = ValueNet::load(run("m") + "/gen-002/candidate.pt");
  EXPECT_EQ(second.shape().encoder, "mobility-v1");
  EXPECT_EQ(second.shape().hidden, wider);
  EXPECT_EQ(second.info().extra.count("fit.encoded"), 0u);
  EXPECT_EQ(second.info().extra.count("fit.widened"), 0u);

  TrainConfig bad = small_config(root_, "bad");
  bad.fit.encoder = "raw";
  std::string e = error_of([&] { train(bad); });
  EXPECT_NE(e.find("fit.encoder 'raw' does not extend the encoder 'extended-v1' of the net the fit "
                   "starts from"),
            std::string::npos)
      << e;
  EXPECT_FALSE(fs::exists(run("bad") + "/gen-001/labels-0.lbl"));
  TrainConfig narrow = small_config(root_, "narrow");
  narrow.fit.widen = {1};
  e = error_of([&] { train(narrow); });
  EXPECT_NE(e.find("fit.widen '1' cannot widen"), std::string::npos) << e;
  EXPECT_FALSE(fs::exists(run("narrow") + "/gen-001/labels-0.lbl"));
}

// generations.schedule: each generation runs with its entry's settings. Generation 2 labels
// nothing and refits generation 1's candidate to generation 1's labels at another lr (the same
// fit seed and file place: the same held-out games, so no warning); generation 3 labels again
// and refits the start net (fit.from: start) to the labels of generations 1 and 3. Each
// candidate has the weights of the `nardy fit` that its entry describes. With run.race_net
// false every net the run plays or labels with is told race_net=0.
TEST_F(GenerationsTest, ScheduleRunsEachGenerationWithItsOwnSettings) {
  TrainConfig c = small_config(root_, "sched");
  c.generations.count = 3;
  c.label.sets = {"games=20 seed=9"};
  c.fit.seed = 1;
  c.gate.promote = "always";
  c.run.race_net = false;
  c.generations.schedule = {
      {},
      {"label.sets=[]", "label.games=0", "generations.data_window=2", "fit.lr=0.0003"},
      {"label.sets=[games=12 seed=11]", "generations.data_window=3", "fit.from=start"}};
  validate(c);
  std::vector<std::string> lines;
  train(c, &lines);
  for (const std::string& l : lines) EXPECT_FALSE(l.starts_with("warning:")) << l;
  const std::string r = run("sched");
  EXPECT_FALSE(fs::exists(r + "/gen-002/labels-0.lbl"));
  const auto rows = metrics_rows(r);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[1]["labels"], 0);
  EXPECT_EQ(rows[1]["fit"]["data"], json::array({"gen-001/labels-0.lbl"}));
  EXPECT_EQ(rows[2]["fit"]["data"], json::array({"gen-001/labels-0.lbl", "gen-003/labels-0.lbl"}));
  const LabelFile first = read_label_file(r + "/gen-001/labels-0.lbl");
  EXPECT_TRUE(first.header.get("player").ends_with(":race_net=0")) << first.header.get("player");
  EXPECT_TRUE(first.header.get("labeler").ends_with(":ply=1:race_net=0"))
      << first.header.get("labeler");
  EXPECT_TRUE(ArenaResult::from_json(read_file(r + "/gen-002/gate.json"), "gate")
                  .a_spec.ends_with(":race_net=0"));

  auto refit = [&](const std::string& init, std::vector<std::string> data, double lr,
                   const std::string& out) {
    for (std::string& d : data) d = r + "/" + d;
    return fit_by_hand(c, data, init, tmp_.file(out), lr);
  };
  EXPECT_TRUE(same_parameters(
      refit(r + "/gen-001/candidate.pt", {"gen-001/labels-0.lbl"}, 3e-4, "second.pt"),
      ValueNet::load(r + "/gen-002/candidate.pt")));
  EXPECT_TRUE(same_parameters(
      refit(search_net(), {"gen-001/labels-0.lbl", "gen-003/labels-0.lbl"}, c.fit.lr, "third.pt"),
      ValueNet::load(r + "/gen-003/candidate.pt")));
  // The labels of generation 3 are the current net's (generation 2's candidate).
  EXPECT_NE(read_label_file(r + "/gen-003/labels-0.lbl").header.get("labeler").find("gen-002"),
            std::string::npos);

  // A generation with nothing to fit is refused before anything runs.
  TrainConfig empty = small_config(root_, "empty");
  empty.generations.schedule = {{"label.sets=[]", "label.games=0", "generations.data_window=2"}};
  const std::string e = error_of([&] { train(empty); });
  EXPECT_NE(e.find("generation 1 labels nothing (label.games 0)"), std::string::npos) << e;
}

TEST(GenerationsConfig, BadLabelSetsAndGateBoundsAreNamed) {
  TrainConfig c;
  c.generations.count = 1;
  c.label.sets = {"games=10", "games=10 colour=red"};
  EXPECT_NE(error_of([&] {
              validate(c, "config 'x.yaml'");
            }).find("config 'x.yaml': label.sets[1]: unknown key 'colour'"),
            std::string::npos);
  c.label.sets = {"games=ten"};
  EXPECT_NE(error_of([&] { validate(c); }).find("label.sets[0]: games: expected an integer"),
            std::string::npos);
  c.label.sets = {"sample=0"};
  EXPECT_NE(error_of([&] { validate(c); }).find("label.sets[0]: sample: expected a number in (0"),
            std::string::npos);
  c.label.sets = {"players=random,nosuchagent"};
  EXPECT_NE(error_of([&] { validate(c); }).find("label.sets[0]"), std::string::npos);
  c.label.sets = {"players=current:ply=x"};
  EXPECT_NE(error_of([&] { validate(c); }).find("label.sets[0]"), std::string::npos);
  c.label.sets = {"games=10 players=current:noise=0.1,heuristic"};
  EXPECT_NO_THROW(validate(c));
  const auto sets = c.label_sets();
  ASSERT_EQ(sets.size(), 1u);
  EXPECT_EQ(sets[0].games, 10);
  EXPECT_EQ(sets[0].sample, c.label.sample);
  c.gate.elo1 = c.gate.elo0;
  EXPECT_NE(error_of([&] { validate(c); }).find("gate.elo1: expected a value above gate.elo0"),
            std::string::npos);
  // The keys round-trip through YAML.
  TrainConfig d;
  d.label.sets = {"games=10 top=4", "players=random,current"};
  d.gate.promote = "always";
  d.fit.sibling_weight = 0;
  EXPECT_EQ(parse_config(to_yaml(d), "round trip"), d);
}

TEST(RulesDifference, NamesTheRulesANetWasNotTrainedFor) {
  Rules strict;
  strict.head_exception = HeadException::Strict;
  EXPECT_EQ(rules_difference(Rules{}.to_string(), Rules{}), "");
  EXPECT_EQ(rules_difference("", strict), "");  // the checkpoint does not say
  EXPECT_EQ(rules_difference(Rules{}.to_string(), strict),
            "head_exception=strict instead of standard");
  Rules starter;
  starter.next_game_starter = NextGameStarter::PreviousWinner;
  EXPECT_EQ(rules_difference(Rules{}.to_string(), starter), "");
}

}  // namespace
}  // namespace nardy
