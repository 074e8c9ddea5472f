// selfplay/evaluation/review_strings.h — the words of the review reports in the players'
// languages (`nardy review --lang CODE`, Review.to_text(lang=...), Review.to_html(lang=...)).
//
// Each language is one table of key -> text (review_strings.cpp), English the reference: every
// language has exactly English's keys, and each text the same "{name}" placeholders as the
// English one (tests/selfplay/evaluation/review_strings_test.cpp). The texts use the game's own
// words: Russian ойн / марс for a single win / a mars, Azerbaijani and Turkish oyun / mars, and
// so on. What is data stays as it is in every language: move notation, the rules' key=value
// text, the JSON report (its mark, band and phase names are English keys), and numbers (with a
// decimal point).
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/game.h"
#include "selfplay/evaluation/review.h"

namespace nardy {

class ReviewStrings {
 public:
  using Table = std::vector<std::pair<std::string_view, std::string_view>>;
  using Args = std::initializer_list<std::pair<std::string_view, std::string>>;

  ReviewStrings(std::string_view code, const Table& table);

  std::string_view code() const { return code_; }
  // The language's own name ("Русский").
  std::string_view name() const { return get("language"); }
  // The text of `key` with its "{name}" placeholders replaced by `args` (a placeholder without
  // an argument stays as it is). Throws Error for a key the table does not have.
  std::string operator()(std::string_view key, Args args = {}) const;
  std::string_view get(std::string_view key) const;

  // The words for the review's names of things (mark_name, rating_band, phase_name, sides).
  std::string mark(Mark m) const;  // "" for Mark::None
  std::string band(double rating) const;
  std::string phase(Phase p) const;
  std::string side(Side s) const;         // "White"
  std::string side_letter(Side s) const;  // "W"
  std::string outcome(const Outcome& o) const;
  // A review's method ("2-ply expectimax search", "rollouts (N trials per move, stratified
  // dice)") in this language; unknown methods as they are.
  std::string method(const std::string& method) const;

 private:
  std::string_view code_;
  const Table* table_;
};

// The strings of language `code` ("en", "ru", "uk", "az", "tr"). Throws Error naming the code
// and listing the known ones for any other.
const ReviewStrings& review_strings(std::string_view code);
// Every language code, English first.
const std::vector<std::string_view>& review_languages();
// "en (English), ru (Русский), ..." for help texts and errors.
std::string review_languages_list();
// The table of language `code` in its order (for tests).
const ReviewStrings::Table& review_string_table(std::string_view code);

// The text report (Review::to_text in English) in the language of `strings`; `summary_only`:
// the first line and the summary, as `nardy review --quiet` prints.
std::string review_text(const Review& review, const ReviewStrings& strings,
                        bool summary_only = false);

// Display width of UTF-8 text (code points; the report's scripts have no double-width
// characters) and padding to a width, for the text report's columns.
size_t text_width(std::string_view s);
std::string pad_right(std::string_view s, size_t width);
std::string pad_left(std::string_view s, size_t width);
// The first `width` code points of `s`.
std::string clip(std::string_view s, size_t width);

}  // namespace nardy
