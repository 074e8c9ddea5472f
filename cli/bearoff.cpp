// `nardy bearoff build [--points N] [--out FILE]` and `nardy bearoff show FILE|POS`: the exact race
// tables (selfplay/tables/bearoff_table.h). Torch-free: the light front end runs it itself.
#include <chrono>
#include <cstdio>
#include <iostream>

#include "cli/command.h"
#include "core/error.h"
#include "core/pos_text.h"
#include "selfplay/tables/bearoff_table.h"
#include "selfplay/tables/race.h"
#include "selfplay/tables/race_odds.h"

namespace nardy::cli {

void add_bearoff_command(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "bearoff",
      "Exact race tables: for every arrangement of up to 15 checkers on a side's last N points,\n"
      "the distributions of turns to bear off all and to bear off the first checker (for mars).");
  cmd->require_subcommand(1);

  struct BuildArgs {
    int points = 8;
    std::string out = "bearoff.nbt";
    bool quiet = false;
  };
  auto b = std::make_shared<BuildArgs>();
  auto* build = cmd->add_subcommand("build", "Compute a table and write it to --out");
  build->add_option("--points", b->points, "Last N points of the route covered (6..12)")
      ->capture_default_str()
      ->check(CLI::Range(1, kMaxBearoffPoints));
  build->add_option("--out", b->out, "Output file")->capture_default_str();
  build->add_flag("--quiet", b->quiet, "No progress on stderr");
  build->callback([b] {
    const auto t0 = std::chrono::steady_clock::now();
    int last = -1;
    const BearoffTable table = BearoffTable::build(b->points, [&](double f) {
      const int pct = static_cast<int>(f * 100);
      if (!b->quiet && pct != last) std::fprintf(stderr, "\rbuilding: %3d%%", last = pct);
    });
    if (!b->quiet) std::fprintf(stderr, "\n");
    table.save(b->out);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("wrote %s: %d points, %u positions, checksum %08x, %.1f s\n", b->out.c_str(),
                table.points(), table.size(), table.checksum(), s);
  });

  struct OddsArgs {
    std::vector<std::string> positional, rules;
    std::string table;
  };
  auto o = std::make_shared<OddsArgs>();
  auto* odds = cmd->add_subcommand(
      "odds", "Exact win/mars odds of a race POS for the side to move, from the table");
  odds->add_option("pos", o->positional, "POS (quoted as one argument, or as two) or a position ID")
      ->required()
      ->allow_extra_args();
  odds->add_option("--table", o->table,
                   "Table file (default: $NARDY_BEAROFF, else the build's bearoff.nbt)");
  add_rule_option(*odds, o->rules);
  odds->callback([o] {
    const Rules rules = rules_from(o->rules);
    const Position pos = parse_position(join_pos_args(o->positional, o->positional.size()));
    std::optional<BearoffTable> own;
    const BearoffTable* table = nullptr;
    if (!o->table.empty()) {
      own = BearoffTable::load(o->table);
      table = &*own;
    } else {
      table = default_bearoff_table();
      if (!table)
        throw Error("bearoff odds: no table at '" + default_bearoff_path() +
                    "' (build one with `nardy bearoff build`, or pass --table)");
    }
    if (!is_race(pos)) throw Error("bearoff odds: '" + format_pos(pos) + "' is not a race");
    const auto r = race_odds(*table, pos, rules);
    if (!r)
      throw Error("bearoff odds: '" + format_pos(pos) + "' has checkers beyond the table's " +
                  std::to_string(table->points()) + " points");
    const Side me = pos.side_to_move();
    const auto ta = table->finish(*table->index_of(pos, me));
    const auto tb = table->finish(*table->index_of(pos, ~me));
    std::printf(
        "exact (%d-point table)  win=%.6f win_mars=%.6f lose_mars=%.6f draw=%.6f equity=%+.6f\n"
        "expected turns to finish: side to move %.4f, opponent %.4f\n",
        table->points(), r->win, r->win_mars, r->lose_mars, r->draw, r->equity(), ta.mean(),
        tb.mean());
  });
}

}  // namespace nardy::cli
