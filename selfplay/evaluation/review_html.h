// selfplay/evaluation/review_html.h — a review as one self-contained HTML page (`nardy review
// --html FILE`).
//
// The page holds, with no external file, font or script: the summary table of both players
// (error, rating, marks, luck, by phase), an SVG graph of player 0's equity after every turn
// over the whole record (the played result's value; games separated by vertical lines, marked
// turns drawn as coloured dots that link to their diagrams), every turn in a table, and for
// every marked turn two SVG boards of the position before it (core/board_svg.h): the move played
// and the best move, each drawn as arrows, with the ranked alternatives. `lang`: the page's
// language (selfplay/evaluation/review_strings.h: "en", "ru", "uk", "az", "tr"; an Error listing
// them for any other).
#pragma once

#include <string>
#include <string_view>

#include "selfplay/evaluation/review.h"

namespace nardy {

std::string review_html(const Review& review, std::string_view lang = "en");

}  // namespace nardy
