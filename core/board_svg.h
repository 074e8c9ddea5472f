// core/board_svg.h — an SVG picture of a position.
//
// Layout matches `nardy show`: the top row holds points 13..24 from left to right, the bottom
// row points 12..1, so White's head (24) is top right and its home (1..6) bottom right; Black's
// head (12) is bottom left and its home (13..18) top left. Each point is a triangle numbered at
// the board's edge; checkers stack from the edge (at most five drawn, the count written on the
// last one when there are more). A tray at the right shows borne-off counts; a caption gives
// pip counts, head counts and the side to move. Optional arrows draw a move (e.g. the last
// one), bearing off pointing into the tray. The SVG is self-contained (no external fonts or
// scripts) and scales with its viewBox.
#pragma once

#include <string>
#include <vector>

#include "core/notation.h"
#include "core/position.h"

namespace nardy {

struct BoardSvgOptions {
  int width_px = 640;            // rendered width; height follows the aspect ratio
  std::vector<PathMove> arrows;  // paths in absolute points (to == 0: off) to draw
  std::string title;             // optional caption line above the board
};

std::string board_svg(const Position& pos, const BoardSvgOptions& options = {});

}  // namespace nardy
