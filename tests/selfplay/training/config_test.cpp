// TrainConfig: defaults, every kind of validation error (in a file and via --set, with the
// file and key path named), overrides, the YAML round trip and schedules; the documentation of
// the keys (configs/README.md's table, the comments of configs/*.yaml) against their definition.
#include "selfplay/training/config.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>

#include "core/error.h"
#include "tests/support/error_of.h"
#include "tests/support/temp_dir.h"

namespace nardy {
namespace {

using testing::error_of;
using testing::TempDir;

std::string write_file(const TempDir& dir, const std::string& name, const std::string& text) {
  const std::string path = dir.file(name);
  std::ofstream(path) << text;
  return path;
}

TEST(Config, EmptyTextGivesTheDefaults) {
  TrainConfig c = parse_config("", "empty.yaml");
  EXPECT_EQ(c, TrainConfig{});
  EXPECT_EQ(c.net.hidden, std::vector<int>{128});
  EXPECT_EQ(c.eval.opponents, (std::vector<std::string>{"random", "heuristic"}));
  EXPECT_EQ(c.best_opponent(), "heuristic");
  EXPECT_EQ(c.net_shape().encoder, "raw-v1");
  EXPECT_EQ(c.net_shape().num_outputs, 3);
}

TEST(Config, ReadsEverySection) {
  TrainConfig c = parse_config(R"(
run: {name: r1, dir: out, seed: 7, threads: 3, merge_every: 5}
rules: {opening: any_roll, head_exception: strict, last_roll_draw: true,
        next_game_starter: previous_winner}
net: {encoder: extended, hidden: [40], activation: tanh, backend: libtorch}
td: {alpha: 0.2, alpha_schedule: exponential, alpha_final: 0.02, lambda: 0.5,
     lambda_schedule: linear, lambda_final: 0.1, epsilon: 0.1, epsilon_schedule: linear,
     epsilon_final: 0}
train: {games: 50, checkpoint_every: 10, keep_last: 2, eval_every: 25}
eval: {opponents: [random], games: 20, final_games: 40, threads: 1, best_by: random}
log: {progress: false, interval_s: 5, metrics_every: 5}
)",
                               "all.yaml");
  EXPECT_EQ(c.run.name, "r1");
  EXPECT_EQ(c.run_path(), "out/r1");
  EXPECT_EQ(c.run.seed, 7u);
  EXPECT_EQ(c.rules.opening, Opening::AnyRoll);
  EXPECT_EQ(c.rules.head_exception, HeadException::Strict);
  EXPECT_TRUE(c.rules.last_roll_draw);
  EXPECT_EQ(c.net_shape().num_outputs, 4);
  EXPECT_EQ(c.net_shape().encoder, "extended-v1");
  EXPECT_EQ(c.td.alpha.kind, ScheduleKind::Exponential);
  EXPECT_DOUBLE_EQ(c.td.alpha.final, 0.02);
  EXPECT_DOUBLE_EQ(c.td.lambda.start, 0.5);
  EXPECT_EQ(c.td.lambda.kind, ScheduleKind::Linear);
  EXPECT_DOUBLE_EQ(c.td.lambda.at(0.5), 0.3);
  EXPECT_EQ(c.run.threads, 3);
  EXPECT_EQ(c.run.merge_every, 5);
  EXPECT_EQ(c.td.epsilon.kind, ScheduleKind::Linear);
  EXPECT_EQ(c.train.keep_last, 2);
  EXPECT_EQ(c.eval_final_games(), 40);
  EXPECT_EQ(c.eval_threads(), 1);
  EXPECT_FALSE(c.log.progress);
  EXPECT_EQ(c.log.metrics_every, 5);
}

TEST(Config, UnknownKeyInAFileNamesTheFileAndTheKey) {
  TempDir dir;
  const std::string path = write_file(dir, "unknown.yaml", "td:\n  lamda: 0.5\n");
  const std::string msg = error_of([&] { load_config(path); });
  EXPECT_NE(msg.find("config '" + path + "'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("unknown key 'td.lamda'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("lambda"), std::string::npos) << msg;  // lists the known keys
}

TEST(Config, UnknownSectionIsAnError) {
  const std::string msg = error_of([] { parse_config("trainer: {games: 3}", "s.yaml"); });
  EXPECT_NE(msg.find("unknown section 'trainer'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("config 's.yaml'"), std::string::npos) << msg;
}

TEST(Config, WrongTypeNamesKeyAndExpectation) {
  EXPECT_EQ(error_of([] { parse_config("train: {games: many}", "t.yaml"); }),
            "config 't.yaml': train.games: expected an integer in [1, 10000000000], got 'many'");
  EXPECT_EQ(
      error_of([] { parse_config("net: {hidden: 128}", "t.yaml"); }),
      "config 't.yaml': net.hidden: expected a list of 1..4 integers in [1, 4096], got '128'");
  EXPECT_EQ(error_of([] { parse_config("log: {progress: maybe}", "t.yaml"); }),
            "config 't.yaml': log.progress: expected true or false, got 'maybe'");
  EXPECT_EQ(error_of([] { parse_config("td: {alpha: [1]}", "t.yaml"); }),
            "config 't.yaml': td.alpha: expected a number in (0.0, 10.0], got a list");
  EXPECT_EQ(
      error_of([] { parse_config("td: 3", "t.yaml"); }).find("config 't.yaml': td: expected a map"),
      0u);
}

TEST(Config, OutOfRangeNamesKeyAndRange) {
  EXPECT_EQ(error_of([] { parse_config("td: {lambda: 1.5}", "r.yaml"); }),
            "config 'r.yaml': td.lambda: expected a number in [0.0, 1.0], got '1.5'");
  EXPECT_EQ(error_of([] { parse_config("td: {alpha: 0}", "r.yaml"); }),
            "config 'r.yaml': td.alpha: expected a number in (0.0, 10.0], got '0'");
  EXPECT_EQ(error_of([] { parse_config("run: {threads: 0}", "r.yaml"); }),
            "config 'r.yaml': run.threads: expected an integer in [1, 256], got '0'");
  EXPECT_EQ(
      error_of([] { parse_config("rules: {opening: sometimes}", "r.yaml"); }),
      "config 'r.yaml': rules.opening: expected one of no_doubles, any_roll, got 'sometimes'");
  EXPECT_EQ(
      error_of([] { parse_config("run: {name: a/b}", "r.yaml"); }),
      "config 'r.yaml': run.name: expected a name of letters, digits, '.', '_' or '-', got 'a/b'");
}

TEST(Config, CrossFieldRules) {
  // The fast kernels cover deeper nets (nn/fast_net.h); too many layers is a shape error.
  EXPECT_NO_THROW(parse_config("net: {hidden: [64, 32]}", "x.yaml"));
  EXPECT_NO_THROW(parse_config("net: {hidden: [64, 32], backend: libtorch}", "x.yaml"));
  EXPECT_NE(
      error_of([] { parse_config("net: {hidden: [8, 8, 8, 8, 8]}", "x.yaml"); }).find("net.hidden"),
      std::string::npos);
  EXPECT_NO_THROW(parse_config("net: {backend: libtorch}\nrun: {threads: 2}", "x.yaml"));
  EXPECT_NE(error_of([] {
              parse_config("td: {epsilon_schedule: exponential, epsilon: 0.1}", "x.yaml");
            }).find("td.epsilon_final: an exponential schedule needs"),
            std::string::npos);
  EXPECT_NE(error_of([] {
              parse_config("td: {lambda_schedule: exponential, lambda_final: 0}", "x.yaml");
            })
                .find("td.lambda_final: an exponential schedule needs td.lambda and "
                      "td.lambda_final above 0"),
            std::string::npos);
  EXPECT_NE(error_of([] {
              parse_config("td: {lambda_final: 1.2}", "x.yaml");
            }).find("td.lambda_final: expected a number in"),
            std::string::npos);
  EXPECT_NE(error_of([] {
              parse_config("run: {merge_every: 0}", "x.yaml");
            }).find("run.merge_every: expected an integer"),
            std::string::npos);
  EXPECT_NE(error_of([] {
              parse_config("eval: {opponents: [random, wizard]}", "x.yaml");
            }).find("config 'x.yaml': eval.opponents[1]: agent 'wizard'"),
            std::string::npos);
  EXPECT_NE(error_of([] {
              parse_config("eval: {opponents: [random], best_by: heuristic}", "x.yaml");
            }).find("eval.best_by: expected one of eval.opponents, got 'heuristic'"),
            std::string::npos);
}

TEST(Config, InvalidYamlNamesTheFile) {
  const std::string msg = error_of([] { parse_config("td: {alpha: 0.1", "bad.yaml"); });
  EXPECT_EQ(msg.find("config 'bad.yaml': not valid YAML"), 0u) << msg;
  EXPECT_NE(error_of([] { load_config("/nonexistent/x.yaml"); }).find("cannot open"),
            std::string::npos);
}

// Issue 14: yaml-cpp's own errors, binary junk and over-long paths reach the user as messages
// naming the file, the key and the problem in printable text.
TEST(Config, BadKeysAndJunkValuesAreNamedPrintably) {
  // A list as a key: yaml-cpp's as<std::string>() said only "bad conversion".
  EXPECT_EQ(error_of([] { parse_config("td:\n  ? [a]\n  : 1\n", "k.yaml"); }),
            "config 'k.yaml': line 2: expected a key name, got a list");
  EXPECT_EQ(error_of([] { parse_config("? {a: 1}\n: 1\n", "k.yaml"); }),
            "config 'k.yaml': line 1: expected a key name, got a map");
  EXPECT_EQ(error_of([] { parse_config("td:\n  alpha: !!binary \"SGVsbG8=\"\n", "b.yaml"); }),
            "config 'b.yaml': td.alpha: expected a number in (0.0, 10.0], got 'SGVsbG8='");
  EXPECT_EQ(error_of([] { parse_config("td:\n  alpha: \"\\0\\xff\"\n", "b.yaml"); }),
            "config 'b.yaml': td.alpha: expected a number in (0.0, 10.0], got '\\0\\xc3\\xbf'");
  EXPECT_EQ(error_of([] { parse_config("td:\n  alpha: \xff\x01\n", "b.yaml"); }),
            "config 'b.yaml': td.alpha: expected a number in (0.0, 10.0], got '\\xff\\x01'");
  const std::string nul_set = error_of([] {
    TrainConfig c;
    apply_override(c, std::string("td.alpha=") + '\0' + "\xff");
  });
  EXPECT_EQ(nul_set.rfind("--set td.alpha=\\0\\xff: ", 0), 0u) << nul_set;
  EXPECT_EQ(printable_message(nul_set), nul_set);
}

// Found by fuzz_config: yaml-cpp reads bytes that are not UTF-8 as they are but writes them as
// U+FFFD, so such a run.dir did not survive to_yaml (config.yaml of the run directory).
TEST(Config, StringsMustBeUtf8TextWithoutControlCharacters) {
  EXPECT_EQ(error_of([] { parse_config("run:\n  dir: \xf6\x9b\n", "d.yaml"); }),
            "config 'd.yaml': run.dir: expected a string (UTF-8 text without control characters), "
            "got '\\xf6\\x9b'");
  EXPECT_EQ(error_of([] { parse_config("run:\n  dir: \"a\\x01b\"\n", "d.yaml"); }),
            "config 'd.yaml': run.dir: expected a string (UTF-8 text without control characters), "
            "got 'a\\x01b'");
  EXPECT_NE(error_of([] {
              parse_config("eval:\n  opponents: [\"\\t\"]\n", "d.yaml");
            }).find("eval.opponents: expected a list of strings (UTF-8 text"),
            std::string::npos);
  EXPECT_EQ(parse_config("run:\n  dir: runs/λ\n", "d.yaml").run.dir, "runs/λ");
  const std::string long_dir = "runs/" + std::string(5000, 'd');
  EXPECT_EQ(parse_config("run:\n  dir: " + long_dir + "\n", "d.yaml").run.dir, long_dir);
}

TEST(Config, OverlongPathsAreNamedShortenedWithTheReason) {
  const std::string name = "/tmp/" + std::string(300, 'c') + ".yaml";
  const std::string msg = error_of([&] { load_config(name); });
  EXPECT_EQ(msg.rfind("config '/tmp/ccc", 0), 0u) << msg;
  EXPECT_NE(msg.find("ccc.yaml': cannot open the file: File name too long"), std::string::npos)
      << msg;
  EXPECT_LT(msg.size(), 250u) << msg;
}

TEST(ConfigOverride, AppliesWithTheSameKeyPaths) {
  TrainConfig c;
  apply_override(c, "td.lambda=0.3");
  apply_override(c, "net.hidden=[40]");
  apply_override(c, "eval.opponents=[random]");
  apply_override(c, "rules.last_roll_draw=true");
  apply_override(c, "run.name=other");
  EXPECT_DOUBLE_EQ(c.td.lambda.start, 0.3);
  EXPECT_EQ(c.net.hidden, std::vector<int>{40});
  EXPECT_EQ(c.eval.opponents, std::vector<std::string>{"random"});
  EXPECT_TRUE(c.rules.last_roll_draw);
  EXPECT_EQ(c.run.name, "other");
}

TEST(ConfigOverride, ErrorsNameTheAssignmentTheFileAndTheKey) {
  TempDir dir;
  const std::string path = write_file(dir, "base.yaml", "td: {lambda: 0.5}\n");
  EXPECT_EQ(error_of([&] { load_config(path, {"td.lambda=2"}); }),
            "config '" + path +
                "', --set td.lambda=2: td.lambda: expected a number in [0.0, 1.0], got '2'");
  EXPECT_EQ(error_of([&] { load_config(path, {"train.games=lots"}); }),
            "config '" + path +
                "', --set train.games=lots: train.games: expected an integer in [1, 10000000000], "
                "got 'lots'");
  const std::string unknown = error_of([&] { load_config(path, {"td.lamda=0.1"}); });
  EXPECT_EQ(unknown.find("config '" + path + "', --set td.lamda=0.1: unknown key 'td.lamda'"), 0u)
      << unknown;
  EXPECT_NE(error_of([&] { load_config(path, {"lambda"}); }).find("expected KEY=VALUE"),
            std::string::npos);
  // A failed override leaves the config unchanged.
  TrainConfig c;
  EXPECT_THROW(apply_override(c, "td.alpha=-1"), Error);
  EXPECT_EQ(c, TrainConfig{});
}

TEST(ConfigOverride, SeveralOverridesAreOneChangeWhateverTheirOrder) {
  // An exponential epsilon schedule needs td.epsilon and td.epsilon_final above 0 (both 0 by
  // default): the schedule alone fails the cross-field check; with both ends, in either order,
  // it is accepted.
  for (const auto& order : {std::vector<std::string>{"td.epsilon_schedule=exponential",
                                                     "td.epsilon=0.1", "td.epsilon_final=0.01"},
                            std::vector<std::string>{"td.epsilon=0.1", "td.epsilon_final=0.01",
                                                     "td.epsilon_schedule=exponential"}}) {
    TrainConfig c;
    apply_overrides(c, order);
    EXPECT_EQ(c.td.epsilon.kind, ScheduleKind::Exponential);
    EXPECT_EQ(c.td.epsilon.final, 0.01);
  }
  TrainConfig c;
  EXPECT_THROW(apply_override(c, "td.epsilon_schedule=exponential"), Error);
  // A combination that stays invalid names every assignment and leaves the config unchanged.
  const std::string msg = error_of([&] {
    apply_overrides(c, {"td.lambda=0.5", "td.epsilon_schedule=exponential"}, "x.yaml");
  });
  EXPECT_EQ(msg.find("config 'x.yaml', --set td.lambda=0.5 --set td.epsilon_schedule=exponential: "
                     "td.epsilon_final:"),
            0u)
      << msg;
  EXPECT_EQ(c, TrainConfig{});
}

// generations.schedule: per-generation settings over the config's own, read from YAML maps,
// written back the same, checked per entry with the keys' own checks and named by entry.
TEST(ConfigSchedule, EachGenerationGetsItsEntryOverTheConfig) {
  const TrainConfig c = parse_config(
      "generations:\n"
      "  count: 3\n"
      "  schedule:\n"
      "    - {label.ply: 1, label.sets: [\"games=400 seed=3\", \"games=9 "
      "players=random,current\"],\n"
      "       fit.lr: 0.001, fit.blas_threads: 2}\n"
      "    - {label.games: 0, generations.data_window: 2, fit.from: start}\n"
      "fit: {lr: 0.0003}\n",
      "s.yaml");
  ASSERT_EQ(c.generations.schedule.size(), 2u);
  const TrainConfig g1 = c.for_generation(1), g2 = c.for_generation(2), g3 = c.for_generation(3);
  EXPECT_EQ(g1.label.ply, 1);
  EXPECT_EQ(g1.fit.lr, 0.001);
  EXPECT_EQ(g1.fit.blas_threads, 2);
  ASSERT_EQ(g1.label_sets().size(), 2u);
  EXPECT_EQ(g1.label_sets()[0].seed, 3u);
  EXPECT_EQ(g1.label_sets()[1].players, "random,current");
  EXPECT_TRUE(g2.label_sets().empty());
  EXPECT_EQ(g2.generations.data_window, 2);
  EXPECT_EQ(g2.fit.from, "start");
  EXPECT_EQ(g2.fit.lr, 0.0003);
  EXPECT_EQ(g2.label.ply, 2);
  TrainConfig base = c;
  base.generations.schedule.clear();
  EXPECT_EQ(g3, base);  // past the list: the config's own settings
  EXPECT_TRUE(g1.generations.schedule.empty());
  EXPECT_EQ(parse_config(to_yaml(c), "round trip"), c) << to_yaml(c);
  TrainConfig o;
  apply_override(o, "generations.schedule=[{fit.lr: 0.01}, {}]");
  ASSERT_EQ(o.generations.schedule.size(), 2u);
  EXPECT_EQ(o.for_generation(1).fit.lr, 0.01);
  EXPECT_EQ(o.for_generation(2), o.for_generation(5));
}

TEST(ConfigSchedule, BadEntriesAreNamed) {
  const std::pair<std::string, std::string> cases[] = {
      {"[{run.threads: 4}]",
       "generations.schedule: entry 0: 'run.threads' is not a per-generation key"},
      {"[{}, {fit.lr: -1}]",
       "generations.schedule[1] (generation 2): fit.lr: expected a number in (0"},
      {"[{fit.nosuch: 1}]", "'fit.nosuch' is not a per-generation key"},
      {"[{label.sets: [\"games=4 colour=red\"]}]",
       "generations.schedule[0] (generation 1): label.sets[0]: unknown key 'colour'"},
      {"{fit.lr: 0.1}", "generations.schedule: expected a list of maps"},
      {"[{fit.from: later}]", "fit.from: expected one of current, start"},
      // A generation with no label files and nothing earlier to fit.
      {"[{label.games: 0}]",
       "generations.schedule[0] (generation 1): label.games: 0 with label.sets [] leaves the fit "
       "no label files"},
  };
  for (const auto& [schedule, expected] : cases) {
    const std::string e = error_of(
        [&] { parse_config("generations: {count: 2, schedule: " + schedule + "}\n", "s.yaml"); });
    EXPECT_EQ(e.find("config 's.yaml': "), 0u) << e;  // the file is named first
    EXPECT_NE(e.find(expected), std::string::npos) << schedule << ": " << e;
  }
  EXPECT_NO_THROW(parse_config(
      "generations: {count: 2, schedule: [{label.games: 0, generations.data_window: 2}]}\n"));
  const std::string e =
      error_of([] { parse_config("generations: {count: 1}\nlabel: {games: 0}\n", "z.yaml"); });
  EXPECT_NE(e.find("config 'z.yaml': label.games: 0 with label.sets []"), std::string::npos) << e;
}

TEST(Config, YamlRoundTripIsExact) {
  TrainConfig c;
  apply_override(c, "td.alpha=0.123456789");
  apply_override(c, "td.alpha_schedule=linear");
  apply_override(c, "run.seed=18446744073709551615");
  apply_override(c, "eval.opponents=[random]");
  apply_override(c, "rules.head_exception=none");
  apply_override(c, "net.hidden=[3]");
  const std::string yaml = to_yaml(c);
  EXPECT_EQ(parse_config(yaml, "roundtrip"), c) << yaml;
  EXPECT_EQ(to_yaml(parse_config(yaml, "roundtrip")), yaml);
  // Every documented key appears in the written config.
  for (const auto& k : config_keys()) {
    const std::string leaf = k.path.substr(k.path.find('.') + 1);
    EXPECT_NE(yaml.find("  " + leaf + ":"), std::string::npos) << k.path;
  }
}

#ifdef NARDY_SOURCE_DIR
std::string source_file(const std::string& relative) {
  std::ifstream in(std::string(NARDY_SOURCE_DIR) + "/" + relative);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// configs/README.md shows the keys as generated by config_keys_markdown(), between two markers.
TEST(ConfigDocs, ReadmeTableIsTheGeneratedOne) {
  const std::string readme = source_file("configs/README.md");
  const std::string begin = "<!-- keys: generated by config_keys_markdown() -->\n";
  const std::string end = "<!-- end of keys -->";
  const auto b = readme.find(begin), e = readme.find(end);
  ASSERT_NE(b, std::string::npos) << "configs/README.md lacks the marker " << begin;
  ASSERT_NE(e, std::string::npos) << "configs/README.md lacks the marker " << end;
  EXPECT_EQ(readme.substr(b + begin.size(), e - b - begin.size()), config_keys_markdown())
      << "replace the table in configs/README.md with the text above";
}

// Every "(default X)" in the comments above a key of configs/*.yaml is its default, and every
// range written there (1..256, (0, 10], [0, 1]) is the one its definition states.
TEST(ConfigDocs, YamlCommentsStateTheDefaultsAndRanges) {
  std::map<std::string, ConfigKey> keys;
  for (const auto& k : config_keys()) keys[k.path] = k;
  auto unquote = [](std::string v) {
    if (v.size() >= 2 && v.front() == '"' && v.back() == '"') v = v.substr(1, v.size() - 2);
    return v;
  };
  auto same_value = [&](const std::string& a, const std::string& b) {
    char* end_a = nullptr;
    char* end_b = nullptr;
    const double x = std::strtod(a.c_str(), &end_a), y = std::strtod(b.c_str(), &end_b);
    if (!a.empty() && !b.empty() && *end_a == 0 && *end_b == 0) return x == y;
    return unquote(a) == unquote(b);
  };
  const std::regex default_re(R"(\(default (.*)\)\s*$)");
  const std::regex range_re(R"([0-9]+\.\.[0-9^]+|[\[(][0-9.]+, [0-9.]+[\])])");
  const std::regex section_re(R"(^([a-z_]+):\s*(#.*)?$)");
  const std::regex key_re(R"(^  ([a-z_]+):)");
  int checked = 0;
  for (const auto& entry :
       std::filesystem::directory_iterator(std::string(NARDY_SOURCE_DIR) + "/configs")) {
    if (entry.path().extension() != ".yaml") continue;
    std::ifstream in(entry.path());
    std::string line, section, comments;
    for (int n = 1; std::getline(in, line); ++n) {
      std::smatch m;
      if (std::regex_search(line, m, section_re)) {
        section = m[1];
        comments.clear();
      } else if (line.rfind("  #", 0) == 0) {
        comments += line.substr(3) + "\n";
      } else if (std::regex_search(line, m, key_re)) {
        const std::string path = section + "." + m[1].str();
        const std::string where = entry.path().filename().string() + ":" + std::to_string(n);
        ASSERT_TRUE(keys.count(path)) << where << ": unknown key " << path;
        const ConfigKey& k = keys[path];
        std::istringstream comment_lines(comments);
        for (std::string c; std::getline(comment_lines, c);) {
          std::smatch d;
          if (!std::regex_search(c, d, default_re)) continue;
          EXPECT_TRUE(same_value(d[1], k.default_value))
              << where << ": " << path << " says (default " << d[1] << "), the default is "
              << k.default_value;
          ++checked;
        }
        for (std::sregex_iterator r(comments.begin(), comments.end(), range_re), stop; r != stop;
             ++r)
          EXPECT_NE(k.doc.find(r->str()), std::string::npos)
              << where << ": " << path << " says " << r->str() << ", its definition: " << k.doc;
        comments.clear();
      } else {
        comments.clear();
      }
    }
  }
  EXPECT_GE(checked, static_cast<int>(keys.size()));  // both files state every default
}
#endif

TEST(Schedule, ConstantLinearExponential) {
  Schedule constant{ScheduleKind::Constant, 0.1, 0.01};
  EXPECT_DOUBLE_EQ(constant.at(0), 0.1);
  EXPECT_DOUBLE_EQ(constant.at(0.7), 0.1);
  Schedule linear{ScheduleKind::Linear, 0.1, 0.02};
  EXPECT_DOUBLE_EQ(linear.at(0), 0.1);
  EXPECT_NEAR(linear.at(0.5), 0.06, 1e-15);
  EXPECT_NEAR(linear.at(1), 0.02, 1e-15);
  EXPECT_NEAR(linear.at(2), 0.02, 1e-15);  // clamped past the plan
  Schedule expo{ScheduleKind::Exponential, 0.1, 0.001};
  EXPECT_NEAR(expo.at(0.5), 0.01, 1e-12);  // geometric mean halfway
  EXPECT_NEAR(expo.at(1), 0.001, 1e-15);
  EXPECT_NEAR(expo.at(-1), 0.1, 1e-15);
  EXPECT_EQ(parse_schedule_kind("linear"), ScheduleKind::Linear);
  EXPECT_THROW(parse_schedule_kind("cosine"), Error);
}

}  // namespace
}  // namespace nardy
