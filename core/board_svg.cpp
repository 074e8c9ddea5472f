#include "core/board_svg.h"

#include <cstdio>
#include <string>

namespace nardy {
namespace {

// Geometry in viewBox units.
constexpr double kMargin = 20, kCol = 50, kBar = 20, kTrayGap = 10, kTray = 70;
constexpr double kTop = 40, kBottom = 480, kRowDepth = 200, kRadius = 22;
constexpr double kBoardRight = kMargin + 12 * kCol + kBar;
constexpr double kWidth = kBoardRight + kTrayGap + kTray + kMargin;
constexpr double kHeight = 530;

struct Xy {
  double x, y;
};

bool top_row(int point) {
  return point >= 13;
}
int column(int point) {
  return top_row(point) ? point - 13 : 12 - point;
}
double column_x(int point) {
  int i = column(point);
  return kMargin + i * kCol + kCol / 2 + (i >= 6 ? kBar : 0);
}
// Centre of the k-th checker (0 at the edge) on a point.
Xy checker_xy(int point, int k) {
  double x = column_x(point);
  return top_row(point) ? Xy{x, kTop + kRadius + k * 2 * kRadius}
                        : Xy{x, kBottom - kRadius - k * 2 * kRadius};
}
// White bears off into the lower tray (its home is bottom right), Black into the upper one.
Xy tray_xy(Side s) {
  double x = kBoardRight + kTrayGap + kTray / 2;
  return s == Side::White ? Xy{x, kBottom - kRowDepth / 2} : Xy{x, kTop + kRowDepth / 2};
}

std::string fmt(const char* f, double a, double b) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, a, b);
  return buf;
}

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

std::string escape(const std::string& s) {
  std::string o;
  for (char c : s) {
    if (c == '<')
      o += "&lt;";
    else if (c == '>')
      o += "&gt;";
    else if (c == '&')
      o += "&amp;";
    else
      o += c;
  }
  return o;
}

}  // namespace

std::string board_svg(const Position& pos, const BoardSvgOptions& options) {
  const double extra = options.title.empty() ? 0 : 24;
  const double height = kHeight + extra;
  std::string s;
  s += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + std::to_string(options.width_px) +
       "\" height=\"" + std::to_string(static_cast<int>(options.width_px * height / kWidth)) +
       "\" viewBox=\"0 " + num(-extra) + " " + num(kWidth) + " " + num(height) +
       "\" font-family=\"DejaVu Sans, Arial, sans-serif\">\n";
  s += "<defs><marker id=\"arrowhead\" markerWidth=\"8\" markerHeight=\"8\" refX=\"6\" refY=\"4\" "
       "orient=\"auto\">"
       "<path d=\"M0,0 L8,4 L0,8 z\" fill=\"#d62728\"/></marker></defs>\n";
  if (!options.title.empty())
    s += "<text x=\"" + num(kWidth / 2) + "\" y=\"-6\" font-size=\"18\" text-anchor=\"middle\">" +
         escape(options.title) + "</text>\n";
  // Board, bar and tray.
  s += "<rect x=\"0\" y=\"0\" width=\"" + num(kWidth) + "\" height=\"" + num(kHeight) +
       "\" fill=\"#5a3d1e\"/>\n";
  s += "<rect x=\"" + num(kMargin) + "\" y=\"" + num(kTop) + "\" width=\"" + num(12 * kCol + kBar) +
       "\" height=\"" + num(kBottom - kTop) + "\" fill=\"#e9d8b4\"/>\n";
  s += "<rect x=\"" + num(kMargin + 6 * kCol) + "\" y=\"" + num(kTop) + "\" width=\"" + num(kBar) +
       "\" height=\"" + num(kBottom - kTop) + "\" fill=\"#5a3d1e\"/>\n";
  for (Side side : {Side::White, Side::Black}) {
    Xy t = tray_xy(side);
    s += "<rect x=\"" + num(t.x - kTray / 2) + "\" y=\"" + num(t.y - kRowDepth / 2) +
         "\" width=\"" + num(kTray) + "\" height=\"" + num(kRowDepth) +
         "\" fill=\"#e9d8b4\" stroke=\"#3b2812\"/>\n";
    int off = pos.off(side);
    for (int i = 0; i < off; ++i) {
      double y =
          side == Side::White ? t.y + kRowDepth / 2 - 8 - i * 12 : t.y - kRowDepth / 2 + 2 + i * 12;
      s += "<rect x=\"" + num(t.x - 25) + "\" y=\"" + num(y) +
           "\" width=\"50\" height=\"9\" rx=\"2\" fill=\"" +
           (side == Side::White ? "#f8f8f0" : "#222222") + "\" stroke=\"#333\"/>\n";
    }
    s += "<text x=\"" + num(t.x) + "\" y=\"" +
         num(side == Side::White ? t.y - kRowDepth / 2 - 4 : t.y + kRowDepth / 2 + 16) +
         "\" font-size=\"14\" fill=\"#f0e6d0\" text-anchor=\"middle\">off " + std::to_string(off) +
         "</text>\n";
  }
  // Points: triangles and numbers.
  for (int p = 1; p <= kNumPoints; ++p) {
    double x = column_x(p);
    bool top = top_row(p);
    double base = top ? kTop : kBottom, tip = top ? kTop + kRowDepth : kBottom - kRowDepth;
    const char* colour = (column(p) % 2 == 0) ? "#b5834a" : "#7a4a22";
    s += "<polygon points=\"" + fmt("%.1f,%.1f", x - kCol / 2 + 2, base) + " " +
         fmt("%.1f,%.1f", x + kCol / 2 - 2, base) + " " + fmt("%.1f,%.1f", x, tip) + "\" fill=\"" +
         colour + "\"/>\n";
    s += "<text x=\"" + num(x) + "\" y=\"" + num(top ? kTop - 8 : kBottom + 20) +
         "\" font-size=\"14\" fill=\"#f0e6d0\" text-anchor=\"middle\">" + std::to_string(p) +
         "</text>\n";
  }
  // Checkers.
  for (int p = 1; p <= kNumPoints; ++p) {
    int v = pos.at_point(p);
    if (v == 0) continue;
    int n = v > 0 ? v : -v;
    bool white = v > 0;
    int shown = n > 5 ? 5 : n;
    for (int k = 0; k < shown; ++k) {
      Xy c = checker_xy(p, k);
      s += "<circle cx=\"" + num(c.x) + "\" cy=\"" + num(c.y) + "\" r=\"" + num(kRadius - 1) +
           "\" fill=\"" + (white ? "#f8f8f0" : "#222222") + "\" stroke=\"" +
           (white ? "#333333" : "#000000") + "\" stroke-width=\"1.5\"/>\n";
    }
    if (n > 5) {
      Xy c = checker_xy(p, 4);
      s += "<text x=\"" + num(c.x) + "\" y=\"" + num(c.y + 6) +
           "\" font-size=\"17\" font-weight=\"bold\" fill=\"" + (white ? "#222222" : "#f8f8f0") +
           "\" text-anchor=\"middle\">" + std::to_string(n) + "</text>\n";
    }
  }
  // Arrows for a move: from the top checker of the source to the destination (or the tray).
  const Side mover_of_arrows = pos.side_to_move();
  for (const PathMove& m : options.arrows) {
    if (m.from < 1 || m.from > kNumPoints || m.to < 0 || m.to > kNumPoints) continue;
    auto point_mid = [](int p) {
      return Xy{column_x(p), top_row(p) ? kTop + kRowDepth * 0.55 : kBottom - kRowDepth * 0.55};
    };
    Xy a = point_mid(m.from);
    // A move shown on the position after it was played belongs to the side that is not to move
    // now; one shown before it, to the side to move. The tray is chosen from the source point.
    Side owner = pos.at_point(m.from) > 0   ? Side::White
                 : pos.at_point(m.from) < 0 ? Side::Black
                                            : ~mover_of_arrows;
    Xy b = m.to == 0 ? tray_xy(owner) : point_mid(m.to);
    s += "<line x1=\"" + num(a.x) + "\" y1=\"" + num(a.y) + "\" x2=\"" + num(b.x) + "\" y2=\"" +
         num(b.y) +
         "\" stroke=\"#d62728\" stroke-width=\"4\" stroke-opacity=\"0.85\" "
         "marker-end=\"url(#arrowhead)\"/>\n";
  }
  // Caption.
  char cap[200];
  std::snprintf(cap, sizeof cap,
                "White: pips %d, off %d, head %d    Black: pips %d, off %d, head %d    %s to move",
                pos.pips(Side::White), pos.off(Side::White), pos.on_head(Side::White),
                pos.pips(Side::Black), pos.off(Side::Black), pos.on_head(Side::Black),
                pos.side_to_move() == Side::White ? "White" : "Black");
  s += "<text x=\"" + num(kMargin) + "\" y=\"" + num(kHeight - 12) +
       "\" font-size=\"15\" fill=\"#f0e6d0\">" + cap + "</text>\n";
  s += "</svg>\n";
  return s;
}

}  // namespace nardy
