// cli/command.h — how subcommands of the `nardy` tool plug into main.
//
// Each subcommand lives in its own file cli/<cmd>.cpp and exposes one function that
// adds a CLI11 subcommand and sets its callback. Callbacks do argument checking and printing
// only; the work is library code that Python calls too. Errors are nardy::Error: main prints
// the message to stderr and exits with 2.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "core/position.h"
#include "core/rules.h"
#include "core/types.h"
#include "selfplay/agents/agent.h"

namespace nardy::cli {

void add_legal_command(CLI::App& app);
void add_show_command(CLI::App& app);
// `selfplay` with the agents `make_agent` knows (all kinds in nardy-full, the torch-free ones
// in the light front end).
void add_selfplay_command(CLI::App& app, AgentBySpec make_agent);
void add_bench_command(CLI::App& app);
void add_train_command(CLI::App& app);
// `bench train`, added to the `bench` subcommand by add_bench_command.
void add_bench_train_command(CLI::App& bench);
// `bench search` (cli/bench_search.cpp), added the same way.
void add_bench_search_command(CLI::App& bench);
void add_eval_command(CLI::App& app);
void add_analyze_command(CLI::App& app);
void add_rollout_command(CLI::App& app);
void add_tournament_command(CLI::App& app);
void add_engine_command(CLI::App& app);
void add_serve_command(CLI::App& app);
// `bearoff build|odds` (cli/bearoff.cpp; torch-free, run by both front ends).
void add_bearoff_command(CLI::App& app);
// `benchmark AGENT` and `benchmark build` (cli/benchmark.cpp).
void add_benchmark_command(CLI::App& app);

// Adds the repeated `--rule KEY=VALUE` option; the result is read with rules_from().
void add_rule_option(CLI::App& cmd, std::vector<std::string>& assignments);
Rules rules_from(const std::vector<std::string>& assignments);

// POS arguments may arrive as one quoted argument ("... w") or as two (counts, side).
std::string join_pos_args(const std::vector<std::string>& args, size_t count_before_rest);

// The positional arguments POS D1 D2 (POS as one argument or two) of subcommand `cmd`. Throws
// Error "CMD: ..." for a wrong count or a die that is not 1..6, and parse_pos's Error for a bad
// POS.
struct PosDiceArgs {
  Position pos;
  Dice dice;
};
PosDiceArgs parse_pos_dice_args(const std::string& cmd, const std::vector<std::string>& args);

// Writes `text` to the file at `path` (an output option of `cmd`, e.g. --json). Throws Error
// "CMD: cannot write KIND file 'PATH'" when it cannot be written.
void write_output_file(const std::string& cmd, const std::string& kind, const std::string& path,
                       const std::string& text);

// The tool's description (top of --help) and the common parse/dispatch: CLI11 help exits 0,
// argument errors and nardy::Error print a message and give status 2.
extern const char* kAppDescription;
int run_app(CLI::App& app, int argc, char** argv);

}  // namespace nardy::cli
