// The review reports in the players' languages (selfplay/evaluation/review_strings.h): every
// language has every key of English with the same placeholders, unknown codes are an error
// listing the known ones, and the text and HTML reports of a made-up review come out in each
// language with nothing left untranslated and the summary's columns apart.
#include "selfplay/evaluation/review_strings.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <set>
#include <sstream>

#include "core/match.h"
#include "selfplay/evaluation/review_html.h"
#include "tests/support/error_of.h"

namespace nardy {
namespace {

using testing::error_of;

// The "{name}" placeholders of a text.
std::multiset<std::string> placeholders(std::string_view text) {
  std::multiset<std::string> out;
  for (size_t i = text.find('{'); i != std::string_view::npos; i = text.find('{', i + 1)) {
    const size_t end = text.find('}', i);
    if (end == std::string_view::npos) break;
    out.insert(std::string(text.substr(i + 1, end - i - 1)));
  }
  return out;
}

TEST(ReviewStrings, EveryLanguageHasEveryKeyWithTheSamePlaceholders) {
  const ReviewStrings::Table& english = review_string_table("en");
  std::map<std::string_view, std::string_view> reference;
  for (const auto& [k, v] : english) EXPECT_TRUE(reference.emplace(k, v).second) << "en: " << k;
  ASSERT_GE(review_languages().size(), 5u);
  EXPECT_EQ(review_languages().front(), "en");
  for (std::string_view code : {"ru", "uk", "az", "tr"}) {
    const ReviewStrings::Table& table = review_string_table(code);
    std::map<std::string_view, std::string_view> seen;
    for (const auto& [k, v] : table) {
      EXPECT_TRUE(seen.emplace(k, v).second) << code << ": key " << k << " twice";
      const auto ref = reference.find(k);
      if (ref == reference.end()) {
        ADD_FAILURE() << code << ": key " << k << " is not an English key";
        continue;
      }
      EXPECT_FALSE(v.empty()) << code << ": " << k;
      EXPECT_EQ(placeholders(v), placeholders(ref->second)) << code << ": " << k << " = " << v;
    }
    for (const auto& [k, v] : reference)
      EXPECT_TRUE(seen.count(k)) << code << " has no key " << k << " (English: " << v << ")";
  }
  for (std::string_view code : review_languages()) EXPECT_EQ(review_strings(code).code(), code);
}

TEST(ReviewStrings, UnknownLanguageIsAnErrorListingTheKnownOnes) {
  const std::string e = error_of([] { review_strings("xx"); });
  EXPECT_NE(e.find("unknown language 'xx'"), std::string::npos) << e;
  for (std::string_view code : review_languages())
    EXPECT_NE(e.find(std::string(code) + " ("), std::string::npos) << e;
  EXPECT_NE(e.find("ru (Русский)"), std::string::npos) << e;
  EXPECT_NE(error_of([] { review_html(Review{}, "english"); }).find("known: en (English)"),
            std::string::npos);
}

TEST(ReviewStrings, NamesOfThingsAndMethods) {
  const ReviewStrings& ru = review_strings("ru");
  EXPECT_EQ(ru.mark(Mark::VeryBad), "очень плохой");
  EXPECT_EQ(ru.mark(Mark::None), "");
  EXPECT_EQ(ru.band(0.5), "сверхъестественный");
  EXPECT_EQ(ru.band(30), "ужасный");
  EXPECT_EQ(ru.phase(Phase::Bearoff), "выбрасывание");
  EXPECT_EQ(ru.outcome(Outcome{Side::White, 1}), "победа белых: ойн (1 очко)");
  EXPECT_EQ(ru.outcome(Outcome{Side::Black, 2}), "победа чёрных: марс (2 очка)");
  EXPECT_EQ(review_strings("az").outcome(Outcome{Side::Black, 2}),
            "qaralar qalib gəldi: mars (2 xal)");
  EXPECT_EQ(review_strings("tr").outcome(Outcome{Side::White, 1}), "beyaz kazandı: oyun (1 puan)");
  EXPECT_EQ(review_strings("en").outcome(Outcome{Side::White, 2}), "white 2");
  EXPECT_EQ(ru.method("2-ply expectimax search"), "поиск expectimax, глубина 2");
  EXPECT_EQ(ru.method("0-ply net evaluation"), "оценка нейросетью, глубина 0");
  EXPECT_EQ(review_strings("uk").method("rollouts (36 trials per move, stratified dice)"),
            "ролаути (36 партій на хід, стратифіковані кидки)");
  EXPECT_EQ(ru.method("something else"), "something else");
  EXPECT_EQ(ru("summary_game", {{"n", "2"}}), "Итоги партии 2");
  EXPECT_EQ(ru("summary_game"), "Итоги партии {n}");  // no argument: the placeholder stays
}

TEST(ReviewStrings, WidthsCountCodePoints) {
  EXPECT_EQ(text_width("ойн"), 3u);
  EXPECT_EQ(text_width("qələbə"), 6u);
  EXPECT_EQ(pad_right("марс", 6), "марс  ");
  EXPECT_EQ(pad_left("ev", 4), "  ev");
  EXPECT_EQ(clip("голова", 3), "гол");
  EXPECT_EQ(clip("baş", 8), "baş");
}

// A review of two turns made up by hand: White's opening turn (a decision, marked very bad) and
// Black's reply (forced), in a match to 3 at 0-0 that White won with a mars.
Review made_up_review() {
  Review r;
  r.agent_spec = "default";
  r.method = "1-ply expectimax search";
  r.is_match = true;
  r.target = 3;
  r.names = {"alice", "bob"};
  GameReview g;
  g.white_player = 0;
  g.score_before = MatchScore(3, 0);
  g.outcome = Outcome{Side::White, 2};
  TurnReview t;
  t.before = Position::start();
  t.dice = Dice{6, 5};
  t.phase = Phase::Opening;
  t.legal = 3;
  t.decision = true;
  t.played = {"24/18 18/13", t.before, -0.1, 0.45, 0.05, 0.06, 0, 0, 0.4, 1, false, 2};
  t.best = {"24/13", t.before, 0.2, 0.55, 0.08, 0.04, 0, 0, 0.6, 1, false, 1};
  t.alternatives = {t.best, t.played};
  t.error = 0.3;
  t.mwc_error = 0.05;
  t.mark = Mark::VeryBad;
  t.luck = 0.01;
  g.turns.push_back(t);
  TurnReview u;
  u.turn = 1;
  u.player = 1;
  u.side = Side::Black;
  u.before = Position::start();
  u.dice = Dice{2, 1};
  u.played = {"12/9", u.before, 0.1, 0.5, 0.05, 0.05, 0, 0, 0.5, 1, false, 1};
  u.best = u.played;
  u.luck = -0.02;
  g.turns.push_back(u);
  // White's 20 decisions rate 47.4 (awful), Black's 10 rate 0.0 (supernatural).
  g.players[0].all.turns = g.players[0].all.decisions = 20;
  g.players[0].all.total_error = 1.896;
  g.players[0].all.marks = {1, 2, 3};
  g.players[0].phases[0] = g.players[0].all;
  g.players[1].all.turns = g.players[1].all.decisions = 10;
  g.players[1].phases[0] = g.players[1].all;
  g.players[0].result = 2;
  g.players[1].result = -2;
  r.games.push_back(g);
  r.players = g.players;
  return r;
}

TEST(ReviewStrings, ReportsInEveryLanguage) {
  const Review r = made_up_review();
  for (std::string_view code : review_languages()) {
    const ReviewStrings& T = review_strings(code);
    const std::string text = review_text(r, T), html = review_html(r, code);
    const std::string body = html.substr(html.find("</style>"));  // after the CSS' braces
    EXPECT_EQ(text.find("{"), std::string::npos) << code << ": a placeholder left in\n" << text;
    EXPECT_EQ(body.find("{"), std::string::npos) << code << ": a placeholder left in\n" << body;
    for (const std::string* s : {&text, &html}) {
      EXPECT_NE(s->find(T.band(47.4)), std::string::npos) << code << "\n" << *s;
      EXPECT_NE(s->find(T.band(0)), std::string::npos) << code;
      EXPECT_NE(s->find(T.mark(Mark::VeryBad)), std::string::npos) << code;
      EXPECT_NE(s->find(T.outcome(Outcome{Side::White, 2})), std::string::npos) << code;
      EXPECT_NE(s->find(T.method(r.method)), std::string::npos) << code;
      EXPECT_NE(s->find("24/18 18/13"), std::string::npos) << code;
    }
    EXPECT_NE(html.find("<html lang=\"" + std::string(code) + "\">"), std::string::npos);
    // The boards' captions too (core/board_svg.cpp writes them in English).
    const std::string to_move(T.get("svg_white_to_move"));
    EXPECT_NE(html.find(to_move + "</text>"), std::string::npos) << code;
    if (code != "en") {
      EXPECT_EQ(html.find("to move"), std::string::npos) << code;
    }
    EXPECT_NE(html.find("<code>default</code>"), std::string::npos) << code;
    EXPECT_NE(text.find(T("marked_moves")), std::string::npos) << code;
    // The summary alone: its first line, the summary, no turn table and no marked moves.
    const std::string quiet = review_text(r, T, true);
    EXPECT_EQ(
        quiet.rfind(T("review_by", {{"agent", "default"}, {"method", T.method(r.method)}}), 0), 0u)
        << code;
    EXPECT_NE(quiet.find(T("summary")), std::string::npos) << code;
    EXPECT_EQ(quiet.find(T("marked_moves")), std::string::npos) << code;
    EXPECT_EQ(quiet.find("24/18 18/13"), std::string::npos) << code;
    // Every row of the summary table is as wide as the others (padded by code points).
    std::istringstream lines(quiet.substr(quiet.find('\n') + 1));
    std::string line;
    std::getline(lines, line);  // the heading
    size_t width = 0;
    while (std::getline(lines, line) && line.rfind("  (", 0) != 0) {
      if (width == 0) width = text_width(line);
      EXPECT_EQ(text_width(line), width) << code << ": " << line << "\n" << quiet;
    }
  }
  // The English report: the columns of the rating row stay apart ("47.4 awful  0.0
  // supernatural", not "47.4 awful 0.0 supernatural").
  const std::string en = r.to_text();
  EXPECT_NE(en.find("47.4 awful  "), std::string::npos) << en;
  EXPECT_EQ(en.find("awful 0.0"), std::string::npos) << en;
  EXPECT_NE(en.find("Game 1: alice (White) vs bob (Black), score alice 0 - 0 bob (to 3); result "
                    "white 2"),
            std::string::npos)
      << en;
  const std::string ru = review_text(r, review_strings("ru"));
  EXPECT_NE(
      ru.find("Партия 1: alice (белые) против bob (чёрные), счёт alice 0 - 0 bob (матч до 3); "
              "итог: победа белых: марс (2 очка)"),
      std::string::npos)
      << ru;
  EXPECT_NE(ru.find("Б alice"), std::string::npos) << ru;
  EXPECT_NE(ru.find("вынужденный"), std::string::npos) << ru;
  EXPECT_NE(review_html(r, "ru").find("Белые: пипсы 360, выброшено 0, на голове 15    Чёрные: "
                                      "пипсы 360, выброшено 0, на голове 15    ходят белые"),
            std::string::npos);
}

}  // namespace
}  // namespace nardy
