// The `nardy` tool as a user runs it: `nardy legal` output format and agreement with the
// library, and bad input giving a message on stderr with exit code 2 (`legal`, `show`), plus
// `--help`, and the `bench movegen` signature the README states. The tool's path comes from
// CMake (NARDY_CLI_PATH); without it the tests skip. NARDY_SOURCE_DIR locates README.md;
// NARDY_CLI_FULL says whether nardy-full (the commands that need LibTorch) is built.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

#include "core/movegen.h"
#include "core/notation.h"
#include "core/pos_text.h"
#include "tests/support/cli_run.h"
#include "tests/support/position_sampler.h"

namespace nardy::testing {
namespace {

// Runs the tool with the given arguments and `input` on stdin.
CliRun run_nardy(const std::vector<std::string>& args, const std::string& input = "") {
#ifdef NARDY_CLI_PATH
  return run_program(NARDY_CLI_PATH, args, input);
#else
  (void)args;
  (void)input;
  return {};
#endif
}

class NardyCli : public ::testing::Test {
 protected:
  void SetUp() override {
#ifndef NARDY_CLI_PATH
    GTEST_SKIP() << "the nardy tool is not part of this build";
#endif
  }
};

const std::string kStart = "0,0,0,0,0,0,0,0,0,0,0,-15,0,0,0,0,0,0,0,0,0,0,0,15 w";

TEST_F(NardyCli, LegalPrintsPosTabNotation) {
  CliRun r = run_nardy({"legal", kStart, "6", "5"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out, "0,0,0,0,0,0,0,0,0,0,0,-15,1,0,0,0,0,0,0,0,0,0,0,14 b\t24/13\n");
  EXPECT_EQ(r.err, "");
}

TEST_F(NardyCli, LegalAppliesRules) {
  CliRun standard = run_nardy({"legal", kStart, "6", "6", "--rule", "opening=any_roll"});
  EXPECT_EQ(standard.exit_code, 0);
  EXPECT_EQ(standard.out, "0,0,0,0,0,0,0,0,0,0,0,-15,0,0,0,0,0,2,0,0,0,0,0,13 b\t24/18(2)\n");
  CliRun none = run_nardy({"legal", kStart, "6", "6", "--rule", "head_exception=none"});
  EXPECT_EQ(none.exit_code, 0);
  EXPECT_EQ(none.out, "0,0,0,0,0,0,0,0,0,0,0,-15,0,0,0,0,0,1,0,0,0,0,0,14 b\t24/18\n");
}

TEST_F(NardyCli, LegalAcceptsThePositionAsTwoArguments) {
  CliRun r =
      run_nardy({"legal", "0,0,0,0,0,0,0,0,0,0,0,-15,0,0,0,0,0,0,0,0,0,0,0,15", "w", "6", "5"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out, "0,0,0,0,0,0,0,0,0,0,0,-15,1,0,0,0,0,0,0,0,0,0,0,14 b\t24/13\n");
}

TEST_F(NardyCli, LegalPrintsAPass) {
  // A lone White checker on 20, Black on 14 and 15: 6-5 cannot be played.
  const std::string pos = "0,0,0,0,0,0,0,0,0,0,0,-13,0,-1,-1,0,0,0,0,1,0,0,0,0 w";
  CliRun r = run_nardy({"legal", pos, "6", "5"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out, "0,0,0,0,0,0,0,0,0,0,0,-13,0,-1,-1,0,0,0,0,1,0,0,0,0 b\tpass\n");
}

// The tool prints exactly the library's results, sorted by position, on sampled positions.
TEST_F(NardyCli, LegalAgreesWithTheLibrary) {
  Rng rng(31);
  for (int i = 0; i < 4; ++i) {
    Position pos = scattered_position(rng, kAllScatters[i]);
    Dice dice = random_dice(rng);
    Rules rules;
    if (i % 2 == 1) rules.set("head_exception", "strict");
    MoveList moves = legal_moves(pos, dice, rules);
    sort_by_position(moves);
    std::string expected;
    for (const MoveResult& m : moves)
      expected += format_pos(m.position) + "\t" + format_move(m.move) + "\n";
    CliRun r =
        run_nardy({"legal", format_pos(pos), std::to_string(dice.d1), std::to_string(dice.d2),
                   "--rule", "head_exception=" + rules.get("head_exception")});
    EXPECT_EQ(r.exit_code, 0);
    EXPECT_EQ(r.out, expected) << format_pos(pos) << " " << format_dice(dice);
  }
}

TEST_F(NardyCli, LegalRejectsBadInput) {
  struct Case {
    std::vector<std::string> args;
    std::string message;
  };
  const std::vector<Case> cases = {
      {{"legal", "1,2,3 w", "6", "5"},
       "nardy: position '1,2,3 w': expected 24 point counts, got 3\n"},
      {{"legal", kStart, "7", "5"}, "nardy: legal: die '7' is not 1..6\n"},
      {{"legal", kStart, "6", "x"}, "nardy: legal: die 'x' is not 1..6\n"},
      {{"legal", kStart, "6"},
       "nardy: legal: expected POS (or a position ID) D1 D2, got 2 arguments\n"},
      {{"legal", kStart, "6", "5", "--rule", "head_exception=loose"},
       "nardy: rule 'head_exception': unknown value 'loose' (expected one of: standard, strict, "
       "none)\n"},
      {{"legal", kStart, "6", "5", "--rule", "cube"},
       "nardy: rule 'cube': expected KEY=VALUE, e.g. opening=any_roll\n"},
      {{"legal", "0,0,0,0,0,0,0,0,0,0,0,-15,0,0,0,0,0,0,0,0,0,0,0,0 w", "6", "5"},
       "nardy: legal: the side to move has no checkers left (the game is over)\n"},
  };
  for (const Case& c : cases) {
    CliRun r = run_nardy(c.args);
    EXPECT_EQ(r.exit_code, 2) << c.message;
    EXPECT_EQ(r.err, c.message);
    EXPECT_EQ(r.out, "");
  }
}

// Every command that takes a position takes its ID as well (the benchmark set lists IDs).
TEST_F(NardyCli, CommandsTakePositionIdsAsWellAsPosText) {
  const std::string id = "-_PAAAw__BAAAA";  // the start
  std::vector<std::pair<std::vector<std::string>, std::vector<std::string>>> cases = {
      {{"legal", kStart, "4", "2"}, {"legal", id, "4", "2"}}, {{"show", kStart}, {"show", id}}};
#ifdef NARDY_CLI_FULL  // analyze and rollout need LibTorch
  cases.push_back({{"analyze", kStart, "4", "2", "--agent", "heuristic", "--trials", "2"},
                   {"analyze", id, "4", "2", "--agent", "heuristic", "--trials", "2"}});
  cases.push_back({{"rollout", kStart, "--trials", "3"}, {"rollout", id, "--trials", "3"}});
#endif
  for (const auto& [by_pos, by_id] : cases) {
    const CliRun a = run_nardy(by_pos), b = run_nardy(by_id);
    EXPECT_EQ(a.exit_code, 0) << a.err;
    EXPECT_FALSE(a.out.empty());
    // All but the rollout's timing line ("0.01 s (300 trials/s ...").
    auto body = [](const std::string& s) {
      std::string out;
      std::istringstream in(s);
      for (std::string line; std::getline(in, line);)
        if (line.find(" s (") == std::string::npos) out += line + "\n";
      return out;
    };
    EXPECT_EQ(body(b.out), body(a.out)) << by_id[0];
    EXPECT_EQ(b.exit_code, 0) << b.err;
  }
  const CliRun bad = run_nardy({"legal", "not-an-id", "6", "5"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_EQ(bad.err,
            "nardy: position 'not-an-id': neither POS text (it has no commas) nor a position ID "
            "(expected 14 characters, got 9)\n");
}

TEST_F(NardyCli, ShowDrawsAndRejectsBadInput) {
  CliRun ok = run_nardy({"show", kStart});
  EXPECT_EQ(ok.exit_code, 0);
  EXPECT_NE(ok.out.find("POS " + kStart), std::string::npos) << ok.out;
  EXPECT_NE(ok.out.find("ID  "), std::string::npos) << ok.out;
  CliRun bad_id = run_nardy({"show", "x"});
  EXPECT_EQ(bad_id.exit_code, 2);
  EXPECT_EQ(bad_id.err,
            "nardy: position 'x': neither POS text (it has no commas) nor a position ID (expected "
            "14 characters, got 1)\n");
  CliRun bad_pos = run_nardy({"show", "1,2 w"});
  EXPECT_EQ(bad_pos.exit_code, 2);
  EXPECT_EQ(bad_pos.err, "nardy: position '1,2 w': expected 24 point counts, got 2\n");
}

#if defined(NARDY_TEST_DATA) && defined(NARDY_CLI_FULL)
// `nardy bench` alone prints one table with every row and its signature (tiny workloads here;
// the signatures themselves are checked in tests/bench/signature_test.cpp).
TEST_F(NardyCli, BenchPrintsTheSummaryTable) {
  CliRun r = run_nardy(
      {"bench", "--net", std::string(NARDY_TEST_DATA) + "/search_net.pt", "--scale", "0.01"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  for (const char* row : {"movegen", "TD training", "kernels dense", "kernels peak", "search ply 0",
                          "search ply 1", "search ply 2", "rollout plain", "rollout luck-adjusted",
                          "rollout 1-ply plain", "rollout 1-ply luck-adjusted"})
    EXPECT_NE(r.out.find(std::string("\n") + row + " "), std::string::npos) << row << "\n" << r.out;
  EXPECT_NE(r.out.find("results"), std::string::npos) << r.out;
  CliRun bad = run_nardy({"bench", "--net", "/nonexistent/net.pt"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("/nonexistent/net.pt"), std::string::npos) << bad.err;
}

// `nardy bench kernels` reports every kernel and the peak of the scalar path (which every CPU
// has), and all paths compute the same evaluations to float rounding (the checksums, a sum over
// ~3,000 candidates' equities, agree to 1e-3); also for a net with two hidden layers.
TEST_F(NardyCli, BenchKernelsReportsEachKernelAgainstThePeak) {
  for (const std::vector<std::string>& hidden :
       {std::vector<std::string>{}, std::vector<std::string>{"--hidden", "48", "24"}}) {
    std::vector<std::string> args = {"bench", "kernels", "--seconds", "0.02"};
    args.insert(args.end(), hidden.begin(), hidden.end());
    CliRun r = run_nardy(args);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find(hidden.empty() ? "raw 128 hidden" : "raw 48-24 hidden"), std::string::npos)
        << r.out;
    for (const char* row :
         {"scalar   dense", "scalar   incremental", "scalar   td step", "scalar   peak probe"})
      EXPECT_NE(r.out.find(row), std::string::npos) << row << "\n" << r.out;
    std::regex checksum(R"((\w+) +dense .*%  (-?[0-9.]+))");
    std::vector<double> sums;
    for (auto it = std::sregex_iterator(r.out.begin(), r.out.end(), checksum);
         it != std::sregex_iterator(); ++it)
      sums.push_back(std::stod((*it)[2]));
    ASSERT_FALSE(sums.empty()) << r.out;
    for (double s : sums) EXPECT_NEAR(s, sums[0], 1e-3) << r.out;
  }
  CliRun bad = run_nardy({"bench", "kernels", "--path", "sse9"});
  EXPECT_EQ(bad.exit_code, 2) << bad.out;
}
#endif

TEST_F(NardyCli, PositionsStartingWithADashAreNotOptions) {
  // The README's start ID begins with '-' (as does a fifth of all IDs): once "position is
  // required".
  for (std::vector<std::string> args : {std::vector<std::string>{"show", "-_PAAAw__BAAAA"},
                                        {"show", "--", "-_PAAAw__BAAAA"},
                                        {"show", "--title", "t", "-_PAAAw__BAAAA"}}) {
    CliRun r = run_nardy(args);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("POS " + kStart), std::string::npos) << r.out;
  }
  // POS text with a Black checker on point 1 starts with '-' too, in one argument or two.
  const std::string pos = "-1,0,0,0,0,0,0,0,0,0,0,-14,0,0,0,0,0,0,0,0,0,0,0,15";
  for (std::vector<std::string> args :
       {std::vector<std::string>{"legal", pos + " w", "6", "5"}, {"legal", pos, "w", "6", "5"}}) {
    CliRun r = run_nardy(args);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, "-1,0,0,0,0,0,0,0,0,0,0,-14,1,0,0,0,0,0,0,0,0,0,0,14 b\t24/13\n");
  }
  // What is neither an option nor a position is still an unknown option.
  CliRun bad = run_nardy({"show", "-x"});
  EXPECT_EQ(bad.exit_code, 2);
}

// Issue 14: what the tool echoes of bad input is printable and whole; file-system failures name
// the file (shortened) and the reason instead of a raw "filesystem error: ... [PATH]".
TEST_F(NardyCli, MessagesEchoJunkPrintablyAndNameFilesShortened) {
  CliRun junk = run_nardy({"legal", std::string("1,2\x01\xff w"), "9", "8"});
  EXPECT_EQ(junk.exit_code, 2);
  EXPECT_EQ(junk.err,
            "nardy: position '1,2\\x01\\xff w': point 2: '2\\x01\\xff' is not a count -15..15\n");
  CliRun option = run_nardy({"legal", kStart, "6", "5", "--\x1b[2J"});
  EXPECT_EQ(option.exit_code, 2);
  EXPECT_NE(option.err.find("\\x1b[2J"), std::string::npos) << option.err;
  EXPECT_EQ(option.err.find('\x1b'), std::string::npos) << option.err;
  const std::string long_name = "/tmp/" + std::string(300, 'r') + ".rec";
  CliRun record =
      run_nardy({"selfplay", "--agent", "random", "--games", "1", "--record", long_name});
  EXPECT_EQ(record.exit_code, 2);
  EXPECT_EQ(record.err.rfind("nardy: selfplay: cannot write record file '/tmp/rrr", 0), 0u)
      << record.err;
  EXPECT_NE(record.err.find("rrr.rec': File name too long\n"), std::string::npos) << record.err;
  EXPECT_LT(record.err.size(), 250u) << record.err;
}

#ifdef NARDY_CLI_FULL
TEST_F(NardyCli, EngineAndTrainMessagesArePrintable) {
  const std::string input = "legal 1,2" + std::string(1, '\0') + "xyz w 6 5\nmove " + kStart +
                            " 9 8\n\xff\xfe\x01junk\nquit\n";
  CliRun engine = run_nardy({"engine", "--agent", "random"}, input);
  EXPECT_EQ(engine.exit_code, 0) << engine.err;
  EXPECT_EQ(engine.out,
            "error position '1,2\\0xyz w': point 2: '2\\0xyz' is not a count -15..15\n"
            "error die '9' is not 1..6\n"
            "error unknown command '\\xff\\xfe\\x01junk' (expected legal, move, eval or quit)\n");
  std::string deep = "/tmp";
  while (deep.size() < 5000) deep += "/" + std::string(200, 't');
  for (const auto& args : {std::vector<std::string>{"train", "--resume", deep},
                           std::vector<std::string>{"train", "--config", deep + "/c.yaml"}}) {
    CliRun r = run_nardy(args);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.err.find("filesystem error"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("File name too long\n"), std::string::npos) << r.err;
    EXPECT_LT(r.err.size(), 300u) << r.err;
  }
}
#endif

TEST_F(NardyCli, HelpAndMissingCommand) {
  CliRun help = run_nardy({"--help"});
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_NE(help.out.find("legal"), std::string::npos);
  EXPECT_NE(help.out.find("show"), std::string::npos);
  CliRun none = run_nardy({});
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_NE(none.err, "");
  CliRun unknown = run_nardy({"frobnicate"});
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_NE(unknown.err, "");
}

// README.md's "Measured figures" states the signature of `nardy bench movegen` (its default
// games and seed). Running the command must print that number: a change to move generation, the
// dice or the benchmark's games shows up here and in the README together.
TEST_F(NardyCli, BenchMovegenPrintsTheSignatureTheReadmeStates) {
#if !defined(NARDY_CLI_FULL) || !defined(NARDY_SOURCE_DIR)
  GTEST_SKIP() << "bench is a nardy-full command, not part of this build";
#else
  const std::string readme = slurp(std::string(NARDY_SOURCE_DIR) + "/README.md");
  std::smatch stated;
  ASSERT_TRUE(std::regex_search(readme, stated,
                                std::regex(R"(signature ([0-9,]+) results for seed ([0-9]+))")))
      << "README.md no longer states the bench movegen signature";
  std::string number = stated[1];
  std::erase(number, ',');
  CliRun r = run_nardy({"bench", "movegen", "--seed", stated[2]});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::smatch printed;
  ASSERT_TRUE(std::regex_search(r.out, printed, std::regex(R"(signature ([0-9]+) results)")))
      << r.out;
  EXPECT_EQ(printed[1].str(), number) << "update README.md if the change is intended";
#endif
}

TEST_F(NardyCli, LabelThenFitAndTheirErrors) {
#if !defined(NARDY_CLI_FULL)
  GTEST_SKIP() << "label and fit are nardy-full commands, not part of this build";
#else
  const std::string dir = "/tmp/nardy_cli_label_" + std::to_string(getpid());
  std::filesystem::create_directories(dir);
  const std::string labels = dir + "/a.lbl", net = std::string(NARDY_TEST_DATA) + "/search_net.pt";
  const std::vector<std::string> label = {
      "label",    "--out", labels, "--player", "heuristic", "--labeler", "net:" + net + ":ply=1",
      "--sample", "0.1"};
  auto with = [](std::vector<std::string> v, std::vector<std::string> more) {
    v.insert(v.end(), more.begin(), more.end());
    return v;
  };
  CliRun r = run_nardy(with(label, {"--games", "8"}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("8 games"), std::string::npos) << r.out;
  r = run_nardy(with(label, {"--games", "16", "--threads", "2"}));  // continues the file
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("16/16 games"), std::string::npos) << r.out;
  r = run_nardy(with(label, {"--games", "16", "--explore", "0.5"}));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("explore"), std::string::npos) << r.err;

  r = run_nardy({"fit", "--data", labels, "--init", net, "--out", dir + "/f.pt", "--epochs", "2",
                 "--holdout", "0.3"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("epoch   0"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("held-out loss"), std::string::npos) << r.out;
  r = run_nardy({"eval", "net:" + dir + "/f.pt", "random", "--games", "2"});
  EXPECT_EQ(r.exit_code, 0) << r.err;

  // A fresh net with two hidden layers, fitted, then played by the fast kernels.
  r = run_nardy({"fit", "--data", labels, "--encoder", "extended", "--hidden", "32", "16", "--out",
                 dir + "/d.pt", "--epochs", "2", "--holdout", "0.3"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = run_nardy({"eval", "net:" + dir + "/d.pt:backend=fast", "random", "--games", "2"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  r = run_nardy(
      {"fit", "--data", labels, "--hidden", "8", "8", "8", "8", "8", "--out", dir + "/e.pt"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--hidden"), std::string::npos) << r.err;

  r = run_nardy({"fit", "--data", net, "--out", dir + "/g.pt"});  // a checkpoint, not labels
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("not a label file"), std::string::npos) << r.err;
  std::filesystem::remove_all(dir);
#endif
}

}  // namespace
}  // namespace nardy::testing
