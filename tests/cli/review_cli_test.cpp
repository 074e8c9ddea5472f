// `nardy review` as a user runs it: a selfplay record of the default agent reviewed by the same
// agent (no error), the JSON and HTML files, `--quiet`, and bad input (exit 2, a message naming
// the file). The tool's path comes from CMake (NARDY_CLI_PATH); the review needs nardy-full.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/cli_run.h"
#include "tests/support/temp_dir.h"

namespace nardy::testing {
namespace {

CliRun run_nardy(const TempDir&, const std::vector<std::string>& args) {
  return run_program(NARDY_CLI_PATH, args);
}

#ifdef NARDY_CLI_FULL
TEST(ReviewCli, ReviewsASelfplayRecordIntoTextJsonAndHtml) {
  TempDir dir;
  const std::string record = dir.file("game.txt"), json = dir.file("r.json"),
                    html = dir.file("r.html");
  ASSERT_EQ(run_nardy(dir, {"selfplay", "--agent", "default", "--games", "2", "--seed", "9",
                            "--record", record})
                .exit_code,
            0);
  const CliRun r = run_nardy(dir, {"review", record, "--json", json, "--html", html});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("Game 2:"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Summary of all games"), std::string::npos) << r.out;
  const auto j = nlohmann::json::parse(slurp(json));
  ASSERT_EQ(j["games"].size(), 2u);
  for (const auto& p : j["players"]) {
    EXPECT_EQ(p["total_error"].get<double>(), 0.0);  // its own moves at its own ply
    EXPECT_GT(p["decisions"].get<int>(), 10);
  }
  const std::string page = slurp(html);
  EXPECT_EQ(page.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_NE(page.find("<svg"), std::string::npos);
  EXPECT_EQ(page.find("<script"), std::string::npos);  // self-contained, static
  // Reviewed one ply deeper, the same games have errors, and --quiet prints the summary only.
  const CliRun deeper = run_nardy(dir, {"review", record, "--ply", "1", "--quiet"});
  ASSERT_EQ(deeper.exit_code, 0) << deeper.err;
  EXPECT_EQ(deeper.out.find("Game 1:"), std::string::npos) << deeper.out;
  EXPECT_NE(deeper.out.find("rating"), std::string::npos) << deeper.out;
}

TEST(ReviewCli, BadInputIsExitTwoWithAMessageNamingTheFile) {
  TempDir dir;
  const CliRun missing = run_nardy(dir, {"review", dir.file("nosuch.txt")});
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.err.find("nosuch.txt"), std::string::npos) << missing.err;
  const std::string junk = dir.file("junk.txt");
  std::ofstream(junk) << "nardy-record 1\n6-5 24/13\n6-6 12/7\n";
  const CliRun illegal = run_nardy(dir, {"review", junk});
  EXPECT_EQ(illegal.exit_code, 2);
  EXPECT_NE(illegal.err.find("junk.txt"), std::string::npos) << illegal.err;
  EXPECT_NE(illegal.err.find("line 3"), std::string::npos) << illegal.err;
  const CliRun no_net = run_nardy(dir, {"review", junk, "--agent", "heuristic", "--ply", "1"});
  EXPECT_EQ(no_net.exit_code, 2);
}

TEST(ReviewCli, ConvertGoesToMatAndBackAndReviewReadsMat) {
  TempDir dir;
  const std::string record = dir.file("game.txt"), mat = dir.file("game.mat"),
                    back = dir.file("back.txt");
  ASSERT_EQ(run_nardy(dir, {"selfplay", "--agent", "heuristic", "--games", "1", "--seed", "4",
                            "--record", record})
                .exit_code,
            0);
  const CliRun to_mat = run_nardy(dir, {"convert", record, mat});
  ASSERT_EQ(to_mat.exit_code, 0) << to_mat.err;
  EXPECT_NE(slurp(mat).find(" 1 point match"), std::string::npos);
  const CliRun to_record = run_nardy(dir, {"convert", mat, back});
  ASSERT_EQ(to_record.exit_code, 0) << to_record.err;
  // The game of the record, now inside a 1-point match record, its players' names the match's.
  const std::string original = slurp(record), converted = slurp(back);
  std::string body = original.substr(original.find('\n') + 1);   // after "nardy-record 1"
  while (!body.empty() && body.back() == '\n') body.pop_back();  // selfplay adds a blank line
  const std::string names = "white heuristic\nblack heuristic\n";
  ASSERT_NE(body.find(names), std::string::npos) << original;
  body.erase(body.find(names), names.size());
  EXPECT_NE(converted.find(body), std::string::npos) << converted;
  EXPECT_NE(converted.find("player 0 heuristic\nplayer 1 heuristic\n"), std::string::npos)
      << converted;
  const std::string json = dir.file("r.json");
  ASSERT_EQ(run_nardy(dir, {"review", mat, "--json", json}).exit_code, 0);
  ASSERT_EQ(run_nardy(dir, {"review", back, "--json", dir.file("s.json")}).exit_code, 0);
  EXPECT_EQ(slurp(json), slurp(dir.file("s.json")));
  // A .mat move that does not replay names the line.
  std::ofstream(dir.file("bad.mat")) << " 1 point match\n Game 1\n a : 0   b : 0\n  1) 65: 24/12\n";
  const CliRun bad = run_nardy(dir, {"convert", dir.file("bad.mat"), dir.file("x.txt")});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find(".mat line 4"), std::string::npos) << bad.err;
}
#endif

}  // namespace
}  // namespace nardy::testing
