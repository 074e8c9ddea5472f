// cli/command.h — how subcommands of the `nardy` tool plug into main.
//
// Each subcommand lives in its own file cli/<cmd>.cpp and exposes one function that
// adds a CLI11 subcommand and sets its callback. Callbacks do argument checking and printing
// only; the work is library code that Python calls too. Errors are nardy::Error: main prints
// the message to stderr and exits with 2.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/position.h"
#include "core/rules.h"
#include "core/types.h"
#include "selfplay/agents/agent.h"
#include "selfplay/distributed/world.h"

namespace nardy {
class LuckHead;
}

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
// `bench kernels` (cli/bench_kernels.cpp), added the same way.
void add_bench_kernels_command(CLI::App& bench);
void add_eval_command(CLI::App& app);
void add_analyze_command(CLI::App& app);
// `review RECORD` (cli/review.cpp): a whole game or match scored turn by turn.
void add_review_command(CLI::App& app);
// `convert IN OUT` (cli/convert.cpp): nardy records to .mat files and back.
void add_convert_command(CLI::App& app);
void add_rollout_command(CLI::App& app);
void add_tournament_command(CLI::App& app);
void add_engine_command(CLI::App& app);
void add_serve_command(CLI::App& app);
void add_match_command(CLI::App& app);
void add_play_command(CLI::App& app);
// `label` and `fit` (cli/label.cpp, cli/fit.cpp): supervised training data and fitting.
void add_label_command(CLI::App& app);
void add_fit_command(CLI::App& app);

// The ranks this process runs with: torchrun's environment (selfplay/distributed/world_env.h),
// or a single process without it. Made on first use (the rendezvous with the other ranks);
// nardy-full only (cli/world.cpp). Commands that split their work (train, eval, tournament,
// rollout, bench train) print and write files on rank 0 only. Every rank must have been started
// with the same arguments (require_same_command; run_app records them).
World& process_world();

// The options several subcommands share, defined once: name, help, default shown in --help
// and the accepted range. `help` says what the number means for that command.
//   --games N   games to play, 1..10^12 (or min_games..10^12)
//   --threads T worker threads, 1..max_threads (results never depend on it)
//   --seed S    the seed of every random stream of the command, 0..2^64-1
//   --json FILE also write the result as JSON to FILE (write_output_file)
inline constexpr int64_t kMaxGames = int64_t{1} << 40;
template <class Int>
CLI::Option* add_games_option(CLI::App& cmd, Int& games, const std::string& help,
                              Int min_games = 1) {
  return cmd.add_option("--games", games, help)
      ->capture_default_str()
      ->check(CLI::Range(static_cast<int64_t>(min_games), kMaxGames));
}
CLI::Option* add_threads_option(CLI::App& cmd, int& threads, const std::string& help,
                                int max_threads = 1024);
CLI::Option* add_seed_option(CLI::App& cmd, uint64_t& seed, const std::string& help = "Seed");
CLI::Option* add_json_option(CLI::App& cmd, std::string& path, const std::string& help);
// `--hidden W...`: hidden layer widths, input side first (1 to 4 layers of 1..4096 units, as
// nn/value_net.h allows; its hidden_name() writes them as "64-32").
CLI::Option* add_hidden_option(CLI::App& cmd, std::vector<int>& hidden, const std::string& help);
// `bearoff build|odds` (cli/bearoff.cpp; torch-free, run by both front ends).
void add_bearoff_command(CLI::App& app);
// `benchmark AGENT` and `benchmark build` (cli/benchmark.cpp).
void add_benchmark_command(CLI::App& app);
// `luck fit` (cli/luck.cpp).
void add_luck_command(CLI::App& app);
// --luck-head FILE and --exact-luck (each excluding the other) of a command that rolls out;
// `whose` names the checkpoint whose NAME.luck is the default ("the luck net's").
void add_luck_head_options(CLI::App& cmd, std::string& file, bool& exact, const std::string& whose);
// The luck head of a command that rolls out with `agent` (rollout, label): the file given
// (--luck-head), else default_luck_head(agent, luck_net, rules) (selfplay/evaluation/
// luck_head.h); the error for a damaged default head says how to do without it (--exact-luck).
std::shared_ptr<const LuckHead> luck_head_option(const std::string& file, const std::string& agent,
                                                 const std::string& luck_net, const Rules& rules);
// The checkpoint path of a NET argument: a path, or a spec naming a net (net:PATH, model:NAME,
// default). Throws Error "CMD: ..." for any other spec.
std::string checkpoint_of_net_arg(const std::string& cmd, const std::string& arg);

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

// --agent SPEC of the commands that play or analyse with one agent (analyze, engine, play,
// serve; cli/default_agent.cpp): default `default`, the shipped model. check_agent_available
// throws Error "CMD: the default agent is the shipped model ..., which is missing ..." with
// what to do when --agent was not given and the model file cannot be found.
CLI::Option* add_agent_option(CLI::App& cmd, std::string& spec, const std::string& help);
void check_agent_available(const std::string& cmd_name, const CLI::App& cmd,
                           const std::string& spec);

// The tool's description (top of --help) and the common parse/dispatch: CLI11 help exits 0,
// argument errors and nardy::Error print a message and give status 2.
extern const char* kAppDescription;
int run_app(CLI::App& app, int argc, char** argv);
// The arguments run_app was given, without the program's path.
const std::vector<std::string>& command_arguments();
// What `nardy --version` prints (cli/version.cpp; the full build only: it names the LibTorch
// version and the fast-kernel path).
std::string version_text();

}  // namespace nardy::cli
