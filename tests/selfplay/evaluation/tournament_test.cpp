// Tournament: round robin, ratings anchored at the first player, CSV/JSON, run directories.
#include "selfplay/evaluation/tournament.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "core/error.h"

namespace nardy {
namespace {

TEST(Tournament, RoundRobinRatesTheStrongerPlayerHigher) {
  TournamentOptions o;
  o.games = 40;
  o.threads = 2;
  o.seed = 2;
  const TournamentResult t = run_tournament({"random", "heuristic", "random"}, o);
  ASSERT_EQ(t.matches.size(), 3u);
  ASSERT_EQ(t.ratings.size(), 3u);
  EXPECT_EQ(t.ratings[0].elo, 0);
  // Heuristic beats random clearly; the two randoms are the same player.
  EXPECT_GT(t.ratings[1].elo, 200);
  EXPECT_GT(t.ratings[1].ci95_low, t.ratings[2].ci95_high);
  EXPECT_LT(t.ratings[2].ci95_low, 0);
  EXPECT_GT(t.ratings[2].ci95_high, 0);
  // Each match is an ordinary arena result with pairing seed seed + k.
  ArenaOptions a;
  a.games = 40;
  a.seed = 2 + 1;  // pairing (0, 2) is k = 1
  EXPECT_EQ(run_arena(std::string("random"), std::string("random"), a).game_points,
            t.matches[1].result.game_points);
  // CSV: header and one row per player; JSON parses and carries the ratings.
  const std::string csv = t.to_csv();
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 4);
  EXPECT_EQ(csv.rfind("player,spec,elo,", 0), 0u);
  const auto j = nlohmann::json::parse(t.to_json());
  EXPECT_EQ(j["players"].size(), 3u);
  EXPECT_DOUBLE_EQ(j["players"][1]["elo"].get<double>(), t.ratings[1].elo);
  EXPECT_EQ(j["matches"].size(), 3u);
  // Each match in the arena's format (without the per-game lists), plus the pairing.
  nlohmann::json match = j["matches"][1];
  EXPECT_EQ(match["a"], 0);
  EXPECT_EQ(match["b"], 2);
  for (const char* pairing : {"a", "b", "rating_elo", "rating_elo_se"}) match.erase(pairing);
  EXPECT_EQ(match, nlohmann::json::parse(t.matches[1].result.to_json(/*per_game=*/false)));
  EXPECT_NE(t.to_text().find("heuristic"), std::string::npos);
}

TEST(Tournament, MatchEloIsFiniteForASweep) {
  ArenaResult r = arena_statistics(std::vector<int>(20, 2), std::nullopt);  // A won all 20 by mars
  auto [elo, se] = match_elo(r);
  EXPECT_TRUE(std::isfinite(elo));
  EXPECT_GT(elo, 300);
  EXPECT_GT(se, 0);
  EXPECT_TRUE(std::isfinite(se));
}

TEST(Tournament, RunDirectoriesExpandToCheckpointsInNumericOrder) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("nardy_tournament_test_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  for (const char* name : {"ckpt-10.pt", "ckpt-2.pt", "latest.pt", "notes.txt", "ckpt-x.pt"})
    std::ofstream(dir / name) << "x";
  const auto players = expand_tournament_players({"heuristic", dir.string()});
  ASSERT_EQ(players.size(), 3u);
  EXPECT_EQ(players[0], "heuristic");
  EXPECT_EQ(players[1], "net:" + (dir / "ckpt-2.pt").string());
  EXPECT_EQ(players[2], "net:" + (dir / "ckpt-10.pt").string());
  const auto empty = dir / "empty";
  std::filesystem::create_directories(empty);
  EXPECT_THROW(expand_tournament_players({empty.string()}), Error);
  std::filesystem::remove_all(dir);
}

TEST(Tournament, AStopBetweenMatchesKeepsTheMatchesPlayed) {
  // Given a hook that asks to stop once the first match has finished, when a three-player
  // round robin runs, then only match (0, 1) is played, in full, and player 2 has no rating.
  TournamentOptions o;
  o.games = 20;
  o.seed = 5;
  int matches_done = 0;
  o.progress = [&](int k, int, const ArenaResult&) { matches_done = k; };
  o.should_stop = [&] { return matches_done >= 1; };
  const TournamentResult t = run_tournament({"random", "heuristic", "random"}, o);
  EXPECT_TRUE(t.stopped);
  ASSERT_EQ(t.matches.size(), 1u);
  EXPECT_EQ(t.matches[0].result.games, 20);
  EXPECT_FALSE(t.matches[0].result.stopped);
  ASSERT_EQ(t.ratings.size(), 3u);
  EXPECT_EQ(t.ratings[0].elo, 0);
  EXPECT_NEAR(t.ratings[1].elo, -t.matches[0].elo, 1e-9);  // r_a - r_b = elo of a over b
  EXPECT_TRUE(std::isnan(t.ratings[2].elo));
  EXPECT_NE(t.to_text().find("stopped on request after 1 of 3 matches"), std::string::npos);
  EXPECT_TRUE(nlohmann::json::parse(t.to_json())["stopped"].get<bool>());
}

TEST(Tournament, AStopInsideAMatchKeepsItsFinishedPairs) {
  // Given a hook that fires at the 200th poll after the first match (agents poll before every
  // move), when the round robin runs, then the second match ends early with the first pairs
  // of the same match played in full, and nothing after it is played.
  TournamentOptions o;
  o.games = 40;
  o.seed = 8;
  bool first_done = false;
  int polls = 0;
  o.progress = [&](int k, int, const ArenaResult&) { first_done = first_done || k == 1; };
  o.should_stop = [&] { return first_done && ++polls > 200; };
  const TournamentResult t = run_tournament({"heuristic", "random", "random"}, o);
  EXPECT_TRUE(t.stopped);
  ASSERT_EQ(t.matches.size(), 2u);
  const ArenaResult& cut = t.matches[1].result;
  EXPECT_TRUE(cut.stopped);
  EXPECT_GT(cut.games, 0);
  EXPECT_LT(cut.games, 40);
  ArenaOptions a;
  a.games = 40;
  a.seed = 8 + 1;  // pairing (0, 2) is k = 1
  const ArenaResult full = run_arena(std::string("heuristic"), std::string("random"), a);
  const std::vector<int> prefix(full.game_points.begin(), full.game_points.begin() + cut.games);
  EXPECT_EQ(cut.game_points, prefix);
  EXPECT_TRUE(std::isfinite(t.ratings[2].elo));  // rated from the pairs it played
}

TEST(Tournament, NeedsTwoValidPlayers) {
  EXPECT_THROW(run_tournament({"random"}, TournamentOptions{}), Error);
  EXPECT_THROW(run_tournament({"random", "nonsense"}, TournamentOptions{}), Error);
}

}  // namespace
}  // namespace nardy
