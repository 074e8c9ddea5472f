// Label files and `nardy label`'s labeller: the format round-trips, files are the same bytes for
// any thread count, a rerun continues an interrupted file to the same bytes, targets are the
// labeller's values, and bad files and mismatched options are refused with clear errors.
#include "selfplay/training/labeler.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "core/error.h"
#include "core/position_id.h"
#include "selfplay/evaluation/luck_head.h"
#include "selfplay/search/agent_kinds.h"
#include "selfplay/search/search.h"
#include "selfplay/tables/bearoff_table.h"
#include "selfplay/training/label_file.h"
#include "tests/nn/test_nets.h"
#include "tests/support/temp_dir.h"
#include "tests/support/error_of.h"

namespace nardy {
namespace {

namespace fs = std::filesystem;

std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}
void write_bytes(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

std::string search_net() {
  return std::string(NARDY_SOURCE_DIR) + "/tests/data/search_net.pt";
}

// Small and quick: heuristic games, 1-ply targets of the test net.
// The agents of a --player list, parsed as the edges parse them.
std::vector<AgentSpec> players(const std::string& list) {
  return parse_agent_specs(list, "label: player");
}

LabelOptions small_options(int64_t games, int threads) {
  LabelOptions o;
  o.players = players("heuristic");
  o.explore = 0.2;
  o.sample = 0.05;
  o.labeler = parse_agent_spec("net:" + search_net() + ":ply=1");
  o.games = games;
  o.threads = threads;
  o.seed = 9;
  return o;
}

using testing::error_of;

TEST(LabelFile, RecordsRoundTrip) {
  testing::TempDir tmp;
  const std::string path = tmp.file("a.lbl");
  LabelHeader h;
  h.fields = {{"player", "heuristic"}, {"rules", Rules{}.to_string()}};
  std::string bytes = h.to_text();
  const auto positions = testing::sample_positions(3, 1);
  std::vector<LabelRecord> written;
  for (uint32_t g = 0; g < 3; ++g) {
    for (int i = 0; i < 4; ++i) {
      LabelRecord r;
      r.position = positions[(g * 4 + i) % positions.size()];
      r.game = g;
      r.source = static_cast<uint8_t>(i == 3 ? LabelSource::Rollout : LabelSource::Search0);
      r.target = Evaluation{0.6f - 0.1f * i, 0.1f, 0.05f * g, 0.0f};
      r.sibling = i == 2;  // another result of record 1's roll
      append_label_record(bytes, r);
      written.push_back(r);
    }
    append_label_record(bytes, LabelRecord{Position{}, 0, g, {}}, /*end_of_game=*/true);
  }
  EXPECT_EQ(bytes.size(), h.to_text().size() + 15 * kLabelRecordBytes);
  write_bytes(path, bytes);
  const LabelFile f = read_label_file(path);
  EXPECT_EQ(f.header.get("player"), "heuristic");
  EXPECT_EQ(f.header.fields, h.fields);
  EXPECT_EQ(f.games, 3);
  EXPECT_EQ(f.partial_records, 0);
  EXPECT_EQ(f.complete_bytes, bytes.size());
  ASSERT_EQ(f.records.size(), written.size());
  for (size_t i = 0; i < written.size(); ++i) {
    EXPECT_EQ(f.records[i].position, written[i].position);
    EXPECT_EQ(f.records[i].game, written[i].game);
    EXPECT_EQ(f.records[i].source, written[i].source);
    EXPECT_EQ(f.records[i].target.as_array(), written[i].target.as_array());
    EXPECT_EQ(f.records[i].sibling, written[i].sibling);
  }
  EXPECT_EQ(label_source_name(search_source(2)), "2-ply");
  EXPECT_EQ(label_source_name(static_cast<uint8_t>(LabelSource::Rollout)), "rollout");

  // A partial game and half a record after the last end are ignored by readers.
  std::string partial = bytes;
  LabelRecord extra = written[0];
  extra.game = 3;
  append_label_record(partial, extra);
  partial += std::string(10, 'x');
  write_bytes(path, partial);
  const LabelFile g = read_label_file(path);
  EXPECT_EQ(g.games, 3);
  EXPECT_EQ(g.records.size(), written.size());
  EXPECT_EQ(g.partial_records, 1);
  EXPECT_EQ(g.complete_bytes, bytes.size());
}

TEST(LabelFile, BadFilesAreRefusedWithTheReason) {
  testing::TempDir tmp;
  const std::string path = tmp.file("bad.lbl");
  EXPECT_NE(error_of([&] { read_label_file(path); }).find("cannot open"), std::string::npos);
  write_bytes(path, "hello\n");
  EXPECT_NE(error_of([&] { read_label_file(path); }).find("not a label file"), std::string::npos);
  write_bytes(path, "nardy-labels 7\nend\n");
  EXPECT_NE(error_of([&] { read_label_file(path); }).find("version '7'"), std::string::npos);
  write_bytes(path, "nardy-labels 1\nplayer x\n");
  EXPECT_NE(error_of([&] { read_label_file(path); }).find("no 'end'"), std::string::npos);

  LabelHeader h;
  LabelRecord r;
  r.position = Position::start();
  r.target = Evaluation{0.5f, 0.1f, 0.1f, 0.0f};
  std::string good = h.to_text();
  append_label_record(good, r);
  append_label_record(good, r, true);
  std::string bad_id = good;
  bad_id[h.to_text().size()] = '*';
  write_bytes(path, bad_id);
  const std::string id_error = error_of([&] { read_label_file(path); });
  EXPECT_NE(id_error.find("record 0"), std::string::npos) << id_error;
  EXPECT_NE(id_error.find(path), std::string::npos) << id_error;

  r.target = Evaluation{0.5f, 0.7f, 0.1f, 0.0f};  // win_mars above win
  std::string bad_target = h.to_text();
  append_label_record(bad_target, r);
  write_bytes(path, bad_target);
  EXPECT_NE(error_of([&] { read_label_file(path); }).find("win_mars above win"), std::string::npos);

  r.target = Evaluation{0.5f, 0.1f, 0.1f, 0.0f};
  r.sibling = true;  // a sibling with no record before it in its game
  std::string orphan = h.to_text();
  append_label_record(orphan, r);
  write_bytes(path, orphan);
  EXPECT_NE(error_of([&] { read_label_file(path); }).find("sibling record"), std::string::npos);

  std::string out_of_order = h.to_text();
  append_label_record(out_of_order, LabelRecord{Position{}, 0, 5, {}}, true);
  append_label_record(out_of_order, LabelRecord{Position{}, 0, 2, {}}, true);
  write_bytes(path, out_of_order);
  EXPECT_NE(error_of([&] { read_label_file(path); }).find("game 2 after game 5"),
            std::string::npos);
}

TEST(Labeler, SameBytesForAnyThreadCountAndTargetsAreTheLabelersValues) {
  testing::TempDir tmp;
  const std::string one = tmp.file("one.lbl"), two = tmp.file("two.lbl");
  const LabelProgress p1 = label_positions(one, small_options(12, 1));
  label_positions(two, small_options(12, 2));
  EXPECT_EQ(read_bytes(one), read_bytes(two));
  EXPECT_EQ(p1.games_done, 12);
  EXPECT_EQ(p1.new_games, 12);

  const LabelFile f = read_label_file(one);
  EXPECT_EQ(f.games, 12);
  EXPECT_EQ(static_cast<int64_t>(f.records.size()), p1.positions);
  ASSERT_GT(f.records.size(), 10u);  // ~90 turns a game, 5% kept
  EXPECT_EQ(f.header.get("labeler"), small_options(1, 1).labeler.text);
  EXPECT_EQ(f.header.get("sample"), "0.05");
  auto labeler = build_agent(small_options(1, 1).labeler, Rules{});
  auto& net_agent = dynamic_cast<NetAgent&>(*labeler);
  std::set<uint32_t> games;
  for (const auto& r : f.records) {
    // Races the default table covers (if the build made one) are exact; the rest 1-ply.
    if (auto exact = table_evaluation(default_bearoff_table(), r.position, Rules{})) {
      EXPECT_EQ(r.source, static_cast<uint8_t>(LabelSource::RaceTable));
      EXPECT_EQ(r.target.as_array(), exact->as_array());
    } else {
      EXPECT_EQ(r.source, search_source(1));
      EXPECT_EQ(r.target.as_array(), net_agent.evaluate(r.position).as_array());
    }
    games.insert(r.game);
  }
  EXPECT_EQ(f.header.get("tables"), default_bearoff_table() ? default_bearoff_path() : "none");
  EXPECT_GT(games.size(), 5u);
  // Another seed samples other positions.
  LabelOptions other = small_options(12, 1);
  other.seed = 10;
  label_positions(tmp.file("other.lbl"), other);
  EXPECT_NE(read_bytes(tmp.file("other.lbl")), read_bytes(one));
}

TEST(Labeler, RerunContinuesToTheSameBytes) {
  testing::TempDir tmp;
  const std::string whole = tmp.file("whole.lbl"), part = tmp.file("part.lbl");
  label_positions(whole, small_options(10, 1));
  const LabelProgress first = label_positions(part, small_options(4, 2));
  EXPECT_EQ(first.games_done, 4);
  // An interrupted writer: half of the next game's first record.
  {
    std::ofstream out(part, std::ios::binary | std::ios::app);
    out << std::string(20, 'z');
  }
  const LabelProgress second = label_positions(part, small_options(10, 1));
  EXPECT_EQ(second.games_done, 10);
  EXPECT_EQ(second.new_games, 6);
  EXPECT_EQ(read_bytes(part), read_bytes(whole));
  // Nothing left to do.
  const LabelProgress third = label_positions(part, small_options(10, 2));
  EXPECT_EQ(third.new_games, 0);
  EXPECT_EQ(read_bytes(part), read_bytes(whole));

  // Another option is refused, naming it; the file is unchanged.
  LabelOptions changed = small_options(12, 1);
  changed.explore = 0.3;
  const std::string e = error_of([&] { label_positions(part, changed); });
  EXPECT_NE(e.find("explore '0.2'"), std::string::npos) << e;
  EXPECT_NE(e.find("'0.3'"), std::string::npos) << e;
  EXPECT_EQ(read_bytes(part), read_bytes(whole));
}

TEST(Labeler, CandidatesAddRandomLegalResultsToTheSameGames) {
  testing::TempDir tmp;
  const LabelOptions plain = small_options(6, 1);
  LabelOptions more = plain;
  more.candidates = 0.1;
  label_positions(tmp.file("plain.lbl"), plain);
  label_positions(tmp.file("more.lbl"), more);
  const LabelFile a = read_label_file(tmp.file("plain.lbl")),
                  b = read_label_file(tmp.file("more.lbl"));
  EXPECT_EQ(b.header.get("candidates"), "0.1");
  ASSERT_GT(b.records.size(), a.records.size() + 10);  // ~9 more a game
  // The same games (own stream for candidates): every on-policy record is still there, in order.
  size_t j = 0;
  for (const auto& r : b.records)
    if (j < a.records.size() && r.position == a.records[j].position) ++j;
  EXPECT_EQ(j, a.records.size());
}

// Records of each game, keyed by game number.
std::map<uint32_t, std::vector<Position>> positions_by_game(const LabelFile& f) {
  std::map<uint32_t, std::vector<Position>> games;
  for (const auto& r : f.records) games[r.game].push_back(r.position);
  return games;
}

TEST(Labeler, TopKeepsTheRollsBestResultsByTheLabelersZeroPly) {
  testing::TempDir tmp;
  // The player is the labeler's net at 0-ply: every turn's best result is the move it plays,
  // so with every position and every turn kept, each turn's top-1 record is the next record.
  LabelOptions o = small_options(2, 1);
  o.players = players("net:" + search_net());
  o.explore = 0;
  o.sample = 1;
  o.candidates = 1;
  o.top = 1;
  label_positions(tmp.file("top1.lbl"), o);
  const LabelFile f = read_label_file(tmp.file("top1.lbl"));
  EXPECT_EQ(f.header.get("top"), "1");
  int pairs = 0;
  for (const auto& [g, positions] : positions_by_game(f)) {
    ASSERT_GE(positions.size(), 20u);
    for (size_t i = 1; i + 1 < positions.size(); i += 2, ++pairs)
      ASSERT_EQ(positions[i], positions[i + 1]) << "game " << g << " record " << i;
  }
  EXPECT_GT(pairs, 40);
  // Top 3 on a fifth of the turns: the same games, with up to 3 extra records on those turns.
  LabelOptions plain = small_options(6, 1), top3 = plain;
  top3.candidates = 0.2;
  top3.top = 3;
  label_positions(tmp.file("plain.lbl"), plain);
  label_positions(tmp.file("top3.lbl"), top3);
  const LabelFile a = read_label_file(tmp.file("plain.lbl")),
                  b = read_label_file(tmp.file("top3.lbl"));
  EXPECT_GT(b.records.size(), a.records.size() + 30);
  size_t j = 0;
  for (const auto& r : b.records)
    if (j < a.records.size() && r.position == a.records[j].position) ++j;
  EXPECT_EQ(j, a.records.size());
  // A turn's best results are one group: its first record, then siblings (kind 2).
  int siblings = 0;
  for (size_t i = 0; i < b.records.size(); ++i) {
    if (!b.records[i].sibling) continue;
    ++siblings;
    ASSERT_GT(i, 0u);
    EXPECT_EQ(b.records[i - 1].game, b.records[i].game);
  }
  EXPECT_GT(siblings, 10);
  for (const auto& r : f.records) EXPECT_FALSE(r.sibling);  // top 1: groups of one
  // The plain file's header has no top key; the options that cannot rank are refused.
  EXPECT_EQ(a.header.get("top"), "");
  top3.rollouts = 4;
  EXPECT_NE(error_of([&] { label_positions(tmp.file("bad.lbl"), top3); }).find("top"),
            std::string::npos);
  top3.rollouts = 0;
  top3.candidates = 0;
  EXPECT_NE(error_of([&] { label_positions(tmp.file("bad.lbl"), top3); }).find("candidates"),
            std::string::npos);
}

TEST(Labeler, PlayerListDrawsEachSidesAgentPerGame) {
  testing::TempDir tmp;
  LabelOptions o = small_options(16, 2);
  o.explore = 0;
  o.sample = 0.3;
  auto labelled = [&](const std::string& player) {
    o.players = players(player);
    const std::string path = tmp.file(std::to_string(std::hash<std::string>{}(player)) + ".lbl");
    label_positions(path, o);
    return read_label_file(path);
  };
  const LabelFile heuristic = labelled("heuristic"), random = labelled("random"),
                  twice = labelled("heuristic,heuristic"), mixed = labelled("random,heuristic");
  EXPECT_EQ(mixed.header.get("player"), "random,heuristic");
  // The draw has its own stream: a list of one agent gives that agent's records.
  ASSERT_EQ(twice.records.size(), heuristic.records.size());
  for (size_t i = 0; i < twice.records.size(); ++i)
    EXPECT_EQ(twice.records[i].position, heuristic.records[i].position) << i;
  // Each mixed game is the same game of the all-heuristic or all-random file when both sides
  // drew that agent (same dice and sampling), and neither when the sides differ.
  const auto h = positions_by_game(heuristic), r = positions_by_game(random),
             m = positions_by_game(mixed);
  int as_heuristic = 0, as_random = 0, neither = 0;
  for (const auto& [g, positions] : m) {
    if (h.count(g) && h.at(g) == positions)
      ++as_heuristic;
    else if (r.count(g) && r.at(g) == positions)
      ++as_random;
    else
      ++neither;
  }
  EXPECT_GT(as_heuristic, 0);
  EXPECT_GT(as_random, 0);
  EXPECT_GT(neither, 0);
  // A bad list names its problem.
  EXPECT_NE(error_of([&] { players("heuristic,,random"); }).find("empty agent spec"),
            std::string::npos);
  EXPECT_NE(error_of([&] { players("heuristic,nonsense"); }).find("nonsense"), std::string::npos);
  o.players.clear();
  EXPECT_NE(error_of([&] { label_positions(tmp.file("bad.lbl"), o); }).find("no player agents"),
            std::string::npos);
  EXPECT_FALSE(fs::exists(tmp.file("bad.lbl")));
}

TEST(Labeler, RolloutTargets) {
  testing::TempDir tmp;
  LabelOptions o = small_options(2, 1);
  o.sample = 0.03;
  o.labeler = parse_agent_spec("heuristic");
  o.rollouts = 6;
  label_positions(tmp.file("r.lbl"), o);
  const LabelFile f = read_label_file(tmp.file("r.lbl"));
  ASSERT_FALSE(f.records.empty());
  for (const auto& r : f.records) {
    if (table_evaluation(default_bearoff_table(), r.position, Rules{})) continue;  // exact
    EXPECT_EQ(r.source, static_cast<uint8_t>(LabelSource::Rollout));
    EXPECT_EQ(check_label_target(r.target), "");
  }
}

TEST(Labeler, RolloutTargetsWithALuckHead) {
  testing::TempDir tmp;
  LabelOptions o = small_options(2, 1);
  o.sample = 0.03;
  o.labeler = parse_agent_spec("net:" + search_net());  // 0-ply rollouts
  o.rollouts = 6;
  const std::string exact = tmp.file("exact.lbl"), head = tmp.file("head.lbl");
  label_positions(exact, o);
  o.luck_head = std::make_shared<LuckHead>(
      LuckHead::load(std::string(NARDY_SOURCE_DIR) + "/tests/data/search_net.luck"));
  label_positions(head, o);
  const LabelFile a = read_label_file(exact), b = read_label_file(head);
  // The same positions, other targets; the head is named in the header.
  ASSERT_EQ(a.records.size(), b.records.size());
  ASSERT_FALSE(a.records.empty());
  int differ = 0;
  for (size_t i = 0; i < a.records.size(); ++i) {
    EXPECT_EQ(a.records[i].position, b.records[i].position);
    EXPECT_EQ(check_label_target(b.records[i].target), "");
    differ += a.records[i].target.win != b.records[i].target.win;
  }
  EXPECT_GT(differ, 0);
  EXPECT_EQ(label_header(o).fields.back(),
            (std::pair<std::string, std::string>{"luck", o.luck_head->describe()}));
  // Continuing the head's file with exact luck is refused: another header.
  o.luck_head = nullptr;
  o.games = 3;
  EXPECT_THROW(label_positions(head, o), Error);
}

TEST(Labeler, BadOptionsAreRefused) {
  testing::TempDir tmp;
  LabelOptions o = small_options(2, 1);
  o.labeler = parse_agent_spec("heuristic");  // no evaluator, and no rollouts
  EXPECT_NE(error_of([&] { label_positions(tmp.file("x.lbl"), o); }).find("not a net spec"),
            std::string::npos);
  o = small_options(2, 1);
  o.sample = 0;
  EXPECT_NE(error_of([&] { label_positions(tmp.file("x.lbl"), o); }).find("sample"),
            std::string::npos);
  EXPECT_NE(error_of([] { parse_agent_spec("nonsense"); }).find("unknown agent kind"),
            std::string::npos);
  EXPECT_FALSE(fs::exists(tmp.file("x.lbl")));
  write_bytes(tmp.file("y.lbl"), "not labels\n");
  EXPECT_NE(error_of([&] {
              label_positions(tmp.file("y.lbl"), small_options(2, 1));
            }).find("not a label file"),
            std::string::npos);
}

}  // namespace
}  // namespace nardy
