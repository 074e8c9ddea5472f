// Helpers shared by the subcommands and by both front ends (nardy, nardy-full).
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "core/error.h"
#include "core/file_io.h"
#include "core/file_error.h"
#include "core/printable.h"
#include "core/notation.h"
#include "core/pos_text.h"
#include "core/position_id.h"
#include "cli/command.h"

namespace nardy::cli {

CLI::Option* add_threads_option(CLI::App& cmd, int& threads, const std::string& help,
                                int max_threads) {
  return cmd.add_option("--threads", threads, help)
      ->capture_default_str()
      ->check(CLI::Range(1, max_threads));
}

CLI::Option* add_seed_option(CLI::App& cmd, uint64_t& seed, const std::string& help) {
  return cmd.add_option("--seed", seed, help)->capture_default_str();
}

CLI::Option* add_json_option(CLI::App& cmd, std::string& path, const std::string& help) {
  return cmd.add_option("--json", path, help)->type_name("FILE");
}

CLI::Option* add_hidden_option(CLI::App& cmd, std::vector<int>& hidden, const std::string& help) {
  return cmd.add_option("--hidden", hidden, help + " (widths, input side first: --hidden 64 32)")
      ->capture_default_str()
      ->expected(1, 4)
      ->check(CLI::Range(1, 4096));
}

void add_rule_option(CLI::App& cmd, std::vector<std::string>& assignments) {
  std::string help = "Rule variant KEY=VALUE (repeatable). Keys and values:";
  for (const auto& k : Rules::keys()) {
    help += "\n  " + k + ": ";
    auto vals = Rules::values_of(k);
    for (size_t i = 0; i < vals.size(); ++i)
      help += (i ? " | " : "") + vals[i] + (i == 0 ? " (default)" : "");
  }
  cmd.add_option("--rule", assignments, help)->type_name("KEY=VALUE");
}

Rules rules_from(const std::vector<std::string>& assignments) {
  Rules r;
  for (const auto& a : assignments) r.apply_assignment(a);
  return r;
}

std::string join_pos_args(const std::vector<std::string>& args, size_t n) {
  std::string s;
  for (size_t i = 0; i < n && i < args.size(); ++i) {
    std::string_view a = args[i];
    if (!a.empty() && a.front() == ' ') a.remove_prefix(1);  // see positions_not_options
    s += (i ? " " : "") + std::string(a);
  }
  return s;
}

namespace {

// A position ID (core/position_id.h) or the board part of POS text may begin with '-' (a Black
// checker on point 1; a fifth of all IDs), which CLI11 would take for an option. Such
// arguments, when they are no option of the command and read as a position (a valid ID, or
// 24 comma-separated counts), get a leading space that keeps CLI11 from reading them as an
// option; join_pos_args removes it. `--` before the positional arguments works as well.
std::vector<std::string> positions_not_options(CLI::App& app, int argc, char** argv) {
  std::vector<std::string> args(argv, argv + argc);
  CLI::App* cmd = nullptr;
  for (CLI::App* sub : app.get_subcommands({}))
    if (argc > 1 && sub->check_name(args[1])) cmd = sub;
  for (size_t i = 2; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--") break;
    if (a.size() < 2 || a[0] != '-') continue;
    if (cmd && cmd->get_option_no_throw(a.substr(0, a.find('='))) != nullptr) continue;
    bool position = std::count(a.begin(), a.end(), ',') >= 23;
    if (!position && a.size() == 14) {
      try {
        parse_position_id(a);
        position = true;
      } catch (const Error&) {
      }
    }
    if (position) args[i] = " " + a;
  }
  return args;
}

}  // namespace

PosDiceArgs parse_pos_dice_args(const std::string& cmd, const std::vector<std::string>& args) {
  if (args.size() != 3 && args.size() != 4)
    throw Error(cmd + ": expected POS (or a position ID) D1 D2, got " +
                std::to_string(args.size()) + " arguments");
  const size_t npos = args.size() - 2;
  PosDiceArgs out;
  out.pos = parse_position(join_pos_args(args, npos));
  try {
    out.dice = make_dice(parse_die(args[npos]), parse_die(args[npos + 1]));
  } catch (const Error& e) {
    throw Error(cmd + ": " + e.what());
  }
  return out;
}

void write_output_file(const std::string& cmd, const std::string& kind, const std::string& path,
                       const std::string& text) {
  try {
    write_file_atomic(path, text, kind + " file");
  } catch (const Error& e) {
    throw Error(cmd + ": " + e.what());
  }
}

const char* kAppDescription =
    "nardy — Long Nardy engine, self-play trainer and analysis tools.\n"
    "Positions are POS text: 24 comma-separated counts for points 1..24 (White positive,\n"
    "Black negative), a space, and w or b for the side to move (quote it as one argument).\n"
    "Positions (IDs or POS) that begin with '-' are taken as positions, not options; `--`\n"
    "also ends the options (nardy show -- -_PAAAw__BAAAA).";

namespace {
std::vector<std::string> recorded_arguments;
}

const std::vector<std::string>& command_arguments() {
  return recorded_arguments;
}

int run_app(CLI::App& app, int argc, char** argv) {
  recorded_arguments.assign(argv + std::min(argc, 1), argv + argc);
  try {
    std::vector<std::string> args = positions_not_options(app, argc, argv);
    std::reverse(args.begin(), args.end());  // CLI11 takes them last first
    args.pop_back();                         // the program name
    app.parse(args);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {  // --version: the text on stdout, status 0
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    // CLI11 echoes the arguments it rejects: printable, as every message (core/printable.h).
    app.exit(CLI::ParseError(printable_message(e.what()), e.get_exit_code()));
    return 2;
  } catch (const std::filesystem::filesystem_error& e) {  // past the commands' own checks
    std::cerr << "nardy: " << file_error("file", e).what() << "\n";
    return 2;
  } catch (const std::exception& e) {  // nardy::Error and anything else: message, status 2
    std::cerr << "nardy: " << printable_message(e.what()) << "\n";
    return 2;
  }
  return 0;
}

}  // namespace nardy::cli
